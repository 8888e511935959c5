"""examples/reproduce_004.py (004 sec. 4, Tables 1-5) in its --quick mode."""

import importlib.util
import warnings
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest
from sklearn.svm import LinearSVC

from solvers.exceptions import PathWarning
from solvers.path import svm2_path
from sparsify.datasets import load_ionosphere, load_wdbc

spec = importlib.util.spec_from_file_location(
    "reproduce_004", Path(__file__).parents[2] / "examples" / "reproduce_004.py"
)
reproduce_004 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reproduce_004)

WEIGHTED = ("hybrid", "RS(50%)", "RS(100)", "RS(50)")
C_GRID = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)  # 004 sec. 4
GAMMAS = (1.0, 2.0, 4.0)  # 004 sec. 4


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("reproduce_004")
    doc = out / "reproduce_004.md"
    run = reproduce_004.main(["--quick", "--out-dir", str(out), "--doc", str(doc)])
    return run, doc


def test_writes_every_table_and_figure(quick, capsys):
    run, doc = quick
    text = doc.read_text(encoding="utf-8")
    assert text == run["markdown"]
    for table in range(1, 6):
        assert f"## Table {table}:" in text
    assert "## Checks" in text
    for figure in run["figures"]:
        assert Path(figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bayes_rule_matches_the_stated_bayes_error(quick):
    # 004 sec. 4.1: "the Bayes error is about 4%" on the orange data; the Bayes rule is
    # applied to the test sets through the true features x_1^2, x_2^2 of the dictionary.
    results = quick[0]["results"]
    for q in reproduce_004.QUICK.q_svm2:
        bayes = results.error(q, "svm2", "Bayes")
        assert np.all((bayes > 0.02) & (bayes < 0.065)), bayes


def test_errors_lie_between_bayes_and_a_trivial_classifier(quick):
    results = quick[0]["results"]
    config = quick[0]["config"]
    # Synthetic data: no rule beats the Bayes rule by more than the noise of 2000
    # test points (sd about 0.006), and every method beats a coin toss (both classes
    # have probability about 1/2) by far.
    settings = list(config.q_svm2) + [tuple(z) for z in config.zou]
    for key in settings:
        bayes = results.error(key, "svm2", "Bayes")
        for method in results.methods(key, "svm2"):
            error = results.error(key, "svm2", method)
            assert np.all(np.isfinite(error))
            assert np.all(error >= bayes - 0.03), (key, method)
            assert np.all(error < 0.4), (key, method)
    # Real data: the weighted models beat the majority class, whose error is the
    # minority's share (37% on WDBC, 36% on Ionosphere), by a wide margin.
    for name, load in (("WDBC", load_wdbc), ("Ionosphere", load_ionosphere)):
        _, y = load()
        minority = min(np.mean(y > 0), np.mean(y < 0))
        for method in results.methods(name, "svm2"):
            error = results.error(name, "svm2", method)
            assert np.all(np.isfinite(error))
            if method in WEIGHTED:
                assert error.mean() < minority - 0.1, (name, method, error)


def test_rs_weights_follow_algorithm_1(quick):
    # W = K / count with count in 1..K for a feature selected in some block, +inf for
    # one never selected (004 Algorithm 1): every weight is >= 1, at most K, or +inf.
    results = quick[0]["results"]
    config = quick[0]["config"]
    assert results.weights
    for (key, _, method), w in results.weights.items():
        if isinstance(key, str):  # real data: blocks_per_set N / K blocks of K
            n_train = 2 * {"WDBC": 569, "Ionosphere": 351}[key] // 3
            n_blocks = round(config.blocks_per_set * n_train / int(method[3:-1]))
        else:  # synthetic: blocks_per_set / f blocks
            n_blocks = round(config.blocks_per_set / (int(method[3:-2]) / 100))
        finite = np.isfinite(w)
        assert np.all(w[~finite] == np.inf)
        assert np.all((w[finite] >= 1) & (w[finite] <= n_blocks)), (key, method, w)
        # a weight is K / count, so K / W is a whole number of blocks
        np.testing.assert_allclose(n_blocks / w[finite], np.round(n_blocks / w[finite]))


def test_selection_counts_add_up(quick):
    # C + IC is the number of selected features, and PPS is the share of repetitions
    # whose selection is exactly the true model, counted here by brute force.
    results = quick[0]["results"]
    q = reproduce_004.QUICK.q_svm2[-1]
    truth = set(results.truths[q].tolist())
    for method in results.methods(q, "svm2"):
        supports = results.supports[q, "svm2", method]
        sizes = np.array([len(s) for s in supports])
        total = results.correct(q, "svm2", method) + results.incorrect(q, "svm2", method)
        np.testing.assert_array_equal(total, sizes)
        exact = np.mean([set(s.tolist()) == truth for s in supports])
        assert results.perfect(q, "svm2", method) == exact


def test_transcribed_tables_agree_with_the_papers_text():
    # 004 sec. 4.1: the 2-norm models' error grows with q ("show increasing error rates
    # as the number of noisy features increase"); PPS is a probability; Table 4's
    # Bayes error is the smallest of its row; Table 3 has 5 q values per method.
    for table in (reproduce_004.PAPER_TABLE1, reproduce_004.PAPER_TABLE2):
        assert sorted(table) == list(reproduce_004.Q_VALUES)
        two_norm = [table[q][0][0] for q in reproduce_004.Q_VALUES]
        assert np.all(np.diff(two_norm) > 0)
        assert all(len(row) == 6 for row in table.values())
    for ics, ppss in reproduce_004.PAPER_TABLE3.values():
        assert len(ics) == len(ppss) == len(reproduce_004.TABLE3_Q)
        assert all(0 < p < 1 for p in ppss)
    for row in reproduce_004.PAPER_TABLE4.values():
        assert row[0] == min(row)


def test_a_new_run_keeps_the_hand_written_discussion(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("old tables\n" + reproduce_004.DISCUSSION_MARKER + "\nour notes\n")
    reproduce_004.write_doc(doc, "new tables\n")
    assert doc.read_text() == "new tables\n\n" + reproduce_004.DISCUSSION_MARKER + "\nour notes\n"
    plain = tmp_path / "plain.md"
    reproduce_004.write_doc(plain, "tables\n")
    assert plain.read_text() == "tables\n"


# ---------------------------------------------------------------- the hybrid SVM2 of Table 5
def _error(coef, intercept, X, y):
    return float(np.mean(np.where(X @ coef + intercept >= 0, 1.0, -1.0) != y))


def _squared_hinge_l2(C, X, y):
    """The 2-norm SVM ``1/2 ||w||^2 + C sum_i [1 - y_i f_i]_+^2`` by scikit-learn:
    LinearSVC penalises the intercept as a feature of value intercept_scaling, so a
    large one leaves it (nearly) unpenalised, as in 004 eq. 5's beta(l2)."""
    model = LinearSVC(C=C, loss="squared_hinge", intercept_scaling=1e3, tol=1e-10, max_iter=10**6)
    model.fit(X, y)
    return model.coef_[0], model.intercept_[0]


def _weighted_svm2(X, y, weights, lams):
    """004 eq. 5, ``sum_i [1 - y_i f_i]_+^2 + lam sum_j W_j |w_j|``, by CVXPY at each lam.

    Solved for ``v = W w`` (the plain SVM2 on the columns ``X_j / W_j``), which stays
    well scaled when the weights span many orders of magnitude (gamma = 4).
    """
    scaled = X / weights
    v, b, lam = cp.Variable(X.shape[1]), cp.Variable(), cp.Parameter(nonneg=True)
    loss = cp.sum_squares(cp.pos(1 - cp.multiply(y, scaled @ v + b)))
    problem = cp.Problem(cp.Minimize(loss + lam * cp.norm1(v)))
    solutions = []
    for value in lams:
        lam.value = value
        problem.solve(solver="CLARABEL")
        solutions.append((v.value / weights, float(b.value)))
    return solutions


@pytest.mark.parametrize("split", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_hybrid_svm2_matches_an_independent_fit_on_wdbc(split):
    # 004 sec. 4: beta(l2) the 2-norm SVM2 of the best C in {0.1, ..., 10} on the
    # validation data, W = |beta|^-gamma, the weighted SVM2 at the breakpoint best on
    # the validation data. Recomputed with scikit-learn (beta) and CVXPY (the weighted
    # SVM2 at the lam chosen and at every 15th breakpoint of each gamma's path).
    data, _, _ = reproduce_004.real_data("WDBC", split, seed=0)
    X, y, X_val, y_val, X_test, y_test = data
    accuracy = [1 - _error(*_squared_hinge_l2(C, X, y), X_val, y_val) for C in C_GRID]
    C = C_GRID[int(np.argmax(accuracy))]  # ties: the first C
    _, C_example = reproduce_004.two_norm("svm2", *data)
    assert C_example == C
    hybrid = reproduce_004.hybrid("svm2", *data, C)
    assert hybrid.params["C"] == C and hybrid.params["gamma"] in GAMMAS

    beta = _squared_hinge_l2(C, X, y)[0]
    weights = np.abs(beta) ** -hybrid.params["gamma"]
    lam = hybrid.params["lam"]
    ((coef, intercept),) = _weighted_svm2(X, y, weights, [lam])
    assert _error(coef, intercept, X_test, y_test) == hybrid.error
    assert 1 - _error(coef, intercept, X_val, y_val) == hybrid.val_accuracy
    np.testing.assert_array_equal(np.flatnonzero(np.abs(coef) > 1e-6), hybrid.support)

    # (gamma, lam) is the best pair on the validation data, ties to the smallest gamma
    # and then the largest lam: no breakpoint of any gamma's path does better, and none
    # that comes first in that order does as well (every 15th breakpoint checked).
    for gamma in GAMMAS:
        weights = np.abs(beta) ** -gamma
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PathWarning)
            breakpoints = svm2_path(X, y, weights).lams[::15]
        fits = _weighted_svm2(X, y, weights, breakpoints)
        for other, (w, b) in zip(breakpoints, fits, strict=True):
            val_accuracy = 1 - _error(w, b, X_val, y_val)
            assert val_accuracy <= hybrid.val_accuracy
            first = gamma < hybrid.params["gamma"] or (
                gamma == hybrid.params["gamma"] and other > lam * (1 + 1e-9)
            )
            if first:
                assert val_accuracy < hybrid.val_accuracy


@pytest.mark.parametrize("standardise", [True, False])
def test_real_data_splits_two_thirds_and_standardises_on_the_training_part(standardise):
    X, y = load_wdbc()
    data, (X_train, y_train), _ = reproduce_004.real_data("WDBC", 0, 0, standardise)
    fit, val, test = data[0], data[2], data[4]
    n_train = 2 * len(y) // 3
    assert X_train.shape[0] == n_train and test.shape[0] == len(y) - n_train
    assert fit.shape[0] == 2 * n_train // 3 and val.shape[0] == n_train - fit.shape[0]
    if standardise:
        np.testing.assert_allclose(X_train.mean(axis=0), 0.0, atol=1e-12)
        np.testing.assert_allclose(X_train.std(axis=0), 1.0, rtol=1e-12)
    else:
        # Raw features: every row of every part is a row of the file, unchanged.
        rows = {tuple(row) for row in X}
        assert all(tuple(row) in rows for part in (fit, val, test) for row in part)
