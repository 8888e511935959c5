"""Speed of the selector layer against peers measured in the same run.

1. BSS (d=20000, ell=100, r=400) against its floor: r products of the same
   (d x ell)(ell x ell) shape, the one product Algorithm 1 needs per iteration.
   Target ratio <= 1.5. Peak memory of BSS (tracemalloc) against the d x ell input.
2. Leverage scores of a 200 x 50000 sparse matrix (1% density) against
   scikit-learn's randomized_svd of the same matrix (all 200 components).

Run: ``python -m benchmarks.bss [--quick] [--threads 1]`` (``make bench``).
Prints ratios; times are the best of ``--repeats`` runs. On a shared, loaded
machine, two-thread BLAS timings swing several-fold; ``--threads 1`` gives
stable ratios for both sides.
"""

import argparse
import tracemalloc

import numpy as np
import scipy.sparse as sp
from sklearn.utils.extmath import randomized_svd
from threadpoolctl import threadpool_limits

from benchmarks._timing import best_time
from sparsify import bss, leverage_scores


def bench_bss(d, ell, r, repeats):
    rng = np.random.default_rng(0)
    V = np.linalg.qr(rng.standard_normal((d, ell)))[0]
    Q = np.linalg.qr(rng.standard_normal((ell, ell)))[0]
    out = np.empty((d, ell))

    def products():
        for _ in range(r):
            np.matmul(V, Q, out=out)

    t_bss = best_time(lambda: bss(V, r), repeats)[0]
    t_ref = best_time(products, repeats)[0]
    tracemalloc.start()
    bss(V, r)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"BSS d={d} ell={ell} r={r}: {t_bss:.2f} s; {r} products (d x ell)(ell x ell): "
        f"{t_ref:.2f} s; ratio {t_bss / t_ref:.2f} (target <= 1.5)"
    )
    print(
        f"  peak memory of bss: {peak / 2**20:.1f} MiB = {peak / V.nbytes:.2f} x the "
        f"{V.nbytes / 2**20:.1f} MiB input V (O(d ell))"
    )


def bench_leverage(n, d, density, repeats):
    X = sp.random(n, d, density=density, format="csr", random_state=0)
    t_lev = best_time(lambda: leverage_scores(X), repeats)[0]
    t_peer = best_time(lambda: randomized_svd(X, n_components=min(n, d), random_state=0), repeats)[
        0
    ]
    print(
        f"leverage_scores {n} x {d} sparse ({density:.0%}): {t_lev:.3f} s; "
        f"randomized_svd: {t_peer:.3f} s; ratio {t_lev / t_peer:.2f}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="BLAS threads for both sides (1 is robust on a loaded machine); default: all",
    )
    args = parser.parse_args(argv)
    with threadpool_limits(args.threads):
        run(args)


def run(args):
    if args.quick:
        bench_bss(2000, 20, 80, 1)
        bench_leverage(50, 5000, 0.01, 1)
    else:
        bench_bss(20000, 100, 400, args.repeats)
        bench_leverage(200, 50000, 0.01, args.repeats)


if __name__ == "__main__":
    main()
