"""The weighted elastic net's KKT violation (two compiled passes,
``solvers._penalty.elastic_net_kkt_violation``) against the formula written out, and
at an optimum found by scikit-learn."""

import numpy as np
import pytest
from sklearn.linear_model import Lasso

from solvers._penalty import Penalty, l1_kkt_violation


def _written_out(correlations, coef, norms, dual_norm, l1, l2, rtol=1e-6):
    """The violation of ``c_j - l2 w_j in l1_j d|w_j|``, feature by feature."""
    contribution = np.abs(coef) * norms
    threshold = rtol * contribution.max(initial=0.0)
    worst = 0.0
    for j in range(coef.size):
        if np.isinf(l1[j]):
            continue
        if contribution[j] > threshold:
            scale = norms[j] * dual_norm + l2 * abs(coef[j])
            excess = abs(correlations[j] - l2 * coef[j] - l1[j] * np.sign(coef[j]))
        else:
            scale = norms[j] * dual_norm
            excess = max(abs(correlations[j]) - l1[j], 0.0)
        if scale > 0:
            worst = max(worst, excess / scale)
    return worst


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("l2", [0.0, 0.3])
def test_elastic_net_kkt_violation_is_the_formula(seed, l2):
    rng = np.random.default_rng(seed)
    d = 400
    coef = rng.standard_normal(d) * (rng.random(d) < 0.3)  # zeros too
    norms = np.abs(rng.standard_normal(d)) * 10.0 ** rng.uniform(-6, 6, d)
    norms[rng.random(d) < 0.1] = 0.0  # zero columns
    l1 = 10.0 ** rng.uniform(-2, 2, d)
    l1[rng.random(d) < 0.05] = np.inf  # excluded features
    l1[rng.random(d) < 0.05] = 0.0  # unpenalised features
    coef[np.isinf(l1)] = 0.0
    dual_norm = 1.7
    # Stationary up to a perturbation of each feature's scale.
    correlations = l2 * coef + np.where(coef != 0, np.sign(coef) * np.where(np.isinf(l1), 0, l1),
                                        rng.uniform(-1, 1, d) * np.where(np.isinf(l1), 1, l1))
    correlations += 1e-4 * rng.standard_normal(d) * norms * dual_norm
    penalty = Penalty(l1, l2)
    found = penalty.kkt_violation(correlations, coef, norms, dual_norm)
    expected = _written_out(correlations, coef, norms, dual_norm, l1, l2)
    assert found == pytest.approx(expected, rel=1e-12)
    assert found > 0  # the perturbation is seen
    if l2 == 0.0:
        lam, weights = 2.0, l1 / 2.0
        assert l1_kkt_violation(correlations, coef, lam, weights, norms, dual_norm) == (
            pytest.approx(expected, rel=1e-12)
        )


def test_elastic_net_kkt_violation_is_zero_at_scikit_learns_lasso():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 30))
    y = X[:, :4] @ np.array([2.0, -1.0, 0.5, 3.0]) + 0.1 * rng.standard_normal(60)
    alpha = 0.05
    model = Lasso(alpha=alpha, fit_intercept=False, tol=1e-14, max_iter=100_000).fit(X, y)
    residual = y - X @ model.coef_
    lam = 2 * 60 * alpha  # sum of squares + lam ||w||_1: correlations 2 X'r
    correlations = 2 * X.T @ residual
    norms = np.linalg.norm(X, axis=0)
    found = Penalty(np.full(30, lam), 0.0).kkt_violation(
        correlations, model.coef_, norms, np.linalg.norm(2 * residual)
    )
    assert found < 1e-9
    moved = model.coef_.copy()
    moved[0] += 0.1  # off the optimum: its correlations no longer balance the penalty
    residual = y - X @ moved
    assert Penalty(np.full(30, lam), 0.0).kkt_violation(
        2 * X.T @ residual, moved, norms, np.linalg.norm(2 * residual)
    ) > 1e-3


def test_elastic_net_kkt_violation_propagates_nan():
    d = 10
    penalty = Penalty(np.ones(d), 0.5)
    for name in ("correlations", "coef", "norms"):
        arrays = {"correlations": np.ones(d), "coef": np.ones(d), "norms": np.ones(d)}
        arrays[name][4] = np.nan
        assert np.isnan(penalty.kkt_violation(arrays["correlations"], arrays["coef"],
                                              arrays["norms"], 1.0)), name  # fmt: skip
