"""Fitting models on a Dask corpus larger than a worker's memory: time, memory, passes (issue 23).

The corpus: n documents x d words (default 2 000 000 x 200), text-like sparse
rows: each document holds 20 to 100 distinct words (uniformly many), drawn
without replacement with Zipf probabilities ``1 / rank``, each with the weight
``1 + log(count)`` of a geometric term count. It is generated chunk by chunk ON
THE WORKERS (``dask.array.map_blocks``, ``--chunk`` documents a chunk, each
chunk seeded by its first row), so the client never holds X; at the default size
it takes about 1.4 GB as CSR, more than one worker's memory limit. The
regression target is ``X beta + noise`` (beta N(0, 1), fixed); the classes are
that score above or below its median. The targets (n numbers) are computed on
the workers and held by the client, as the estimators take them.

The cluster: a ``LocalCluster`` of ``--workers`` (2) worker processes with one
thread each and ``memory_limit`` ``--worker-memory`` (``1GiB``). For each
estimator of ``--estimators``:

* **Dask fit**: the wall time of ``estimator.fit(X_dask, y)``, chunk generation
  included (it stands for reading the chunks from storage);
* **peak memory per worker**: the largest resident set size (RSS) of each worker
  process during the fit, sampled every 10 ms by a thread in the worker
  (``psutil.Process().memory_info().rss``; distributed's ``MemorySampler`` reads
  the scheduler's view, refreshed twice a second, and would miss short peaks),
  against the worker's memory limit;
* **passes (Dask)**: how many times the fit computed each chunk of X. The chunk
  function increments a counter in the worker process that runs it; the
  counters are read back with ``client.run`` after the fit and their sum is
  divided by the number of chunks. A pass is thus one computation of every chunk
  of X (for ``RidgeRegression``: the Gram matrix's pass and the certificate's);
* **in-memory fit** (when ``n <= --in-memory-max``): the same estimator on the
  same data as one CSR matrix in the client, its wall time, and the **products**
  it made with X or X' (a vector or a matrix on the other side), counted by a
  subclass of ``scipy.sparse.csr_matrix`` (and of ``csc_matrix``, for X') whose
  matrix products increment a counter. Each product reads X once; it is the
  in-memory counterpart of a pass. It is exact for the backends that touch X only
  through products (conjugate gradients, ``CG``, the in-memory ridge and RLSC
  route here). Backends that read X's arrays in compiled loops (coordinate
  descent: about one sweep an epoch, ``n_iter_``) or hand a copy of X to an
  external solver (CVXPY's) read it more often than counted: the table marks
  their count ``>=``. The column ``passes / products`` compares the two;
* **checks**: the Dask fit's ``certificate_.holds``, and its answer against the
  in-memory one: their objectives differ by at most ``tolerance x scale`` (the
  certificates' own bound: each objective is within its gap of the optimum),
  and, for the strongly convex models (ridge and RLSC: ``lam ||b||^2``; the
  2-norm SVMs: ``||w||^2 / 2``), their coefficients differ by at most
  ``2 sqrt(tolerance x scale / m)``, m the modulus of strong convexity
  (``f(b) - f* >= m ||b - b*||^2``).

An estimator whose ``fit`` does not take a Dask X yet (a ``TypeError``) is
reported as "not on Dask yet". By default the models of the Gram matrix (ridge,
RLSC, the lasso) run; ``--estimators all`` adds the SVMs.

Run: ``python -m benchmarks.scale_fit [--quick] [--documents N] [--estimators A,B|all]
[--in-memory-max N] [--threads 1]``. Each time is one run (``--repeats`` is not
used; the cluster's start is not timed); ``--threads 1`` (BLAS threads of the
client and of the workers) gives steadier times on a loaded machine.
"""

import threading
import time
from collections import Counter
from dataclasses import dataclass

import dask
import dask.array as da
import numpy as np
import psutil
import scipy.sparse as sp
from distributed import Client, LocalCluster
from threadpoolctl import threadpool_limits

from benchmarks._timing import benchmark_parser
from solvers import L1SVM, L2SVM, RLSC, SVM2, AdaptiveLasso, RidgeRegression, SVMDual, WeightedLasso

FULL = {"documents": 2_000_000, "d": 200, "chunk": 50_000}
QUICK = {"documents": 4_000, "d": 30, "chunk": 1_000}
WORDS = (20, 100)  # distinct words per document, at least and at most


