"""The Path contract of docs/paths.md: at, scores, select, plot, labels, errors naming inputs."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.linear_model import Lasso  # noqa: E402
from sklearn.metrics import (  # noqa: E402
    accuracy_score,
    balanced_accuracy_score,
    f1_score,
    make_scorer,
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    roc_auc_score,
)
from sklearn.svm import LinearSVC  # noqa: E402

from solvers.path import Path, l1_svm_path, lasso_path, svm2_path  # noqa: E402
from sparsify.datasets import load_ionosphere  # noqa: E402

CLASSIFIER_PATHS = [svm2_path, l1_svm_path]
ALL_PATHS = [lasso_path, *CLASSIFIER_PATHS]


def _data(seed=0, n=40, d=6):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("path_function", CLASSIFIER_PATHS)
def test_any_two_labels(path_function):
    X, y = _data()
    reference = path_function(X, y)
    for labels in (np.where(y > 0, "spam", "ham"), np.where(y > 0, 7, 3)):
        path = path_function(X, labels)
        np.testing.assert_allclose(path.lams, reference.lams)
        np.testing.assert_allclose(path.coefs, reference.coefs)


@pytest.mark.parametrize("path_function", ALL_PATHS)
def test_at_above_lam_max_is_the_null_model(path_function):
    X, y = _data()
    path = path_function(X, y)
    coef, intercept = path.at(10 * path.lams[0])
    np.testing.assert_array_equal(coef, 0.0)
    assert intercept == path.intercepts[0]
    np.testing.assert_array_equal(path.at(path.lams[3])[0], path.coefs[3])


def test_at_rejects_negative_lam():
    path = lasso_path(*_data())
    with pytest.raises(ValueError, match="lam must be"):
        path.at(-1.0)


def _best_breakpoint(path, X_val, y_val, score, classes=None):
    scores = []
    for coef, intercept in zip(path.coefs, path.intercepts, strict=True):
        decision = X_val @ coef + intercept
        prediction = decision if classes is None else np.where(decision > 0, *classes[::-1])
        scores.append(score(y_val, prediction))
    return path.lams[int(np.argmax(scores))]


@pytest.mark.parametrize("path_function", ALL_PATHS)
def test_select_returns_the_best_validation_breakpoint(path_function):
    X, y = load_ionosphere()
    X_train, y_train, X_val, y_val = X[:200], y[:200], X[200:], y[200:]
    path = path_function(X_train, y_train)
    if path_function is lasso_path:
        expected = _best_breakpoint(path, X_val, y_val, r2_score)
    else:
        expected = _best_breakpoint(path, X_val, y_val, accuracy_score, classes=(-1.0, 1.0))
    assert path.select(X_val, y_val) == expected
    assert expected in path.lams


def test_select_with_a_custom_scoring_and_original_labels():
    X, y = _data(n=80)
    labels = np.where(y > 0, "yes", "no")
    path = svm2_path(X[:50], labels[:50])

    def negative_errors(y_true, y_pred):
        return -np.sum(y_true != y_pred)

    expected = _best_breakpoint(path, X[50:], labels[50:], negative_errors, ("no", "yes"))
    assert path.select(X[50:], labels[50:], scoring=negative_errors) == expected
    with pytest.raises(ValueError, match="scoring"):
        path.select(X[50:], labels[50:], scoring="no_such_score")
    with pytest.raises(ValueError, match="scoring"):
        path.select(X[50:], labels[50:], scoring=3)
    with pytest.raises(ValueError, match="y_val"):
        path.select(X[50:], labels[:10])
    with pytest.raises(ValueError, match="features"):
        path.select(X[50:, :3], labels[50:])


def test_path_repr_and_len():
    path = l1_svm_path(*_data())
    assert isinstance(path, Path) and len(path) == len(path.lams)
    assert "classifier" in repr(path)


@pytest.mark.parametrize("path_function", ALL_PATHS)
@pytest.mark.parametrize(
    ("change", "argument"),
    [
        (lambda X, y, w: (np.where(X > 1.5, np.nan, X), y, w), "X"),
        (lambda X, y, w: (X[:, 0], y, w), "X"),
        (lambda X, y, w: (X, y[:-1], w), "y"),
        (lambda X, y, w: (X, y[:, None], w), "y"),
        (lambda X, y, w: (X, y, -w), "weights"),
        (lambda X, y, w: (X, y, w[:-1]), "weights"),
        (lambda X, y, w: (X, y, np.where(w > 0.5, np.nan, w)), "weights"),
        (lambda X, y, w: (X, y, np.where(w > 0.5, -np.inf, w)), "weights"),
    ],
)
def test_bad_input_names_the_argument(path_function, change, argument):
    X, y = _data()
    weights = np.linspace(0.1, 1.0, X.shape[1])
    X, y, weights = change(X, y, weights)
    with pytest.raises(ValueError, match=argument):
        path_function(X, y, weights)


@pytest.mark.parametrize("path_function", CLASSIFIER_PATHS)
def test_one_class_is_rejected(path_function):
    X, _ = _data()
    with pytest.raises(ValueError, match="y must hold exactly two classes"):
        path_function(X, np.ones(X.shape[0]))
    with pytest.raises(ValueError, match="y must hold exactly two classes"):
        path_function(X, np.arange(X.shape[0]) % 3)


def test_nan_target_is_rejected():
    X, y = _data()
    y[3] = np.nan
    with pytest.raises(ValueError, match="y contains NaN"):
        lasso_path(X, y)
    with pytest.raises(ValueError, match="y contains NaN"):
        svm2_path(X, y)


@pytest.mark.parametrize(
    ("keyword", "value"),
    [("lam_min", -1.0), ("lam_min", np.nan), ("max_features", 0), ("max_steps", 1.5)],
)
@pytest.mark.parametrize("path_function", ALL_PATHS)
def test_bad_stop_criteria(path_function, keyword, value):
    with pytest.raises(ValueError, match=keyword):
        path_function(*_data(), **{keyword: value})


# ---- scikit-learn scorers, by name or as callables ---------------------------------------


def _hand_scores(path, X_val, y_val, metric, response):
    """``metric`` at every breakpoint, from the coefficients, by hand."""
    scores = []
    for coef, intercept in zip(path.coefs, path.intercepts, strict=True):
        decision = X_val @ coef + intercept
        scores.append(metric(y_val, response(decision)))
    return np.array(scores)


def _split(n=90, d=6, seed=1):
    X, y = _data(seed=seed, n=n, d=d)
    return X[:60], y[:60], X[60:], y[60:]


def test_select_with_neg_mean_squared_error_by_name():
    X, y, X_val, y_val = _split()
    path = lasso_path(X, X @ np.arange(6.0) + y)
    y_val = X_val @ np.arange(6.0) + y_val
    expected = -_hand_scores(path, X_val, y_val, mean_squared_error, lambda f: f)
    np.testing.assert_allclose(
        path.scores(X_val, y_val, scoring="neg_mean_squared_error"), expected
    )
    assert (
        path.select(X_val, y_val, scoring="neg_mean_squared_error")
        == path.lams[np.argmax(expected)]
    )


@pytest.mark.parametrize("path_function", CLASSIFIER_PATHS)
def test_select_with_roc_auc_and_balanced_accuracy_by_name(path_function):
    X, y, X_val, y_val = _split(n=120)
    labels, labels_val = np.where(y > 0, "b", "a"), np.where(y_val > 0, "b", "a")
    path = path_function(X, labels)
    roc = _hand_scores(path, X_val, labels_val == "b", roc_auc_score, lambda f: f)
    balanced = _hand_scores(
        path, X_val, labels_val, balanced_accuracy_score, lambda f: np.where(f > 0, "b", "a")
    )
    # The null model has a constant decision: its ROC AUC is 1/2.
    assert roc[0] == 0.5
    np.testing.assert_allclose(path.scores(X_val, labels_val, scoring="roc_auc"), roc)
    np.testing.assert_allclose(
        path.scores(X_val, labels_val, scoring="balanced_accuracy"), balanced
    )
    assert path.select(X_val, labels_val, scoring="roc_auc") == path.lams[np.argmax(roc)]
    assert path.select(X_val, labels_val, "balanced_accuracy") == path.lams[np.argmax(balanced)]


def test_scorer_callables_and_metric_callables_agree():
    X, y, X_val, y_val = _split(n=120)
    path = svm2_path(X, y)
    hand = _hand_scores(path, X_val, y_val, roc_auc_score, lambda f: f)
    scorer = make_scorer(roc_auc_score, response_method="decision_function")

    def written_scorer(estimator, X, y):
        return roc_auc_score(y, estimator.decision_function(X))

    np.testing.assert_allclose(path.scores(X_val, y_val, scoring=scorer), hand)
    np.testing.assert_allclose(path.scores(X_val, y_val, scoring=written_scorer), hand)
    # A two-argument callable is a metric of the predicted labels, as before.
    accuracy = _hand_scores(path, X_val, y_val, accuracy_score, lambda f: np.where(f > 0, 1, -1))
    np.testing.assert_allclose(path.scores(X_val, y_val, scoring=accuracy_score), accuracy)
    np.testing.assert_allclose(path.scores(X_val, y_val), accuracy)


def test_a_scorer_that_needs_probabilities_is_refused_naming_scoring():
    X, y, X_val, y_val = _split()
    path = svm2_path(X, y)
    with pytest.raises(ValueError, match="scoring='neg_log_loss'.*predict_proba"):
        path.select(X_val, y_val, scoring="neg_log_loss")


def test_r2_default_matches_scikit_learn_also_for_constant_targets():
    X, y, X_val, y_val = _split()
    path = lasso_path(X, X[:, 0] + y)
    for targets in (X_val[:, 0] + y_val, np.full(X_val.shape[0], 2.0)):
        expected = _hand_scores(path, X_val, targets, r2_score, lambda f: f)
        np.testing.assert_allclose(path.scores(X_val, targets), expected)


@pytest.mark.parametrize(
    "path_function, names",
    [
        (lasso_path, ("neg_mean_squared_error", "r2", "neg_mean_absolute_error")),
        (svm2_path, ("accuracy", "roc_auc", "f1")),
        (l1_svm_path, ("accuracy", "roc_auc", "f1")),
    ],
)
def test_scorer_names_match_sklearn_metrics_on_the_solutions_from_at(path_function, names):
    """Scores by name at breakpoints and between them, against sklearn.metrics on ``at``."""
    X, y, X_val, y_val = _split(n=80)
    if path_function is lasso_path:
        y, y_val = X @ np.arange(6.0) + y, X_val @ np.arange(6.0) + y_val
    path = path_function(X, y)
    # Eight breakpoints, each with the midpoint of the segment below it.
    first = np.unique(np.linspace(0, len(path) - 2, 8).astype(int))
    lams = np.column_stack((path.lams[first], (path.lams[first] + path.lams[first + 1]) / 2))
    lams = lams.ravel()
    metrics = {
        "neg_mean_squared_error": lambda t, f: -mean_squared_error(t, f),
        "neg_mean_absolute_error": lambda t, f: -mean_absolute_error(t, f),
        "r2": r2_score,
        "roc_auc": roc_auc_score,
        "accuracy": lambda t, f: accuracy_score(t, np.where(f > 0, 1.0, -1.0)),
        "f1": lambda t, f: f1_score(t, np.where(f > 0, 1.0, -1.0)),
    }
    for name in names:
        metric = metrics[name]
        expected = [metric(y_val, X_val @ c + b) for c, b in map(path.at, lams)]
        np.testing.assert_allclose(path.scores(X_val, y_val, lams=lams, scoring=name), expected)
        at_breakpoints = [metric(y_val, X_val @ c + b) for c, b in map(path.at, path.lams)]
        best = path.lams[int(np.argmax(at_breakpoints))]
        assert path.select(X_val, y_val, scoring=name) == best


@pytest.mark.parametrize(
    "path_function, peer",
    [(lasso_path, Lasso(alpha=0.1)), (svm2_path, LinearSVC()), (l1_svm_path, LinearSVC())],
)
def test_the_scorer_sees_scikit_learn_shapes(path_function, peer):
    """A scorer is given ``coef_``/``intercept_`` shaped as scikit-learn's own linear model."""
    X, y, X_val, y_val = _split()
    path = path_function(X, y)
    peer.fit(X, y)
    seen = []

    def scorer(estimator, X, y):
        seen.append((np.shape(estimator.coef_), np.shape(estimator.intercept_)))
        assert estimator.predict(X).shape == peer.predict(X).shape
        if path_function is not lasso_path:
            assert estimator.decision_function(X).shape == peer.decision_function(X).shape
        return 0.0

    path.scores(X_val, y_val, scoring=scorer)
    assert set(seen) == {(peer.coef_.shape, np.shape(peer.intercept_))}


