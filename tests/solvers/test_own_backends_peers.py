"""The library's own backends, through the estimators, against scikit-learn's and SciPy's peers.

Each backend is named as the whole chain and compared, through the documented
parameter maps, with an independent solver of the same model:

- ``DUAL_CD``: ``SVC(kernel="linear", C)`` (hinge; the intercept free as ours), the
  squared hinge's primal minimised by ``scipy.optimize.minimize`` (L-BFGS-B);
- ``CD``: ``Lasso(alpha=lam / (2 sum s))`` on the columns ``X_j / W_j`` (the lasso),
  ``LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1/lam)`` with a large
  ``intercept_scaling`` (SVM2);
- ``COLUMN_GENERATION``: ``scipy.optimize.linprog`` on the full LP of 004 eq. 6;
- ``CG``: ``Ridge(alpha=lam, fit_intercept=False)``.

on dense and CSR data, n > d and d > n, with sample weights, and penalty weights 0
(unpenalised) and +inf (excluded).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog, minimize
from sklearn.linear_model import Lasso, Ridge
from sklearn.svm import SVC, LinearSVC

from solvers import L1SVM, L2SVM, SVM2, RidgeRegression, SVMDual, WeightedLasso

SHAPES = {"n>d": (80, 12), "d>n": (30, 90)}


def _data(shape, seed=0):
    rng = np.random.default_rng(seed)
    n, d = SHAPES[shape]
    X = rng.standard_normal((n, d))
    labels = np.where(X[:, 0] - X[:, 1] + 0.4 * rng.standard_normal(n) > 0, 1.0, -1.0)
    target = X[:, :3] @ np.array([1.0, -2.0, 0.5]) + 3.0 + 0.1 * rng.standard_normal(n)
    s = rng.integers(1, 4, n).astype(float)
    weights = rng.uniform(0.5, 2.0, d)
    weights[2], weights[5] = 0.0, np.inf  # unpenalised, excluded
    return X, labels, target, s, weights


def _format(X, fmt):
    return sp.csr_matrix(X) if fmt == "csr" else X


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("shape", SHAPES)
def test_dual_cd_hinge_is_svc(shape, fmt):
    X, y, _, s, _ = _data(shape)
    ours = SVMDual(C=0.5, solver="DUAL_CD").fit(_format(X, fmt), y, sample_weight=s)
    peer = SVC(kernel="linear", C=0.5, tol=1e-10).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours.coef_, peer.coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, atol=1e-5)


@pytest.mark.parametrize("shape", SHAPES)
def test_dual_cd_squared_hinge_is_the_primal_minimum(shape):
    X, y, _, s, _ = _data(shape)
    C = 0.5

    def objective(theta):
        slack = np.maximum(0.0, 1.0 - y * (X @ theta[:-1] + theta[-1]))
        gradient = -2.0 * C * s * slack * y
        return (
            0.5 * theta[:-1] @ theta[:-1] + C * s @ slack**2,
            np.append(theta[:-1] + X.T @ gradient, gradient.sum()),
        )

    found = minimize(objective, np.zeros(X.shape[1] + 1), jac=True, method="L-BFGS-B",
                     options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10000})  # fmt: skip
    ours = L2SVM(C=C, loss="squared_hinge", solver="DUAL_CD").fit(X, y, sample_weight=s)
    # Within the certified gap of the optimum (a certified answer is not polished to 0).
    assert ours.certificate_.holds
    assert ours.objective_ <= found.fun * (1 + ours.dual_gap_ + 1e-9)
    np.testing.assert_allclose(ours.objective_, found.fun, rtol=max(ours.dual_gap_, 1e-9))


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("shape", SHAPES)
def test_cd_lasso_is_sklearn_lasso_on_the_weighted_columns(shape, fmt):
    X, _, target, s, weights = _data(shape)
    lam = 3.0
    ours = WeightedLasso(lam=lam, weights=weights, solver="CD")
    ours.fit(_format(X, fmt), target, sample_weight=s)
    # Lasso with penalty weights W: columns X_j / W_j (the excluded one dropped), and
    # the unpenalised one refitted by a tiny weight (sklearn has no unpenalised feature).
    kept = np.flatnonzero(np.isfinite(weights))
    scales = np.where(weights[kept] > 0, weights[kept], 1e-8)
    peer = Lasso(alpha=lam / (2 * s.sum()), tol=1e-14, max_iter=10**6)
    peer.fit(X[:, kept] / scales, target, sample_weight=s)
    coef = np.zeros(X.shape[1])
    coef[kept] = peer.coef_ / scales
    np.testing.assert_allclose(ours.coef_, coef, atol=1e-5)
    assert ours.coef_[5] == 0.0
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, atol=1e-5)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # tol 1e-12
@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("shape", SHAPES)
def test_cd_svm2_is_linear_svc_l1(shape, fmt):
    X, y, _, s, _ = _data(shape)
    lam = 2.0
    ours = SVM2(lam=lam, solver="CD").fit(_format(X, fmt), y, sample_weight=s)
    peer = LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1.0 / lam,
                     intercept_scaling=1e3, tol=1e-12, max_iter=10**6, random_state=0)  # fmt: skip
    peer.fit(X, y, sample_weight=s)

    def objective(w, b):
        slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
        return s @ slack**2 + lam * np.abs(w).sum()

    ours_value = objective(ours.coef_.ravel(), ours.intercept_[0])
    peer_value = objective(peer.coef_.ravel(), peer.intercept_[0])
    # liblinear's coordinate descent with its intercept scaled by 1e3 stops short of its
    # tolerance (a ConvergenceWarning): ours is certified, never worse, and close.
    assert ours_value <= peer_value * (1 + 1e-7)
    np.testing.assert_allclose(ours_value, peer_value, rtol=3e-2)


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("shape", SHAPES)
def test_column_generation_is_linprog_on_the_full_lp(shape, fmt):
    X, y, _, s, weights = _data(shape)
    lam = 1.0
    ours = L1SVM(lam=lam, weights=weights, solver="COLUMN_GENERATION")
    ours.fit(_format(X, fmt), y, sample_weight=s)
    n, d = X.shape
    finite = np.where(np.isfinite(weights), weights, 0.0)
    cost = np.concatenate([lam * finite, lam * finite, [0.0], s])
    YX = y[:, None] * X
    bounds = [(0, 0 if np.isinf(w) else None) for w in weights] * 2
    bounds += [(None, None)] + [(0, None)] * n
    A = np.hstack([-YX, YX, -y[:, None], -np.eye(n)])
    reference = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert reference.status == 0 and ours.certificate_.holds
    np.testing.assert_allclose(ours.objective_, reference.fun, rtol=1e-9, atol=1e-9)
    assert ours.coef_[0, 5] == 0.0


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("shape", SHAPES)
def test_cg_is_ridge(shape, fmt):
    X, _, target, s, _ = _data(shape)
    ours = RidgeRegression(lam=0.7, solver="CG").fit(_format(X, fmt), target, sample_weight=s)
    peer = Ridge(alpha=0.7, fit_intercept=False, solver="cholesky").fit(X, target, sample_weight=s)
    scale = ours.certificate_.scale
    # CG stops at a relative gap of 1e-7 of the scale: ||b - b*||^2 <= gap / lam.
    assert np.linalg.norm(ours.coef_ - peer.coef_) <= np.sqrt(2e-7 * scale / 0.7)
