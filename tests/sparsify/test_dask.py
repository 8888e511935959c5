"""Dask input on a LocalCluster of 2 workers: every function gives the in-memory answer.

The references are the in-memory functions on ``X.compute()`` (themselves tested
against brute force elsewhere) and, for the counts, a brute-force count here.
"""

import importlib
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp

import sparsify
from sparsify import (
    BSSSelector,
    LeverageSelector,
    SketchedBSSSelector,
    bss,
    document_frequency,
    information_gain,
    leverage_sample,
    leverage_scores,
    rrqr,
    weight_scores,
)

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

from sparsify import _dask  # noqa: E402
from sparsify._dask_bss import bss_dask  # noqa: E402

CHUNK_ROWS = 70


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """Two workers in this process (threads), on localhost only."""
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address="127.0.0.1:0",
        local_directory=tmp_path_factory.mktemp("dask"),
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def corpus(n=400, d=30, seed=0):
    """A sparse count matrix (documents x words) with every word in some document."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.15, random_state=seed, format="lil")
    X[np.arange(d) % n, np.arange(d)] = rng.random(d)
    X = X.tocsr()
    X.data = np.ceil(5 * X.data)
    return X


def as_dask(X, chunks="sparse", rows=CHUNK_ROWS):
    """X as a Dask array chunked by rows: SciPy CSR chunks or dense NumPy chunks."""
    if chunks == "dense":
        return da.from_array(X.toarray(), chunks=(rows, -1))
    return da.from_array(X, chunks=(rows, -1), asarray=False)


CHUNKS = ["sparse", "dense"]


@pytest.mark.parametrize("chunks", CHUNKS)
def test_document_frequency_counts_exactly(client, chunks):
    X = corpus()
    df = document_frequency(as_dask(X, chunks))
    brute = np.array([sum(X[i, j] != 0 for i in range(X.shape[0])) for j in range(X.shape[1])])
    np.testing.assert_array_equal(df, brute)
    assert df.dtype == np.int64


@pytest.mark.parametrize("chunks", CHUNKS)
def test_information_gain_equals_in_memory(client, chunks):
    X = corpus()
    y = np.random.default_rng(1).integers(0, 3, X.shape[0])
    expected = information_gain(X, y)
    # The counts are exact integers, so the gains are the same floats.
    np.testing.assert_array_equal(information_gain(as_dask(X, chunks), y), expected)
    labels = da.from_array(y, chunks=50)  # labels may be a Dask array too
    np.testing.assert_array_equal(information_gain(as_dask(X, chunks), labels), expected)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_weight_scores_equal_in_memory(client, chunks):
    X = corpus()
    dense = X.toarray()
    brute = (dense**2).sum(axis=0) / (dense**2).sum()
    np.testing.assert_allclose(weight_scores(as_dask(X, chunks)), brute, rtol=1e-13)


def svd_leverage(X, k):
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    return np.sum(Vt[:k] ** 2, axis=0)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("k", [None, 4])
def test_leverage_scores_exact_path(client, chunks, k):
    X = corpus()
    scores = leverage_scores(as_dask(X, chunks), k)
    np.testing.assert_allclose(scores, svd_leverage(X.toarray(), k or X.shape[1]), atol=1e-10)
    np.testing.assert_allclose(scores, leverage_scores(X, k), atol=1e-10)


def low_rank_corpus(n=300, d=80, k=4, seed=2):
    """Documents mixing k topics plus noise: a gap after the k-th singular value."""
    rng = np.random.default_rng(seed)
    topics = rng.random((k, d)) * (rng.random((k, d)) < 0.3)
    weights = rng.random((n, k)) * [40.0, 30.0, 20.0, 10.0][:k]
    return weights @ topics + 0.01 * rng.random((n, d))


@pytest.mark.parametrize("chunks", CHUNKS)
def test_leverage_scores_randomized_path_to_its_tolerance(client, chunks, monkeypatch):
    monkeypatch.setattr(_dask, "EXACT_MAX_FEATURES", 10)  # take the range finder at d = 80
    X = sp.csr_matrix(low_rank_corpus())
    scores = leverage_scores(as_dask(X, chunks), 4)
    # s_15 / s_4 is about 1e-3 here: the range finder's subspace error (s_15/s_4)^9 is tiny.
    np.testing.assert_allclose(scores, svd_leverage(X.toarray(), 4), atol=1e-8)
    with pytest.raises(ValueError, match="give k"):
        leverage_scores(as_dask(X, chunks))


def test_leverage_sample_equals_in_memory(client):
    X = corpus()
    for method in ("iid", "bernoulli"):
        ours = leverage_sample(as_dask(X), 12, k=5, method=method, random_state=3)
        ref = leverage_sample(X, 12, k=5, method=method, random_state=3)
        np.testing.assert_array_equal(ours.indices, ref.indices)
        np.testing.assert_allclose(ours.scales, ref.scales, rtol=1e-8)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_sketched_bss_selects_as_in_memory(client, chunks):
    X = corpus(n=5000, d=25)  # more than one block of the sketch (4096 samples)
    dX = as_dask(X, chunks, rows=1500)  # chunks across the blocks of the sketch
    ref = SketchedBSSSelector(n_features=40, t=16, random_state=0).fit(X)
    ours = SketchedBSSSelector(n_features=40, t=16, random_state=0).fit(dX)
    np.testing.assert_array_equal(ours.indices_, ref.indices_)
    np.testing.assert_allclose(ours.scales_, ref.scales_, rtol=1e-9)
    assert ours.n_features_in_ == X.shape[1]
    out = ours.transform(dX)
    assert _dask.is_dask(out)
    computed = out.compute()
    computed = computed.toarray() if sp.issparse(computed) else computed
    np.testing.assert_allclose(computed, ref.transform(X).toarray(), rtol=1e-9)


@pytest.mark.parametrize(
    "selector",
    [LeverageSelector(n_features=8, k=3, random_state=0), BSSSelector(n_features=12, k=3)],
)
def test_selectors_on_the_data_matrix(client, selector):
    X = corpus()
    ours = selector.fit(as_dask(X)).selection_
    ref = selector.fit(X).selection_
    np.testing.assert_array_equal(ours.indices, ref.indices)
    np.testing.assert_allclose(ours.scales, ref.scales, rtol=1e-8)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_selection_apply_is_lazy_and_equals_in_memory(client, chunks):
    X = corpus()
    selection = sparsify.Selection([5, 2, 17], [1.0, 0.5, 2.0], X.shape[1])
    out = selection.apply(as_dask(X, chunks))
    assert _dask.is_dask(out) and out.shape == (X.shape[0], 3)
    computed = out.compute()
    computed = computed.toarray() if sp.issparse(computed) else computed
    dense = X.toarray()
    np.testing.assert_array_equal(computed, dense[:, [5, 2, 17]] * [1.0, 0.5, 2.0])
    with pytest.raises(ValueError, match="features"):
        selection.apply(as_dask(X[:, :10], chunks))


def orthonormal(d, ell, seed):
    return np.linalg.qr(np.random.default_rng(seed).standard_normal((d, ell)))[0]


@pytest.mark.parametrize(
    ("d", "ell", "r", "gamma"),
    [(300, 5, 30, 0.01), (20, 3, 30, 0.01), (200, 6, 20, 0.0)],  # r > d repicks
)
def test_bss_on_dask_equals_bss_in_memory(client, d, ell, r, gamma):
    # The same picks; the weights to rounding (BLAS may sum a chunk's products in another order).
    V = orthonormal(d, ell, seed=d)
    V[7] = 0.0  # a zero row is never picked
    V = np.linalg.qr(V)[0]
    ref = bss(V, r, gamma=gamma)
    ours = bss_dask(da.from_array(V, chunks=(max(d // 4, 1), -1)), r, gamma=gamma)
    np.testing.assert_array_equal(ours.indices, ref.indices)
    np.testing.assert_allclose(ours.scales, ref.scales, rtol=1e-12)


def test_bss_on_dask_keeps_lemma1_with_tied_norms(client):
    # Equal row norms everywhere: every pick goes through the tie-break.
    H = np.kron(np.eye(4), np.array([[1.0, 1.0], [1.0, -1.0]]) / np.sqrt(2)) / np.sqrt(4)
    V = np.linalg.qr(np.vstack([H] * 4))[0]
    ref = bss(V, 20)
    ours = bss_dask(da.from_array(V, chunks=(5, -1)), 20)
    np.testing.assert_array_equal(ours.indices, ref.indices)
    np.testing.assert_allclose(ours.scales, ref.scales, rtol=1e-12)


def test_bss_dispatches_dask_input(client):
    V = orthonormal(100, 3, seed=1)
    ours = bss(da.from_array(V, chunks=(30, -1)), 12)
    np.testing.assert_array_equal(ours.indices, bss(V, 12).indices)


def test_bad_dask_input_gets_clear_errors(client):
    X = corpus().toarray()
    X[150, 3] = np.nan
    with pytest.raises(ValueError, match=r"X contains NaN or infinity \(in its rows 140 to 209\)"):
        document_frequency(da.from_array(X, chunks=(CHUNK_ROWS, -1)))
    with pytest.raises(ValueError, match="2-D"):
        leverage_scores(da.ones((4, 4, 4)))
    with pytest.raises(TypeError, match=r"Dask array.*X\.compute\(\)"):
        rrqr(da.ones((20, 5), chunks=(10, 5)), 2)
    with pytest.raises(ValueError, match="orthonormal"):
        bss_dask(da.ones((20, 3), chunks=(10, 3)), 5)


def test_library_works_without_dask():
    # dask made unimportable: the library imports and computes as before.
    code = (
        "import sys; sys.modules['dask'] = None\n"
        "import numpy as np, sparsify\n"
        "print(sparsify.leverage_scores(np.eye(3)).sum(), sparsify.document_frequency(np.eye(3)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split()[0] == "3.0"


def test_a_worker_killed_mid_run_is_recovered_from(process_cluster, monkeypatch):
    client = process_cluster
    V = orthonormal(200, 3, seed=3)
    ref = bss(V, 8)
    pids = list(client.run(os.getpid).values())
    bss_module = importlib.import_module("sparsify.bss")  # sparsify.bss is the function
    eigh, calls = bss_module._eigh, []

    def eigh_then_kill(A):
        calls.append(1)
        if len(calls) == 3:  # iteration 3: the chunks persisted on one worker are lost
            os.kill(pids[0], signal.SIGKILL)
        return eigh(A)

    monkeypatch.setattr(bss_module, "_eigh", eigh_then_kill)
    ours = bss_dask(da.from_array(V, chunks=(50, -1)), 8)
    assert len(calls) == 8
    # The scheduler recomputed the lost chunks from V's graph: the whole, right answer.
    np.testing.assert_array_equal(ours.indices, ref.indices)
    np.testing.assert_allclose(ours.scales, ref.scales, rtol=1e-12)


def rank_deficient_corpus(seed=3):
    """corpus() with a duplicated word, an absent word and a word counted in 1e12s."""
    X = corpus(seed=seed).toarray()
    X[:, 3], X[:, 5] = X[:, 4], 0.0
    X[:, 7] *= 1e12
    return sp.csr_matrix(X)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_rank_from_a_tall_skinny_qr_when_the_gram_matrix_cannot_resolve_it(client, chunks):
    # A column at 1e12 hid a direction from the Gram matrix here (rank 27 of 28);
    # the R of a QR over the chunks gives numpy's matrix_rank and the dense SVD's span.
    X = rank_deficient_corpus()
    dense = X.toarray()
    V, s = _dask.dask_singular_pairs(as_dask(X, chunks), None)
    rank = np.linalg.matrix_rank(dense)
    assert np.sum(s > s[0] * max(X.shape) * np.finfo(float).eps) == rank
    reference = np.linalg.svd(dense, compute_uv=False)
    np.testing.assert_allclose(s[:rank], reference[:rank], rtol=1e-12, atol=1e-12 * reference[0])
    assert not np.any(V[5])  # the absent word: an exact zero row
    residual = np.linalg.norm(dense - (dense @ V[:, :rank]) @ V[:, :rank].T, axis=0)
    assert np.all(residual <= 1e-3 * np.linalg.norm(dense, axis=0) + 1e-300)
    ours = BSSSelector(n_features=40).fit(as_dask(X, chunks)).selection_
    ref = BSSSelector(n_features=40).fit(X).selection_
    assert 5 not in ref.indices
    np.testing.assert_array_equal(ours.indices, ref.indices)
