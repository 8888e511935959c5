"""The certificates' tolerance is relative to the optimum, with a floor at the rounding
level of the problem's own scale.

The scale is ``max(|primal|, |dual|, ZERO_SCALE null)``, null the objective at zero
coefficients with the best intercept (the constant model's loss): an optimum of
exactly 0, or below the floor, certifies on the first backend instead of failing a
tolerance taken relative to the optimum alone, and an answer far above a small
optimum does not certify because the constant model's loss is large. References: a
brute-force minimisation over the intercept, scikit-learn's SVC, the exact zero of a
model that fits the data, and the hard margin.
"""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn.svm import SVC

from solvers import L1SVM, SVM2, SVMDual, WeightedLasso
from solvers.certificates import (
    GAP_TOLERANCE,
    ZERO_SCALE,
    hinge_null_objective,
    lasso_certificate,
    squares_null_objective,
)


@pytest.mark.parametrize("squared", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_null_objective_is_the_best_constant_model(squared, weighted):
    rng = np.random.default_rng(3)
    y = np.where(rng.random(37) < 0.3, -1.0, 1.0)
    s = rng.uniform(0.1, 5.0, y.size) if weighted else None
    weights = np.ones(y.size) if s is None else s

    def loss(b):
        slack = np.maximum(0.0, 1.0 - y * b)
        return weights @ (slack * slack if squared else slack)

    best = min(loss(b) for b in np.linspace(-3, 3, 60001))
    assert hinge_null_objective(y, s, squared=squared) == pytest.approx(best, rel=1e-8)
    target = rng.standard_normal(37)
    found = minimize_scalar(lambda b: weights @ (target - b) ** 2)
    assert squares_null_objective(target, s) == pytest.approx(found.fun, rel=1e-10)


def test_a_tiny_optimum_certifies_on_the_first_backend():
    """Separable data at scale 1e3: 1/2 ||w||^2 near 1e-7, below the rounding floor of
    the problem's scale (ZERO_SCALE times C times the constant model's hinge, 184 here):
    the gap is relative to that floor, and the first backend certifies."""
    rng = np.random.default_rng(0)
    X = 1000.0 * rng.standard_normal((200, 1000))
    y = np.sign(X @ rng.standard_normal(1000))
    fit = SVMDual(C=1.0).fit(X, y)
    assert len(fit.solve_attempts_) == 1 and fit.certificate_.holds
    peer = SVC(kernel="linear", C=1.0, tol=1e-10).fit(X, y)
    w = peer.coef_.ravel()
    assert fit.objective_ == pytest.approx(0.5 * w @ w, rel=1e-4)
    floor = ZERO_SCALE * hinge_null_objective(y)
    assert fit.objective_ < floor
    assert fit.certificate_.scale == pytest.approx(
        max(abs(fit.certificate_.primal), abs(fit.certificate_.dual), floor), rel=1e-12
    )


def _separated_by_an_unpenalised_feature():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 6))
    y = np.where(rng.random(40) < 0.5, -1.0, 1.0)
    X[:, 0] = 3.0 * y + 0.1 * rng.random(40)
    weights = np.ones(6)
    weights[0] = 0.0
    return X, y, weights


@pytest.mark.parametrize("model", [L1SVM, SVM2])
def test_an_optimum_of_zero_certifies(model):
    """Feature 0 (unpenalised) separates the classes: the optimum is exactly 0."""
    X, y, weights = _separated_by_an_unpenalised_feature()
    fit = model(lam=1.0, weights=weights).fit(X, y)
    assert fit.certificate_.holds
    # 0 to the tolerance, against the constant model's loss (at most n).
    assert fit.objective_ <= GAP_TOLERANCE * len(y)
    # The answer that certifies is 0 to the rounding floor (64 ulps of the constant
    # model's loss): a first-order backend's 1e-8 there is not, and the chain moves on.
    assert fit.objective_ <= fit.certificate_.scale * GAP_TOLERANCE
    # The zero optimum is the one a separating rule on feature 0 alone attains.
    w = np.zeros(6)
    w[0] = 1.0
    assert np.all(y * (X @ w - 0.05) >= 1.0 - 1e-12)


def test_interpolating_unpenalised_features_certify_a_zero_lasso():
    """25 unpenalised features fit 20 targets exactly: the optimum is 0."""
    rng = np.random.default_rng(2)
    X = rng.standard_normal((20, 40))
    y = rng.standard_normal(20)
    weights = np.ones(40)
    weights[:25] = 0.0
    fit = WeightedLasso(lam=1.0, weights=weights).fit(X, y)
    assert fit.certificate_.holds and fit.objective_ <= 1e-12
    # Least squares on the 25 free columns (minimum norm) interpolates: a zero optimum.
    free = np.linalg.lstsq(np.column_stack((np.ones(20), X[:, :25])), y, rcond=None)[0]
    coef = np.zeros(40)
    coef[:25] = free[1:]
    exact = lasso_certificate(X, y, coef, free[0], 1.0, weights)
    assert exact.primal <= 1e-20 and exact.holds
    assert exact.relative_gap <= GAP_TOLERANCE


def test_an_answer_far_above_a_small_optimum_does_not_certify():
    """C = 1e9 on separable data: the optimum is the hard margin's 1/2 ||w||^2 (0.32), the
    constant model's loss C n is 2.8e10. Dual coordinate descent stalls far above the
    optimum; a scale of that loss would have certified it (relative gap 1e-7)."""
    from solvers.exceptions import SolverError

    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 50))
    y = np.where(X @ rng.standard_normal(50) > 0, 1.0, -1.0)
    hard = SVMDual(C=1e9, solver="CLARABEL").fit(X, y)
    reference = SVC(kernel="linear", C=1e9, tol=1e-10).fit(X, y)
    w = reference.coef_.ravel()
    assert hard.objective_ == pytest.approx(0.5 * w @ w, rel=1e-4)
    try:
        stalled = SVMDual(C=1e9, solver="DUAL_CD").fit(X, y)
    except SolverError:
        return
    # Certified only where it is as good as the reference, to the tolerance.
    assert stalled.objective_ <= hard.objective_ * (1 + 1e-5)
