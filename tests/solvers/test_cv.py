"""K-fold CV on exact paths: the curve against brute force, lambda.1se, LassoCV and LassoLarsCV."""

import warnings

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.base import is_regressor
from sklearn.datasets import make_regression
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import ElasticNet, Lasso, LassoCV, LassoLars, LassoLarsCV
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import estimator_checks_generator

from solvers import L1SVM, L1SVMCV, SVM2, SVM2CV, PathWarning, WeightedLasso, WeightedLassoCV


def _regression(n=40, d=5, seed=0):
    X, y = make_regression(n, d, n_informative=3, noise=10.0, random_state=seed)
    return X, y


def _classification(n=48, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.8 * rng.standard_normal(n) > 0, "yes", "no")
    return X, y


CASES = [
    (WeightedLassoCV, WeightedLasso, _regression, KFold(4)),
    (SVM2CV, SVM2, _classification, StratifiedKFold(4)),
    (L1SVMCV, L1SVM, _classification, StratifiedKFold(4)),
]


def _brute_force_scores(Est, X, y, folds, lams, score):
    """Fit ``Est(lam * n_train / n)`` on each training part; score it on the held-out part."""
    n = X.shape[0]
    scores = np.empty((len(folds), lams.size))
    for k, (train, test) in enumerate(folds):
        for i, lam in enumerate(lams):
            model = Est(lam=lam * train.size / n).fit(X[train], y[train])
            assert model.certificate_.holds
            scores[k, i] = score(model, X[test], y[test])
    return scores


@pytest.mark.parametrize(
    ("CV", "Est", "data", "splitter"), CASES, ids=lambda v: getattr(v, "__name__", "")
)
def test_cv_curve_is_the_brute_force_loop_over_folds_and_lams(CV, Est, data, splitter):
    X, y = data()
    cv = CV(cv=splitter).fit(X, y)
    folds = list(splitter.split(X, y))
    # Six lams across the grid; for the 1-norm SVM the midpoints between breakpoints
    # (odd positions), where every fold's LP has a unique solution.
    picks = np.unique(np.linspace(0, cv.cv_lams_.size - 1, 6).astype(int))
    if Est is L1SVM:
        picks = np.unique(np.minimum(picks | 1, cv.cv_lams_.size - 2))
    expected = _brute_force_scores(Est, X, y, folds, cv.cv_lams_[picks], _default_score)
    np.testing.assert_allclose(cv.cv_scores_[:, picks], expected, rtol=1e-6, atol=1e-9)
    assert cv.cv_scores_.shape == (len(folds), cv.cv_lams_.size)
    assert np.all(np.diff(cv.cv_lams_) < 0)
    assert cv.lam_ == cv.lam_min_ and cv.lam_min_ in cv.cv_lams_


def _default_score(model, X, y):
    """The CV estimators' default: accuracy for classifiers, -MSE for the lasso (LassoCV's)."""
    if is_regressor(model):
        return -np.mean((y - model.predict(X)) ** 2)
    return model.score(X, y)


def test_cv_curve_with_a_scorer_name_against_brute_force():
    X, y = _classification(n=56)
    splitter = StratifiedKFold(4)
    cv = SVM2CV(cv=splitter, scoring="roc_auc", lams=6).fit(X, y)
    np.testing.assert_allclose(cv.cv_lams_, np.geomspace(cv.cv_lams_[0], cv.cv_lams_[0] / 1e3, 6))

    def auc(model, X, y):
        return roc_auc_score(y == "yes", model.decision_function(X))

    expected = _brute_force_scores(SVM2, X, y, list(splitter.split(X, y)), cv.cv_lams_, auc)
    np.testing.assert_allclose(cv.cv_scores_, expected, rtol=1e-9)
    assert cv.cv_lams_[0] == SVM2.lam_max(X, y)