@dataclass(frozen=True)
class Case:
    """An estimator of the benchmark: ``make(n)`` builds it for n documents; ``task`` is
    ``"regression"`` or ``"classification"``; ``modulus(estimator)`` is its objective's
    modulus of strong convexity in coef_ (None: not strongly convex, the objectives alone
    are compared)."""

    make: object
    task: str
    modulus: object = None


# One line an estimator: a model whose fit takes a Dask X joins the benchmark as it is.
CASES = {
    "RidgeRegression": Case(lambda n: RidgeRegression(lam=1.0), "regression", lambda e: e.lam),
    "RLSC": Case(lambda n: RLSC(lam=1.0), "classification", lambda e: e.lam),
    "WeightedLasso": Case(lambda n: WeightedLasso(lam=0.05 * n), "regression"),
    "AdaptiveLasso": Case(lambda n: AdaptiveLasso(lam=0.05 * n), "regression"),
    "L2SVM": Case(lambda n: L2SVM(C=1.0), "classification", lambda e: 0.5),
    "SVMDual": Case(lambda n: SVMDual(C=1.0), "classification", lambda e: 0.5),
    # lam = 1: a few samples on or inside the margin, the case a working set of samples
    # is for (lam = 0.01 n puts 60% of them inside: docs/dask.md).
    "SVM2": Case(lambda n: SVM2(lam=1.0), "classification"),
    "L1SVM": Case(lambda n: L1SVM(lam=1.0), "classification"),
}
# The Gram matrix's models. The SVMs (a working set of samples, refitted in memory each
# round) take far longer at the default size: --estimators all, or name them.
DEFAULT = ("RidgeRegression", "RLSC", "WeightedLasso", "AdaptiveLasso")


def documents(lo, hi, d):
    """Documents lo..hi-1 of the corpus (CSR, sorted indices), from a stream seeded by lo."""
    rng = np.random.default_rng([7, lo])
    m = hi - lo
    k = np.minimum(rng.integers(WORDS[0], WORDS[1] + 1, m), d)
    # k distinct words, drawn with Zipf probabilities 1/rank: the k smallest of
    # Exp(1) / p (sampling without replacement, one race per document).
    race = rng.standard_exponential((m, d)) * np.arange(1, d + 1)
    order = np.argsort(race, axis=1)
    indices = order[np.arange(d) < k[:, None]].astype(np.int32)
    weights = 1.0 + np.log(rng.geometric(0.5, indices.size))
    indptr = np.concatenate(([0], np.cumsum(k))).astype(np.int32)
    X = sp.csr_matrix((weights, indices, indptr), shape=(m, d))
    X.sort_indices()
    return X


def _score(X, lo):
    """``X beta + noise`` of the documents lo.. (beta fixed, the noise seeded by lo)."""
    beta = np.random.default_rng(1).standard_normal(X.shape[1])
    return X @ beta + np.random.default_rng([8, lo]).standard_normal(X.shape[0])


def _csr_bytes(X):
    return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes


def _score_and_bytes(lo, hi, d):
    X = documents(lo, hi, d)
    return _score(X, lo), _csr_bytes(X)


# Chunks of X computed in this process since the last _take_generated (a worker's count).
_GENERATED = Counter()


def _counted_chunk(d, block_info=None):
    """The chunk function of the Dask X: `documents`, counted."""
    lo, hi = block_info[None]["array-location"][0]
    _GENERATED[lo] += 1
    return documents(lo, hi, d)


def _take_generated():
    """This process's count of chunks computed, reset (in-process workers share it)."""
    total = sum(_GENERATED.values())
    _GENERATED.clear()
    return total


def _bounds(n, chunk):
    starts = list(range(0, n, chunk))
    return [(lo, min(lo + chunk, n)) for lo in starts]


def corpus(n, d, chunk):
    """The lazy n x d Dask corpus of CSR chunks made on the workers (`_counted_chunk`)."""
    rows = tuple(hi - lo for lo, hi in _bounds(n, chunk))
    return da.map_blocks(
        _counted_chunk, d, chunks=(rows, (d,)), dtype=np.float64, meta=sp.csr_matrix((0, 0))
    )


_PEAK = {"rss": 0, "watching": False}


def _rss():
    return psutil.Process().memory_info().rss


def _watch_rss(period=0.01):
    """Keep this process's largest RSS in _PEAK (one thread a process, started once)."""
    if _PEAK["watching"]:
        return
    _PEAK["watching"] = True

    def watch():
        process = psutil.Process()
        while _PEAK["watching"]:
            _PEAK["rss"] = max(_PEAK["rss"], process.memory_info().rss)
            time.sleep(period)

    threading.Thread(target=watch, daemon=True).start()


