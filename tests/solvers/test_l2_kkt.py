"""The 2-norm penalty's KKT violation (one compiled pass) against the formula written out."""

import numpy as np
import pytest

from solvers._penalty import Penalty


def _written_out(correlations, coef, norms, dual_norm, l2):
    """``max_j |c_j - l2 w_j| / (||X_j|| ||v|| + l2 |w_j|)``, 0 where the scale is 0."""
    scale = norms * dual_norm + l2 * np.abs(coef)
    excess = np.abs(correlations - l2 * coef)
    ratio = np.divide(excess, scale, out=np.zeros_like(excess), where=scale > 0)
    return ratio.max(initial=0.0)


@pytest.mark.parametrize("seed", range(5))
def test_l2_kkt_violation_is_the_formula(seed):
    rng = np.random.default_rng(seed)
    d, l2 = 1000, 10.0 ** rng.uniform(-3, 3)
    coef = rng.standard_normal(d) * (rng.random(d) < 0.5)  # zeros too
    norms = np.abs(rng.standard_normal(d)) * (rng.random(d) < 0.8)  # zero columns too
    correlations = l2 * coef + 1e-3 * rng.standard_normal(d) * norms
    penalty = Penalty(np.zeros(d), l2)
    assert penalty.l2_only
    found = penalty.kkt_violation(correlations, coef, norms, 2.0)
    assert found == pytest.approx(_written_out(correlations, coef, norms, 2.0, l2), rel=1e-12)
    assert found > 0  # a perturbed point violates stationarity
    exact = penalty.kkt_violation(l2 * coef, coef, norms, 2.0)
    assert exact == 0.0


def test_l2_kkt_violation_propagates_nan():
    d = 10
    penalty = Penalty(np.zeros(d), 1.0)
    correlations = np.ones(d)
    correlations[7] = np.nan
    assert np.isnan(penalty.kkt_violation(correlations, np.ones(d), np.ones(d), 1.0))
    coef = np.ones(d)
    coef[3] = np.nan
    assert np.isnan(penalty.kkt_violation(np.ones(d), coef, np.ones(d), 1.0))


def test_ridge_certificate_kkt_and_resolution_are_the_formulas():
    """Ridge regression's certificate reads its KKT violation (``shift = 0``: the
    gradient) and its rounding resolution in one pass: against the formulas."""
    from solvers.certificates import ridge_certificate

    rng = np.random.default_rng(4)
    X = rng.standard_normal((40, 60)) * (rng.random((40, 60)) < 0.5)
    X[:, 3] = 0.0
    y = rng.standard_normal(40)
    lam = 0.7
    coef = np.linalg.solve(X.T @ X + lam * np.eye(60), X.T @ y) + 1e-4 * rng.standard_normal(60)
    certificate = ridge_certificate(X, y, coef, lam=lam)
    residual = y - X @ coef
    gradient = X.T @ residual - lam * coef
    norms = np.linalg.norm(X, axis=0)
    scale = norms * max(np.linalg.norm(residual), np.linalg.norm(y)) + lam * np.abs(coef)
    assert certificate.kkt == pytest.approx(np.max(np.abs(gradient) / scale), rel=1e-9)
    assert certificate.kkt > 0 and not certificate.holds  # the perturbed point fails
