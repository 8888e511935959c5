"""The typing of a classifier's y (``solvers._base._target_type``) against scikit-learn's
``type_of_target`` and ``numpy.unique``, which it replaces on numeric labels."""

import numpy as np
import pytest
from sklearn.utils.multiclass import type_of_target

from solvers import SVMDual
from solvers._base import _target_type

LABELS = {
    "int binary": np.array([0, 1, 1, 0, 1]),
    "int one class": np.array([3, 3, 3]),
    "int multiclass": np.array([2, 0, 1, 2, 5]),
    "uint": np.array([1, 4, 4], dtype=np.uint8),
    "bool": np.array([True, False, True]),
    "float integral": np.array([-1.0, 1.0, 1.0, -1.0]),
    "float integral multiclass": np.array([0.0, 2.0, 7.0]),
    "float continuous": np.array([0.0, 0.5, 1.0]),
    "float huge": np.array([1e20, -1e20, 1e20]),
    "float32": np.array([1.0, 2.0, 1.0], dtype=np.float32),
    "negative zero": np.array([-0.0, 0.0, 1.0]),
    "text": np.array(["spam", "ham", "spam"]),
    "text multiclass": np.array(["a", "b", "c", "a"]),
    "object ints": np.array([1, 2, 1], dtype=object),
}


@pytest.mark.parametrize("name", LABELS)
def test_target_type_is_scikit_learns(name):
    y = LABELS[name]
    with np.errstate(invalid="ignore"):  # 1e20 cast to int64, as type_of_target casts it
        try:
            expected = type_of_target(y, input_name="y", raise_unknown=True)
        except ValueError as error:  # objects that are not text: the same error
            with pytest.raises(ValueError, match="Unknown label type"):
                _target_type(y)
            assert "Unknown label type" in str(error)
            return
        found, classes = _target_type(y)
    assert found == expected
    np.testing.assert_array_equal(classes, np.unique(y))
    assert classes.dtype == np.unique(y).dtype


def test_continuous_labels_are_rejected_as_scikit_learn_rejects_them():
    X = np.eye(3)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        SVMDual().fit(X, [0.0, 0.5, 1.0])