def _one_standard_error_rule(lams, scores):
    """glmnet's lambda.min and lambda.1se, written out with loops."""
    k = scores.shape[0]
    means = [sum(scores[f, i] for f in range(k)) / k for i in range(len(lams))]
    ses = []
    for i, mean in enumerate(means):
        variance = sum((scores[f, i] - mean) ** 2 for f in range(k)) / (k - 1)
        ses.append((variance / k) ** 0.5)
    best = max(range(len(lams)), key=lambda i: (means[i], lams[i]))
    lam_1se = max(
        lam for lam, mean in zip(lams, means, strict=True) if mean >= means[best] - ses[best]
    )
    return lams[best], lam_1se, np.array(means), np.array(ses)


@pytest.mark.parametrize("selection", ["min", "1se"])
def test_lambda_min_and_lambda_1se_by_hand(selection):
    X, y = _regression(n=60, d=8, seed=3)
    cv = WeightedLassoCV(selection=selection, scoring="neg_mean_squared_error").fit(X, y)
    lam_min, lam_1se, means, ses = _one_standard_error_rule(cv.cv_lams_, cv.cv_scores_)
    assert cv.lam_min_ == lam_min and cv.lam_1se_ == lam_1se
    np.testing.assert_allclose(cv.cv_mean_, means)
    np.testing.assert_allclose(cv.cv_se_, ses)
    np.testing.assert_allclose(cv.cv_std_, ses * np.sqrt(cv.cv_scores_.shape[0]))
    assert cv.lam_1se_ > cv.lam_min_  # noisy data: the rule picks a sparser model
    assert cv.lam_ == (lam_min if selection == "min" else lam_1se)
    # The final model is WeightedLasso at lam_ on all the data, certified.
    reference = WeightedLasso(lam=cv.lam_).fit(X, y)
    np.testing.assert_allclose(cv.coef_, reference.coef_, atol=1e-8)
    assert cv.certificate_.holds and cv.dual_gap_ <= 1e-6
    assert cv.estimator_.lam == cv.lam_
    if selection == "1se":
        assert np.count_nonzero(cv.coef_) <= np.count_nonzero(
            WeightedLasso(lam=lam_min).fit(X, y).coef_
        )


# ---- scikit-learn's LassoCV and LassoLarsCV on the same folds -----------------------------


def test_weighted_lasso_cv_is_lasso_cv_with_alpha_lam_over_2n():
    X, y = _regression(n=50, d=6, seed=1)
    n = X.shape[0]
    alphas = np.geomspace(10.0, 0.01, 12)
    peer = LassoCV(alphas=alphas, cv=KFold(5), tol=1e-12, max_iter=100000).fit(X, y)
    ours = WeightedLassoCV(lams=2 * n * alphas, cv=KFold(5)).fit(X, y)  # default: the MSE
    np.testing.assert_allclose(ours.cv_lams_, 2 * n * peer.alphas_)
    np.testing.assert_allclose(-ours.cv_scores_.T, peer.mse_path_, rtol=1e-7)
    assert ours.lam_ == pytest.approx(2 * n * peer.alpha_, rel=1e-12)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-9)


def test_weighted_lasso_cv_by_default_chooses_lasso_cvs_alpha_on_ionosphere(ionosphere):
    """The issue's case: scored by R^2 it chose alpha 0.0452 where LassoCV chooses 0.0488."""
    X, labels = ionosphere
    y = labels.astype(float)
    n = X.shape[0]
    alphas = np.geomspace(0.2, 0.002, 30)
    peer = LassoCV(alphas=alphas, cv=KFold(5), tol=1e-12, max_iter=100000).fit(X, y)
    ours = WeightedLassoCV(lams=2 * n * alphas, cv=KFold(5)).fit(X, y)
    np.testing.assert_allclose(-ours.cv_mean_, peer.mse_path_.mean(axis=1), rtol=1e-6)
    assert ours.lam_ == pytest.approx(2 * n * peer.alpha_, rel=1e-12)


