"""Adaptive and hybrid weights with a column at 1e12 beside unit columns (found by the L1
audit).

A coefficient is round-off, and its weight +inf, only where the feature's part of the
fit ``|beta_j| ||X_j||`` is negligible: a column at 1e12 has a coefficient 1e-12 times
the others' and must keep a finite weight. References: ``numpy.linalg.lstsq`` on the
centred data with the columns scaled to unit norm (least squares, an exact change of
variables) and scikit-learn's ``Ridge``.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Ridge

from solvers import AdaptiveLasso, hybrid_weights

SIZE = 1e12


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 5))
    X[:, 0] *= SIZE
    y = 2.0 * X[:, 0] / SIZE + X[:, 1] + 0.1 * rng.standard_normal(60)
    return X, y


@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_adaptive_lasso_keeps_a_feature_whose_column_is_at_1e12(data, fmt):
    """Before: weights_[0] = +inf (|b_0| = 2e-12, below 1e-10 of |b_1| = 1), the signal's
    feature excluded and coef_[1] = 1.37 for the true 1."""
    X, y = data
    Xc = X - X.mean(axis=0)
    norms = np.linalg.norm(Xc, axis=0)
    ols = np.linalg.lstsq(Xc / norms, y - y.mean(), rcond=None)[0] / norms
    model = AdaptiveLasso(lam=1.0).fit(sp.csr_matrix(X) if fmt == "csr" else X, y)
    np.testing.assert_allclose(model.weights_, 1 / np.abs(ols), rtol=1e-8)
    assert model.certificate_.holds
    assert model.coef_[0] * SIZE == pytest.approx(2.0, abs=0.1)
    assert model.coef_[1] == pytest.approx(1.0, abs=0.1)


def test_hybrid_weights_keep_a_feature_whose_column_is_at_1e12(data):
    """Before: +inf for feature 0 from every base."""
    X, y = data
    ridge = Ridge(alpha=0.5, solver="svd").fit(X, y).coef_  # 1/2 ||b||^2 + C ||r||^2, C = 1
    lasso = hybrid_weights(X, y, base="lasso", C_grid=(1.0,))
    np.testing.assert_allclose(lasso, 1 / np.abs(ridge), rtol=1e-4)
    labels = np.where(y > 0, 1, -1)
    for base in ("l1", "svm2"):
        weights = hybrid_weights(X, labels, base=base, C_grid=(1.0,))
        assert np.all(np.isfinite(weights)), base
