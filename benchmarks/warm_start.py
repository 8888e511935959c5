"""What ``warm_start`` saves: a sequence of penalties fitted in order on the same data.

A user tuning lam (or C) by hand refits one estimator on the same X, y with the
penalty changed (``set_params``), as scikit-learn's ``warm_start`` is meant for. Each
estimator's default backend on text-like data (``benchmarks._text.text_like``,
2000 x 20000 by default; ``--quick``: 300 x 3000) runs six penalties from large to
small regularisation, with ``warm_start=True`` (the default: each fit starts from
the last answer on the same data) and ``warm_start=False`` (each from zero). Every
fit is certified. Reported: the total seconds of the sequence (best of
``--repeats``, the two settings interleaved), the ratio cold / warm, and the total
``n_iter_`` of each.

Run: ``python -m benchmarks.warm_start [--quick] [--repeats 3] [--threads 1]``.
"""

import time

import numpy as np
from sklearn.base import clone
from threadpoolctl import threadpool_limits

from benchmarks._text import text_like, text_regression_target
from benchmarks._timing import benchmark_parser
from solvers import SVM2, RidgeRegression, SVMDual, WeightedLasso

SIZE, QUICK_SIZE = (2000, 20000), (300, 3000)


def sequences(X, labels, target):
    """(name, estimator, penalty name, penalties in fitting order, target)."""
    lasso_max = WeightedLasso.lam_max(X, target)
    svm2_max = SVM2.lam_max(X, labels)
    return [
        ("WeightedLasso", WeightedLasso(), "lam", lasso_max * np.geomspace(0.5, 0.01, 6), target),
        ("SVM2", SVM2(), "lam", svm2_max * np.geomspace(0.5, 0.01, 6), labels),
        ("SVMDual", SVMDual(), "C", np.geomspace(0.1, 10.0, 6), labels),
        ("RidgeRegression", RidgeRegression(), "lam", np.geomspace(10.0, 0.01, 6), target),
    ]


def run_sequence(estimator, penalty, values, X, y, warm_start):
    """Fit the penalties in order on one estimator; return (seconds, total n_iter_)."""
    model = clone(estimator).set_params(warm_start=warm_start)
    iterations, start = 0, time.perf_counter()
    for value in values:
        model.set_params(**{penalty: value}).fit(X, y)
        if not model.certificate_.holds:
            raise AssertionError(f"{type(model).__name__} at {penalty}={value}: not certified")
        iterations += int(np.sum(model.n_iter_))
    return time.perf_counter() - start, iterations


def measure(repeats, size):
    """One row per estimator: best seconds and total iterations, warm and cold."""
    X, labels = text_like(*size)
    target = text_regression_target(X)
    rows = []
    for name, estimator, penalty, values, y in sequences(X, labels, target):
        best = {True: np.inf, False: np.inf}
        iterations = {}
        for repeat in range(repeats):
            for warm in (True, False) if repeat % 2 == 0 else (False, True):
                seconds, iterations[warm] = run_sequence(estimator, penalty, values, X, y, warm)
                best[warm] = min(best[warm], seconds)
        rows.append(
            {"estimator": name, "warm_s": best[True], "cold_s": best[False],
             "warm_iter": iterations[True], "cold_iter": iterations[False]}
        )  # fmt: skip
    return rows


def main(argv=None):
    parser = benchmark_parser(__doc__.splitlines()[0])
    args = parser.parse_args(argv)
    size = QUICK_SIZE if args.quick else SIZE
    with threadpool_limits(1 if args.threads is None else args.threads):
        rows = measure(args.repeats, size)
    print(f"{size[0]} x {size[1]} text, six penalties in order, best of {args.repeats}")
    print("| estimator | warm_start=True s | False s | cold / warm | n_iter_ warm | cold |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['estimator']} | {r['warm_s']:.3g} | {r['cold_s']:.3g} | "
            f"{r['cold_s'] / r['warm_s']:.2f} | {r['warm_iter']} | {r['cold_iter']} |"
        )
    return rows


if __name__ == "__main__":
    main()