def _stop_watching():
    _PEAK["watching"] = False


def _reset_peak():
    _PEAK["rss"] = _rss()


def _peak_rss():
    return max(_PEAK["rss"], _rss())


def _limit_blas(threads):
    threadpool_limits(threads)  # kept for the worker's life


class _Products:
    count = 0


class _CountedMixin:
    """Counts the products of the matrix with a vector or a matrix (each reads it once)."""

    def _matmul_vector(self, other):
        _Products.count += 1
        return super()._matmul_vector(other)

    def _matmul_multivector(self, other):
        _Products.count += 1
        return super()._matmul_multivector(other)

    def _matmul_sparse(self, other):
        _Products.count += 1
        return super()._matmul_sparse(other)


class CountedCSR(_CountedMixin, sp.csr_matrix):
    """A CSR matrix whose products are counted; its transpose is a `CountedCSC`."""

    @property
    def _csc_container(self):
        return CountedCSC


class CountedCSC(_CountedMixin, sp.csc_matrix):
    @property
    def _csr_container(self):
        return CountedCSR


# Backends whose every read of X is a scipy product (the count is exact).
PRODUCTS_ONLY = frozenset({"CG"})


def _certificates(model):
    certificate = model.certificate_
    return list(certificate) if isinstance(certificate, (list, tuple)) else [certificate]


def compare(case, fit, reference):
    """The checks of a Dask fit against the in-memory fit: a dict of numbers and verdicts."""
    ours, theirs = _certificates(fit), _certificates(reference)
    tolerance = max(max(c.tolerance, c.resolution) for c in ours + theirs)
    scale = max(c.scale for c in ours + theirs)
    objective = float(np.max(np.abs(np.subtract(fit.objective_, reference.objective_))))
    out = {"objective_diff": objective / scale, "objective_ok": objective <= tolerance * scale}
    coef = float(np.linalg.norm(np.ravel(fit.coef_) - np.ravel(reference.coef_)))
    out["coef_diff"], out["coef_bound"], out["coef_ok"] = coef, None, True
    if case.modulus is not None:
        bound = 2.0 * np.sqrt(tolerance * scale / case.modulus(fit))
        out["coef_bound"], out["coef_ok"] = bound, coef <= bound
    return out


def _mib(nbytes):
    return f"{nbytes / 2**20:.0f} MiB" if nbytes else "none"


def main(argv=None):
    parser = benchmark_parser(__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, help="n (default 2000000; --quick: 4000)")
    parser.add_argument("--features", type=int, help="d (default 200; --quick: 30)")
    parser.add_argument("--chunk", type=int, help="documents a chunk (default 50000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-memory", default="1GiB", help="memory_limit of a worker")
    parser.add_argument(
        "--estimators",
        default=",".join(DEFAULT),
        help=f"comma-separated, of {', '.join(CASES)}; or all (default: {','.join(DEFAULT)})",
    )
    parser.add_argument(
        "--in-memory-max",
        type=int,
        default=2_000_000,
        help="largest n also fitted in memory on the client (0: never)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="workers as threads of this process, no memory limit (for the tests)",
    )
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.estimators.split(",") if name.strip()]
    names = list(CASES) if names == ["all"] else names
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        parser.error(f"unknown estimators {unknown}; choose among {list(CASES)}")
    cfg = dict(QUICK if args.quick else FULL)
    for key, value in (("documents", args.documents), ("d", args.features), ("chunk", args.chunk)):
        if value is not None:
            cfg[key] = value
    with threadpool_limits(args.threads):
        return run(cfg, names, args)


