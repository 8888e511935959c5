"""SupportVectorSelector: a sparsify selector run on the support vectors (001 Theorem 1)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.pipeline import make_pipeline

from solvers import L2SVM, SupportVectorSelector, SVMDual
from sparsify import BSSSelector, LeverageSelector, spectral_distortion


def test_selector_is_fitted_on_the_support_vectors_only(bhattacharyya):
    X, y = bhattacharyya
    svs = SupportVectorSelector(BSSSelector(n_features=50), SVMDual(C=1.0)).fit(X, y)
    sv = SVMDual(C=1.0).fit(X, y).support_
    np.testing.assert_array_equal(svs.support_vectors_, sv)
    direct = BSSSelector(n_features=50).fit(X[sv], y[sv])
    np.testing.assert_array_equal(svs.indices_, direct.indices_)
    np.testing.assert_allclose(svs.transform(X), direct.transform(X))
    assert svs.get_support().sum() == direct.selection_.n_selected


def test_theorem1_margin_is_preserved(bhattacharyya):
    """gamma~^2 >= (1 - eps) gamma^2 with eps = ||E||/(1 - ||E||), E the BSS distortion."""
    X, y = bhattacharyya
    svs = SupportVectorSelector(BSSSelector(n_features=120), SVMDual(C=1e3)).fit(X, y)
    Xsv, ysv = X[svs.support_vectors_], y[svs.support_vectors_]
    full = SVMDual(C=1e3).fit(Xsv, ysv).margin_
    reduced = SVMDual(C=1e3).fit(svs.transform(Xsv), ysv).margin_
    _, _, Vt = np.linalg.svd(Xsv, full_matrices=False)
    E = spectral_distortion(Vt.T, svs.selection_)
    assert E < 0.5
    assert reduced**2 >= (1 - E / (1 - E)) * full**2 * (1 - 1e-6)


def test_any_svm_and_sampler_in_a_pipeline_with_csr(bhattacharyya):
    X, y = bhattacharyya
    pipe = make_pipeline(
        SupportVectorSelector(LeverageSelector(n_features=30, random_state=0), L2SVM()),
        SVMDual(),
    )
    dense = pipe.fit(X, y).predict(X)
    np.testing.assert_array_equal(pipe.fit(sp.csr_matrix(X), y).predict(sp.csr_matrix(X)), dense)
    assert (dense == y).mean() > 0.9


def test_more_than_two_classes_use_one_svm_per_class(ionosphere):
    X, y = ionosphere
    labels = np.where(y > 0, np.arange(len(y)) % 2, 2)
    svs = SupportVectorSelector(BSSSelector(n_features=40)).fit(X, labels)
    assert len(svs.svms_) == 3
    union = np.unique(np.concatenate([m.support_ for m in svs.svms_]))
    np.testing.assert_array_equal(svs.support_vectors_, union)


def test_y_is_required(ionosphere):
    X, _ = ionosphere
    with pytest.raises(ValueError, match="requires y"):
        SupportVectorSelector().fit(X)
