"""The squared hinge's Newton coordinate steps in solvers._coordinate_descent (issue 32).

A step along one coordinate takes the curvature of the samples inside the margin and is
kept only when its bound on the objective's change beats the majorisation step's
guarantee (:func:`solvers._coordinate_descent._keeps_newton`). Checked against things
independent of the kernel: the one-dimensional objective evaluated by NumPy at the
steps taken (each no worse than the majorisation step, the bound an upper bound of the
true change: the inequality the safeguard rests on), and whole fits on data where most
samples lie outside the margin (where the Newton step is longest and most often
overshoots) against the SVM2 problem (004 eq. 7) written out in CVXPY here, with and
without sample weights, sparse and dense.
"""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

from solvers._coordinate_descent import (
    _column_arrays,
    _epoch,
    _intercept_step,
    _soft_step,
    l1_coordinate_descent,
)
from solvers.certificates import svm2_certificate

TIGHT = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11, "max_iter": 500}


def _objective(X, y, coef, intercept, lam, s):
    slack = np.maximum(0.0, 1.0 - y * (X @ coef + intercept))
    return float(s @ slack**2 + lam * np.abs(coef).sum())


def _separated(n, d, seed, *, margin=3.0):
    """Labels of a sparse linear rule with a wide margin: at a small lam most samples end
    outside the margin, the curvature inside it is a small part of the column's."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.3)
    beta = np.zeros(d)
    beta[:4] = [2.0, -1.5, 1.0, 0.5]
    score = X @ beta
    y = np.where(score > 0, 1.0, -1.0)
    X[:, 0] += margin * y * (rng.random(n) < 0.5)  # half the samples far from the boundary
    return X, y


def _lam_max(X, y, s):
    centred = y - np.average(y, weights=s)
    return float(np.max(np.abs(2.0 * X.T @ (s * centred))))


def _cvxpy_svm2(X, y, lam, s):
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    slack = cp.pos(1 - cp.multiply(y, X @ w + b))
    objective = cp.sum(cp.multiply(s, cp.square(slack))) + lam * cp.norm1(w)
    problem = cp.Problem(cp.Minimize(objective))
    problem.solve(solver=cp.CLARABEL, **TIGHT)
    return w.value, float(b.value), problem.value


@pytest.mark.parametrize("seed", range(4))
def test_each_step_is_no_worse_than_the_majorisation_step(seed):
    """One epoch over every column from a random point: after each coordinate's step the
    objective (NumPy) is at most what the majorisation step of length 1 / L_j would give,
    evaluated from the same point."""
    X, y = _separated(60, 8, seed)
    rng = np.random.default_rng(seed)
    s = rng.uniform(0.5, 2.0, y.size)
    lam = 0.05 * _lam_max(X, y, s)
    coef, intercept = rng.standard_normal(8) * 0.3, 0.2
    Xf = np.asfortranarray(X)
    data, indices, indptr, dense = _column_arrays(Xf)
    weighted = np.asfortranarray(X * s[:, None]).ravel(order="F")
    lipschitz = 2.0 * (s @ X**2)
    thresholds = np.full(8, lam)
    n = y.size
    for j in range(8):
        fit = X @ coef + intercept
        slack = np.maximum(0.0, 1.0 - y * fit)
        gradient = float((s * y * slack) @ X[:, j])
        safe = _soft_step(coef[j], gradient, 0.5 * lipschitz[j], lam)
        majorised = coef.copy()
        majorised[j] = safe
        state = fit.copy()
        after = coef.copy()
        _epoch(data, indices, indptr, n, dense, weighted, np.array([j]), y, s, False, after,
               state, intercept, lipschitz, np.zeros(8), thresholds)  # fmt: skip
        np.testing.assert_allclose(state, X @ after + intercept, atol=1e-12)
        taken = _objective(X, y, after, intercept, lam, s)
        assert taken <= _objective(X, y, majorised, intercept, lam, s) + 1e-12
        coef = after


@pytest.mark.parametrize("seed", range(4))
def test_intercept_step_is_no_worse_than_the_majorisation_step(seed):
    X, y = _separated(50, 5, seed)
    rng = np.random.default_rng(seed)
    s = rng.uniform(0.5, 2.0, y.size)
    coef = rng.standard_normal(5)
    fit = X @ coef + rng.standard_normal()
    slack = np.maximum(0.0, 1.0 - y * fit)
    majorised = fit + (s * y * slack).sum() / s.sum()
    state = fit.copy()
    _intercept_step(y, s, False, state, 0.0, s.sum())
    loss = lambda f: float(s @ np.maximum(0.0, 1.0 - y * f) ** 2)  # noqa: E731
    assert np.ptp(state - fit) < 1e-12  # a shift of every fitted value
    assert loss(state) <= loss(majorised) + 1e-12


def test_overshooting_steps_are_replaced():
    """One sample inside the margin, nineteen on its edge on the other side of the step:
    the Newton step (length 1 on the column, 1 on the intercept) would bring all of them
    inside (objective 1 -> 19); the majorisation step is taken instead, and the objective
    decreases."""
    n = 20
    y = np.ones(n)
    x = np.full(n, -1.0)
    x[0] = 1.0
    fit = np.ones(n)  # y f = 1: on the margin's edge, no loss
    fit[0] = 0.0  # inside: slack 1
    X = x[:, None]
    s = np.ones(n)
    data, indices, indptr, dense = _column_arrays(np.asfortranarray(X))
    coef, state = np.zeros(1), fit.copy()
    loss = lambda f: float(s @ np.maximum(0.0, 1.0 - y * f) ** 2)  # noqa: E731
    _epoch(data, indices, indptr, n, dense, data, np.array([0]), y, s, False, coef, state,
           0.0, np.array([2.0 * n]), np.zeros(1), np.zeros(1))  # fmt: skip
    assert coef[0] == pytest.approx(1.0 / n)  # the majorisation step, 1 / (2 sum x^2) * 2 g
    np.testing.assert_allclose(state, fit + coef[0] * x, atol=1e-15)
    assert loss(state) < loss(fit)
    # The intercept: the edge samples of the other class.
    y = -np.ones(n)
    y[0] = 1.0
    fit = -np.ones(n)
    fit[0] = 0.0
    state = fit.copy()
    _intercept_step(y, s, False, state, 0.0, float(n))
    np.testing.assert_allclose(state, fit + 1.0 / n, atol=1e-15)
    assert loss(state) < loss(fit)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("layout", [np.asfortranarray, sp.csc_matrix])
@pytest.mark.parametrize("fraction", [0.2, 0.01])
def test_wide_margin_matches_cvxpy(fraction, layout, weighted):
    """Most samples outside the margin: the fit agrees with CVXPY and is certified."""
    X, y = _separated(120, 40, 1)
    s = np.random.default_rng(2).uniform(0.5, 3.0, y.size) if weighted else np.ones(y.size)
    lam = fraction * _lam_max(X, y, s)
    result = l1_coordinate_descent(layout(X), y, lam, np.ones(40), loss="squared_hinge",
                                   sample_weight=s if weighted else None, tol=1e-12)  # fmt: skip
    assert result.converged
    coef, intercept, value = _cvxpy_svm2(X, y, lam, s)
    found = _objective(X, y, result.coef, result.intercept, lam, s)
    assert found <= value * (1 + 1e-8)
    np.testing.assert_allclose(result.coef, coef, atol=1e-4)
    assert result.intercept == pytest.approx(intercept, abs=1e-4)
    certificate = svm2_certificate(X, y, result.coef, result.intercept, lam, np.ones(40),
                                   sample_weight=s if weighted else None)  # fmt: skip
    assert certificate.holds
