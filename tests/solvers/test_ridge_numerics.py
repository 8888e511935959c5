"""The closed form of RLSC/RidgeRegression (000 eq. (1)-(2), 002 sec. 3.4) under column scaling.

References are independent of the code: the augmented least-squares problem
``[X; sqrt(lam) I] b = [y; 0]`` solved by Householder QR (backward stable column by
column, so insensitive to column scales), numpy's lstsq and scikit-learn's Ridge.
"""

import numpy as np
import pytest
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.linear_model import Ridge, RidgeClassifier

from solvers import RLSC, RidgeRegression
from solvers._ridge_closed_form import ridge_with_intercept
from solvers.certificates import GAP_TOLERANCE, ridge_certificate
from solvers.exceptions import SolverError

OBJECTIVE_RTOL = 1e-9
# A reference whose relative gap is below this fraction of the tolerance is certifiable.
CERTIFIABLE = 1e-2
SHAPES = {"n>d": (40, 12), "d>n": (12, 40)}
FORMATS = {"dense": np.asarray, "csr": sp.csr_matrix, "csc": sp.csc_matrix}


def _data(shape, scale, seed=0):
    """Gaussian data, a sparse pattern, and two columns of scale ``scale`` (one nearly constant)."""
    n, d = shape
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    X[:, 0] = scale * (1.0 + 0.01 * rng.standard_normal(n))  # a timestamp-like column
    X[:, 1] *= scale
    return X, rng.standard_normal(n)


def _reference(X, y, lam):
    """``min ||y - X b||^2 + lam ||b||^2`` by Householder QR of ``[X; sqrt(lam) I]``."""
    d = X.shape[1]
    Q, R = np.linalg.qr(np.vstack((X, np.sqrt(lam) * np.eye(d))))
    return sla.solve_triangular(R, Q.T @ np.concatenate((y, np.zeros(d))))


def _objective(X, y, b, lam):
    r = y - X @ b
    return r @ r + lam * b @ b


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scale", [1e-12, 1e-6, 1.0, 1e6, 1e9, 1e12])
@pytest.mark.parametrize("lam", [1e-3, 1.0, 1e3])
def test_ridge_objective_matches_the_qr_reference_at_any_column_scale(fmt, shape, scale, lam):
    X, y = _data(SHAPES[shape], scale)
    b = _reference(X, y, lam)
    optimum = _objective(X, y, b, lam)
    try:
        est = RidgeRegression(lam=lam, solver="svd").fit(FORMATS[fmt](X), y)
    except SolverError as error:
        # In double precision the gap bound ||X'u - lam b||^2 / lam of even the
        # reference grows with the squared column norm over lam: it cannot be certified.
        reference_gap = ridge_certificate(X, y, b, lam).relative_gap
        assert reference_gap > CERTIFIABLE * GAP_TOLERANCE and 'solver="SVD"' in str(error)
        objective = error.attempts[-1]["certificate"].primal  # accurate all the same
    else:
        # Within the tolerance, or within what float64 coefficients can state.
        assert est.certificate_.holds
        objective = _objective(X, y, est.coef_, lam)
        np.testing.assert_allclose(est.objective_, objective, rtol=1e-12)
    np.testing.assert_allclose(objective, optimum, rtol=OBJECTIVE_RTOL)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_unix_timestamp_column_beside_unit_columns(fmt, shape):
    """The issue's fault: the objective was 1e7 times the optimum, worse than b = 0."""
    n, d = SHAPES[shape]
    rng = np.random.default_rng(1)
    X = rng.standard_normal((n, d))
    X[:, 0] = 1.7e9 + rng.uniform(0, 3e7, n)
    y = X[:, 1] + 1e-9 * X[:, 0] + 0.1 * rng.standard_normal(n)
    labels = np.where(y > np.median(y), 1.0, -1.0)
    for est, target in ((RidgeRegression(lam=1.0), y), (RLSC(lam=1.0), labels)):
        est.fit(FORMATS[fmt](X), target)
        optimum = _objective(X, target, _reference(X, target, 1.0), 1.0)
        assert est.certificate_.holds and optimum < target @ target
        np.testing.assert_allclose(est.objective_, optimum, rtol=OBJECTIVE_RTOL)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("lam", [1e-3, 1.0, 1e3])
