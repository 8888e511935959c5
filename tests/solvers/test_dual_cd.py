"""The dual coordinate descent of the 2-norm SVM (solvers._dual_cd) against independent solvers.

The references: libsvm (``sklearn.svm.SVC(kernel="linear")``, the same hinge model with
an exact, unpenalised intercept and per-sample C for sample weights) and the primal
written out in CVXPY and solved by Clarabel at tight tolerances, for both losses.
Every result must also pass ``svm_certificate`` with its own dual point.
"""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC

from benchmarks._text import text_like
from solvers._dual_cd import dual_coordinate_descent
from solvers.certificates import svm_certificate

LOSSES = ("hinge", "squared_hinge")
#: Our tolerance on the relative gap when a result is compared with a reference (these
#: small problems take up to a few thousand epochs to get there).
TIGHT = {"tol": 1e-11, "max_epochs": 20000}


def overlapping(n, d, *, positive_fraction=0.5, seed=0):
    """Gaussian classes 1 apart along two directions: overlapping, many free multipliers.

    Scaled by 1/sqrt(d), so that rows have norms about 1 (as tf-idf rows have).
    """
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < positive_fraction, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, :2] += 0.5 * y[:, None]
    return X / np.sqrt(d), y


def separable(n, d, *, seed=0):
    """Classes 4 apart along one direction: linearly separable with a wide margin."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, 0] += 2.0 * y
    return X, y


def cvxpy_svm(X, y, C, loss, sample_weight=None):
    """``min 1/2 ||w||^2 + C sum_i s_i loss(y_i (x_i'w + b))`` by Clarabel: (w, b, value)."""
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else sample_weight
    w, b = cp.Variable(d), cp.Variable()
    slack = cp.pos(1 - cp.multiply(y, X @ w + b))
    losses = cp.square(slack) if loss == "squared_hinge" else slack
    problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * (s @ losses)))
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10)
    return w.value, float(b.value), problem.value


def solve(X, y, C, loss, sample_weight=None, **options):
    """Our solver at ``c_i = C s_i``; asserts that it certifies and returns the result."""
    s = np.ones(X.shape[0]) if sample_weight is None else sample_weight
    result = dual_coordinate_descent(X, y, C * s, loss=loss, **options)
    assert result.converged
    certificate = svm_certificate(
        X, y, result.coef, result.intercept, C, loss=loss, alpha=result.alpha, sample_weight=s
    )
    assert certificate.holds, str(certificate)
    # The gap we report is the certificate's (the same balanced dual point).
    assert result.relative_gap == pytest.approx(certificate.relative_gap, rel=1e-6, abs=1e-12)
    return result


def assert_same_solution(result, coef, intercept, *, rtol=1e-5):
    scale = max(np.linalg.norm(coef), 1.0)
    assert np.linalg.norm(result.coef - coef) <= rtol * scale
    assert result.intercept == pytest.approx(intercept, abs=rtol * max(abs(intercept), 1.0))


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("shape", [(120, 8), (40, 90)], ids=["n>d", "d>n"])
def test_hinge_matches_libsvm(sparse, shape):
    X, y = overlapping(*shape)
    svc = SVC(kernel="linear", C=0.7, tol=1e-10).fit(X, y)
    result = solve(sp.csr_matrix(X) if sparse else X, y, 0.7, "hinge", **TIGHT)
    assert_same_solution(result, svc.coef_.ravel(), svc.intercept_[0])


def test_hinge_with_sample_weights_matches_libsvm():
    X, y = overlapping(100, 6, seed=1)
    s = np.random.default_rng(1).uniform(0.2, 3.0, X.shape[0])
    svc = SVC(kernel="linear", C=0.5, tol=1e-10).fit(X, y, sample_weight=s)
    result = solve(X, y, 0.5, "hinge", sample_weight=s, **TIGHT)
    assert_same_solution(result, svc.coef_.ravel(), svc.intercept_[0])


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("shape", [(150, 10), (50, 120)], ids=["n>d", "d>n"])
def test_matches_cvxpy(loss, sparse, shape):
    X, y = overlapping(*shape, seed=2)
    coef, intercept, value = cvxpy_svm(X, y, 1.0, loss)
    result = solve(sp.csr_matrix(X) if sparse else X, y, 1.0, loss, **TIGHT)
    assert result.primal == pytest.approx(value, rel=1e-8)
    assert_same_solution(result, coef, intercept)


