"""``canonical``: a sparse matrix with unsorted indices or duplicates becomes a sorted,
merged copy of the same matrix; the caller's arrays are untouched."""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import _validation
from sparsify._validation import canonical


def _shuffled(X, fmt, duplicates, rng):
    """X as CSR/CSC with each major slice's entries in random order (and each entry
    split in two stored halves with ``duplicates``)."""
    M = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)
    data, indices, indptr = [], [], [0]
    for k in range(M.shape[0] if fmt == "csr" else M.shape[1]):
        part = slice(M.indptr[k], M.indptr[k + 1])
        values, where = M.data[part], M.indices[part]
        if duplicates:
            values, where = np.repeat(values / 2, 2), np.repeat(where, 2)
        order = rng.permutation(values.size)
        data.append(values[order])
        indices.append(where[order])
        indptr.append(indptr[-1] + values.size)
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    return cls((np.concatenate(data), np.concatenate(indices), np.array(indptr)), shape=X.shape)


@pytest.mark.parametrize("through_other_format", [True, False])
@pytest.mark.parametrize("duplicates", [False, True])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_canonical_copy_is_the_same_matrix(fmt, duplicates, through_other_format, monkeypatch):
    if not through_other_format:  # the copy sorted row by row, as for a large X
        monkeypatch.setattr(_validation, "TRANSPOSED_SORT_ENTRIES", 0)
    rng = np.random.default_rng(0)
    X = rng.random((40, 70)) * (rng.random((40, 70)) < 0.2)
    M = _shuffled(X, fmt, duplicates, rng)
    assert not M.has_canonical_format
    before = (M.data.copy(), M.indices.copy(), M.indptr.copy())
    out = canonical(M)
    assert out.format == fmt and out.has_canonical_format
    np.testing.assert_array_equal(out.toarray(), X)
    reference = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)  # sorted, merged
    np.testing.assert_array_equal(out.indices, reference.indices)
    np.testing.assert_array_equal(out.indptr, reference.indptr)
    for kept, now in zip(before, (M.data, M.indices, M.indptr), strict=True):
        assert kept.tobytes() == now.tobytes()
    assert canonical(out) is out  # already canonical: no copy


@pytest.mark.parametrize("duplicates", [False, True])
@pytest.mark.parametrize("fmt, layout", [("csr", "csc"), ("csc", "csr")])
def test_canonical_copy_in_the_other_layout(fmt, layout, duplicates):
    """A copy asked in the other format is that format's canonical matrix (one
    conversion); a matrix already canonical is returned as it is, in its own format."""
    rng = np.random.default_rng(1)
    X = rng.random((30, 50)) * (rng.random((30, 50)) < 0.3)
    M = _shuffled(X, fmt, duplicates, rng)
    before = (M.data.copy(), M.indices.copy(), M.indptr.copy())
    out = canonical(M, layout=layout)
    assert out.format == layout and out.has_canonical_format
    np.testing.assert_array_equal(out.toarray(), X)
    for kept, now in zip(before, (M.data, M.indices, M.indptr), strict=True):
        assert kept.tobytes() == now.tobytes()
    tidy = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)
    assert canonical(tidy, layout=layout) is tidy