# ---- scores between breakpoints ----------------------------------------------------------


@pytest.mark.parametrize("path_function", ALL_PATHS)
def test_scores_at_lams_between_breakpoints(path_function):
    """Midpoints: the average of the two ends (linear), or the next breakpoint (constant)."""
    X, y, X_val, y_val = _split()
    path = path_function(X, y)
    middles = (path.lams[:-1] + path.lams[1:]) / 2
    if path_function is l1_svm_path:
        coefs, intercepts = path.coefs[1:], path.intercepts[1:]
    else:
        coefs = (path.coefs[:-1] + path.coefs[1:]) / 2
        intercepts = (path.intercepts[:-1] + path.intercepts[1:]) / 2
    decisions = X_val @ coefs.T + intercepts
    if path_function is lasso_path:
        expected = [r2_score(y_val, f) for f in decisions.T]
    else:
        expected = [accuracy_score(y_val, np.where(f > 0, 1.0, -1.0)) for f in decisions.T]
    np.testing.assert_allclose(path.scores(X_val, y_val, lams=middles), expected)
    for lam, coef in zip(middles, coefs, strict=True):
        np.testing.assert_allclose(path.at(lam)[0], coef, atol=1e-12)
    with pytest.raises(ValueError, match="lams"):
        path.scores(X_val, y_val, lams=[-1.0])


