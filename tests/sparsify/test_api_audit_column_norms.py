"""`sparsify.utils.column_norms` on the dtypes a user brings, against ``numpy.linalg.norm``.

It squared and summed in X's own type: two True added to True (norm 1, not sqrt 2),
int8 entries of 100 overflowed (5.66, not 141.4), and a complex column gave ``sum x^2``
(``3j``, not 3); a 1-D X failed inside ``numpy.einsum``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify.utils import column_norms

COLUMNS = np.array([[1, 100, 0], [1, 100, 3], [0, 0, 4]])


def _expected(X):
    return np.linalg.norm(np.asarray(X, dtype=np.float64), axis=0)


@pytest.mark.parametrize(
    "dtype", [bool, np.int8, np.int16, np.uint8, np.int64, np.float32, np.float64, object]
)
@pytest.mark.parametrize("kind", ["dense", "list", "csr", "csc"])
def test_column_norms_of_every_real_dtype(dtype, kind):
    data = COLUMNS.astype(dtype)
    X = {"dense": data, "list": data.tolist(), "csr": None, "csc": None}[kind]
    if X is None:
        if dtype is object:
            pytest.skip("SciPy has no sparse matrix of objects")
        X = sp.csr_matrix(data).asformat(kind)
    expected = _expected(COLUMNS.astype(dtype))
    rtol = 1e-6 if dtype is np.float32 else 1e-15
    np.testing.assert_allclose(column_norms(X), expected, rtol=rtol)
    np.testing.assert_allclose(column_norms(X, squared=True), expected**2, rtol=rtol)


@pytest.mark.parametrize(
    "X, error, words",
    [
        ([3.0, 4.0], ValueError, "X must be 2-D"),
        (np.zeros((2, 2, 2)), ValueError, "X must be 2-D"),
        ([[3j, 4.0]], ValueError, "X must be real"),
        (sp.csr_matrix(np.array([[3j], [4.0]])), ValueError, "X must be real"),
        (np.array([["a", 1.0]], dtype=object), TypeError, "X must hold numbers"),
    ],
)
def test_column_norms_bad_input_names_x(X, error, words):
    with pytest.raises(error, match=words):
        column_norms(X)
