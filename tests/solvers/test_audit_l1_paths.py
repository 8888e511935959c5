"""lam_max and the exact paths on inputs found by the L1 audit: three samples, sample
weights spanning ten decades (one of them 0), and an unpenalised feature; an
unpenalised column at 1e12 or 1e-12 beside unit columns (the 1-norm SVM's path).

lam_max is the largest ``|X_j' g| / W_j`` over the penalised features, g the gradient of
the loss in the fit at the optimum of the intercept and the unpenalised features alone;
that optimum is computed here, by ``numpy.linalg.lstsq`` on the rows scaled by
``sqrt(s_i)`` (the lasso) and by CVXPY/Clarabel (SVM2's squared hinge).
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog

from solvers import L1SVM, SVM2, WeightedLasso
from solvers.exceptions import PathWarning
from solvers.path import l1_svm_path, svm2_path

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


def _hinge_lp(X, y, lam, weights):
    """The 1-norm SVM's optimal objective by ``scipy.optimize.linprog`` (HiGHS) on the LP
    ``min 1'xi + lam W'(p + q)`` s.t. ``xi >= 1 - y (X (p - q) + b)``, ``xi, p, q >= 0``,
    on the features of finite weight, columns scaled to unit norm (exact: the
    coefficients absorb the factors)."""
    kept = np.isfinite(weights)
    norms = np.linalg.norm(X[:, kept], axis=0)
    Z, W = X[:, kept] / norms, weights[kept] / norms
    n, d = Z.shape
    YZ = y[:, None] * Z
    cost = np.concatenate([lam * W, lam * W, [0.0, 0.0], np.ones(n)])
    A = np.hstack([-YZ, YZ, -y[:, None], y[:, None], -np.eye(n)])
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=(0, None), method="highs")
    assert result.status == 0
    return result.fun


@pytest.mark.parametrize("size", [1e12, 1e-12])
def test_l1_svm_path_with_an_unpenalised_column_at_an_extreme_scale(size):
    """Column 0, unpenalised, at 1e12 (or 1e-12) beside unit columns. The path divided X
    by its largest entry (the other columns then at 1e-12), or HiGHS read the free
    column's row of 1e-12 as zero: its start was wrong, it stopped at once with lam_max
    = 0 (a PathWarning), and ``L1SVM.lam_max`` returned 0."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 8))
    X[:, 0] *= size
    signal = X[:, 1] + X[:, 3]
    rng.standard_normal(40)
    y = np.where(signal + 0.7 * rng.standard_normal(40) > 0, 1.0, -1.0)
    weights = np.ones(8)
    weights[[0, 3]] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = l1_svm_path(X, y, weights)
    lam_max = L1SVM.lam_max(X, y, weights)
    assert lam_max == path.lams[0] > 0
    free_only = _hinge_lp(X, y, 1.0, np.where(weights == 0, 0.0, np.inf))
    assert _hinge_lp(X, y, 1.001 * lam_max, weights) == pytest.approx(free_only, rel=1e-9)
    assert _hinge_lp(X, y, 0.99 * lam_max, weights) < free_only * (1 - 1e-6)
    for lam in (1e-3, path.lams[len(path.lams) // 2], 0.5 * lam_max):
        coef, intercept = path.at(lam)
        ours = (
            np.maximum(0, 1 - y * (X @ coef + intercept)).sum()
            + lam * np.abs(coef[weights > 0]).sum()
        )
        assert ours <= _hinge_lp(X, y, lam, weights) * (1 + 1e-9) + 1e-12


@pytest.mark.parametrize("sample_weight", [None, np.linspace(0.1, 10.0, 40)])
def test_svm2_path_when_unpenalised_features_separate_the_classes(sample_weight):
    """The labels are the sign of feature 3, unpenalised with feature 0: a fit of the free
    features alone puts every margin at 1 or above, the squared hinge's optimum (0), and
    no penalised feature ever enters (lam_max = 0). Newton's method on the free features
    cycled (a column blocked once fewer samples than columns were below the margin) and
    svm2_path and SVM2.lam_max raised SolverError."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 8))
    y = np.where(X[:, 3] > 0, 1.0, -1.0)
    weights = np.ones(8)
    weights[[0, 3]] = 0.0
    assert SVM2.lam_max(X, y, weights, sample_weight=sample_weight) == 0.0
    path = svm2_path(X, y, weights, sample_weight=sample_weight)
    for lam in (1e-3, 1.0, 1e3):
        coef, intercept = path.at(lam)
        assert np.all(coef[weights > 0] == 0)
        assert np.all(y * (X @ coef + intercept) >= 1 - 1e-9)  # the squared hinge is 0
