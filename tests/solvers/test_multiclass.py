"""One-vs-rest multiclass of the classifiers: K binary fits, scikit-learn's shapes."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.linear_model import RidgeClassifier
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC

from solvers import (
    L1SVM,
    L1SVMCV,
    L2SVM,
    RLSC,
    SVM2,
    SVM2CV,
    HybridSVM,
    RSWeightedSVM,
    SVMDual,
)

CLASSIFIERS = [
    SVMDual(),
    L2SVM(),
    L2SVM(loss="squared_hinge"),
    L1SVM(lam=0.5),
    SVM2(lam=0.5),
    RLSC(),
]


def _ids(est):
    return type(est).__name__ + ("-" + est.loss if getattr(est, "loss", "hinge") != "hinge" else "")


@pytest.fixture(params=[3, 4], ids=["3 classes", "4 classes"])
def blobs(request):
    X, y = make_blobs(
        n_samples=20 * request.param,
        n_features=5,
        centers=request.param,
        cluster_std=3.0,
        random_state=0,
    )
    return X, y


@pytest.mark.parametrize("est", CLASSIFIERS, ids=_ids)
def test_one_vs_rest_is_k_binary_fits(est, blobs):
    X, y = blobs
    classes = np.unique(y)
    fit = clone(est).fit(X, y)
    assert fit.coef_.shape == (classes.size, X.shape[1])
    assert fit.intercept_.shape == (classes.size,)
    assert fit.decision_function(X).shape == (X.shape[0], classes.size)
    assert len(fit.estimators_) == classes.size and fit.dual_gap_.shape == (classes.size,)
    assert len(fit.certificate_) == classes.size
    for k, label in enumerate(classes):
        # Class k against the rest, written out: labels +1 / -1.
        binary = clone(est).fit(X, np.where(y == label, 1, -1))
        assert fit.certificate_[k].holds and binary.certificate_.holds
        scale = max(1.0, np.abs(binary.coef_).max())
        np.testing.assert_allclose(fit.coef_[k], binary.coef_[0], atol=1e-6 * scale)
        np.testing.assert_allclose(fit.intercept_[k], binary.intercept_[0], atol=1e-6 * scale)
        np.testing.assert_allclose(
            fit.decision_function(X)[:, k], binary.decision_function(X), atol=1e-5 * scale
        )
    scores = X @ fit.coef_.T + fit.intercept_
    np.testing.assert_array_equal(fit.predict(X), classes[np.argmax(scores, axis=1)])


@pytest.mark.parametrize("est", CLASSIFIERS, ids=_ids)
def test_predict_equals_sklearn_one_vs_rest_classifier(est, blobs):
    X, y = blobs
    ours = clone(est).fit(X, y)
    theirs = OneVsRestClassifier(clone(est)).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), atol=1e-5)


@pytest.mark.parametrize("est", CLASSIFIERS, ids=_ids)
def test_binary_shapes_are_sklearns(est, blobs):
    X, y = blobs
    labels = np.where(y == 0, "zero", "other")
    fit = clone(est).fit(X, labels)
    assert fit.coef_.shape == (1, X.shape[1]) and fit.intercept_.shape == (1,)
    decision = fit.decision_function(X)
    assert decision.shape == (X.shape[0],)
    np.testing.assert_allclose(decision, X @ fit.coef_[0] + fit.intercept_[0], atol=1e-10)
    np.testing.assert_array_equal(fit.predict(X), np.where(decision > 0, "zero", "other"))
    assert "estimators_" not in vars(fit)


def test_a_binary_refit_after_a_multiclass_fit_drops_the_estimators(blobs):
    X, y = blobs
    est = SVMDual().fit(X, y)
    est.fit(X, y == 0)
    assert "estimators_" not in vars(est) and est.coef_.shape == (1, X.shape[1])
    assert np.ndim(est.alpha_) == 1 and not isinstance(est.certificate_, list)


def test_svm_dual_equals_svc_one_vs_rest(blobs):
    """The exact dual of each problem: SVC(kernel="linear") wrapped one-vs-rest."""
    X, y = blobs
    ours = SVMDual(C=0.5).fit(X, y)
    theirs = OneVsRestClassifier(SVC(kernel="linear", C=0.5, tol=1e-10)).fit(X, y)
    for k, svc in enumerate(theirs.estimators_):
        np.testing.assert_allclose(ours.coef_[k], svc.coef_[0], rtol=1e-3, atol=1e-4)
        np.testing.assert_allclose(ours.intercept_[k], svc.intercept_[0], atol=1e-3)
    assert ours.alpha_.shape == (len(theirs.estimators_), X.shape[0])


def test_rlsc_equals_ridge_classifier_on_several_classes(blobs):
    """RidgeClassifier regresses on the +-1 indicator of each class: the same K problems."""
    X, y = blobs
    ours = RLSC(lam=2.0).fit(X, y)
    theirs = RidgeClassifier(alpha=2.0, fit_intercept=False, solver="svd").fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    assert ours.objective_.shape == (np.unique(y).size,)


def test_class_weight_weighs_the_original_classes(blobs):
    X, y = blobs
    class_weight = {label: 1.0 + label for label in np.unique(y)}
    fit = SVMDual(class_weight=class_weight).fit(X, y)
    weights = np.array([class_weight[label] for label in y])  # written out per sample
    for k, label in enumerate(np.unique(y)):
        binary = SVMDual().fit(X, np.where(y == label, 1, -1), sample_weight=weights)
        np.testing.assert_allclose(fit.coef_[k], binary.coef_[0], atol=1e-6)


@pytest.mark.parametrize(
    "est",
    [L1SVMCV(cv=2), SVM2CV(cv=2), HybridSVM(lam=1.0), RSWeightedSVM(lam=1.0, n_blocks=2)],
    ids=lambda est: type(est).__name__,
)
def test_composed_classifiers_are_binary_and_reject_more_classes(est, blobs):
    X, y = blobs
    with pytest.raises(ValueError, match="OneVsRestClassifier"):
        clone(est).fit(X, y)
    fit = clone(est).fit(X, y == 0)
    assert fit.coef_.shape == (1, X.shape[1]) and fit.intercept_.shape == (1,)
    assert fit.decision_function(X).shape == (X.shape[0],)
