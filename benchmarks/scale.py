"""Selection on Dask as the corpus grows: time and peak memory per worker (issue 11).

For n = 10^4, 10^5 and 10^6 documents (sparse term counts, d = 1000 words, 50
words drawn per document from a Zipf law) on a LocalCluster of 1 and of 2
worker processes (one thread each):

1. ``leverage_scores(X, k=50)``: the d x d Gram matrix reduced over the chunks;
2. ``SketchedBSSSelector(t=128, n_features=256).fit(X)``: the sketch G X
   reduced over the chunks, then BSS on its right singular vectors.

The corpus is generated chunk by chunk on the workers (10^4 documents a chunk)
and never held whole anywhere. Peak memory per worker is the largest resident
set size of the worker processes, sampled every 20 ms, each cluster started
fresh for each size; "start" is a worker's resident size before the run (the
imported libraries). Where the corpus is small enough (n <= --in-memory-max)
it is also computed into one CSR matrix and the in-memory functions are timed
on it, in the same run.

Run: ``python -m benchmarks.scale [--quick] [--threads 1]``. Each time is one
run on a fresh cluster (its start is not timed); ``--threads 1`` (BLAS threads
of the client and of the workers) gives stable times on a loaded machine.
"""

import threading
import time

import dask.array as da
import numpy as np
import psutil
import scipy.sparse as sp
from distributed import Client, LocalCluster
from threadpoolctl import threadpool_limits

from benchmarks._timing import benchmark_parser, timed
from sparsify import SketchedBSSSelector, leverage_scores

FULL = {"sizes": (10**4, 10**5, 10**6), "d": 1000, "k": 50, "t": 128, "chunk": 10**4}
QUICK = {"sizes": (2000, 8000), "d": 300, "k": 10, "t": 32, "chunk": 1000}
WORDS_PER_DOCUMENT = 50
WORKERS = (1, 2)


def _corpus_block(d, block_info=None):
    """Documents lo..hi-1 of the corpus: term counts of 50 Zipf-distributed words each."""
    lo, hi = block_info[None]["array-location"][0]
    rng = np.random.default_rng(lo)
    p = 1.0 / np.arange(1, d + 1)
    words = rng.choice(d, size=(hi - lo) * WORDS_PER_DOCUMENT, p=p / p.sum())
    rows = np.repeat(np.arange(hi - lo), WORDS_PER_DOCUMENT)
    return sp.csr_matrix((np.ones(words.size), (rows, words)), shape=(hi - lo, d))


def corpus(n, d, chunk):
    """A lazy n x d Dask array of CSR chunks of ``chunk`` documents (`_corpus_block`)."""
    rows = (chunk,) * (n // chunk) + ((n % chunk,) if n % chunk else ())
    return da.map_blocks(
        _corpus_block, d, chunks=(rows, (d,)), dtype=np.float64, meta=sp.csr_matrix((0, 0))
    )


_PEAK = {"rss": 0}


def _watch_rss(period=0.02):
    """Start a thread that keeps this worker's largest resident set size in _PEAK.

    (``ru_maxrss`` would not do: a spawned worker inherits the high-water mark
    of the process it was forked from before its exec.)
    """

    def watch():
        process = psutil.Process()
        while True:
            _PEAK["rss"] = max(_PEAK["rss"], process.memory_info().rss)
            time.sleep(period)

    threading.Thread(target=watch, daemon=True).start()


def _peak_rss():
    return max(_PEAK["rss"], _rss())


def _limit_blas(threads):
    threadpool_limits(threads)  # kept for the worker's life


def _rss():
    return psutil.Process().memory_info().rss


def on_cluster(n_workers, fn, args_threads=None):
    """(fn(), start RSS, peak RSS per worker) on a fresh LocalCluster of n_workers processes."""
    # Workers are spawned (not forked: a fork inherits the client's thread pools without
    # their threads, and a worker hangs on its first large transfer).
    cluster = LocalCluster(
        n_workers=n_workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        worker_dashboard_address="127.0.0.1:0",
    )
    with cluster, Client(cluster) as client:
        if args_threads is not None:  # spawned workers start with all BLAS threads
            client.run(_limit_blas, args_threads)
        start = max(client.run(_rss).values())
        client.run(_watch_rss)
        result = fn()
        peak = max(client.run(_peak_rss).values())
    return result, start, peak


def _mib(nbytes):
    return f"{nbytes / 2**20:.0f} MiB"


def main(argv=None):
    parser = benchmark_parser(__doc__.splitlines()[0])
    parser.add_argument(
        "--in-memory-max", type=int, default=10**5, help="largest n also run in memory"
    )
    args = parser.parse_args(argv)
    with threadpool_limits(args.threads):
        run(QUICK if args.quick else FULL, args)


def run(cfg, args):
    d, k, t, chunk = cfg["d"], cfg["k"], cfg["t"], cfg["chunk"]
    tasks = {
        f"leverage_scores(k={k})": lambda X: leverage_scores(X, k),
        f"SketchedBSSSelector(t={t})": lambda X: SketchedBSSSelector(
            n_features=2 * t, t=t, random_state=0
        ).fit(X),
    }
    print(f"Corpus: d = {d} words, {WORDS_PER_DOCUMENT} words a document, chunks of {chunk}.\n")
    print("| task | n | data (CSR) | workers | time | RSS/worker: start | peak | in memory |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, task in tasks.items():
        for n in cfg["sizes"]:
            X = corpus(n, d, chunk)
            nbytes = n * WORDS_PER_DOCUMENT * 12  # at most: float64 data and int32 indices
            in_memory = "-"
            if n <= args.in_memory_max:
                X_mem = X.compute(scheduler="synchronous")
                seconds, _ = timed(lambda X_mem=X_mem, task=task: task(X_mem))
                in_memory = f"{seconds:.2f} s"
                del X_mem
            for workers in WORKERS:
                (seconds, _), start, peak = on_cluster(
                    workers, lambda X=X, task=task: timed(lambda: task(X)), args.threads
                )
                print(
                    f"| {name} | {n:.0e} | {_mib(nbytes)} | {workers} | "
                    f"{seconds:.2f} s | {_mib(start)} | {_mib(peak)} | "
                    f"{in_memory} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
