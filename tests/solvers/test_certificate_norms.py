"""Certificates that take the column norms a backend computed (``norms=``): the same
verdict and gap as computed from X, a wrong shape named, and norms that are wrong
cannot certify a point that is not optimal (they only scale the KKT measure)."""

import numpy as np
import pytest
import scipy.sparse as sp

from solvers import SVM2, SVMDual, WeightedLasso
from solvers.certificates import lasso_certificate, svm2_certificate, svm_certificate
from sparsify.utils import column_norms

CERTIFICATES = {  # the estimator at 0.5 (lam, or C) and the certificate of its model
    "svm2": (lambda: SVM2(lam=0.5), svm2_certificate),
    "lasso": (lambda: WeightedLasso(lam=0.5), lasso_certificate),
    "svm": (lambda: SVMDual(C=0.5), svm_certificate),
}


def _data(model):
    rng = np.random.default_rng(4)
    X = sp.random(60, 40, density=0.2, format="csr", random_state=5)
    X = sp.csr_matrix(X.toarray() * 10.0 ** rng.uniform(-3, 3, 40))  # columns of all scales
    w = np.zeros(40)
    w[:5] = rng.standard_normal(5)
    signal = X @ w + 0.3 * rng.standard_normal(60)
    y = signal if model == "lasso" else np.where(signal > np.median(signal), 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("model", CERTIFICATES)
def test_given_norms_give_the_certificate_of_x(model):
    estimator_class, certify = CERTIFICATES[model]
    X, y = _data(model)
    fitted = estimator_class().fit(X, y)
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
    fitted = estimator_class().fit(X, y)
    coef, b = fitted.coef_.ravel().copy(), float(np.ravel(fitted.intercept_)[0])
    coef[np.argmax(np.abs(coef))] *= 1.5  # off the optimum
    for norms in (np.ones(40), 1e6 * np.ones(40), 1e-6 * np.ones(40)):
        assert not certify(X, y, coef, b, 0.5, norms=norms).holds


def test_a_re_fit_certifies_with_the_kept_norms_as_with_x():
    """DUAL_CD keeps X's column norms for a re-fit on the same data: the re-fit's
    certificate is the one computed from X."""
    rng = np.random.default_rng(7)
    X = sp.random(3000, 400, density=0.02, format="csr", random_state=8)  # not "cheap"
    y = np.where(X @ rng.standard_normal(400) + 0.1 * rng.standard_normal(3000) > 0, 1.0, -1.0)
    model = SVMDual(C=1.0).fit(X, y)
    assert model.__dict__["_warm_states"]["DUAL_CD"][1]["norms"] is not None
    model.set_params(C=0.5).fit(X, y)
    assert model.backend_ == "DUAL_CD"
    again = svm_certificate(X, y, model.coef_.ravel(), model.intercept_[0], 0.5,
                            alpha=model.alpha_)  # fmt: skip
    assert model.certificate_.holds and again.holds
    assert model.certificate_.relative_gap == pytest.approx(again.relative_gap, rel=1e-6,
                                                             abs=1e-15)  # fmt: skip
    assert model.certificate_.kkt == pytest.approx(again.kkt, rel=1e-9, abs=1e-15)
