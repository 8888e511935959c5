"""Sparse logistic regression on inputs found by the L1 audit: a Unix timestamp column, and
unpenalised features that nearly separate the classes.

Each answer is compared, by its objective (the optimum need not be unique), with CVXPY's
written out here and solved by Clarabel on centred unit-norm columns (an exact change of
variables: the intercept absorbs the means), and its certificate must hold.
"""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

from solvers import SparseLogisticRegression, SparseLogisticRegressionCV

TIGHT = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11}


def objective(X, y, w, b, lam, weights, l1_ratio):
    """``sum_i log(1 + exp(-y_i f_i)) + lam (r sum_j W_j |w_j| + (1 - r)/2 ||w||^2)``."""
    f = X @ w + b
    return float(
        np.logaddexp(0, -y * f).sum()
        + lam * (l1_ratio * np.sum(weights * np.abs(w)) + (1 - l1_ratio) / 2 * w @ w)
    )


def reference(X, y, lam, weights, l1_ratio):
    """The optimal objective by CVXPY/Clarabel on the centred, unit-norm columns."""
    mean = X.mean(axis=0)
    norms = np.linalg.norm(X - mean, axis=0)
    Z = (X - mean) / norms
    u, b = cp.Variable(X.shape[1]), cp.Variable()
    penalty = l1_ratio * cp.sum(cp.multiply(weights / norms, cp.abs(u)))
    penalty += (1 - l1_ratio) / 2 * cp.sum_squares(cp.multiply(1 / norms, u))
    loss = cp.sum(cp.logistic(-cp.multiply(y, Z @ u + b)))
    problem = cp.Problem(cp.Minimize((loss + lam * penalty) / X.shape[0]))
    problem.solve(solver="CLARABEL", **TIGHT)
    w = u.value / norms
    return objective(X, y, w, float(b.value) - mean @ w, lam, weights, l1_ratio)


def check(X, y, lam, weights, l1_ratio, fmt):
    data = sp.csr_matrix(X) if fmt == "csr" else X
    model = SparseLogisticRegression(lam=lam, l1_ratio=l1_ratio, weights=weights)
    model.fit(data, y)
    assert model.certificate_.holds
    ours = objective(X, y, model.coef_[0], model.intercept_[0], lam, weights, l1_ratio)
    best = reference(X, y, lam, weights, l1_ratio)
    assert ours <= best + 1e-6 * abs(best)
    assert np.isclose(model.objective_, ours, rtol=1e-9)
    np.testing.assert_allclose(model.decision_function(X), X @ model.coef_[0] + model.intercept_[0])


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize(("lam", "l1_ratio"), [(1.0, 1.0), (10.0, 1.0), (30.0, 1.0), (10.0, 0.5)])
def test_a_unix_timestamp_column(lam, l1_ratio, fmt):
    """Column 0 is 1.7e9 plus seconds: uncentred, no dual point's X_0'Ya kept its digits
    and every backend failed (a SolverError at lam = 10 and 30); centred, the intercept
    absorbs the mean exactly."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 8))
    X[:, 0] = 1.7e9 + rng.integers(0, 1000, 40)
    y = np.where(X[:, 1] + X[:, 3] + 0.7 * rng.standard_normal(40) > 0, 1.0, -1.0)
    check(X, y, lam, np.ones(8), l1_ratio, fmt)


@pytest.mark.parametrize("lam", [0.04, 0.4, 2.0])
def test_unpenalised_features_that_nearly_separate_the_classes(lam):
    """Integer features 0 and 3 unpenalised, the labels a noisy sign of feature 3:
    coefficients near 40. Proximal Newton stopped where its dual value exceeded the
    primal (the unpenalised features' dual constraints met to 2.7e-7, within its
    tolerance of 5e-7), 2e-6 above the optimum, and no backend was certified."""
    rng = np.random.default_rng(0)
    rng.standard_normal((40, 8))
    X = rng.integers(-5, 6, (40, 8)).astype(float)
    rng.standard_normal(40)
    y = np.where(X[:, 3] + 0.7 * rng.standard_normal(40) > 0, 1.0, -1.0)
    weights = np.ones(8)
    weights[[0, 3]] = 0.0
    check(X, y, lam, weights, 1.0, "dense")


@pytest.mark.parametrize("free", [[3], [0, 3]])
def test_unpenalised_features_that_separate_the_classes(free):
    """The labels are the sign of feature 3, unpenalised: the loss has infimum 0 and no
    minimiser, so every penalised coefficient is 0 at every lam (lam_max = 0). The fit of
    the free features stopped at a ~ 1e-300, lam_max came out as 6e-304, and the CV grid
    down from it (lams of 1e-308) ended in a LinAlgError ("Array must not contain infs or
    NaNs")."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 8))
    y = np.where(X[:, 3] > 0, 1, -1)
    weights = np.ones(8)
    weights[free] = 0.0
    assert SparseLogisticRegression.lam_max(X, y, weights) == 0.0
    assert SparseLogisticRegression.lam_max(sp.csr_matrix(X), y, weights) == 0.0
    model = SparseLogisticRegressionCV(weights=weights, cv=3).fit(X, y)
    assert model.certificate_.holds
    assert np.all(np.delete(model.coef_[0], free) == 0)
    assert model.objective_ <= 1e-12  # the infimum, 0: separable data
    assert np.all(model.predict(X) == y)
