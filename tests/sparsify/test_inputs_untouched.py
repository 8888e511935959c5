"""Issue 7: no public function of sparsify touches the caller's arrays.

Sparse matrices are built with deliberately unsorted indices (each row's or
column's index order reversed), and with explicitly stored duplicates, which
scipy would happily sort or merge in place. Every function and selector is run
on them; afterwards data, indices and indptr must be bit-identical to copies
taken before, and every result must equal the result on the canonical
(sorted, merged) matrix.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import sparsify
from sparsify import (
    BSSSelector,
    DocFreqSelector,
    InfoGainSelector,
    LeverageSelector,
    RRQRSelector,
    Selection,
    SketchedBSSSelector,
    UniformSelector,
    WeightSelector,
)


def scrambled(X, fmt, duplicates=False):
    """X (dense) as CSR/CSC with each major slice's indices in reverse order.

    With ``duplicates``, every stored entry is split into two halves stored
    side by side (a non-canonical matrix with the same value).
    """
    M = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)
    data, indices, indptr = [], [], [0]
    for k in range(M.shape[0] if fmt == "csr" else M.shape[1]):
        lo, hi = M.indptr[k], M.indptr[k + 1]
        d, i = M.data[lo:hi][::-1], M.indices[lo:hi][::-1]
        if duplicates:
            d, i = np.repeat(d / 2, 2), np.repeat(i, 2)
        data.append(d)
        indices.append(i)
        indptr.append(indptr[-1] + len(d))
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    out = cls((np.concatenate(data), np.concatenate(indices), np.array(indptr)), shape=M.shape)
    assert not out.has_sorted_indices or duplicates
    np.testing.assert_array_equal(out.toarray(), X)
    return out


def snapshot(M):
    return M.data.copy(), M.indices.copy(), M.indptr.copy()


def assert_untouched(M, snap):
    for got, kept in zip((M.data, M.indices, M.indptr), snap, strict=True):
        assert got.dtype == kept.dtype
        assert got.tobytes() == kept.tobytes()


def data_set():
    rng = np.random.default_rng(0)
    X = sp.random(30, 60, density=0.2, random_state=1).toarray()
    X[:, 0] = rng.standard_normal(30)  # one dense column
    y = np.where(X[:, 0] > 0, 1, -1)
    return X, y


def functions(y):
    """(name, call) for every public function on a data matrix."""
    return [
        ("information_gain", lambda X: sparsify.information_gain(X, y)),
        ("document_frequency", sparsify.document_frequency),
        ("weight_scores", sparsify.weight_scores),
        ("leverage_scores", sparsify.leverage_scores),
        ("leverage_scores k=3", lambda X: sparsify.leverage_scores(X, 3)),
        ("leverage_sample", lambda X: sparsify.leverage_sample(X, 20, random_state=0)),
        (
            "leverage_sample bernoulli",
            lambda X: sparsify.leverage_sample(X, 20, k=3, method="bernoulli", random_state=0),
        ),
        ("rrqr", lambda X: sparsify.rrqr(X, 10)),
        ("Selection.apply", Selection(np.array([5, 0, 17]), np.array([2.0, 1.0, 0.5]), 60).apply),
    ]


def selectors():
    return [
        BSSSelector(n_features=40),
        BSSSelector(k=3, n_features=10),
        SketchedBSSSelector(t=8, n_features=12, random_state=0),
        LeverageSelector(n_features=20, random_state=0),
        LeverageSelector(k=3, n_features=20, method="bernoulli", random_state=0),
        RRQRSelector(n_features=10),
        UniformSelector(n_features=10, random_state=0),
        WeightSelector(n_features=10, random_state=0),
        DocFreqSelector(n_features=10),
        InfoGainSelector(n_features=10),
    ]


def same(a, b):
    if isinstance(a, Selection):
        np.testing.assert_array_equal(a.indices, b.indices)
        np.testing.assert_allclose(a.scales, b.scales, rtol=1e-9)
    elif sp.issparse(a):
        assert a.format == b.format
        np.testing.assert_allclose(a.toarray(), b.toarray(), rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("duplicates", [False, True], ids=["reversed", "duplicates"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("case", range(len(functions(None))), ids=[f[0] for f in functions(None)])
def test_functions_leave_sparse_input_untouched(case, fmt, duplicates):
    X, y = data_set()
    _, call = functions(y)[case]
    M = scrambled(X, fmt, duplicates)
    snap = snapshot(M)
    got = call(M)
    assert_untouched(M, snap)
    same(got, call(sp.csr_matrix(X).asformat(fmt)))


@pytest.mark.parametrize("duplicates", [False, True], ids=["reversed", "duplicates"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("est", selectors(), ids=lambda e: repr(e))
def test_selectors_leave_sparse_input_untouched(est, fmt, duplicates):
    X, y = data_set()
    M = scrambled(X, fmt, duplicates)
    snap = snapshot(M)
    fitted = est.fit(M, y)
    assert_untouched(M, snap)
    out = fitted.transform(M)
    assert_untouched(M, snap)
    back = fitted.inverse_transform(out)
    assert_untouched(M, snap)
    reference = type(est)(**est.get_params()).fit(sp.csr_matrix(X).asformat(fmt), y)
    same(fitted.selection_, reference.selection_)
    same(out, reference.transform(sp.csr_matrix(X).asformat(fmt)))
    same(back, reference.inverse_transform(reference.transform(sp.csr_matrix(X).asformat(fmt))))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_bss_and_distortion_leave_sparse_v_untouched(fmt):
    V = np.linalg.qr(np.random.default_rng(2).standard_normal((12, 3)))[0]
    M = scrambled(V, fmt)
    snap = snapshot(M)
    sel = sparsify.bss(M, 6)
    distortion = sparsify.spectral_distortion(M, sel)
    assert_untouched(M, snap)
    same(sel, sparsify.bss(V, 6))
    assert distortion == sparsify.spectral_distortion(V, sel)


def test_dense_input_untouched():
    X, y = data_set()
    kept = X.copy()
    for _, call in functions(y):
        call(X)
    for est in selectors():
        est.fit(X, y).transform(X)
    assert X.tobytes() == kept.tobytes()
