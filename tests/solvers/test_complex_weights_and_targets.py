"""Complex sample weights given to a certificate and a complex target given to the
lasso's exact path are refused by name: both were cast to float64 with only NumPy's
ComplexWarning, the imaginary parts dropped (a certificate of another problem)."""

import numpy as np
import pytest

from solvers.certificates import lasso_certificate
from solvers.path import lasso_path


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 4))
    return X, X @ np.array([1.0, -2.0, 0.0, 0.5]) + 0.1 * rng.standard_normal(20)


def test_a_certificate_refuses_complex_sample_weights():
    X, y = _data()
    weights = np.ones(20) * (1.0 + 1e-3j)
    with pytest.raises(ValueError, match="sample_weight must be real"):
        lasso_certificate(X, y, np.zeros(4), 0.0, lam=1.0, sample_weight=weights)


def test_a_certificate_still_takes_real_weights():
    """The same call with real weights: at the zero answer, lam above lam_max of the
    weighted problem, the gap is 0 up to the intercept's rounding (closed form)."""
    X, y = _data()
    s = np.linspace(0.5, 2.0, 20)
    b = np.average(y, weights=s)
    lam_max = 2.0 * np.max(np.abs(X.T @ (s * (y - b))))
    certificate = lasso_certificate(X, y, np.zeros(4), b, lam=2.0 * lam_max, sample_weight=s)
    assert certificate.holds


def test_the_lasso_path_refuses_a_complex_target():
    X, y = _data()
    with pytest.raises(ValueError, match="y must be real"):
        lasso_path(X, y * (1.0 + 1e-3j))
