"""Columns that dwarf the others, whatever their number (`solvers._columns.large_columns`).

The rule was the median of all the nonzero column norms: beside one unit column a
column at 1e6 is not 1e3 times the mean of the two, and neither are two or three such
columns beside one. Each user of the rule is checked on such columns against an
independent reference: the 2-norm SVMs on CVXPY against CLARABEL written out here,
the certificate at CLARABEL's optimum and at a perturbed answer, ridge CG against
scikit-learn's Ridge (SVD).
"""

import cvxpy as cp
import numpy as np
import pytest
from sklearn.linear_model import Ridge

from benchmarks._text import text_like
from solvers import L2SVM, SVMDual
from solvers._columns import large_columns
from solvers._ridge_cg import ridge_cg
from solvers.certificates import svm_certificate


def _definition(norms, ratio):
    """Brute force: the columns j whose squared norm is at least 1e4 times the sum of
    the smaller squares (for the largest such count of columns, at most 64, with that
    sum > 0), and the others above ``ratio`` times the lower median of the nonzero
    norms that are not among those."""
    order = np.argsort(-norms, kind="stable")
    squares = norms[order] ** 2
    dominant = []
    for k in range(1, min(64, norms.size) + 1):
        tail = squares[k:].sum()
        if tail > 0 and squares[k - 1] >= 1e4 * tail:
            dominant = list(order[:k])
    rest = np.delete(norms, dominant)
    rest = np.sort(rest[rest > 0])
    if rest.size == 0:
        return set()
    typical = rest[(rest.size - 1) // 2]
    others = [j for j in range(norms.size) if j not in dominant and norms[j] > ratio * typical]
    return set(dominant) | set(others)


def test_large_columns_against_the_definition():
    """Random norms over ten decades, with zeros and ties, ratios 1 to 1e3."""
    rng = np.random.default_rng(0)
    for _ in range(2000):
        d = int(rng.integers(1, 30))
        norms = np.abs(rng.standard_normal(d)) * 10.0 ** rng.integers(-5, 5, d)
        norms[rng.random(d) < 0.3] = 0.0
        if rng.random() < 0.1:
            norms[:] = 0.0
        if rng.random() < 0.2 and d > 1:
            norms[1] = norms[0]
        ratio = float(10.0 ** rng.integers(0, 4))
        assert set(large_columns(norms, ratio=ratio)[0]) == _definition(norms, ratio)


@pytest.mark.parametrize(
    ("norms", "large"),
    [
        ([1.0, 1e6], [1]),  # the median of the two is 5e5
        ([1.0, 1e6, 1e6], [1, 2]),
        ([1.0, 1e6, 1e6, 1e6], [1, 2, 3]),
        ([1.0, 0.0, 1e6], [2]),
        ([1.0, 1.0, 1e6, 1e6], [2, 3]),
        ([1e-12, 1.0, 1.0, 1.0, 1.0, 1.0], [1, 2, 3, 4, 5]),  # scale-free: 1 beside 1e12
        ([1e300, 1.0], [0]),  # no square overflows
        ([1.0, 1.0], []),
        ([0.0, 5.0], []),
    ],
)
def test_a_column_that_dwarfs_the_others_is_large_whatever_their_number(norms, large):
    np.testing.assert_array_equal(large_columns(np.array(norms))[0], large)


def test_a_timestamp_beside_many_unit_columns_is_large_and_text_columns_are_not():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 300))
    X[:, 7] = rng.integers(0, 10**5, 200)  # a centred timestamp's spread
    np.testing.assert_array_equal(large_columns(np.linalg.norm(X, axis=0))[0], [7])
    for seed in range(3):
        T, _ = text_like(200, 3000, seed=seed)
        norms = np.sqrt(np.asarray(T.multiply(T).sum(axis=0)).ravel())
        assert large_columns(norms)[0].size == 0


def _columns(scales, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 8))
    y = np.where(X[:, 0] + 0.1 * X[:, 1] + 0.1 * rng.standard_normal(30) > 0, 1.0, -1.0)
    return X[:, : len(scales)] * np.array(scales), y


def _clarabel_svm(X, y, C):
    """The hinge 2-norm SVM by CLARABEL in unit-norm coordinates (exact: v = ||X_j|| w_j)."""
    norms = np.linalg.norm(X, axis=0)
    v, b = cp.Variable(X.shape[1]), cp.Variable()
    problem = cp.Problem(
        cp.Minimize(
            0.5 * cp.sum_squares(cp.multiply(1 / norms, v))
            + C * cp.sum(cp.pos(1 - cp.multiply(y, (X / norms) @ v + b)))
        )
    )
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    return v.value / norms, float(b.value), problem.value


@pytest.mark.parametrize("make", [SVMDual, L2SVM])
@pytest.mark.parametrize("scales", [[1.0, 1e6, 1e6, 1e6], [1e-12, 1.0, 1.0]])
def test_svm_with_columns_that_dwarf_the_other_matches_clarabel(make, scales):
    """Three columns at 1e6 beside one unit column (rescaled for the CVXPY backends by
    the dominance rule of large_columns, which replaced the backend's own fallback), and
    the same pattern at another scale (one column at 1e-12)."""
    X, y = _columns(scales)
    C = 1.0
    _, _, reference = _clarabel_svm(X, y, C)
    clf = make(C=C).fit(X, y)
    w, b = clf.coef_[0], clf.intercept_[0]
    primal = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - y * (X @ w + b)).sum()
    assert clf.certificate_.holds
    assert primal <= reference * (1 + 1e-6)
    np.testing.assert_allclose(clf.objective_, reference, rtol=1e-6)


def test_the_certificate_restores_a_column_at_1e9_beside_one_unit_column():
    """CLARABEL's optimum failed its certificate (relative gap 1.7e-6): the column at
    1e9 was not large by the median of two norms, and its stationarity was not
    restored. A perturbed answer still fails."""
    X, y = _columns([1.0, 1e9])
    w, b, reference = _clarabel_svm(X, y, 1.0)
    certificate = svm_certificate(X, y, w, b, 1.0)
    assert certificate.holds
    assert certificate.dual <= reference * (1 + 1e-9)
    assert certificate.primal >= reference * (1 - 1e-9)
    for perturbed in (w * (1 + 1e-4), w + np.array([1e-4, 0.0])):
        assert not svm_certificate(X, y, perturbed, b, 1.0).holds


@pytest.mark.parametrize(("n", "d", "large"), [(3, 4, 2), (5, 8, 4)])
def test_ridge_cg_with_large_columns_fewer_than_rows_matches_sklearn(n, d, large):
    """d > n with ``large`` columns at 1e6 (half of them, fewer than the rows): the
    median missed them, CG took the dual system, whose row scaling cannot equalise
    AA' (``large`` huge eigenvalues beside ordinary ones), and stopped at max_iter
    with a relative gap of 5e-6 to 5e-5."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((n, d))
    X[:, :large] *= 1e6
    y = rng.standard_normal(n)
    lam = 1e-3
    result = ridge_cg(X, y, lam)
    reference = Ridge(alpha=lam, fit_intercept=False, solver="svd").fit(X, y).coef_

    def objective(b):
        return np.sum((y - X @ b) ** 2) + lam * b @ b

    assert result.converged
    assert result.certificate.relative_gap <= 1e-6
    np.testing.assert_allclose(objective(result.coef), objective(reference), rtol=1e-8)
