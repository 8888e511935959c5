"""HybridSVM, RSWeightedSVM, RSWeightedLasso: scikit-learn's checks, the weighted model they
compose, lam chosen on the exact path, streams (004 sec. 4.2), bad input."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from solvers import L1SVM, SVM2, HybridSVM, RSWeightedLasso, RSWeightedSVM, WeightedLasso
from solvers.path import svm2_path
from solvers.weights import rs_weights

# The 1-norm SVM variants share every line with these but the inner model (whose own
# checks run in test_estimators.py) and are slower: their paths solve LPs.
CHECKED = [
    HybridSVM("svm2", C_grid=(0.5, 2.0)),
    RSWeightedSVM("svm2", n_blocks=5),
    RSWeightedLasso(n_blocks=5),
]


def _expected_failed_checks(estimator):
    return getattr(estimator, "_expected_failed_checks", lambda: {})()


@parametrize_with_checks(CHECKED, expected_failed_checks=_expected_failed_checks)
def test_sklearn_check_estimator(estimator, check):
    check(estimator)


def _data(n=80, d=6, informative=(0, 3), noise=0.3, random_state=0):
    rng = np.random.default_rng(random_state)
    X = rng.standard_normal((n, d))
    score = X[:, list(informative)] @ np.array([2.0, -1.5])
    return X, score + noise * rng.standard_normal(n)


def _labels(score):
    return np.where(score > 0, "yes", "no")


def test_rs_svm_with_unit_weights_is_the_unweighted_svm2():
    """Every feature carries the signal, so every block selects all: W = 1, and the
    model is SVM2 without weights at the same lam."""
    X, score = _data(d=2, informative=(0, 1))
    y = _labels(score)
    model = RSWeightedSVM("svm2", block_size=40, n_blocks=4, lam=3.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.weights_, 1.0)
    plain = SVM2(lam=3.0).fit(X, y)
    np.testing.assert_allclose(model.coef_, plain.coef_, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(model.intercept_, plain.intercept_, rtol=1e-7)
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    assert model.certificate_.holds and model.dual_gap_ == model.estimator_.dual_gap_


def test_lam_is_the_breakpoint_that_scores_best_on_the_validation_data():
    X, score = _data(noise=1.0)
    y = _labels(score)
    X_val, score_val = _data(n=60, noise=1.0, random_state=1)
    y_val = _labels(score_val)
    model = RSWeightedSVM("svm2", block_size=40, n_blocks=4, random_state=0)
    model.fit(X, y, X_val=X_val, y_val=y_val)
    # By hand: the accuracy of every breakpoint of the weighted path; ties to the largest lam.
    path = svm2_path(X, y, model.weights_)
    decisions = X_val @ path.coefs.T + path.intercepts
    accuracy = ((decisions > 0) == (y_val == "yes")[:, None]).mean(axis=0)
    best = path.lams[int(np.argmax(accuracy))]
    expected = best if best > 0 else path.lams[path.lams > 0][-1] / 2
    assert model.lam_ == pytest.approx(expected, rel=1e-12)
    reference = SVM2(lam=model.lam_, weights=model.weights_).fit(X, y)
    np.testing.assert_allclose(model.coef_, reference.coef_, atol=1e-8)


def test_without_validation_data_the_fit_is_reproducible():
    X, score = _data(n=80)
    y = _labels(score)
    model = RSWeightedSVM("svm2", n_blocks=3, random_state=0)
    first = clone(model).fit(X, y)
    second = clone(model).fit(X, y)
    np.testing.assert_array_equal(first.weights_, second.weights_)
    assert first.lam_ == second.lam_ > 0
    np.testing.assert_array_equal(first.coef_, second.coef_)


def test_partial_fit_adds_the_rs_weights_of_each_frame():
    X, score = _data(n=120)
    y = _labels(score)
    frames = [(X[:60], y[:60]), (X[60:], y[60:])]
    kwargs = dict(block_size=20, n_blocks=3, random_state=7)
    model = RSWeightedSVM("svm2", lam=2.0, **kwargs)
    for X_frame, y_frame in frames:
        model.partial_fit(X_frame, y_frame, classes=["no", "yes"])
    expected = sum(rs_weights(Xf, yf, base="svm2", **kwargs) for Xf, yf in frames)
    np.testing.assert_array_equal(model.weights_, expected)
    # The model is refitted on the last frame with the propagated weights.
    reference = SVM2(lam=2.0, weights=expected).fit(*frames[1])
    np.testing.assert_allclose(model.coef_, reference.coef_, atol=1e-8)
    with pytest.raises(ValueError, match="classes"):
        model.partial_fit(X[:60], np.where(y[:60] == "yes", "a", "b"))


def test_hybrid_svm_is_the_l1_svm_with_weights_from_svc():
    X, score = _data(n=60)
    y = _labels(score)
    model = HybridSVM("l1", gamma=2.0, lam=1.5, C_grid=(1.0,)).fit(X, y)
    beta = SVC(kernel="linear", C=1.0, tol=1e-10).fit(X, y).coef_.ravel()
    np.testing.assert_allclose(model.weights_, np.abs(beta) ** -2.0, rtol=1e-4)
    assert model.C_ == 1.0
    reference = L1SVM(lam=1.5, weights=model.weights_).fit(X, y)
    np.testing.assert_allclose(model.objective_, reference.objective_, rtol=1e-8)
    assert model.certificate_.holds


def test_rs_lasso_keeps_the_informative_features():
    X, y = _data(n=100, d=10)
    model = RSWeightedLasso(block_size=30, n_blocks=5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.weights_[[0, 3]], 1.0)
    assert set(np.flatnonzero(model.coef_)) >= {0, 3}
    reference = WeightedLasso(lam=model.lam_, weights=model.weights_).fit(X, y)
    np.testing.assert_allclose(model.predict(X), reference.predict(X), atol=1e-8)


def test_defaults_follow_004_block_size_and_count():
    """B = 20% of the rows, K = 10 n / B (004 sec. 4.1-4.2): the same weights as rs_weights."""
    X, y = _data(n=50)
    model = RSWeightedLasso(lam=1.0, random_state=0).fit(X, y)
    expected = rs_weights(X, y, base="lasso", block_size=10, n_blocks=50, random_state=0)
    np.testing.assert_array_equal(model.weights_, expected)


@pytest.mark.parametrize(
    "est, match",
    [
        (HybridSVM(gamma=0.0), "gamma"),
        (HybridSVM(gamma=-1.0), "gamma"),
        (HybridSVM(base="lasso"), "base"),
        (RSWeightedSVM(base="hinge"), "base"),
        (RSWeightedSVM(block_size=1), "block_size"),
        (RSWeightedSVM(block_size=500), "block_size"),
        (RSWeightedSVM(n_blocks=0), "n_blocks"),
        (RSWeightedLasso(cap=-1.0), "cap"),
    ],
)
def test_bad_hyperparameters_name_the_argument(est, match):
    X, score = _data(n=40)
    y = score if isinstance(est, RSWeightedLasso) else _labels(score)
    with pytest.raises(ValueError, match=match):
        clone(est).fit(X, y)


def test_validation_data_must_come_in_pairs_and_match():
    X, score = _data(n=40)
    y = _labels(score)
    model = RSWeightedSVM("svm2", block_size=10, n_blocks=2)
    with pytest.raises(ValueError, match="y_val"):
        model.fit(X, y, X_val=X)
    with pytest.raises(ValueError, match="X_val"):
        model.fit(X, y, X_val=X[:, :3], y_val=y)


@pytest.mark.parametrize("n", [1, 2])
def test_rs_lasso_on_too_few_samples_says_so(n):
    """Blocks of at least 2 and one sample left out need 3 samples (was ZeroDivisionError)."""
    X, y = np.ones((n, 3)), np.arange(n, dtype=float)
    with pytest.raises(ValueError, match=f"needs at least 3 samples.*n_samples={n}"):
        RSWeightedLasso(random_state=0).fit(X, y)


@pytest.mark.parametrize("check", ["check_dtype_object", "check_estimator_sparse_matrix"])
def test_rs_svm_with_defaults_passes_the_checks_that_exclude_every_feature(check):
    """With default blocks, the draws of these checks (seed 0) exclude every feature
    (all weights +inf): the model is then the constant one, not an error."""
    from sklearn.utils import estimator_checks

    getattr(estimator_checks, check)("RSWeightedSVM", RSWeightedSVM(random_state=0))
