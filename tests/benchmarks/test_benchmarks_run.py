"""The benchmark scripts run end to end on small data (no timing is asserted)."""

import numpy as np
import pytest

from benchmarks import bss, leverage, paths, ridge, solvers
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from sparsify.datasets import make_bhattacharyya


def test_bss_benchmark_quick(capsys):
    bss.main(["--quick", "--repeats", "1"])
    out = capsys.readouterr().out
    assert "ratio" in out and "peak memory" in out


def test_leverage_benchmark_quick(capsys):
    leverage.main(["--quick", "--repeats", "1"])
    assert "svds" in capsys.readouterr().out


def test_ridge_benchmark_on_small_data(capsys):
    ridge.sweep("small", [(40, 6), (80, 6)], [40, 80], 1)
    assert "slope" in capsys.readouterr().out


def test_solvers_benchmark_quick(capsys, hang_guard):
    results = solvers.main(["--quick", "--repeats", "1", "--budget", str(hang_guard)])
    out = capsys.readouterr().out
    assert "### Sweep in n" in out and "### Sweep in d" in out and "Ionosphere" in out
    for case in solvers.CASES:
        assert f"| {case.name} | {case.peer_name} |" in out
        for axis in ("n", "d"):
            size, last = results[axis][case.name][-1]
            assert size == solvers.QUICK_SWEEPS[axis][0][-1] and last["status"] == "ok"
            # A certified answer of ours, at least as good as the peer's.
            assert last["gap"] <= 1e-6 and last["objective_diff"] >= -1e-6


def test_solvers_budget_skips_larger_sizes(capsys):
    # A budget no fit meets: the first size is over budget, the larger one skipped.
    results = solvers.main(
        ["--quick", "--repeats", "1", "--sweep", "n", "--estimators", "l1svm,RLSC"]
        + ["--budget", "1e-9", "--no-compile"]
    )
    out = capsys.readouterr().out
    assert "over budget" in out
    for rows in results["n"].values():
        assert len(rows) == 1 and rows[0][1]["status"] != "ok"


def test_solvers_slope_and_verdict():
    assert solvers.slope([10, 100, 1000], [1.0, 10.0, 100.0]) == pytest.approx(1.0)
    assert np.isnan(solvers.slope([10], [1.0]))
    row = {"status": "ok", "pairs": 1, "ours_first": 1.0, "peer_first": 1.0, "gap": 0.0}
    row.update(first_ratio=1.0, refit_ratio=1.0, objective_diff=0.0)
    runs = [(10, dict(row)), (100, dict(row, ours_first=10.0, first_ratio=10.0))]
    verdict = solvers.verdict(runs, 100)
    assert verdict["slope_ours"] == pytest.approx(1.0) and not verdict["holds"]
    assert solvers.verdict([(10, row), (100, row)], 100)["holds"]
    wrong = dict(row, objective_diff=-1e-3)  # fast, but worse than the peer
    assert not solvers.verdict([(10, row), (100, wrong)], 100)["holds"]
    with pytest.raises(ValueError, match="unknown estimators"):
        solvers.select_cases("SVMDual,nope")


def _slow_steps():
    yield 1
    while True:
        pass


def _failing_steps():
    yield 1
    raise ArithmeticError("no luck\nsecond line")


def test_forked_steps_kills_a_slow_step_and_reports_errors():
    items = []
    with pytest.raises(StepTimeout):
        for item in forked_steps(_slow_steps, 0.5):
            items.append(item)
    assert items == [1]
    with pytest.raises(ChildError, match="ArithmeticError: no luck$"):
        list(forked_steps(_failing_steps, 10))


def test_paths_benchmark_on_small_data(capsys):
    X, y = make_bhattacharyya(n=30, d=12, k=4, random_state=1)
    paths.bench_lasso_vs_lars("small", X, y.astype(float), 1)
    paths.bench_svm2_vs_linearsvc("small", X, y, 1)
    for kind in paths.PATHS:
        paths.bench_path_vs_cvxpy("small", X, y, kind, 1, 2)
    out = capsys.readouterr().out
    assert np.all([k in out for k in ("lasso", "svm2", "l1_svm")])


def test_warm_start_benchmark_quick(capsys):
    """The sequence runs certified both ways; coordinate descent from the last answer
    takes fewer iterations than from zero (iterations, not seconds, are asserted)."""
    from benchmarks import warm_start

    rows = warm_start.main(["--quick", "--repeats", "1", "--threads", "1"])
    assert [r["estimator"] for r in rows] == ["WeightedLasso", "SVM2", "SVMDual", "RidgeRegression"]
    assert "cold / warm" in capsys.readouterr().out
    for row in rows[:2]:  # CD
        assert row["warm_iter"] < row["cold_iter"], row


def test_scale_fit_benchmark_quick(capsys, monkeypatch):
    """The Dask fits at a tiny size (two in-process workers): every fit on Dask certified
    and equal to the in-memory fit; each chunk computed a whole number of times (the
    passes); an estimator whose fit does not take a Dask X is reported, not fatal."""
    pytest.importorskip("distributed")
    from benchmarks import scale_fit
    from solvers import HybridSVM

    monkeypatch.setitem(
        scale_fit.CASES, "HybridSVM", scale_fit.Case(lambda n: HybridSVM(), "classification")
    )
    rows = scale_fit.main(["--quick", "--in-process", "--threads", "1", "--estimators", "all"])
    out = capsys.readouterr().out
    assert "| estimator | Dask fit |" in out
    by_name = {row["estimator"]: row for row in rows}
    assert by_name["HybridSVM"]["status"] == "not on Dask yet"
    for name in ("RidgeRegression", "RLSC"):
        assert by_name[name]["status"] == "ok"
    for row in rows:
        if row["status"] == "ok":
            assert row["certified"] and row["agrees"], row
            assert row["objective_ok"] and row["coef_ok"], row
            assert row["passes"] >= 1 and row["passes"] == int(row["passes"]), row
    assert by_name["RidgeRegression"]["passes"] == 2  # the Gram matrix, the certificate
