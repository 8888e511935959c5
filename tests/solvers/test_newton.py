"""The finite Newton backend of the squared-hinge L2SVM against scipy.optimize and CVXPY."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize

from solvers import L2SVM
from solvers._newton import squared_hinge_newton


def _objective(theta, X, y, C):
    w, b = theta[:-1], theta[-1]
    slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return 0.5 * w @ w + C * slack @ slack


def _gradient(theta, X, y, C):
    w, b = theta[:-1], theta[-1]
    slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
    g = -2.0 * C * y * slack
    return np.concatenate((w + X.T @ g, [g.sum()]))


@pytest.mark.parametrize("C", [1e-3, 1.0, 1e3])
@pytest.mark.parametrize("seed", [0, 1])
def test_newton_matches_scipy_minimize(C, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((300, 6)) + 0.5
    y = np.where(X[:, 0] - X[:, 1] + rng.standard_normal(300) > 0, 1.0, -1.0)
    coef, intercept = squared_hinge_newton(X, y, C)
    # The objective is convex and C^1: L-BFGS-B to a tight tolerance is a reference.
    reference = minimize(
        _objective,
        np.zeros(7),
        args=(X, y, C),
        jac=_gradient,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10000},
    )
    ours = _objective(np.append(coef, intercept), X, y, C)
    assert ours <= reference.fun * (1 + 1e-10)
    np.testing.assert_allclose(coef, reference.x[:-1], rtol=1e-4, atol=1e-6)


def test_l2svm_squared_hinge_uses_newton_and_equals_clarabel():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((2500, 8))
    y = np.where(X @ np.arange(1.0, 9.0) + 3.0 * rng.standard_normal(2500) > 0, 1.0, -1.0)
    ours = L2SVM(C=0.5, loss="squared_hinge").fit(X, y)
    assert ours.backend_ == "NEWTON" and ours.certificate_.holds
    reference = L2SVM(C=0.5, loss="squared_hinge", solver="CLARABEL").fit(X, y)
    np.testing.assert_allclose(ours.coef_, reference.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.objective_, reference.objective_, rtol=1e-9)
    sparse = L2SVM(C=0.5, loss="squared_hinge").fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.coef_, ours.coef_, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fmt", [np.asarray, sp.csr_matrix])
@pytest.mark.parametrize("C", [1e-2, 1.0, 1e2])
def test_wide_data_newton_in_the_sample_space(fmt, C):
    """d > n: the ridge steps go through the n x n Gram matrix; scipy and Clarabel agree."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((30, 80)) * (rng.random((30, 80)) < 0.3)
    y = np.where(X[:, 0] + X[:, 1] + 0.3 * rng.standard_normal(30) > 0, 1.0, -1.0)
    est = L2SVM(C=C, loss="squared_hinge", solver="NEWTON").fit(fmt(X), y)
    assert est.backend_ == "NEWTON" and est.certificate_.holds
    reference = minimize(
        _objective,
        np.zeros(81),
        args=(X, y, C),
        jac=_gradient,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 20000},
    )
    ours = _objective(np.append(est.coef_, est.intercept_), X, y, C)
    assert ours <= reference.fun * (1 + 1e-10)
    np.testing.assert_allclose(ours, reference.fun, rtol=1e-8)
    dual = L2SVM(C=C, loss="squared_hinge", solver="CLARABEL").fit(X, y)
    np.testing.assert_allclose(est.coef_, dual.coef_, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(est.objective_, dual.objective_, rtol=1e-7)
