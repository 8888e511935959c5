"""Certificates that take the column norms a backend computed (``norms=``): the same
verdict and gap as computed from X, a wrong shape named, and norms that are wrong
cannot certify a point that is not optimal (they only scale the KKT measure)."""

import numpy as np
import pytest
import scipy.sparse as sp

from solvers import SVM2, WeightedLasso
from solvers.certificates import lasso_certificate, svm2_certificate
from sparsify.utils import column_norms

CERTIFICATES = {
    "svm2": (SVM2, svm2_certificate),
    "lasso": (WeightedLasso, lasso_certificate),
}


def _data(model):
    rng = np.random.default_rng(4)
    X = sp.random(60, 40, density=0.2, format="csr", random_state=5)
    X = sp.csr_matrix(X.toarray() * 10.0 ** rng.uniform(-3, 3, 40))  # columns of all scales
    w = np.zeros(40)
    w[:5] = rng.standard_normal(5)
    signal = X @ w + 0.3 * rng.standard_normal(60)
    y = np.where(signal > np.median(signal), 1.0, -1.0) if model == "svm2" else signal
    return X, y


@pytest.mark.parametrize("model", CERTIFICATES)
def test_given_norms_give_the_certificate_of_x(model):
    estimator_class, certify = CERTIFICATES[model]
    X, y = _data(model)
    fitted = estimator_class(lam=0.5).fit(X, y)
    coef, b = fitted.coef_.ravel(), float(np.ravel(fitted.intercept_)[0])
    computed = certify(X, y, coef, b, 0.5)
    given = certify(X, y, coef, b, 0.5, norms=column_norms(X))
    assert computed.holds and given.holds
    assert given.relative_gap == pytest.approx(computed.relative_gap, rel=1e-9, abs=1e-15)
    with pytest.raises(ValueError, match="norms must have shape"):
        certify(X, y, coef, b, 0.5, norms=np.ones(39))


@pytest.mark.parametrize("model", CERTIFICATES)
def test_wrong_norms_do_not_certify_a_point_off_the_optimum(model):
    estimator_class, certify = CERTIFICATES[model]
    X, y = _data(model)
    fitted = estimator_class(lam=0.5).fit(X, y)
    coef, b = fitted.coef_.ravel().copy(), float(np.ravel(fitted.intercept_)[0])
    coef[np.argmax(np.abs(coef))] *= 1.5  # off the optimum
    for norms in (np.ones(40), 1e6 * np.ones(40), 1e-6 * np.ones(40)):
        assert not certify(X, y, coef, b, 0.5, norms=norms).holds