def run(cfg, names, args):
    """Start the cluster, fit each estimator; print the table and return its rows."""
    n, d, chunk = cfg["documents"], cfg["d"], cfg["chunk"]
    bounds = _bounds(n, chunk)
    where = {} if args.in_process else {"host": "127.0.0.1"}
    cluster = LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=not args.in_process,
        memory_limit=0 if args.in_process else args.worker_memory,  # in-process: the client's
        dashboard_address="127.0.0.1:0",
        worker_dashboard_address="127.0.0.1:0",
        **where,
    )
    with cluster, Client(cluster) as client:
        if args.threads is not None and not args.in_process:  # spawned: all BLAS threads
            client.run(_limit_blas, args.threads)
        limit = min(w["memory_limit"] for w in client.scheduler_info()["workers"].values())
        client.run(_watch_rss)
        start = time.perf_counter()
        task = dask.delayed(_score_and_bytes, pure=True)
        parts = dask.compute(*[task(lo, hi, d) for lo, hi in bounds])
        one_pass = time.perf_counter() - start
        score = np.concatenate([p[0] for p in parts])
        nbytes = sum(p[1] for p in parts)
        targets = {"regression": score, "classification": (score > np.median(score)).astype(int)}
        print(
            f"Corpus: {n} documents x {d} words, {WORDS[0]}-{WORDS[1]} words a document "
            f"(Zipf), {len(bounds)} chunks of {chunk}: {_mib(nbytes)} as CSR, made on the "
            f"workers; one pass (generate, X beta) {one_pass:.1f} s.\n"
            f"Cluster: {args.workers} worker "
            f"{'threads' if args.in_process else 'processes'}, 1 thread each, memory "
            f"limit {_mib(limit)} each; RSS at start "
            f"{', '.join(_mib(r) for r in client.run(_rss).values())}.",
            flush=True,
        )
        X_memory = None
        if n <= args.in_memory_max:
            start = time.perf_counter()
            X_memory = CountedCSR(sp.vstack([documents(lo, hi, d) for lo, hi in bounds]).tocsr())
            print(f"In memory: X built on the client in {time.perf_counter() - start:.1f} s.")
        X = corpus(n, d, chunk)
        print()
        print(
            "| estimator | Dask fit | peak RSS per worker (limit) | passes (Dask) | in memory "
            "| products (in memory) | passes / products | certified | objective diff "
            "| coef diff (bound) |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
        rows = []
        for name in names:
            row = fit_one(name, CASES[name], client, X, targets, X_memory, len(bounds), limit)
            rows.append(row)
            print(format_row(row), flush=True)
        client.run(_stop_watching)
    return rows


def fit_one(name, case, client, X, targets, X_memory, n_chunks, limit):
    """Fit one estimator on the Dask X (and in memory): the row of the table as a dict."""
    y, n = targets[case.task], X.shape[0]
    client.run(_reset_peak)
    client.run(_take_generated)
    start = time.perf_counter()
    try:
        fit = case.make(n).fit(X, y)
    except TypeError as error:  # goes away once every estimator fits a Dask X
        if "Dask array" not in str(error):
            raise
        return {"estimator": name, "status": "not on Dask yet"}
    row = {"estimator": name, "status": "ok", "dask_seconds": time.perf_counter() - start}
    if hasattr(fit, "support_"):  # the SVMs: the share of the samples in the support
        row["estimator"] += f" (support {len(fit.support_) / n:.0%})"
    row["peaks"] = list(client.run(_peak_rss).values())
    row["limit"] = limit
    row["passes"] = sum(client.run(_take_generated).values()) / n_chunks
    row["certified"] = all(c.holds for c in _certificates(fit))
    if X_memory is not None:
        _Products.count = 0
        start = time.perf_counter()
        reference = case.make(n).fit(X_memory, y)
        row["memory_seconds"] = time.perf_counter() - start
        row["products"], row["backend"] = _Products.count, reference.backend_
        row["exact_count"] = reference.backend_ in PRODUCTS_ONLY
        row.update(compare(case, fit, reference))
    row["agrees"] = row.get("objective_ok", True) and row.get("coef_ok", True)
    return row


def format_row(row):
    if row["status"] != "ok":
        return f"| {row['estimator']} | {row['status']} |" + " |" * 8
    peaks = " / ".join(_mib(p) for p in row["peaks"]) + f" ({_mib(row['limit'])})"
    memory = products = ratio = objective = coef = "-"
    if "memory_seconds" in row:
        memory = f"{row['memory_seconds']:.2f} s ({row['backend']})"
        exact = row["exact_count"]
        products = f"{'' if exact else '>= '}{row['products']}"
        ratio = f"{'' if exact else '<= '}{row['passes'] / max(row['products'], 1):.2g}"
        objective = f"{row['objective_diff']:.1e} {'ok' if row['objective_ok'] else 'FAIL'}"
        bound = "" if row["coef_bound"] is None else f" ({row['coef_bound']:.1e})"
        coef = f"{row['coef_diff']:.1e}{bound} {'ok' if row['coef_ok'] else 'FAIL'}"
    return (
        f"| {row['estimator']} | {row['dask_seconds']:.1f} s | {peaks} | {row['passes']:g} | "
        f"{memory} | {products} | {ratio} | {'yes' if row['certified'] else 'NO'} | "
        f"{objective} | {coef} |"
    )


if __name__ == "__main__":
    # Run through the module's import name, so that the workers find its chunk function
    # (and its counter) by reference instead of a copy pickled from __main__.
    from benchmarks.scale_fit import main as _main

    _main()
