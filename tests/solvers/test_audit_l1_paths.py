"""lam_max and the exact paths on inputs found by the L1 audit: three samples, sample
weights spanning ten decades (one of them 0), and an unpenalised feature.

lam_max is the largest ``|X_j' g| / W_j`` over the penalised features, g the gradient of
the loss in the fit at the optimum of the intercept and the unpenalised features alone;
that optimum is computed here, by ``numpy.linalg.lstsq`` on the rows scaled by
``sqrt(s_i)`` (the lasso) and by CVXPY/Clarabel (SVM2's squared hinge).
"""

import cvxpy as cp
import numpy as np
import pytest

from solvers import SVM2, WeightedLasso

X = np.array(
    [
        [0.12573022, -0.13210486, 0.64042265, 0.10490012, -0.53566937],
        [0.36159505, 1.30400005, 0.94708096, -0.70373524, -1.26542147],
        [-0.62327446, 0.04132598, -2.32503077, -0.21879166, -1.24591095],
    ]
)
WEIGHTS = np.array([0.0, 5.0, 1.0, np.inf, 1.0])  # feature 0 unpenalised, 3 excluded
TARGET = np.array([-0.11478008925799577, -0.8670129306641856, -0.3136817108432921])
LABELS = np.array([1.0, -1.0, 1.0])
SAMPLE_WEIGHTS = [
    np.array([0.0, 3.196222197065689e04, 2.764369719954072e-04]),
    np.array([1e-5, 1e4, 1.0]),
]


def lasso_lam_max(s):
    """``max_j |2 X_j'S r| / W_j`` at the weighted least-squares fit on ``[1, X_0]``."""
    Z = np.column_stack([np.ones(3), X[:, 0]])
    root = np.sqrt(s)
    theta = np.linalg.lstsq(root[:, None] * Z, root * TARGET, rcond=None)[0]
    return _largest(2 * X.T @ (s * (TARGET - Z @ theta)))


def svm2_lam_max(s):
    """The same at the squared-hinge fit on ``[1, X_0]`` (CVXPY/Clarabel)."""
    w, b = cp.Variable(), cp.Variable()
    margins = cp.pos(1 - cp.multiply(LABELS, X[:, 0] * w + b))
    cp.Problem(cp.Minimize(cp.sum(cp.multiply(s, cp.square(margins))))).solve(solver="CLARABEL")
    slack = np.maximum(1 - LABELS * (X[:, 0] * w.value + b.value), 0.0)
    return _largest(2 * X.T @ (s * LABELS * slack))


def _largest(correlations):
    penalised = np.isfinite(WEIGHTS) & (WEIGHTS > 0)
    return float(np.max(np.abs(correlations[penalised]) / WEIGHTS[penalised]))


@pytest.mark.parametrize("s", SAMPLE_WEIGHTS, ids=["zero", "decades"])
@pytest.mark.parametrize(
    ("model", "y", "reference"),
    [(WeightedLasso, TARGET, lasso_lam_max), (SVM2, LABELS, svm2_lam_max)],
    ids=["lasso", "svm2"],
)
def test_lam_max_with_sample_weights_over_ten_decades(model, y, reference, s):
    """The fit of [1, X_0] on the samples was solved through the normal equations, whose
    condition is the rows' squared (rows scaled by 173 and 0.016): the least-squares
    residual kept 3e-9 of its size and the lasso's lam_max raised "the fit of the intercept
    and the unpenalised features failed"; SVM2's Newton steps cycled ("did not settle")."""
    expected = reference(s)
    lam_max = model.lam_max(X, y, WEIGHTS, sample_weight=s)
    assert lam_max == pytest.approx(expected, rel=1e-6, abs=1e-9 * np.abs(y * np.sqrt(s)).max())
    coef = model(lam=1.01 * max(lam_max, 1e-6), weights=WEIGHTS).fit(X, y, sample_weight=s).coef_
    assert np.all(np.ravel(coef)[1:] == 0)