@pytest.mark.parametrize("loss", LOSSES)
def test_separable_data_in_the_hard_margin_regime(loss):
    X, y = separable(80, 5)
    C = 1e3
    coef, intercept, value = cvxpy_svm(X, y, C, loss)
    # The gap is relative to the optimum, about 2: 1e-8 of it (the hinge's stalls near
    # 1.2e-9 here, with the augmented Lagrangian's spread at its floor).
    result = solve(X, y, C, loss, tol=1e-8, max_epochs=20000)
    assert result.primal == pytest.approx(value, rel=1e-8)
    assert_same_solution(result, coef, intercept)
    # KKT: the support vectors on the margin (inside by a_i / 2C for the squared
    # hinge), the other samples beyond it.
    margins = y * (X @ result.coef + result.intercept)
    support = result.alpha > 0
    on_margin = 1.0 - result.alpha / (2 * C) if loss == "squared_hinge" else np.ones(80)
    np.testing.assert_allclose(margins[support], on_margin[support], atol=1e-5)
    assert np.all(margins[~support] >= 1.0 - 1e-5)


@pytest.mark.parametrize("loss", LOSSES)
def test_integer_sample_weights_equal_repeated_rows(loss):
    X, y = overlapping(60, 5, seed=3)
    counts = np.random.default_rng(3).integers(1, 4, X.shape[0])
    weighted = solve(X, y, 0.8, loss, sample_weight=counts.astype(float), **TIGHT)
    repeated = solve(np.repeat(X, counts, axis=0), np.repeat(y, counts), 0.8, loss, **TIGHT)
    assert_same_solution(weighted, repeated.coef, repeated.intercept)
    assert weighted.primal == pytest.approx(repeated.primal, rel=1e-9)


@pytest.mark.parametrize("loss", LOSSES)
def test_very_unequal_classes(loss):
    X, y = overlapping(420, 6, positive_fraction=1 / 21, seed=4)
    assert 10 <= (y > 0).sum() <= 40
    coef, intercept, value = cvxpy_svm(X, y, 1.0, loss)
    result = solve(sp.csr_matrix(X), y, 1.0, loss, **TIGHT)
    assert result.primal == pytest.approx(value, rel=1e-8)
    assert_same_solution(result, coef, intercept)


@pytest.mark.parametrize("loss", LOSSES)
def test_a_zero_column_and_a_duplicated_row(loss):
    X, y = overlapping(70, 6, seed=5)
    X = np.column_stack((X[:, :3], np.zeros(70), X[:, 3:]))
    X, y = np.vstack((X, X[:1])), np.append(y, y[0])
    coef, intercept, value = cvxpy_svm(X, y, 1.0, loss)
    result = solve(sp.csr_matrix(X), y, 1.0, loss, **TIGHT)
    assert result.coef[3] == 0.0
    assert result.primal == pytest.approx(value, rel=1e-8)
    assert_same_solution(result, coef, intercept)


@pytest.mark.parametrize("loss", LOSSES)
def test_a_column_at_1e_minus_6_and_a_duplicated_column(loss):
    X, y = overlapping(90, 8, seed=9)
    X = np.column_stack((X, 1e-6 * X[:, 1], X[:, 2]))
    coef, intercept, value = cvxpy_svm(X, y, 1.0, loss)
    result = solve(X, y, 1.0, loss, **TIGHT)
    assert result.primal == pytest.approx(value, rel=1e-8)
    assert_same_solution(result, coef, intercept)
    assert result.coef[-1] == pytest.approx(result.coef[2], rel=1e-9)


@pytest.mark.parametrize("loss", LOSSES)
def test_a_column_at_1e4_is_reported_honestly(loss):
    # ||x_i||^2 ~ 1e8 from one column: the dual is too ill-conditioned for coordinate
    # descent to converge in 300 epochs; what it returns must say so, with the true gap.
    X, y = overlapping(90, 8, seed=10)
    X = np.column_stack((X, 1e4 * X[:, 0]))
    result = dual_coordinate_descent(X, y, np.ones(90), loss=loss, max_epochs=300)
    certificate = svm_certificate(
        X, y, result.coef, result.intercept, 1.0, loss=loss, alpha=result.alpha
    )
    if result.converged:
        assert certificate.holds
    else:
        assert result.relative_gap > 1e-7
        assert result.relative_gap >= certificate.relative_gap * (1 - 1e-6)


