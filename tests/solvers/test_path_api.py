"""The Path contract of docs/paths.md: at, select, labels, and errors that name the argument."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, r2_score

from solvers.path import Path, l1_svm_path, lasso_path, svm2_path
from sparsify.datasets import load_ionosphere

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
        prediction = decision if classes is None else np.where(decision >= 0, *classes[::-1])
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
        path.select(X[50:], labels[50:], scoring="accuracy")
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
