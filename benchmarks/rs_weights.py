"""Cost of the RS weights (004 Algorithm 1) against one exact path on the whole data.

004 sec. 4.2 reports the overhead of the RS weights as a fraction of fitting one model
on the whole training set. Here, on WDBC (569 x 30, ``sparsify.datasets.load_wdbc``):
``rs_weights(base="l1")`` with K = 50 blocks of B = 100 examples (Table 5's block size;
each block's exact 1-norm SVM path, its best breakpoint on the 469 examples left out)
is timed against one ``l1_svm_path`` on all 569 examples, in the same run, one process
(``n_jobs=1``). Target: the RS weights in under 10 times the one path.

Run: ``python -m benchmarks.rs_weights [--quick] [--repeats 1] [--threads 1]
[--blocks 50] [--block-size 100] [--n-jobs 1]`` (``--quick``: K = 10).
"""

import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks._timing import benchmark_parser, best_time
from solvers.exceptions import PathWarning
from solvers.path import l1_svm_path
from solvers.weights import rs_weights
from sparsify.datasets import load_wdbc


def main():
    parser = benchmark_parser(__doc__.splitlines()[0])
    parser.set_defaults(repeats=1)
    parser.add_argument("--blocks", type=int, default=50, help="K, the number of blocks")
    parser.add_argument("--block-size", type=int, default=100, help="B, examples per block")
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers of rs_weights")
    args = parser.parse_args()
    blocks = 10 if args.quick else args.blocks
    X, y = load_wdbc()
    with threadpool_limits(args.threads), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PathWarning)
        t_path, path = best_time(lambda: l1_svm_path(X, y), args.repeats)
        t_rs, W = best_time(
            lambda: rs_weights(
                X,
                y,
                base="l1",
                block_size=args.block_size,
                n_blocks=blocks,
                n_jobs=args.n_jobs,
                random_state=0,
            ),
            args.repeats,
        )
    stops = len({str(w.message) for w in caught if issubclass(w.category, PathWarning)})
    print(
        f"WDBC {X.shape[0]} x {X.shape[1]}: rs_weights(base='l1', K={blocks}, "
        f"B={args.block_size}, n_jobs={args.n_jobs}) {t_rs:.2f} s "
        f"({t_rs / blocks:.3f} s a block); l1_svm_path on all rows ({len(path)} breakpoints) "
        f"{t_path:.2f} s; ratio {t_rs / t_path:.2f} (target < 10); features with a finite "
        f"weight: {int(np.isfinite(W).sum())}; path warnings: {stops}"
    )


if __name__ == "__main__":
    main()
