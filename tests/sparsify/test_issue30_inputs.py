"""Issue 30, items 6 and 8: non-canonical sparse input and a non-integer width.

A CSR or CSC matrix may store an entry twice (SciPy adds them up); the column norms
must be those of the matrix, and the caller's arrays must stay as they were. A
``Selection`` of 30.7 features is no selection: it raises instead of truncating.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import Selection
from sparsify.utils import column_norms
from tests.sparsify.test_inputs_untouched import scrambled


def duplicated_entries(X, fmt):
    """X (dense) as CSR/CSC with every entry stored twice, as two halves (and each row's
    or column's indices reversed): a non-canonical matrix equal to X."""
    M = scrambled(X, fmt, duplicates=True)
    assert not M.has_canonical_format
    return M


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("squared", [False, True])
def test_column_norms_of_a_matrix_with_duplicate_entries(fmt, squared):
    rng = np.random.default_rng(0)
    X = sp.random(25, 9, density=0.4, random_state=1).toarray()
    X[:, 0] = rng.standard_normal(25)
    M = duplicated_entries(X, fmt)
    before = (M.data.copy(), M.indices.copy(), M.indptr.copy())
    got = column_norms(M, squared=squared)
    norms = np.linalg.norm(X, axis=0)  # NumPy's, of the dense matrix
    np.testing.assert_allclose(got, norms**2 if squared else norms, rtol=1e-13)
    for kept, now in zip(before, (M.data, M.indices, M.indptr), strict=True):
        assert kept.tobytes() == now.tobytes()  # the caller's matrix is untouched


@pytest.mark.parametrize("width", [30.7, 30.0, np.float64(12.0), "30", True, None])
def test_selection_rejects_a_width_that_is_not_an_integer(width):
    with pytest.raises(TypeError, match="n_features_in must be an integer"):
        Selection(np.array([0, 3]), np.ones(2), width)
    with pytest.raises(TypeError, match="n_features_in must be an integer"):
        Selection.from_picks(np.array([0, 3, 3]), np.ones(3), width)


def test_selection_rejects_a_negative_width_and_keeps_integer_ones():
    with pytest.raises(ValueError, match="n_features_in must be an integer >= 0"):
        Selection(np.array([], dtype=int), np.ones(0), -1)
    for width in (31, np.int64(31), np.int32(31)):
        sel = Selection(np.array([0, 30]), np.ones(2), width)
        assert type(sel.n_features_in) is int and sel.n_features_in == 31
        assert sel.support().sum() == 2 and sel.matrix().shape == (31, 2)