# ---- plot ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path_function", ALL_PATHS)
def test_plot_draws_one_line_per_active_feature(path_function):
    X, y = _data(n=60, d=8)
    path = path_function(X, y)
    active = np.flatnonzero(np.any(path.coefs != 0, axis=0))
    fig, ax = plt.subplots()
    try:
        assert path.plot(ax) is ax
        assert len(ax.get_lines()) == active.size
        assert [line.get_label() for line in ax.get_lines()] == [f"x{j}" for j in active]
        assert ax.get_xscale() == "log" and ax.xaxis_inverted()
        assert len(ax.collections) == 1  # the breakpoints, marked
        positive = path.lams > 0
        for line, j in zip(ax.get_lines(), active, strict=True):
            x, values = line.get_data()
            on_breakpoints = np.isin(x, path.lams[positive])
            assert on_breakpoints.sum() == positive.sum()
            np.testing.assert_allclose(values[on_breakpoints], path.coefs[positive, j])
        steps = path_function is l1_svm_path
        assert all((line.get_drawstyle() == "steps-pre") == steps for line in ax.get_lines())

        ax.clear()
        path.plot(ax, x="l1_norm", breakpoints=False, feature_names=[f"f{j}" for j in range(8)])
        assert len(ax.get_lines()) == active.size and not ax.collections
        x, values = ax.get_lines()[0].get_data()
        np.testing.assert_allclose(x, np.abs(path.coefs).sum(axis=1))
        np.testing.assert_allclose(values, path.coefs[:, active[0]])
        assert ax.get_lines()[0].get_label() == f"f{active[0]}"
    finally:
        plt.close(fig)


def test_plot_on_the_current_axes_and_bad_arguments():
    path = lasso_path(*_data())
    fig = plt.figure()
    try:
        assert path.plot() is plt.gca()
        with pytest.raises(ValueError, match="x must be"):
            path.plot(x="norm")
        with pytest.raises(ValueError, match="feature_names"):
            path.plot(feature_names=["a"])
    finally:
        plt.close(fig)