def test_weighted_lasso_cv_is_lasso_lars_cv_on_the_union_of_breakpoints():
    X, y = _regression(n=60, d=8, seed=2)
    n = X.shape[0]
    peer = LassoLarsCV(cv=KFold(5)).fit(X, y)
    ours = WeightedLassoCV(cv=KFold(5), scoring="neg_mean_squared_error", lam_min_ratio=1e-6)
    ours.fit(X, y)
    # LassoLarsCV's grid is every fold's LARS breakpoint (alpha = lam / (2 n)): on the range
    # of ours (lam_max of all the data down to lam_min_ratio lam_max) the two grids agree.
    theirs = 2 * n * peer.cv_alphas_[::-1]
    inside = (theirs <= ours.cv_lams_[0] * (1 - 1e-12)) & (theirs >= ours.cv_lams_[-1])
    np.testing.assert_allclose(ours.cv_lams_[1:-1], theirs[inside], rtol=1e-9)
    np.testing.assert_allclose(-ours.cv_scores_[:, 1:-1].T, peer.mse_path_[::-1][inside], rtol=1e-8)
    assert ours.lam_ == pytest.approx(2 * n * peer.alpha_, rel=1e-9)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-8, atol=1e-10)


def test_weights_are_a_rescaling_of_the_columns():
    X, y = _regression(n=40, d=5, seed=4)
    weights = np.array([0.5, 1.0, 2.0, 4.0, 1.5])
    weighted = WeightedLassoCV(weights=weights, cv=KFold(4)).fit(X, y)
    rescaled = WeightedLassoCV(cv=KFold(4)).fit(X / weights, y)
    np.testing.assert_allclose(weighted.cv_lams_, rescaled.cv_lams_, rtol=1e-9)
    np.testing.assert_allclose(weighted.cv_scores_, rescaled.cv_scores_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(weighted.coef_ * weights, rescaled.coef_, rtol=1e-7, atol=1e-10)


# ---- labels, grids, parallel folds, degenerate and bad input ------------------------------


@pytest.mark.parametrize("CV", [SVM2CV, L1SVMCV])
def test_classifiers_keep_their_labels(CV):
    X, y = _classification()
    cv = CV(cv=3).fit(X, y)
    assert list(cv.classes_) == ["no", "yes"]
    assert set(cv.predict(X)) <= {"no", "yes"}
    np.testing.assert_array_equal(cv.predict(X), cv.estimator_.predict(X))
    assert cv.certificate_.holds


def test_l1_svm_grid_holds_a_lam_between_every_two_breakpoints():
    X, y = _classification(n=40)
    cv = L1SVMCV(cv=3).fit(X, y)
    lams = cv.cv_lams_
    np.testing.assert_allclose(lams[1::2], np.sqrt(lams[:-2:2] * lams[2::2]))


def test_parallel_folds_and_a_list_of_splits_give_the_same_fit():
    X, y = _regression()
    folds = list(KFold(4).split(X))
    serial = WeightedLassoCV(cv=KFold(4)).fit(X, y)
    with parallel_config(backend="threading"):  # no process start-up in a unit test
        parallel = WeightedLassoCV(cv=folds, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(parallel.cv_lams_, serial.cv_lams_)
    np.testing.assert_allclose(parallel.cv_scores_, serial.cv_scores_, rtol=1e-12)
    assert parallel.lam_ == serial.lam_


def test_every_feature_excluded_gives_the_mean():
    X, y = _regression()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PathWarning)
        cv = WeightedLassoCV(weights=np.full(X.shape[1], np.inf), cv=KFold(4)).fit(X, y)
    np.testing.assert_array_equal(cv.coef_, 0.0)
    assert cv.intercept_ == pytest.approx(y.mean())


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"selection": "best"}, "'selection' parameter"),
        ({"lam_min_ratio": 0.0}, "'lam_min_ratio' parameter"),
        ({"lam_min_ratio": 1.0}, "'lam_min_ratio' parameter"),
        ({"scoring": "no_such_score"}, "'scoring' parameter"),
        ({"lams": [1.0, -2.0]}, "lams must be"),
        ({"lams": 0}, "'lams' parameter"),
        ({"cv": "five"}, "'cv' parameter"),
        ({"weights": np.ones(3)}, "weights"),
    ],
)
def test_bad_hyperparameters_name_themselves(params, match):
    X, y = _regression()
    with pytest.raises(ValueError, match=match):
        WeightedLassoCV(**params).fit(X, y)


# ---- sample weights: weighted fold paths, weighted scores, weighted refit -------------------


