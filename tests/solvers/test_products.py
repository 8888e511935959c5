"""``X'v`` by the compiled pass (``solvers._products.transpose_times``) against SciPy's
``X.T @ v`` and NumPy's dense product."""

import numpy as np
import pytest
import scipy.sparse as sp

from solvers._products import transpose_times


def _unsorted(X):
    """X (CSR) with each row's entries stored in reverse order."""
    X = X.copy()
    for i in range(X.shape[0]):
        start, stop = X.indptr[i], X.indptr[i + 1]
        X.indices[start:stop] = X.indices[start:stop][::-1].copy()
        X.data[start:stop] = X.data[start:stop][::-1].copy()
    X.has_sorted_indices = False
    return X


@pytest.mark.parametrize("layout", ["csr", "unsorted csr", "csc", "dense", "int64 csr"])
def test_transpose_times_matches_the_dense_product(layout):
    rng = np.random.default_rng(0)
    dense = sp.random(30, 50, density=0.2, random_state=1).toarray()
    dense[4] = 0.0  # an empty row
    dense[:, 7] = 0.0  # an empty column
    dense[:, 9] = 1e12 * dense[:, 9]  # a column that dwarfs the others
    v = rng.normal(size=30)
    v[::5] = 0.0
    X = {
        "csr": sp.csr_matrix(dense),
        "unsorted csr": _unsorted(sp.csr_matrix(dense)),
        "csc": sp.csc_matrix(dense),
        "dense": dense,
        "int64 csr": sp.csr_matrix(dense),
    }[layout]
    if layout == "int64 csr":
        X.indices, X.indptr = X.indices.astype(np.int64), X.indptr.astype(np.int64)
    found = transpose_times(X, v)
    assert found.shape == (50,) and found.dtype == np.float64
    np.testing.assert_allclose(found, dense.T @ v, rtol=1e-13, atol=0)


def test_transpose_times_propagates_nan_as_scipy_does():
    X = sp.csr_matrix(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, np.inf]]))
    v = np.array([1.0, np.nan, 0.0])
    found = transpose_times(X, v)
    np.testing.assert_array_equal(found, X.T @ v)  # NaN where SciPy has NaN (inf * 0 too)
    assert found[0] == 1.0 and np.isnan(found[1]) and np.isnan(found[2])
