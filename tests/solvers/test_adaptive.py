"""HybridSVM, RSWeightedSVM, RSWeightedLasso: scikit-learn's checks, the weighted model they
compose, lam chosen on the exact path, streams (004 sec. 4.2), bad input."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from joblib import parallel_config
from sklearn.base import clone
from sklearn.linear_model import Ridge
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from solvers import L1SVM, SVM2, HybridSVM, RSWeightedLasso, RSWeightedSVM, WeightedLasso
from solvers.adaptive import MODELS
from solvers.exceptions import PathWarning
from solvers.path import l1_svm_path, lasso_path, svm2_path
from solvers.path._inputs import check_path_inputs
from solvers.path._steps import PathRecorder, streamed_selection
from solvers.weights import _validation_split, hybrid_weights, rs_weights

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


def _sparse_data(seed, n=70, d=15):
    """Data with half the entries 0, a target and sample weights."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.5)
    return X, X[:, :4] @ [2.0, -1.5, 1.0, 0.5] + rng.standard_normal(n), rng.uniform(0.2, 3.0, n)


@pytest.mark.parametrize("path_function", [lasso_path, l1_svm_path, svm2_path])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("sparse", [False, True])
def test_breakpoints_scored_as_recorded_are_the_paths_scores(path_function, seed, sparse):
    """Within streamed_selection each breakpoint is scored as the path records it: the
    lams and scores are the stored path's (`Path.scores`, weighted), with or without
    return_path, and the lam chosen is `Path.select`'s."""
    X, y, s = _sparse_data(seed)
    if path_function is not lasso_path:
        y = _labels(y)
    X = sp.csr_matrix(X) if sparse else X
    fit, val = slice(0, 50), slice(50, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PathWarning)
        path = path_function(X[fit], y[fit], sample_weight=s[fit])
        with streamed_selection(X[val], y[val], s[val]) as whole:
            path_function(X[fit], y[fit], sample_weight=s[fit])
        with streamed_selection(X[val], y[val], s[val]) as streamed:
            last = path_function(X[fit], y[fit], sample_weight=s[fit], return_path=False)
    assert len(last) <= 2 < len(path) == len(streamed.lams)
    np.testing.assert_array_equal(streamed.lams, path.lams)
    assert streamed.scores == whole.scores
    np.testing.assert_allclose(
        streamed.scores, path.scores(X[val], y[val], sample_weight=s[val]), rtol=0, atol=1e-12
    )
    assert streamed.select() == path.select(X[val], y[val], sample_weight=s[val])


@pytest.mark.parametrize("interpolation", ["linear", "constant"])
def test_merged_breakpoints_keep_the_score_of_the_model_kept(interpolation):
    """A breakpoint within lam_tolerance of the last merges: on a linear path it replaces
    the last (and so its score), on a constant path the earlier model stays (its score
    too); a discarded breakpoint loses its score. The scores are the built path's."""
    X, y, s = _sparse_data(0)
    y = _labels(y)
    problem = check_path_inputs(
        X[:50], y[:50], None, classifier=True, lam_min=0.0, max_features=None, max_steps=None
    )
    models = [([], []), ([0], [1.0]), ([0, 2], [2.0, -1.0]), ([2, 1], [-3.0, 0.5]), ([1], [4.0])]
    with streamed_selection(X[50:], y[50:], s[50:]) as selection:
        recorder = PathRecorder(problem, interpolation=interpolation, lam_tolerance=1e-6)
        for lam, (features, values) in zip([4.0, 3.0, 3.0 - 1e-9, 2.0, 1.0], models, strict=True):
            recorder.record(lam, features, values, 0.1 * lam)
        recorder.discard()
        path = recorder.path()
    np.testing.assert_array_equal(selection.lams, path.lams)
    assert len(path) == 3
    np.testing.assert_allclose(
        selection.scores, path.scores(X[50:], y[50:], sample_weight=s[50:]), rtol=0, atol=1e-12
    )
    kept = models[2 if interpolation == "linear" else 1]
    expected = np.zeros(X.shape[1])
    expected[kept[0]] = kept[1]
    np.testing.assert_array_equal(path.coefs[1], expected)


@pytest.mark.parametrize(
    "model", [RSWeightedSVM("l1"), RSWeightedSVM("svm2"), RSWeightedLasso()], ids=repr
)
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("sparse", [False, True])
def test_lam_chosen_is_the_stored_paths_select(model, seed, sparse):
    """lam=None: the lam chosen on the held-out share (weighted) is `Path.select` on the
    whole stored path of the weighted model, times n / n_train."""
    X, y, s = _sparse_data(seed, n=90)
    classifier = isinstance(model, RSWeightedSVM)
    y = _labels(y) if classifier else y
    X = sp.csr_matrix(X) if sparse else X
    model = clone(model).set_params(n_blocks=4, random_state=seed).fit(X, y, sample_weight=s)
    X_fit, X_val, y_fit, y_val, s_fit, s_val = _validation_split(
        X, y, classifier=classifier, validation_fraction=model.validation_fraction,
        random_state=seed, sample_weight=s,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PathWarning)
        path = MODELS[getattr(model, "base", "lasso")].path(
            X_fit, y_fit, model.weights_, sample_weight=s_fit
        )
    lam = path.select(X_val, y_val, sample_weight=s_val)
    if lam <= 0:
        lam = path.lams[path.lams > 0][-1] / 2
    assert model.lam_ == pytest.approx(lam * s.sum() / s_fit.sum(), rel=1e-12)


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