def test_weighted_lasso_cv_with_sample_weight_is_lasso_cv_with_sample_weight():
    """LassoCV's weighted MSE path (alpha = lam / (2 sum s) on every fold) and its choice."""
    X, y = _regression(n=50, d=6, seed=1)
    s = np.random.default_rng(1).uniform(0.1, 3.0, y.size)
    alphas = np.geomspace(10.0, 0.01, 12)
    peer = LassoCV(alphas=alphas, cv=KFold(5), tol=1e-12, max_iter=100000)
    peer.fit(X, y, sample_weight=s)
    ours = WeightedLassoCV(lams=2 * s.sum() * alphas, cv=KFold(5)).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(-ours.cv_scores_.T, peer.mse_path_, rtol=1e-6)
    assert ours.lam_ == pytest.approx(2 * s.sum() * peer.alpha_, rel=1e-12)
    np.testing.assert_allclose(ours.coef_, peer.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, peer.intercept_, rtol=1e-8)


@pytest.mark.parametrize(
    ("CV", "Est", "data", "splitter"), CASES[1:], ids=lambda v: getattr(v, "__name__", "")
)
def test_weighted_cv_curve_is_the_brute_force_loop(CV, Est, data, splitter):
    """Each fold fitted with its weights at ``lam * s_train.sum() / s.sum()`` and scored with
    the weighted accuracy on its held-out part; the final fit is the weighted estimator."""
    X, y = data()
    s = np.random.default_rng(2).uniform(0.2, 3.0, y.size)
    cv = CV(cv=splitter, lams=5).fit(X, y, sample_weight=s)
    folds = list(splitter.split(X, y))
    expected = np.empty((len(folds), cv.cv_lams_.size))
    for k, (train, test) in enumerate(folds):
        for i, lam in enumerate(cv.cv_lams_):
            model = Est(lam=lam * s[train].sum() / s.sum())
            model.fit(X[train], y[train], sample_weight=s[train])
            assert model.certificate_.holds
            expected[k, i] = model.score(X[test], y[test], sample_weight=s[test])
    np.testing.assert_allclose(cv.cv_scores_, expected, rtol=1e-9)
    reference = Est(lam=cv.lam_).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(cv.objective_, reference.objective_, rtol=1e-6)
    full_path_score = cv.path_.scores(X, y, lams=cv.lam_)[0]
    np.testing.assert_allclose(full_path_score, reference.score(X, y), rtol=1e-9)


# ---- scikit-learn's estimator checks --------------------------------------------------------

#: Checks that fit L1SVMCV on 200 samples several times (the 1-norm SVM path has a
#: breakpoint per sample on the margin): run with ``-m slow``.
_SLOW_L1_CHECKS = {
    "check_classifiers_train",
    "check_estimator_sparse_array",
    "check_estimator_sparse_matrix",
    "check_estimator_sparse_tag",
    "check_pipeline_consistency",
    "check_classifiers_classes",
}


def _check_cases():
    for estimator in (WeightedLassoCV(), SVM2CV(), L1SVMCV(cv=2, lam_min_ratio=0.01)):
        for k, (est, check) in enumerate(estimator_checks_generator(estimator, mark="xfail")):
            name = getattr(check, "func", check).__name__
            slow = isinstance(est, L1SVMCV) and name in _SLOW_L1_CHECKS
            marks = [pytest.mark.slow] if slow else []
            yield pytest.param(est, check, id=f"{type(est).__name__}-{name}-{k}", marks=marks)


@pytest.mark.parametrize(("estimator", "check"), list(_check_cases()))
def test_sklearn_check_estimator(estimator, check):
    check(estimator)


# ---- lam and scikit-learn's alpha and C (the table of docs/paths.md) -----------------------