def test_ridge_matches_sklearn_ridge_solvers(fmt, shape, lam):
    X, y = _data(SHAPES[shape], 1.0, seed=2)
    est = RidgeRegression(lam=lam).fit(FORMATS[fmt](X), y)
    for solver in ("cholesky", "svd", "lsqr"):
        ref = Ridge(alpha=lam, fit_intercept=False, solver=solver, tol=1e-14).fit(X, y)
        np.testing.assert_allclose(
            est.objective_, _objective(X, y, ref.coef_, lam), rtol=OBJECTIVE_RTOL
        )
    labels = np.where(y > 0, 1, -1)
    rlsc = RLSC(lam=lam).fit(FORMATS[fmt](X), labels)
    ref = RidgeClassifier(alpha=lam, fit_intercept=False, solver="cholesky").fit(X, labels)
    np.testing.assert_allclose(rlsc.coef_[0], ref.coef_.ravel(), rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("fmt", FORMATS)
def test_rlsc_lam_zero_is_minimum_norm_least_squares(fmt):
    X, y = _data(SHAPES["n>d"], 1.0, seed=3)
    X[:, 5] = X[:, 4]  # rank deficient: the minimum-norm solution is the one asked for
    labels = np.where(y > 0, 1.0, -1.0)
    est = RLSC(lam=0.0).fit(FORMATS[fmt](X), labels)
    np.testing.assert_allclose(est.coef_[0], np.linalg.lstsq(X, labels, rcond=None)[0], atol=1e-9)
    np.testing.assert_allclose(X.T @ est.dual_coef_, est.coef_[0], atol=1e-9)
    np.testing.assert_allclose(
        est.dual_coef_, np.linalg.pinv(X @ X.T) @ labels, atol=1e-9
    )  # 000 eq. (2) with lam = 0: x = K^+ y


def test_rlsc_lam_zero_interpolates_when_d_exceeds_n():
    X, y = _data(SHAPES["d>n"], 1.0, seed=3)
    labels = np.where(y > 0, 1.0, -1.0)
    est = RLSC(lam=0.0).fit(X, labels)
    np.testing.assert_allclose(est.coef_[0], np.linalg.lstsq(X, labels, rcond=None)[0], atol=1e-9)


def _centred_reference(X, y, lam):
    mean = X.mean(axis=0)
    b = _reference(X - mean, y - y.mean(), lam)
    return b, y.mean() - mean @ b


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("lam", [1e-3, 1.0, 1e3])
def test_ridge_with_intercept_matches_sklearn_ridge(fmt, shape, lam):
    X, y = _data(SHAPES[shape], 1.0, seed=4)
    X += 3.0  # nonzero means
    coef, intercept = ridge_with_intercept(FORMATS[fmt](X), y, lam)
    ref = Ridge(alpha=lam, fit_intercept=True, solver="svd").fit(X, y)
    np.testing.assert_allclose(coef, ref.coef_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(intercept, ref.intercept_, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("scale", [1e-9, 1e-3, 1e3, 1e9])
def test_ridge_with_intercept_under_column_scaling_and_lam_zero(fmt, scale):
    X, y = _data(SHAPES["n>d"], 1.0, seed=5)
    X[:, 1] *= scale
    for lam in (0.0, 1.0):
        coef, intercept = ridge_with_intercept(FORMATS[fmt](X), y, lam)
        b, b0 = _centred_reference(X, y, lam)
        np.testing.assert_allclose(
            _objective(X, y - intercept, coef, lam), _objective(X, y - b0, b, lam), rtol=1e-12
        )
    # lam = 0: least squares with a column of ones (QR: numpy's lstsq, through the SVD,
    # is not accurate column by column at these scales; it is used at scale 1 above).
    Z = np.column_stack((np.ones(len(y)), X))
    coef, intercept = ridge_with_intercept(FORMATS[fmt](X), y, 0.0)
    np.testing.assert_allclose(X @ coef + intercept, Z @ _reference(Z, y, 0.0), rtol=1e-9)


@pytest.mark.parametrize("fmt", FORMATS)
def test_ridge_with_intercept_lam_zero_matches_lstsq(fmt):
    X, y = _data(SHAPES["n>d"], 1.0, seed=6)
    Z = np.column_stack((np.ones(len(y)), X))
    coef, intercept = ridge_with_intercept(FORMATS[fmt](X), y, 0.0)
    np.testing.assert_allclose(
        np.r_[intercept, coef], np.linalg.lstsq(Z, y, rcond=None)[0], rtol=1e-9, atol=1e-12
    )
