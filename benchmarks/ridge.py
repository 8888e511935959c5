"""Fit times of RidgeRegression and RLSC (closed form) against Ridge and RidgeClassifier.

Two sweeps, the peer measured in the same run on the same data: n in {500, 1000,
2000, 4000, 8000} at d = 50 (dense), and d in {100, 1000, 10000} (dense) and 50000
(CSR, 1% dense) at n = 200. For each size: our fit time, the peer's
(``sklearn.linear_model.Ridge(alpha=lam, fit_intercept=False)``,
``RidgeClassifier(alpha=lam, fit_intercept=False)``), their ratio, and which route
of the closed form answered (the Cholesky solve with the smaller Gram matrix, or
the QR fallback). Per sweep, the slope of log time against log size (np.polyfit)
for both.

Targets (issue 7): ratio within 3x at the largest size of each sweep; our slope no
more than 0.2 above the peer's.

Run: ``python -m benchmarks.ridge [--quick] [--threads 1] [--repeats 3]``.
``--quick`` leaves out the largest size of each sweep. Times are the best of
``--repeats``.
"""

import argparse
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import Ridge, RidgeClassifier
from threadpoolctl import threadpool_limits

from benchmarks._timing import best_time
from solvers import RLSC, RidgeRegression

LAM = 1.0
ROWS_SWEEP = {"sizes": [500, 1000, 2000, 4000, 8000], "d": 50}
COLUMNS_SWEEP = {"sizes": [100, 1000, 10000, 50000], "n": 200}
SPARSE_FROM = 50000  # columns from which the data are CSR
DENSITY = 0.01
SLOPE_MARGIN = 0.2
RATIO_TARGET = 3.0


def make_data(n, d, seed=0):
    """Gaussian X (CSR, 1% dense, from SPARSE_FROM columns), a linear response, its signs."""
    rng = np.random.default_rng(seed)
    if d >= SPARSE_FROM:
        X = sp.random(n, d, density=DENSITY, format="csr", random_state=rng)
    else:
        X = rng.standard_normal((n, d))
    target = np.asarray(X @ rng.standard_normal(d)).ravel() + rng.standard_normal(n)
    return X, target, np.where(target > np.median(target), 1, -1)


def pairs(X, target, labels):
    """(name, our fit, peer name, peer fit) on one data set."""
    return [
        (
            "RidgeRegression",
            lambda: RidgeRegression(lam=LAM).fit(X, target),
            "Ridge",
            lambda: Ridge(alpha=LAM, fit_intercept=False).fit(X, target),
        ),
        (
            "RLSC",
            lambda: RLSC(lam=LAM).fit(X, labels),
            "RidgeClassifier",
            lambda: RidgeClassifier(alpha=LAM, fit_intercept=False).fit(X, labels),
        ),
    ]


def sweep(title, shapes, sizes, repeats):
    """Time every pair at every size; print the table and the fitted slopes."""
    print(f"\n== {title} ==")
    print(
        f"{'estimator':16s} {'n':>6s} {'d':>6s} {'ours s':>9s} {'peer':>16s} {'peer s':>9s}"
        f" {'ratio':>6s}  route"
    )
    times = {}
    for n, d in shapes:
        for name, ours, peer_name, peer in pairs(*make_data(n, d)):
            t_ours, fitted = best_time(ours, repeats)
            t_peer = best_time(peer, repeats)[0]
            times.setdefault(name, []).append((t_ours, t_peer))
            route = fitted.solve_attempts_[-1]["backend"]
            print(
                f"{name:16s} {n:6d} {d:6d} {t_ours:9.4f} {peer_name:>16s} {t_peer:9.4f}"
                f" {t_ours / t_peer:6.2f}  {route}",
                flush=True,
            )
    for name, pairs_ in times.items():
        ours, peer = np.log(np.array(pairs_)).T
        x = np.log(sizes)
        s_ours, s_peer = np.polyfit(x, ours, 1)[0], np.polyfit(x, peer, 1)[0]
        ratio = np.exp(ours[-1] - peer[-1])
        verdict = "meets" if ratio <= RATIO_TARGET and s_ours <= s_peer + SLOPE_MARGIN else "misses"
        print(
            f"{name}: slope {s_ours:.2f} vs peer {s_peer:.2f}; ratio at the largest size "
            f"{ratio:.2f} ({verdict} the target: <= {RATIO_TARGET}x, slope <= peer + "
            f"{SLOPE_MARGIN})"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the largest sizes")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="BLAS threads (both sides)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=FutureWarning)
    keep = slice(None, -1) if args.quick else slice(None)
    rows = ROWS_SWEEP["sizes"][keep]
    columns = COLUMNS_SWEEP["sizes"][keep]
    with threadpool_limits(args.threads):
        sweep(
            f"rows: n in {rows}, d = {ROWS_SWEEP['d']}",
            [(n, ROWS_SWEEP["d"]) for n in rows],
            rows,
            args.repeats,
        )
        sweep(
            f"columns: d in {columns}, n = {COLUMNS_SWEEP['n']}",
            [(COLUMNS_SWEEP["n"], d) for d in columns],
            columns,
            args.repeats,
        )


if __name__ == "__main__":
    main()
