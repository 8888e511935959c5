"""The L1-penalised models beside a Unix timestamp: a column of mean 1.7e9 and spread 1e5.

Such a column is nearly parallel to the intercept's column of ones; every ``X_j'v``
of a certificate sums terms 1e4 times its value. The estimators centre it first
(exact with the free intercept). References: scikit-learn's Lasso (which centres X
itself), scipy's linprog (HiGHS) on the 1-norm SVM's LP and CVXPY/Clarabel on SVM2,
both written out here with the column centred; the exact paths against the same.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.linear_model import Lasso

from solvers import L1SVM, SVM2, PathWarning, WeightedLasso, l1_svm_path, lasso_path, svm2_path
from solvers._columns import centre_columns, offset_columns

FORMATS = {"dense": np.asarray, "csr": sp.csr_matrix}
SHAPES = {"n>d": (40, 8), "d>n": (25, 60)}


def _data(shape, seed):
    rng = np.random.default_rng(seed)
    n, d = SHAPES[shape]
    X = rng.standard_normal((n, d))
    X[:, 0] = 1.7e9 + 1e5 * rng.standard_normal(n)
    y = X[:, 3] + 0.1 * rng.standard_normal(n)
    return X, y


def _l1_svm_minimum(X, y, lam):
    """``sum_i [1 - y_i f_i]_+ + lam ||w||_1`` by linprog on variables (w+, w-, b, xi)."""
    n, d = X.shape
    Z = X - X.mean(axis=0)  # exact: b absorbs the shift
    cost = np.concatenate((np.full(2 * d, lam), [0.0], np.ones(n)))
    margins = y[:, None] * np.column_stack((Z, -Z, np.ones(n)))
    A = -np.column_stack((margins, np.eye(n)))
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert result.status == 0, result.message
    return result.fun


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", range(3))
def test_weighted_lasso_beside_a_timestamp_matches_lasso(fmt, shape, seed):
    X, y = _data(shape, seed)
    # Certified to 1e-10 (the default 1e-6 admits a first-order backend's answer 4e-7
    # above the optimum): the timestamp must not keep the fit from the optimum's digits.
    est = WeightedLasso(lam=1.0, tol=1e-10).fit(FORMATS[fmt](X), y)
    assert est.certificate_.holds
    ref = Lasso(alpha=1.0 / (2 * len(y)), tol=1e-14, max_iter=10**6).fit(X, y)

    def objective(coef, intercept):
        residual = y - X @ coef - intercept
        return residual @ residual + np.abs(coef).sum()

    ours, theirs = objective(est.coef_, est.intercept_), objective(ref.coef_, ref.intercept_)
    assert ours <= theirs * (1 + 1e-9)
    np.testing.assert_allclose(ours, theirs, rtol=1e-7)


def _svm2_minimum(X, y, lam):
    """``sum_i [1 - y_i f_i]_+^2 + lam ||w||_1`` by CVXPY/Clarabel, the column centred."""
    Z = X - X.mean(axis=0)  # exact: b absorbs the shift
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    slack = cp.pos(1 - cp.multiply(y, Z @ w + b))
    problem = cp.Problem(cp.Minimize(cp.sum_squares(slack) + lam * cp.norm1(w)))
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12)
    return problem.value


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "Est, squared, minimum",
    [(L1SVM, False, _l1_svm_minimum), (SVM2, True, _svm2_minimum)],
    ids=["L1SVM-linprog", "SVM2-clarabel"],
)
def test_hinge_models_beside_a_timestamp_match_a_reference(fmt, shape, seed, Est, squared, minimum):
    X, target = _data(shape, seed)
    y = np.where(target > 0, 1.0, -1.0)
    est = Est(lam=1.0).fit(FORMATS[fmt](X), y)
    assert est.certificate_.holds
    hinge = np.maximum(0.0, 1.0 - y * (X @ est.coef_[0] + est.intercept_[0]))
    ours = (hinge @ hinge if squared else hinge.sum()) + np.abs(est.coef_[0]).sum()
    np.testing.assert_allclose(ours, minimum(X, y, 1.0), rtol=1e-7)


@pytest.mark.parametrize("fmt", FORMATS)
def test_offset_columns_are_centred_and_nothing_else(fmt):
    X, _ = _data("n>d", 0)
    X[:, 5] = 3.0  # a constant column is an offset column too
    X[:, 6] += 50.0  # mean 50, sd 1: below the ratio of 100
    found = offset_columns(FORMATS[fmt](X))
    np.testing.assert_array_equal(found, [0, 5])
    centred, shift = centre_columns(FORMATS[fmt](X), found)
    centred = centred.toarray() if sp.issparse(centred) else centred
    np.testing.assert_allclose(shift[[0, 5]], X[:, [0, 5]].mean(axis=0))
    np.testing.assert_allclose(centred[:, [0, 5]].mean(axis=0), 0.0, atol=1e-6)
    np.testing.assert_array_equal(np.delete(centred, [0, 5], axis=1), np.delete(X, [0, 5], axis=1))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    "path_function, squared, minimum",
    [(l1_svm_path, False, _l1_svm_minimum), (svm2_path, True, _svm2_minimum)],
    ids=["l1_svm_path-linprog", "svm2_path-clarabel"],
)
def test_hinge_paths_beside_a_timestamp_reach_zero_and_match_a_reference(
    shape, path_function, squared, minimum
):
    X, target = _data(shape, 0)
    y = np.where(target > 0, 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)  # the path must not stop early
        path = path_function(X, y)
    assert path.lams[-1] == 0.0
    for lam in path.lams[1 : len(path.lams) - 1 : max(1, len(path.lams) // 4)]:
        coef, intercept = path.at(lam)
        hinge = np.maximum(0.0, 1.0 - y * (X @ coef + intercept))
        ours = (hinge @ hinge if squared else hinge.sum()) + lam * np.abs(coef).sum()
        np.testing.assert_allclose(ours, minimum(X, y, lam), rtol=1e-7)


@pytest.mark.parametrize("shape", SHAPES)
def test_lasso_path_beside_a_timestamp_matches_lasso(shape):
    X, y = _data(shape, 1)
    path = lasso_path(X, y)
    for lam in path.lams[1 : len(path.lams) - 1 : max(1, len(path.lams) // 4)]:
        coef, intercept = path.at(lam)
        ref = Lasso(alpha=lam / (2 * len(y)), tol=1e-14, max_iter=10**6).fit(X, y)

        def objective(c, b, lam=lam):
            residual = y - X @ c - b
            return residual @ residual + lam * np.abs(c).sum()

        ours, theirs = objective(coef, intercept), objective(ref.coef_, ref.intercept_)
        assert ours <= theirs * (1 + 1e-9)
        np.testing.assert_allclose(ours, theirs, rtol=1e-7)


@pytest.mark.parametrize("fmt", [sp.csr_matrix, sp.csc_matrix])
def test_sparse_offset_columns_are_the_dense_ones(fmt):
    """Sparse X screens its columns by their count of nonzeros first (an offset column
    has every entry but one in 10^4 nonzero): the same columns as the dense test."""
    rng = np.random.default_rng(7)
    n = 30000
    X = sp.random(n, 40, density=0.05, format="csc", random_state=rng).toarray()
    X[:, 3] = 1.7e9 + 1e5 * rng.standard_normal(n)  # a timestamp
    X[:, 5] = 4.0  # a constant
    X[:, 7] = 1e3 + rng.standard_normal(n)  # dense, mean 1000 sd
    X[:, 9] = X[:, 3]
    X[:2, 9] = 0.0  # nonzero on all but 2 rows of 30000: still an offset column
    X[:, 11] = X[:, 3]
    X[: n // 100, 11] = 0.0  # 1% zeros: its spread is 10% of its mean
    expected = offset_columns(X)
    assert set(expected) == {3, 5, 7, 9}
    np.testing.assert_array_equal(offset_columns(fmt(X)), expected)


@pytest.mark.parametrize("fmt", [sp.csr_matrix, sp.csc_matrix])
def test_many_dense_columns_of_sparse_x_are_screened_as_dense_x(fmt):
    """More columns in every row than the few read by comparisons (CSR): the same offset
    columns as the dense definition."""
    rng = np.random.default_rng(3)
    n = 500
    X = rng.random((n, 60)) * (rng.random((n, 60)) < 0.3)
    X[:, :25] = 1.0 + rng.random((n, 25))  # in every row, mean about 1.5: no offset
    X[:, 2] = 1e6 + rng.standard_normal(n)  # offset columns among them
    X[:, 17] = 7.0
    expected = offset_columns(X)
    assert set(expected) == {2, 17}
    np.testing.assert_array_equal(offset_columns(fmt(X)), expected)
