"""``WeightedL1Model.lam_max`` passes on the PathWarnings that concern the value it returns.

lam_max is ``lams[0]`` of the model's exact path run for one breakpoint; that path stops
with a PathWarning ("max_steps=1 reached"), which ``lam_max`` silenced together with any
other: a path that could not certify its first breakpoint gave a wrong lam_max (0) with
no word. Checked against the 1-norm SVM written out in CVXPY.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest

from solvers import L1SVM, SVM2, WeightedLasso
from solvers.exceptions import PathWarning


def _l1_svm_objective(X, y, lam, weights):
    """The optimum of ``min sum_i [1 - y_i (x_i'w + b)]_+ + lam sum_j W_j |w_j|`` (004 eq. 6)
    written out in CVXPY, solved by CLARABEL."""
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    hinge = cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b)))
    problem = cp.Problem(cp.Minimize(hinge + lam * cp.sum(cp.multiply(weights, cp.abs(w)))))
    problem.solve(solver="CLARABEL")
    assert problem.status == "optimal"
    return problem.value


def _lam_max(cls, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = cls.lam_max(*args)
    return value, [w for w in caught if issubclass(w.category, PathWarning)]


def test_l1_svm_lam_max_warns_when_its_path_cannot_start():
    """Column 0 at 1e8 (penalised), column 2 unpenalised: the path finds no certified
    direction at its start and records lam_max = 0. The LP without column 0 (w_0 = 0 is
    feasible, so it bounds the full problem's optimum from above) already has a lower
    objective at lam = 1 than the best fit with every penalised coefficient 0: the true
    lam_max is at least 1. Before: 0.0 and no warning."""
    rng = np.random.default_rng(8)
    X = rng.standard_normal((7, 3))
    X[:, 0] *= 1e8
    y = np.where(rng.random(7) < 0.5, -1.0, 1.0)
    y[:2] = [-1.0, 1.0]
    weights = np.array([1.0, 1.0, 0.0])
    # The best fit with coef_0 = coef_1 = 0 (column 2 unpenalised, free).
    zero = _l1_svm_objective(X[:, 2:], y, 1.0, np.zeros(1))
    assert _l1_svm_objective(X[:, 1:], y, 1.0, weights[1:]) < zero - 0.5
    value, caught = _lam_max(L1SVM, X, y, weights)
    assert value >= 1.0 or caught, f"lam_max={value} (true >= 1) without a PathWarning"
    if caught:
        assert "L1SVM.lam_max" in str(caught[0].message)
        assert "not certified" in str(caught[0].message)


@pytest.mark.parametrize("cls", [WeightedLasso, SVM2, L1SVM])
def test_lam_max_quiet_when_certified(cls):
    """On ordinary data, with an unpenalised feature (the path road), no PathWarning; the
    lasso's value is the closed form ``max_j |2 X_j'r| / W_j`` at the residual r of the
    least-squares fit of the intercept and the unpenalised feature (004 eq. 3)."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 5))
    target = X @ rng.standard_normal(5) + rng.standard_normal(30)
    y = target if cls is WeightedLasso else np.sign(target)
    weights = np.array([0.0, 1.0, 2.0, 1.0, 1.0])
    value, caught = _lam_max(cls, X, y, weights)
    assert not caught
    assert value > 0
    if cls is WeightedLasso:
        Z = np.column_stack([np.ones(30), X[:, 0]])
        residual = y - Z @ np.linalg.lstsq(Z, y, rcond=None)[0]
        expected = np.max(np.abs(2 * X[:, 1:].T @ residual) / weights[1:])
        assert value == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("weights", [np.zeros(3), np.full(3, np.inf), [0.0, np.inf, 0.0]])
def test_l1_svm_lam_max_without_penalised_features_is_zero_and_quiet(weights):
    """No penalised feature: lam_max is 0 exactly, and the path's stop at its empty start
    concerns no answer (no warning)."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((12, 3))
    y = np.where(X[:, 0] + rng.standard_normal(12) > 0, 1, -1)
    y[:2] = [-1, 1]
    value, caught = _lam_max(L1SVM, X, y, weights)
    assert value == 0.0
    assert not caught
