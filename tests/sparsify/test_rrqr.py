"""Tests of sparsify.rrqr: column-pivoted QR feature selection (000 sec. 6.2)."""

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from sparsify.rrqr import rrqr
from sparsify.selection import Selection


def reference_pivots(X):
    """Pivot order of SciPy's full pivoted QR (economic mode, Q formed)."""
    _, R, piv = scipy.linalg.qr(np.array(X, dtype=float), mode="economic", pivoting=True)
    return piv, R


@pytest.mark.parametrize("shape", [(30, 10), (10, 30), (12, 12), (1, 5), (5, 1)])
def test_rrqr_matches_scipy_pivot_order(shape):
    rng = np.random.default_rng(sum(shape))
    X = rng.standard_normal(shape)
    piv, R = reference_pivots(X)
    d = shape[1]
    rank = np.linalg.matrix_rank(X)
    for r in sorted({1, max(1, d // 2), d}):
        sel = rrqr(X, r)
        assert isinstance(sel, Selection)
        assert sel.n_features_in == d
        # past the rank, pivots are chosen among round-off residuals (LAPACK's too)
        np.testing.assert_array_equal(sel.indices[:rank], piv[: min(r, rank)])
        np.testing.assert_array_equal(sel.scales, np.ones(r))
    # |diag(R_11)| is non-increasing (Businger-Golub pivoting).
    diag = np.abs(np.diag(R))
    assert np.all(np.diff(diag) <= 1e-12 * diag[0])


def test_rrqr_first_pivot_is_largest_column():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((20, 8))
    X[:, 5] *= 10.0
    assert rrqr(X, 1).indices[0] == 5


@pytest.mark.parametrize("fmt", [sp.csr_matrix, sp.csc_matrix])
def test_rrqr_dense_and_sparse_identical(fmt):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((15, 40))
    X[rng.random(X.shape) > 0.3] = 0.0
    dense = rrqr(X, 10)
    sparse = rrqr(fmt(X), 10)
    np.testing.assert_array_equal(sparse.indices, dense.indices)
    np.testing.assert_array_equal(sparse.scales, dense.scales)


def test_rrqr_is_deterministic():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((25, 60))
    first = rrqr(X, 20).indices
    for _ in range(3):
        np.testing.assert_array_equal(rrqr(X.copy(), 20).indices, first)


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(3, 20),
    d=st.integers(3, 20),
    k=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_rrqr_low_rank_picks_span_column_space(n, d, k, seed, data):
    k = min(k, n - 1, d - 1)
    r = data.draw(st.integers(k, d))
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, k)) @ rng.standard_normal((k, d))  # rank k
    X0 = X.copy()
    sel = rrqr(X, r)
    np.testing.assert_array_equal(X, X0)
    assert sel.indices.size == r and np.unique(sel.indices).size == r
    # The first k picked columns already span the column space of X: projecting X
    # onto them leaves a rounding-level residual.
    C = X[:, sel.indices[:k]]
    Q, _ = np.linalg.qr(C)
    resid = X - Q @ (Q.T @ X)
    assert np.linalg.norm(resid) <= 1e-8 * np.linalg.norm(X)
    assert np.linalg.matrix_rank(X[:, sel.indices]) == k
    # Pivoted R of the picks: |diag| non-increasing.
    _, R = scipy.linalg.qr(X[:, sel.indices], mode="economic")
    diag = np.abs(np.diag(R))[:k]
    assert np.all(np.diff(diag) <= 1e-10 * diag[0])


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 15), d=st.integers(1, 15), seed=st.integers(0, 2**32 - 1))
def test_rrqr_property_scipy_reference(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    r = int(rng.integers(1, d + 1))
    piv, _ = reference_pivots(X)
    sel = rrqr(X, r)
    m = min(r, np.linalg.matrix_rank(X))
    np.testing.assert_array_equal(sel.indices[:m], piv[:m])
    # R_11 of the picked columns in pick order: |diag| non-increasing up to the rank.
    _, R = np.linalg.qr(X[:, sel.indices])
    m = min(n, r)
    diag = np.abs(np.diag(R))[:m]
    assert np.all(np.diff(diag) <= 1e-10 * max(diag[0], 1e-300))


def test_rrqr_inputs_not_modified():
    rng = np.random.default_rng(4)
    X = np.asfortranarray(rng.standard_normal((8, 6)))
    X0 = X.copy()
    rrqr(X, 3)
    np.testing.assert_array_equal(X, X0)
    Xs = sp.csc_matrix(X)
    d0 = Xs.data.copy()
    rrqr(Xs, 3)
    np.testing.assert_array_equal(Xs.data, d0)


@pytest.mark.parametrize(
    "X, exc",
    [
        (np.array([[1.0, np.nan], [0.0, 1.0]]), ValueError),
        (np.array([[1.0, np.inf], [0.0, 1.0]]), ValueError),
        (np.array([1.0, 2.0]), ValueError),
        (np.ones((2, 2, 2)), ValueError),
        (np.zeros((0, 2)), ValueError),
        (np.zeros((2, 0)), ValueError),
        (np.array([["a", "b"], ["c", "d"]]), TypeError),
    ],
)
def test_rrqr_bad_X(X, exc):
    with pytest.raises(exc, match="X"):
        rrqr(X, 1)


@pytest.mark.parametrize(
    "r, exc",
    [
        (0, ValueError),
        (-1, ValueError),
        (5, ValueError),
        (2.0, TypeError),
        (True, TypeError),
        (None, TypeError),
        ("2", TypeError),
    ],
)
def test_rrqr_bad_r(r, exc):
    with pytest.raises(exc, match="r"):
        rrqr(np.ones((3, 4)), r)


def test_rrqr_accepts_numpy_integer_r():
    X = np.random.default_rng(5).standard_normal((6, 4))
    assert rrqr(X, np.int64(2)).indices.size == 2


def test_rrqr_never_densifies_sparse_input(monkeypatch):
    X = sp.random(40, 3000, density=0.02, random_state=5, format="csc")
    expected = rrqr(X.toarray(), 25).indices
    original = sp.csc_matrix.toarray

    def toarray_columns_only(self, *args, **kwargs):
        assert self.shape[1] < 3000, f"densified a {self.shape} matrix"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sp.csc_matrix, "toarray", toarray_columns_only)
    monkeypatch.setattr(sp.csr_matrix, "toarray", toarray_columns_only)
    np.testing.assert_array_equal(rrqr(X, 25).indices, expected)
    np.testing.assert_array_equal(rrqr(X.tocsr(), 25).indices, expected)
