"""`Selection` on the inputs a scikit-learn user brings: lists, wrong shapes, bad values.

Each answer is checked against ``X @ R`` written out in the test (R the d x r matrix
with ``scales[j]`` in row ``indices[j]``, built here by hand); each bad input gets a
ValueError or TypeError that names the argument.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import Selection

INDICES, SCALES, D = [2, 0], [2.0, 0.5], 3


def _product(X):
    """``X @ R`` with R built entry by entry."""
    R = np.zeros((D, len(INDICES)))
    for column, (row, scale) in enumerate(zip(INDICES, SCALES, strict=True)):
        R[row, column] = scale
    return np.asarray(X, dtype=float) @ R


@pytest.fixture
def selection():
    return Selection(indices=INDICES, scales=SCALES, n_features_in=D)


@pytest.mark.parametrize(
    "X",
    [
        [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],  # a list of lists (was: AttributeError)
        [[0, 1, 2], [3, 4, 5]],  # of ints
        ((0.0, 1.0, 2.0),),  # a tuple, one sample
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.array([[0, 1, 2]], dtype=object),  # numbers in an object array
    ],
)
def test_apply_array_likes_as_scikit_learn_transform_does(selection, X):
    np.testing.assert_allclose(selection.apply(X), _product(X), rtol=1e-15)


def test_apply_a_pandas_frame(selection):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(np.arange(6.0).reshape(2, 3), columns=["a", "b", "c"])
    np.testing.assert_allclose(selection.apply(frame), _product(frame.to_numpy()))


def test_apply_coo_gives_csr(selection):
    X = np.arange(6.0).reshape(2, 3)
    out = selection.apply(sp.coo_matrix(X))
    assert out.format == "csr"
    np.testing.assert_allclose(out.toarray(), _product(X))


@pytest.mark.parametrize(
    "X, error, words",
    [
        (None, ValueError, "X is None"),
        ([0.0, 1.0, 2.0], ValueError, "X must be 2-D"),  # was: IndexError
        (np.zeros((2, 3, 1)), ValueError, "X must be 2-D"),  # was: a 3-D answer
        (np.zeros((0, 3)), ValueError, "X is invalid"),
        ([[np.nan, 1.0, 2.0]], ValueError, "X contains NaN"),
        ([[np.inf, 1.0, 2.0]], ValueError, "X contains infinity"),
        ([[1j, 1.0, 2.0]], ValueError, "X must be real"),  # was: a complex answer
        (np.array([["a", 1, 2]], dtype=object), TypeError, "X must hold numbers"),
        ([[0.0, 1.0]], ValueError, "X has 2 features"),
    ],
)
def test_apply_bad_input_names_x(selection, X, error, words):
    with pytest.raises(error, match=words):
        selection.apply(X)


def test_equal_selections_compare_equal_and_hash_alike():
    """The dataclass's own ``==`` compared arrays as a tuple (ValueError: the truth
    value of an array is ambiguous) and its hash hashed arrays (TypeError)."""
    a = Selection(indices=[2, 0], scales=[2.0, 0.5], n_features_in=3)
    b = Selection(indices=np.array([2, 0]), scales=(2.0, 0.5), n_features_in=3)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Selection(indices=[0, 2], scales=[0.5, 2.0], n_features_in=3)  # order
    assert a != Selection(indices=[2, 0], scales=[2.0, 1.0], n_features_in=3)
    assert a != Selection(indices=[2, 0], scales=[2.0, 0.5], n_features_in=4)
    assert a != "not a selection"


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"scales": [1j, 1.0]}, TypeError, "scales must be real"),  # was: float() ...
        ({"scales": ["a", 1.0]}, TypeError, "scales must be real"),
        ({"scales": [1.0]}, ValueError, "scales has shape"),
        ({"indices": [2.0, 0.0]}, TypeError, "indices must be"),
        ({"indices": [2, 3]}, ValueError, "indices must lie"),
        ({"n_features_in": 3.0}, TypeError, "n_features_in must be an integer"),
    ],
)
def test_constructor_bad_input_names_the_argument(kwargs, error, words):
    arguments = {"indices": [2, 0], "scales": [2.0, 0.5], "n_features_in": 3} | kwargs
    with pytest.raises(error, match=words):
        Selection(**arguments)


def test_from_picks_merges_as_written():
    """Feature 2 picked twice with squared scales 1 and 3: one entry of scale 2."""
    sel = Selection.from_picks([2, 0, 2], [1.0, 4.0, 3.0], 3, factors=[1.0, 1.0, 0.5])
    assert sel == Selection(indices=[2, 0], scales=[1.0, 2.0], n_features_in=3)


@pytest.mark.parametrize(
    "args, kwargs, error, words",
    [
        (([1.7], [1.0], 3), {}, TypeError, "picks must be integer"),  # was: index 1
        (([1], [1j], 3), {}, TypeError, "weights must be real"),
        (([2], [1.0], 3), {"factors": [1.0]}, ValueError, r"factors must have shape \(3,\)"),
        (([2], [1.0], 3), {"factors": [1j, 1, 1]}, TypeError, "factors must be real"),
    ],
)
def test_from_picks_bad_input_names_the_argument(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        Selection.from_picks(*args, **kwargs)
