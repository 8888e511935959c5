"""Public functions check their arguments with scikit-learn's ``validate_params``.

Each function rejects a hyperparameter of the wrong type or out of range with
``InvalidParameterError`` (a ValueError and a TypeError) whose message names the
argument and the function, and still accepts what scikit-learn's constraints accept
(NumPy integers, a RandomState).
"""

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sparsify import (
    Selection,
    document_frequency,
    information_gain,
    leverage_sample,
    leverage_scores,
    rrqr,
    spectral_distortion,
    weight_scores,
)
from sparsify.sampling import sample_features

X = np.random.default_rng(0).standard_normal((6, 8))
Y = np.array([0, 1, 0, 1, 1, 0])
V = np.linalg.qr(np.random.default_rng(1).standard_normal((8, 3)))[0]
P = np.full(8, 1 / 8)

BAD = [
    (leverage_scores, (X,), {"k": 0}, "k"),
    (leverage_scores, (X,), {"k": 1.5}, "k"),
    (leverage_scores, (X,), {"k": "2"}, "k"),
    (leverage_sample, (X, 0), {}, "r"),
    (leverage_sample, (X, 2.0), {}, "r"),
    (leverage_sample, (X, 3), {"k": -1}, "k"),
    (leverage_sample, (X, 3), {"method": "poisson"}, "method"),
    (leverage_sample, (X, 3), {"random_state": -1}, "random_state"),
    (leverage_sample, (X, 3), {"random_state": "seed"}, "random_state"),
    (sample_features, (P, 0), {}, "r"),
    (sample_features, (P, 3), {"method": "IID"}, "method"),
    (sample_features, (P, 3), {"random_state": 1.5}, "random_state"),
    (rrqr, (X, 0), {}, "r"),
    (rrqr, (X, "2"), {}, "r"),
    (rrqr, (X, None), {}, "r"),
    (information_gain, (None, Y), {}, "X"),
    (information_gain, (X, None), {}, "y"),
    (information_gain, (X, 3), {}, "y"),
    (document_frequency, ("text",), {}, "X"),
    (weight_scores, (None,), {}, "X"),
    (spectral_distortion, (V, np.arange(3)), {}, "selection"),
    (spectral_distortion, (None, Selection(np.arange(3), np.ones(3), 8)), {}, "V"),
]


@pytest.mark.parametrize(
    "func, args, kwargs, name",
    BAD,
    ids=[f"{f.__name__}-{name}-{i}" for i, (f, _, _, name) in enumerate(BAD)],
)
def test_bad_argument_raises_invalid_parameter_error_naming_it(func, args, kwargs, name):
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter of {func.__name__}"):
        func(*args, **kwargs)


def test_invalid_parameter_error_is_both_value_and_type_error():
    """Callers that caught ValueError or TypeError before still catch the new error."""
    with pytest.raises(ValueError):
        rrqr(X, 0)
    with pytest.raises(TypeError):
        rrqr(X, 2.0)


def test_bounds_that_depend_on_the_data_still_name_the_argument():
    """validate_params cannot know n_features: the bound on r is checked against X."""
    with pytest.raises(ValueError, match="r must be an integer >= 1 and <= 8; got r=9"):
        rrqr(X, 9)
    with pytest.raises(ValueError, match="k must be an integer >= 1 and <= 6; got k=7"):
        leverage_scores(X, k=7)


def test_what_the_constraints_accept_gives_the_same_result():
    """NumPy integers equal Python ints; a seeded RandomState is accepted (sklearn's style)."""
    np.testing.assert_array_equal(rrqr(X, np.int64(3)).indices, rrqr(X, 3).indices)
    np.testing.assert_allclose(leverage_scores(X, k=np.int32(2)), leverage_scores(X, k=2))
    a = leverage_sample(X, np.int64(4), random_state=np.int64(5))
    b = leverage_sample(X, 4, random_state=5)
    np.testing.assert_array_equal(a.indices, b.indices)
    sel = leverage_sample(X, 4, random_state=np.random.RandomState(0), method="bernoulli")
    assert sel.n_features_in == X.shape[1]


def test_leverage_sample_validates_k_itself():
    """leverage_scores is called inside leverage_sample with nested validation skipped,
    so leverage_sample's own constraints must cover k."""
    with pytest.raises(InvalidParameterError, match="'k' parameter of leverage_sample"):
        leverage_sample(X, 3, k=2.5)