def test_weighted_lasso_is_lasso_elastic_net_and_lasso_lars_at_alpha_lam_over_2n(ionosphere):
    X, labels = ionosphere
    y = X[:, :3].sum(axis=1) + 0.1 * labels
    n, lam = X.shape[0], 2.0
    ours = WeightedLasso(lam=lam).fit(X, y)
    for peer in (
        Lasso(alpha=lam / (2 * n), tol=1e-12, max_iter=100000),
        ElasticNet(alpha=lam / (2 * n), l1_ratio=1.0, tol=1e-12, max_iter=100000),
        LassoLars(alpha=lam / (2 * n)),
    ):
        peer.fit(X, y)
        np.testing.assert_allclose(peer.coef_, ours.coef_, atol=1e-9)
        assert peer.intercept_ == pytest.approx(ours.intercept_, abs=1e-9)
    weights = np.linspace(0.5, 2.0, X.shape[1])
    weighted = WeightedLasso(lam=lam, weights=weights).fit(X, y)
    peer = Lasso(alpha=lam / (2 * n), tol=1e-12, max_iter=100000).fit(X / weights, y)
    np.testing.assert_allclose(peer.coef_ / weights, weighted.coef_, atol=1e-9)


def test_svm2_is_linear_svc_with_c_one_over_lam_only_as_intercept_scaling_grows(ionosphere):
    """LinearSVC penalises its intercept: no exact map, an excess that shrinks with scaling."""
    X, y = ionosphere[0][:150], ionosphere[1][:150]
    lam = 2.0
    ours = SVM2(lam=lam).fit(X, y)
    y_pm = np.where(y == ours.classes_[1], 1.0, -1.0)

    def objective(coef, intercept):  # 004 eq. 7
        hinge = np.maximum(0.0, 1.0 - y_pm * (X @ coef + intercept))
        return hinge @ hinge + lam * np.abs(coef).sum()

    excess = []
    for scaling in (1.0, 10.0):
        peer = LinearSVC(
            penalty="l1",
            loss="squared_hinge",
            dual=False,
            C=1 / lam,
            intercept_scaling=scaling,
            tol=1e-10,
            max_iter=100000,
        ).fit(X, y)
        excess.append(objective(peer.coef_.ravel(), peer.intercept_[0]) / ours.objective_ - 1)
    assert excess[0] > 1e-3  # at the default scaling, not the same problem
    assert 0 <= excess[1] < excess[0] / 10


# ---- what the CV estimators chose: path_ and the CV curve (glmnet's plot(cv.fit)) -----------


@pytest.mark.parametrize(
    ("cv_class", "fit_class", "kind"),
    [(WeightedLassoCV, WeightedLasso, "regression"), (SVM2CV, SVM2, "classification")],
)
def test_path_is_the_exact_path_on_all_the_data(cv_class, fit_class, kind):
    """``path_.at(lam_)`` is the certified refit at ``lam_``, and ``path_`` reaches the grid."""
    if kind == "regression":
        X, y = _regression(n=50, d=6, seed=5)
    else:
        rng = np.random.default_rng(5)
        X = rng.standard_normal((50, 6))
        y = np.where(X[:, 0] + 0.5 * rng.standard_normal(50) > 0, 1, 0)
    model = cv_class(cv=4).fit(X, y)
    assert model.path_.lams[0] == pytest.approx(fit_class.lam_max(X, y), rel=1e-9)
    assert model.path_.lams[-1] <= model.cv_lams_[-1] * (1 + 1e-12)
    coef, intercept = model.path_.at(model.lam_)
    np.testing.assert_allclose(coef, np.ravel(model.coef_), atol=1e-6 * max(1, np.abs(coef).max()))
    np.testing.assert_allclose(intercept, np.ravel(model.intercept_)[0], atol=1e-6)


def test_plot_draws_the_curve_with_lambda_min_and_lambda_1se():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = _regression(n=60, d=8, seed=3)
    model = WeightedLassoCV(cv=KFold(4)).fit(X, y)
    fig, ax = plt.subplots()
    assert model.plot(ax) is ax
    curve = ax.lines[0]  # the mean, in a band of one standard error
    np.testing.assert_allclose(curve.get_xdata(), model.cv_lams_)
    np.testing.assert_allclose(curve.get_ydata(), model.cv_mean_)
    verticals = [line.get_xdata()[0] for line in ax.lines if len(set(line.get_xdata())) == 1]
    assert model.lam_min_ in verticals and model.lam_1se_ in verticals
    assert ax.get_xscale() == "log" and ax.xaxis_inverted()
    assert "mean squared error" in ax.get_ylabel()
    plt.close(fig)
    with pytest.raises(NotFittedError):
        WeightedLassoCV().plot()
