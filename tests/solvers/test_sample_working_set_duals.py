"""SVMDual and L2SVM on many samples (CVXPY's backends on a working set of samples)
report the full problem's dual variables: alpha_, support_ and objective_ are those
of all n samples, not of the working subset, against the dual written out in CVXPY on
every sample."""

import cvxpy as cp
import numpy as np
import pytest

from solvers import L2SVM, SVMDual
from solvers.backends._working_sets import many_samples
from solvers.guarantees import margin


def _imbalanced(n, ratio, seed=0):
    """n samples in 4 features, one positive for every ``ratio`` negatives."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) < n // (ratio + 1), 1.0, -1.0)
    return rng.standard_normal((n, 4)) + 0.5 * y[:, None], y


def _dual_optimum(X, y, C):
    """001 eq. (2) on every sample: ``max 1'a - ||X'Y a||^2 / 2, 0 <= a <= C, y'a = 0``."""
    a = cp.Variable(X.shape[0])
    problem = cp.Problem(
        cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares((X * y[:, None]).T @ a)),
        [a >= 0, a <= C, y @ a == 0],
    )
    problem.solve(solver="CLARABEL")
    return problem.value


def _dual_value(X, y, alpha):
    return alpha.sum() - 0.5 * np.sum((X.T @ (y * alpha)) ** 2)


@pytest.mark.parametrize(
    "n, ratio", [(2000, 1), (2000, 10), (2000, 100), (5000, 100)], ids=lambda v: str(v)
)
@pytest.mark.parametrize("C", [0.002, 0.68])
@pytest.mark.parametrize("estimator", [SVMDual, L2SVM], ids=["SVMDual", "L2SVM"])
def test_dual_variables_are_the_full_problems(n, ratio, C, estimator):
    X, y = _imbalanced(n, ratio)
    assert many_samples(X)
    fit = estimator(C=C, solver="CLARABEL").fit(X, y)
    assert fit.certificate_.holds and "working set" in fit.solve_attempts_[-1]["message"]
    reference = _dual_optimum(X, y, C)
    alpha = fit.alpha_
    assert alpha.shape == (n,) and np.all(alpha >= 0) and np.all(alpha <= C * (1 + 1e-9))
    assert abs(y @ alpha) <= 1e-6 * C * n
    assert _dual_value(X, y, alpha) == pytest.approx(reference, rel=1e-6)
    # w = X'Y a, and every sample inside the margin is a support vector at a = C.
    np.testing.assert_allclose(fit.coef_.ravel(), X.T @ (y * alpha), atol=1e-6 * C * n)
    margins = y * fit.decision_function(X)
    inside = margins < 1 - 1e-6
    assert set(np.flatnonzero(inside)) <= set(fit.support_)
    np.testing.assert_allclose(alpha[inside], C, rtol=1e-6)
    if estimator is SVMDual:
        assert fit.objective_ == pytest.approx(reference, rel=1e-6)


def test_the_soft_margin_of_many_samples_is_the_full_dual():
    X, y = _imbalanced(3000, 100)
    found = margin(X, y, C=1.0)
    reference = _dual_optimum(X, y, 1.0)
    assert found.form == "soft" and found.value == pytest.approx(reference, rel=1e-6)
    low, high = found.objective_bounds
    assert low <= reference * (1 + 1e-9) and reference <= high * (1 + 1e-9)
