"""benchmarks.coordinate_descent runs end to end on tiny data (no timing is asserted)."""

import numpy as np
import pytest

from benchmarks import coordinate_descent as bench
from benchmarks._text import text_like, text_regression_target


@pytest.mark.parametrize("loss", ["squares", "squared_hinge"])
def test_one_case_is_timed_against_a_calibrated_peer(loss, capsys, hang_guard):
    X, labels = text_like(80, 400, words_per_document=20)
    y = text_regression_target(X) if loss == "squares" else labels
    lam = 0.1 * float(np.abs(X.T @ (2.0 * (y - y.mean()))).max())
    problem = bench.Problem(X, y, lam, loss)
    problem.ours()
    peers = (bench.lasso_peers if loss == "squares" else bench.svm2_peers)(*X.shape, lam)
    rows = bench.run_case(problem, peers[:1], repeats=2, budget=hang_guard)
    bench.print_table("tiny", rows)
    out = capsys.readouterr().out
    assert peers[0].name in out and "against the fastest peer" in out
    assert rows["ours"]["gap"] <= 1e-6
    peer = rows[peers[0].name]
    # The peer's tolerance was chosen so that its objective is as good as ours.
    assert peer["tol"] in bench.LADDER and peer["excess"] <= bench.OBJECTIVE_TOLERANCE
    assert peer["seconds"] > 0 and rows["ours"]["peak"] > 0
