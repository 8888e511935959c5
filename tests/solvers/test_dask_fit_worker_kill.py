"""A worker process killed while a model fits a Dask X: the fit ends with the in-memory answer.

Every estimator whose fit takes a Dask X: ridge and RLSC (the Gram matrix, then the
certificate's sums), the lasso (the centred Gram matrix), the SVMs (a working set of
samples, a pass per round).

X is made chunk by chunk on the workers (a seeded function, as a corpus read from
storage would be), so whatever a dead worker held (its chunks, its partial sums) can be
recomputed from the graph; the scheduler does that, and the fit goes on. Two ways to
die: from the client between two passes over X (before the second reduction over the
chunks), and inside a chunk's task in the middle of the second pass (the worker kills
itself, losing the partial sums it held). The reference is the in-memory fit on the
same data; the Dask fit must also be certified.
"""

import os
import signal

import numpy as np
import pytest
import scipy.sparse as sp

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import solvers._dask_models as dask_models  # noqa: E402
from solvers import (  # noqa: E402
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    AdaptiveLasso,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
)

N, D, CHUNK = 600, 8, 50

# A model whose fit takes a Dask X joins by one line: (make the estimator, its target).
FITS = [
    pytest.param(lambda: RidgeRegression(lam=1.0), "regression", id="RidgeRegression"),
    pytest.param(lambda: RLSC(lam=1.0), "classification", id="RLSC"),
    pytest.param(lambda: WeightedLasso(lam=5.0), "regression", id="WeightedLasso"),
    pytest.param(lambda: AdaptiveLasso(lam=5.0), "regression", id="AdaptiveLasso"),
    pytest.param(lambda: L2SVM(C=1.0), "classification", id="L2SVM"),
    pytest.param(lambda: SVMDual(C=1.0), "classification", id="SVMDual"),
    pytest.param(lambda: SVM2(lam=5.0), "classification", id="SVM2"),
    pytest.param(lambda: L1SVM(lam=5.0), "classification", id="L1SVM"),
]


def _rows(lo, hi):
    """Rows lo..hi-1 of X (CSR), from a stream seeded by lo."""
    rng = np.random.default_rng([5, lo])
    return sp.random(hi - lo, D, density=0.5, format="csr", random_state=rng)


def _targets():
    X = sp.vstack([_rows(lo, lo + CHUNK) for lo in range(0, N, CHUNK)]).tocsr()
    score = X @ np.linspace(-1.0, 2.0, D) + 0.3 * np.random.default_rng(9).standard_normal(N)
    return X, {"regression": score, "classification": np.where(score > np.median(score), 1, 0)}


def _chunk(log_dir, kill_at, block_info=None):
    """The chunk function of the Dask X. Logs each computation of the chunk (a file per
    chunk, a byte per computation: the workers are processes); the worker computing
    chunk ``kill_at[0]`` for the ``kill_at[1]``-th time kills itself, once."""
    lo, hi = block_info[None]["array-location"][0]
    log = os.path.join(log_dir, f"chunk-{lo}")
    with open(log, "a") as file:
        file.write(".")
    if (lo, os.path.getsize(log)) == kill_at:
        try:
            os.close(os.open(os.path.join(log_dir, "killed"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:  # the recomputation after the kill
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return _rows(lo, hi)


def _dask_corpus(log_dir, kill_at=None):
    return da.map_blocks(
        _chunk, str(log_dir), kill_at, chunks=((CHUNK,) * (N // CHUNK), (D,)),
        dtype=np.float64, meta=sp.csr_matrix((0, 0)),
    )  # fmt: skip


def _assert_the_in_memory_answer(fit, reference):
    certificates = fit.certificate_ if isinstance(fit.certificate_, list) else [fit.certificate_]
    assert all(c.holds for c in certificates)
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-6)
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("make, target", FITS)
def test_a_worker_killed_between_two_passes(process_cluster, tmp_path, monkeypatch, make, target):
    client = process_cluster
    X_memory, targets = _targets()
    reference = make().fit(X_memory, targets[target])
    pid = next(iter(client.run(os.getpid).values()))
    reduce, passes = dask_models.reduce_row_blocks, []

    def kill_before_the_second_pass(*args, **kwargs):  # runs on the client
        passes.append(1)
        if len(passes) == 2:
            os.kill(pid, signal.SIGKILL)
        return reduce(*args, **kwargs)

    monkeypatch.setattr(dask_models, "reduce_row_blocks", kill_before_the_second_pass)
    fit = make().fit(_dask_corpus(tmp_path), targets[target])
    assert len(passes) >= 2
    _assert_the_in_memory_answer(fit, reference)


@pytest.mark.parametrize("make, target", FITS)
def test_a_worker_killed_in_the_middle_of_a_pass(process_cluster, tmp_path, make, target):
    """The worker computing the middle chunk for the second time (the second pass) dies:
    the partial sums it held are lost and recomputed, chunks included."""
    X_memory, targets = _targets()
    reference = make().fit(X_memory, targets[target])
    fit = make().fit(_dask_corpus(tmp_path, kill_at=(N // 2, 2)), targets[target])
    assert (tmp_path / "killed").exists()  # the worker did die mid-pass
    assert (tmp_path / f"chunk-{N // 2}").stat().st_size >= 3  # and its chunk was recomputed
    _assert_the_in_memory_answer(fit, reference)