@pytest.mark.parametrize("loss", LOSSES)
def test_dense_and_csr_agree_on_text(loss):
    X, y = text_like(300, 2000, words_per_document=30)
    dense = solve(X.toarray(), y, 10.0, loss, **TIGHT)
    sparse = solve(X, y, 10.0, loss, **TIGHT)
    assert_same_solution(dense, sparse.coef, sparse.intercept)


@pytest.mark.parametrize("loss", LOSSES)
def test_default_tolerance_certifies_on_text(loss):
    X, y = text_like(400, 3000, words_per_document=40)
    for C in (0.01, 1.0, 100.0):
        result = solve(X, y, C, loss)
        assert result.relative_gap <= 1e-7


@pytest.mark.parametrize("loss", LOSSES)
def test_warm_start_at_a_new_C(loss):
    # More features than samples: coordinate descent's regime.
    X, y = overlapping(60, 200, seed=6)
    start = solve(X, y, 1.0, loss)
    warm = solve(X, y, 3.0, loss, alpha=start.alpha, intercept=start.intercept, **TIGHT)
    coef, intercept, value = cvxpy_svm(X, y, 3.0, loss)
    assert warm.primal == pytest.approx(value, rel=1e-8)
    assert_same_solution(warm, coef, intercept)
    # Started at its own solution, a solve is over at its first check, before any sweep.
    again = solve(X, y, 3.0, loss, alpha=warm.alpha, intercept=warm.intercept, tol=1e-9)
    assert again.epochs == 0
    # From the solution at a nearby C, less of X is read than from zero (at a C where the
    # cold start is not finished by a face step that the warm one does not need).
    near = solve(X, y, 100.0, loss)
    costs = np.full(y.size, 50.0)
    warm = dual_coordinate_descent(X, y, costs, loss=loss, alpha=near.alpha,
                                   intercept=near.intercept)  # fmt: skip
    cold = dual_coordinate_descent(X, y, costs, loss=loss)
    assert warm.converged and cold.converged
    assert warm.work < cold.work


def test_warm_start_with_the_merge_of_repeated_rows():
    """The hinge's merge of repeated rows, handed back to a warm start at a new C,
    gives the solution CVXPY finds at that C (rows repeated, one of them with the
    other label too)."""
    X, y = overlapping(50, 30, seed=4)
    X = np.vstack([X, X[:10], X[:3]])
    y = np.concatenate([y, y[:10], -y[:3]])
    start = solve(X, y, 1.0, "hinge")
    merged = start.representative
    assert merged is not None and np.unique(merged).size < y.size  # rows were merged
    warm = solve(X, y, 3.0, "hinge", alpha=start.alpha, intercept=start.intercept,
                 representative=merged, **TIGHT)  # fmt: skip
    coef, intercept, value = cvxpy_svm(X, y, 3.0, "hinge")
    assert warm.primal == pytest.approx(value, rel=1e-8)
    np.testing.assert_array_equal(warm.representative, merged)
    # The squared hinge merges nothing and ignores a merge handed to it.
    squared = solve(X, y, 3.0, "squared_hinge", representative=merged, **TIGHT)
    assert squared.representative is None
    assert squared.primal == pytest.approx(cvxpy_svm(X, y, 3.0, "squared_hinge")[2], rel=1e-8)


@pytest.mark.parametrize("loss", LOSSES)
def test_too_few_epochs_is_not_converged_and_says_how_far(loss):
    X, y = overlapping(200, 10, seed=7)
    result = dual_coordinate_descent(X, y, np.full(200, 5.0), loss=loss, max_epochs=2)
    assert result.epochs == 2 and not result.converged and result.relative_gap > 1e-7
    certificate = svm_certificate(
        X, y, result.coef, result.intercept, 5.0, loss=loss, alpha=result.alpha
    )
    assert certificate.relative_gap == pytest.approx(result.relative_gap, rel=1e-6)
    assert result.primal == pytest.approx(certificate.primal, rel=1e-12)


def test_the_order_of_the_sweeps_is_seeded():
    X, y = overlapping(100, 6, seed=8)
    first, second = (dual_coordinate_descent(X, y, np.ones(100), random_state=1) for _ in "ab")
    np.testing.assert_array_equal(first.alpha, second.alpha)
    other = dual_coordinate_descent(X, y, np.ones(100), random_state=2)
    assert not np.array_equal(first.alpha, other.alpha)
