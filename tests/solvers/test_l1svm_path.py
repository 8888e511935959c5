"""The 1-norm SVM path (004 eq. 6) against the LP solved independently by linprog.

The reference is the LP ``min sum xi + lam sum_j W_j (w+_j + w-_j)`` s.t.
``y_i (x_i'(w+ - w-) + b) + xi_i >= 1``, written here from the objective (a
weight 0 gives a free coefficient, +inf drops the feature).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from benchmarks.l1svm_path import make_spam_like
from solvers.certificates import l1_svm_certificate
from solvers.path import PathWarning, l1_svm_path

REFERENCE_RTOL = 1e-9


def lp_optimum(X, y, lam, weights):
    """Optimal value of 004 eq. 6 at lam by scipy's HiGHS on the primal LP."""
    n, d = X.shape
    kept = np.flatnonzero(np.isfinite(weights))
    Xk, wk = X[:, kept], weights[kept]
    k = kept.shape[0]
    cost = np.concatenate((lam * wk, lam * wk, [0.0], np.ones(n)))
    YX = y[:, None] * Xk
    A = np.hstack((-YX, YX, -y[:, None], -np.eye(n)))
    bounds = [(0, None)] * (2 * k) + [(None, None)] + [(0, None)] * n
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert result.status == 0, result.message
    return result.fun


def objective(X, y, coef, intercept, lam, weights):
    finite = np.isfinite(weights)
    assert np.all(coef[~finite] == 0)
    hinge = np.maximum(0.0, 1.0 - y * (X @ coef + intercept)).sum()
    return hinge + lam * np.sum(weights[finite] * np.abs(coef[finite]))


def assert_matches_lp(X, y, path, weights, n_points=6):
    lams = path.lams[path.lams > 0]
    picks = np.unique(np.linspace(0, len(lams) - 1, n_points).round().astype(int))
    points = list(lams[picks]) + [0.5 * (lams[k] + lams[k + 1]) for k in picks if k + 1 < len(lams)]
    for lam in points:
        ours = objective(X, y, *path.at(lam), lam, weights)
        best = lp_optimum(X, y, lam, weights)
        assert abs(ours - best) <= REFERENCE_RTOL * max(abs(best), 1.0), (lam, ours, best)


def _data(seed=0, n=60, d=8):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] - X[:, 1] + 0.8 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


def test_unpenalised_and_excluded_weights_and_ten_decades():
    X, y = _data()
    weights = np.logspace(-5, 5, X.shape[1])
    weights[2], weights[5] = 0.0, np.inf
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PathWarning)
        path = l1_svm_path(X, y, weights)
    # The path may stop (with a PathWarning, never a wrong segment) only where lam is
    # ten decades below lam_max: there HiGHS's feasibility tolerance (1e-10) exceeds
    # the dual bounds lam W_j of the small weights, and no certificate can be had.
    assert path.lams[-1] == 0.0 or (caught and path.lams[-1] <= 1e-10 * path.lams[0])
    np.testing.assert_array_equal(path.coefs[:, 5], 0.0)
    # The unpenalised feature is in every model, from lam_max on.
    assert all(2 in active for active in path.active_sets)
    assert path.coefs[0, 2] != 0.0
    assert_matches_lp(X, y, path, weights)


def test_start_is_the_min_hinge_over_the_unpenalised_features():
    X, y = _data(seed=1)
    weights = np.ones(X.shape[1])
    weights[:2] = 0.0
    path = l1_svm_path(X, y, weights)
    coef, intercept = path.at(path.lams[0])
    np.testing.assert_array_equal(coef[2:], 0.0)
    # At a huge lam the penalised features are 0: the LP min over (b, w_U).
    best = lp_optimum(X, y, 1e6, np.where(weights == 0, 0.0, np.inf))
    ours = objective(X, y, coef, intercept, 0.0, weights)
    assert abs(ours - best) <= REFERENCE_RTOL * best


@pytest.mark.parametrize("factor", [1e-8, 1e12])
def test_scaling_X_rescales_lams_and_coefs(factor):
    X, y = _data(seed=2)
    path = l1_svm_path(X, y)
    scaled = l1_svm_path(X * factor, y)
    np.testing.assert_allclose(scaled.lams, path.lams * factor, rtol=1e-7)
    np.testing.assert_allclose(scaled.coefs * factor, path.coefs, rtol=1e-6, atol=1e-9)
    # The reference is linprog on the unscaled LP: HiGHS's absolute tolerances make it
    # inaccurate on X * 1e-8 itself (57.98 instead of 58.0).
    assert_matches_lp(X, y, path, np.ones(X.shape[1]), n_points=3)


def test_column_scales_spanning_1e8_with_matching_weights():
    X, y = _data(seed=3)
    scales = np.logspace(-4, 4, X.shape[1])
    path = l1_svm_path(X, y)
    scaled = l1_svm_path(X * scales, y, scales)  # the same problem in other units
    np.testing.assert_allclose(scaled.lams, path.lams, rtol=1e-7)
    np.testing.assert_allclose(scaled.coefs * scales, path.coefs, rtol=1e-6, atol=1e-9)
    assert_matches_lp(X * scales, y, scaled, scales, n_points=3)


def test_every_breakpoint_is_certified_independently():
    X, y = _data(seed=4, n=50, d=6)
    weights = np.array([0.0, 1.0, 2.0, 0.5, np.inf, 1.0])
    path = l1_svm_path(X, y, weights)
    for k, lam in enumerate(path.lams):
        if lam > 0:
            cert = l1_svm_certificate(X, y, path.coefs[k], path.intercepts[k], lam, weights)
            assert cert.holds, (lam, str(cert))


def test_failed_certificate_stops_with_a_warning(monkeypatch):
    import solvers.path._l1svm as module

    X, y = _data(seed=5)
    monkeypatch.setattr(module, "GAP_TOLERANCE", -1.0)  # nothing can be certified
    with pytest.warns(PathWarning, match=r"stopped at lam=\S+ .*certified"):
        l1_svm_path(X, y)


@pytest.mark.parametrize("fmt", ["csc", "csr"])
def test_caller_arrays_are_not_modified(fmt):
    X, y = _data(seed=6)
    X[np.abs(X) < 0.7] = 0.0
    matrix = getattr(sp, f"{fmt}_matrix")(X)
    # Reverse the indices within every row/column: valid but unsorted.
    for start, end in zip(matrix.indptr[:-1], matrix.indptr[1:], strict=True):
        matrix.indices[start:end] = matrix.indices[start:end][::-1].copy()
        matrix.data[start:end] = matrix.data[start:end][::-1].copy()
    matrix.has_sorted_indices = False
    before = [a.copy() for a in (matrix.data, matrix.indices, matrix.indptr)]
    weights = np.ones(X.shape[1])
    path = l1_svm_path(matrix, y, weights)
    for old, new in zip(before, (matrix.data, matrix.indices, matrix.indptr), strict=True):
        np.testing.assert_array_equal(old, new)
    np.testing.assert_array_equal(weights, 1.0)
    dense = l1_svm_path(X, y)
    np.testing.assert_allclose(path.lams, dense.lams, rtol=1e-9)


def test_spam_like_objectives_match_linprog():
    X, y = make_spam_like(n=200, d=15, random_state=1)
    y_pm = np.where(y == 1, 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = l1_svm_path(X, y)
    assert_matches_lp(X, y_pm, path, np.ones(X.shape[1]), n_points=8)
