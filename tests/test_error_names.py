"""Errors name only what a user can see: no message of a public call names a private
class or function (a name that starts with an underscore).

The test provokes the errors users meet first, on every public estimator and every
public function that takes data: an unknown constructor parameter, an unknown fit
argument, unknown ``set_params`` keys, data with NaN, y of the wrong length, empty
data, one class, a call before ``fit``. Python's own TypeError names the function by
its ``__qualname__``: an inherited ``__init__`` or ``fit`` of a private base once
gave "_WeightedL1SVM.__init__() got an unexpected keyword argument".
"""

import inspect
import re
import warnings

import numpy as np
import pytest

import solvers
import sparsify

#: A name that starts with an underscore (dunders such as ``__init__`` excepted).
PRIVATE_NAME = re.compile(r"(?<![\w.])_?_[A-Za-z]\w*|\._?_[A-Za-z]\w*")
MODULES = [
    solvers,
    sparsify,
    solvers.formulations,
    solvers.path,
    solvers.certificates,
    solvers.guarantees,
    solvers.testing,
    solvers.weights,
    sparsify.utils,
]


def _private_names(message):
    names = (m.lstrip(".") for m in PRIVATE_NAME.findall(message))
    return [name for name in names if not (name.startswith("__") and name.endswith("__"))]


def test_the_pattern_finds_private_names_and_passes_public_ones():
    """The detector itself, on messages written here."""
    assert _private_names("_WeightedL1SVM.__init__() got an unexpected keyword") == [
        "_WeightedL1SVM"
    ]
    assert _private_names("solvers.cv._PathCV.fit() got") == ["_PathCV"]
    assert _private_names("SVM2.__init__() got an unexpected keyword argument 'x'") == []
    assert _private_names("coef_ and lam_max of sample_weight must be >= 0") == []


def _estimators():
    for module in (solvers, sparsify):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) and hasattr(obj, "fit"):
                yield obj


def _functions():
    for module in MODULES:
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield obj


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 4))
    return X, np.where(X[:, 0] > 0, 1, 0)


def _messages(calls):
    """The message of each call's exception (warnings too: they are messages)."""
    messages = []
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                call()
            except Exception as error:  # noqa: BLE001 - every error's text is checked
                messages.append(f"{type(error).__name__}: {error}")
        messages.extend(f"{w.category.__name__}: {w.message}" for w in caught)
    return messages


def _provocations(cls):
    X, y = _data()
    nan = X.copy()
    nan[0, 0] = np.nan
    yield lambda: cls(not_a_parameter=1)
    yield lambda: cls().fit(X, y, not_an_argument=1)
    yield lambda: cls().set_params(not_a_parameter=1)
    yield lambda: cls().fit(nan, y)
    yield lambda: cls().fit(X, y[:-1])
    yield lambda: cls().fit(X[:0], y[:0])
    yield lambda: cls().fit(X[:, 0], y)
    yield lambda: cls().fit(X, np.zeros_like(y))  # one class
    for method in ("predict", "transform", "decision_function"):
        if hasattr(cls, method):
            yield lambda method=method: getattr(cls(), method)(X)


@pytest.mark.parametrize("cls", list(_estimators()), ids=lambda c: c.__name__)
def test_estimator_errors_name_no_private_class(cls):
    messages = _messages(_provocations(cls))
    assert any("not_a_parameter" in m for m in messages)  # the provocations do provoke
    offending = [m for m in messages if _private_names(m)]
    assert offending == []


@pytest.mark.parametrize("function", list(_functions()), ids=lambda f: f.__qualname__)
def test_function_errors_name_no_private_function(function):
    X, y = _data()
    nan = X.copy()
    nan[0, 0] = np.nan
    calls = [lambda: function(not_an_argument=1)]
    first = next(iter(inspect.signature(function).parameters), None)
    if first == "X":
        calls += [lambda: function(nan, y), lambda: function(X[:0], y[:0])]
    messages = _messages(calls)
    assert any("not_an_argument" in m or "argument" in m for m in messages)
    offending = [m for m in messages if _private_names(m)]
    assert offending == []
