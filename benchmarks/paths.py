"""Speed of the exact paths (solvers.path) against the ways to get the same answers today.

On Ionosphere (351 x 33) and make_bhattacharyya(n=200, d=1000):

1. Each whole path (lasso_path, svm2_path, l1_svm_path) against solving the
   same problem at the path's breakpoints one by one with the CVXPY estimators
   (WeightedLasso, SVM2, L1SVM; each re-fit re-solves the compiled DPP problem).
   Target: the path at least 10x faster. With ``--max-solves N`` only N evenly
   spaced breakpoints are solved and the time is scaled to all of them.
2. lasso_path against scikit-learn ``lars_path(method="lasso")`` on the same
   data (centered, since lars_path has no intercept). Target: ratio <= 1.5.
3. svm2_path against ``LinearSVC(penalty="l1", loss="squared_hinge",
   dual=False)`` refitted on 100 values of C from ``l1_min_c`` up to 1000 times
   it (log-spaced); the path is computed down to the same smallest
   lam = 1 / C_max. liblinear has no warm start, so each fit starts cold; it also
   penalises the intercept, so its models differ slightly from SVM2's (004 eq. 7).
   Target: the exact path faster than the grid.

Run: ``python -m benchmarks.paths [--repeats 3] [--max-solves 40] [--threads 1]``.
Times are the best of ``--repeats`` runs after a warm-up run; the LinearSVC grid
is timed once after a warm-up, the CVXPY solves once (compilation included).
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import lars_path
from sklearn.svm import LinearSVC, l1_min_c
from threadpoolctl import threadpool_limits

from benchmarks._timing import best_time
from solvers import L1SVM, SVM2, WeightedLasso
from solvers.path import l1_svm_path, lasso_path, svm2_path
from sparsify.datasets import load_ionosphere, make_bhattacharyya

PATHS = {
    "lasso": (lasso_path, WeightedLasso),
    "svm2": (svm2_path, SVM2),
    "l1_svm": (l1_svm_path, L1SVM),
}


def bench_path_vs_cvxpy(name, X, y, kind, repeats, max_solves):
    path_function, estimator_class = PATHS[kind]
    t_path, path = best_time(lambda: path_function(X, y), repeats)
    lams = path.lams[path.lams > 0]  # the estimators take lam > 0
    solved = lams
    if max_solves is not None and len(lams) > max_solves:
        solved = lams[np.unique(np.linspace(0, len(lams) - 1, max_solves).round().astype(int))]
    estimator = estimator_class()
    start = time.perf_counter()
    for lam in solved:
        estimator.set_params(lam=float(lam)).fit(X, y)
    t_solves = (time.perf_counter() - start) * len(lams) / len(solved)
    scaled = "" if len(solved) == len(lams) else f" (scaled from {len(solved)} solves)"
    print(
        f"{name:13s} {kind:7s} path: {len(path.lams):4d} breakpoints in {t_path * 1e3:8.1f} ms; "
        f"CVXPY at {len(lams)} breakpoints: {t_solves:7.2f} s{scaled}; "
        f"ratio {t_solves / t_path:7.1f}x (target >= 10)"
    )


def bench_lasso_vs_lars(name, X, y, repeats):
    def lars():
        return lars_path(X - X.mean(axis=0), y - y.mean(), method="lasso")

    t_ours, path = best_time(lambda: lasso_path(X, y), repeats)
    t_lars, (alphas, _, _) = best_time(lars, repeats)
    print(
        f"{name:13s} lasso   lasso_path {t_ours * 1e3:7.2f} ms ({len(path.lams)} breakpoints), "
        f"lars_path {t_lars * 1e3:7.2f} ms ({len(alphas)}); ratio {t_ours / t_lars:.2f} "
        "(target <= 1.5)"
    )


def bench_svm2_vs_linearsvc(name, X, y, repeats):
    c_min = l1_min_c(X, y, loss="squared_hinge")
    Cs = c_min * np.logspace(0, 3, 100)

    def grid():
        model = LinearSVC(penalty="l1", loss="squared_hinge", dual=False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            for C in Cs:
                model.set_params(C=C).fit(X, y)
        return sum(issubclass(w.category, ConvergenceWarning) for w in caught)

    t_path, path = best_time(lambda: svm2_path(X, y, lam_min=1.0 / Cs[-1]), repeats)
    t_grid, unconverged = best_time(grid, 1)
    print(
        f"{name:13s} svm2    svm2_path to lam={1 / Cs[-1]:.3g}: {len(path.lams)} breakpoints in "
        f"{t_path * 1e3:7.1f} ms; LinearSVC on 100 C: {t_grid * 1e3:7.1f} ms "
        f"({unconverged} fits unconverged); ratio {t_grid / t_path:.1f}x (target > 1)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-solves", type=int, default=40, help="CVXPY solves per path")
    parser.add_argument("--threads", type=int, default=None, help="BLAS threads (both sides)")
    args = parser.parse_args()
    data = {
        "ionosphere": load_ionosphere(),
        "bhattacharyya": make_bhattacharyya(n=200, d=1000, random_state=0),
    }
    with threadpool_limits(args.threads):
        for name, (X, y) in data.items():
            bench_lasso_vs_lars(name, X, y, args.repeats)
            bench_svm2_vs_linearsvc(name, X, y, args.repeats)
            for kind in PATHS:
                bench_path_vs_cvxpy(name, X, y, kind, args.repeats, args.max_solves)


if __name__ == "__main__":
    main()
