"""``column_norms`` in every layout against NumPy's norms of the dense matrix."""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify.utils import column_norms


@pytest.mark.parametrize("layout", ["csr", "csc", "coo", "dense"])
@pytest.mark.parametrize("shape", [(300, 500), (7, 3), (0, 4), (3, 0)])
def test_column_norms_are_numpys(layout, shape):
    rng = np.random.default_rng(0)
    X = rng.standard_normal(shape) * (rng.random(shape) < 0.1)
    if shape[1] > 7:
        X[:, 7] = 0.0  # an empty column
        X[:, 8] *= 1e150  # squares near overflow's edge stay finite
    M = X if layout == "dense" else sp.coo_matrix(X).asformat(layout)
    expected = np.linalg.norm(X, axis=0)
    np.testing.assert_allclose(column_norms(M), expected, rtol=1e-14, atol=0)
    np.testing.assert_allclose(column_norms(M, squared=True), expected**2, rtol=1e-14, atol=0)


@pytest.mark.parametrize("cls", [sp.csr_matrix, sp.csc_matrix])
def test_duplicate_entries_add_before_they_are_squared(cls):
    # Major slice 0 stores minor index 1 twice (1 + 2 = 3 in all), then 0; slice 2 has 1, 2.
    data = np.array([1.0, 2.0, 4.0, -1.0, 5.0])
    indices, indptr = np.array([1, 1, 0, 1, 2]), np.array([0, 3, 3, 5])
    M = cls((data, indices, indptr), shape=(3, 3))
    assert not M.has_canonical_format
    dense = M.toarray()  # duplicates summed
    np.testing.assert_allclose(column_norms(M), np.linalg.norm(dense, axis=0), rtol=1e-15)