def test_hybrid_svm_does_not_depend_on_n_jobs():
    X, score = _data(n=60)
    y = _labels(score)
    model = HybridSVM("svm2", C_grid=(0.01, 0.1, 1.0), random_state=0)
    one = clone(model).fit(X, y)
    with parallel_config(backend="threading"):
        two = clone(model).set_params(n_jobs=2).fit(X, y)
    assert two.C_ == one.C_
    np.testing.assert_array_equal(two.weights_, one.weights_)
    np.testing.assert_array_equal(two.coef_, one.coef_)


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
        (HybridSVM(n_jobs=1.5), "n_jobs"),
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


# ---- sample weights: integer weights are repeated rows where no row is drawn at random ------


def _repeated(X, y, counts):
    return np.repeat(X, counts, axis=0), np.repeat(y, counts)


def test_hybrid_weights_with_sample_weight_are_sklearns_weighted_ridge():
    """base="lasso" with one C: ``W = 1 / |b|`` of ``Ridge(alpha=1 / (2 C))`` fitted with the
    same sample weights (scikit-learn's weighted ridge, an independent solver)."""
    X, y = _data(n=50, d=5)
    s = np.random.default_rng(1).uniform(0.1, 4.0, 50)
    weights = hybrid_weights(X, y, base="lasso", C_grid=(2.0,), sample_weight=s)
    peer = Ridge(alpha=0.25).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(weights, 1 / np.abs(peer.coef_), rtol=1e-8)


@pytest.mark.parametrize("base", ["l1", "svm2"])
def test_hybrid_svm_with_integer_weights_is_the_fit_on_repeated_rows(base):
    """One C and given validation data: nothing is drawn over rows, so counts are rows."""
    X, score = _data(n=60, d=6, random_state=2)
    y = _labels(score)
    counts = np.random.default_rng(2).integers(1, 4, 60)
    settings = {"base": base, "C_grid": (1.0,)}
    weighted = HybridSVM(**settings).fit(X, y, X[:40], y[:40], sample_weight=counts)
    repeated = HybridSVM(**settings).fit(*_repeated(X, y, counts), X[:40], y[:40])
    np.testing.assert_allclose(weighted.weights_, repeated.weights_, rtol=1e-5)
    assert weighted.lam_ == pytest.approx(repeated.lam_, rel=1e-5)
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-4, atol=1e-6)
    assert weighted.certificate_.holds


@pytest.mark.parametrize("base", ["l1", "svm2", "lasso"])
def test_rs_weights_with_integer_weights_are_repeated_rows(base):
    """One block of every row (block_size = n) and given validation data: the block's
    weighted path is the repeated rows' path."""
    X, score = _data(n=40, d=6, random_state=4)
    y = score if base == "lasso" else _labels(score)
    X_val, score_val = _data(n=30, d=6, random_state=5)
    y_val = score_val if base == "lasso" else _labels(score_val)
    counts = np.random.default_rng(4).integers(1, 4, 40)
    weighted = rs_weights(X, y, base=base, block_size=40, n_blocks=1, X_val=X_val,
                          y_val=y_val, sample_weight=counts)  # fmt: skip
    X_rep, y_rep = _repeated(X, y, counts)
    repeated = rs_weights(X_rep, y_rep, base=base, block_size=counts.sum(), n_blocks=1,
                          X_val=X_val, y_val=y_val)  # fmt: skip
    np.testing.assert_array_equal(weighted, repeated)


@pytest.mark.parametrize("Est", [RSWeightedSVM, RSWeightedLasso])
def test_rs_estimators_fit_the_weighted_model_with_the_sample_weights(Est):
    """The final model is the base model with ``weights_`` and the sample weights, and its
    certificate is the weighted problem's."""
    X, score = _data(n=60, d=6, random_state=6)
    y = score if Est is RSWeightedLasso else _labels(score)
    s = np.random.default_rng(6).uniform(0.1, 3.0, 60)
    model = Est(lam=2.0, n_blocks=4, random_state=0).fit(X, y, sample_weight=s)
    reference = clone(model.estimator_).fit(X, y, sample_weight=s)
    assert model.certificate_.holds
    np.testing.assert_allclose(model.objective_, reference.objective_, rtol=1e-9)
    unweighted = clone(model.estimator_).fit(X, y)
    assert abs(unweighted.objective_ - model.objective_) > 1e-3 * model.objective_
