"""Ridge regression and RLSC by conjugate gradients against scikit-learn's Ridge solvers.

Ours: :func:`solvers._ridge_cg.ridge_cg` (preconditioned CG on the normal equations, stopped
at a relative duality gap of 1e-7, certificate included). Peers:
``Ridge(alpha=lam, fit_intercept=False)`` on the regression target
(``benchmarks._text.text_regression_target``) and
``RidgeClassifier(alpha=lam, fit_intercept=False)`` on the labels (RLSC, 000 eq. 1), on
``benchmarks._text.text_like`` at (2000, 20000) and (20000, 200000) (``--quick``:
(200, 2000)), lam in {0.1, 1, 10}. Each peer runs at the loosest ``tol`` of
1e-2, 1e-3, ..., 1e-10 that makes its objective equal to ours within 1e-6 of the
certificate's scale (``sum_i y_i^2``); column "peer tol" gives it, "solver" the solver
scikit-learn chose for it.

Timing: ours and the peer interleaved (the order alternating from pair to pair), one
BLAS thread; medians of the times and of the per-pair ratios over ``--repeats``.
Target: ratio <= 2.

Run: ``python -m benchmarks.ridge_cg [--quick] [--repeats 5]``.
"""

import time

import numpy as np
from sklearn.linear_model import Ridge, RidgeClassifier
from threadpoolctl import threadpool_limits

from benchmarks._text import text_like, text_regression_target
from benchmarks._timing import benchmark_parser
from solvers._ridge_cg import ridge_cg

SIZES = [(2000, 20000), (20000, 200000)]
QUICK_SIZES = [(200, 2000)]
LAMS = (0.1, 1.0, 10.0)
PEER_TOLERANCES = [10.0**-k for k in range(2, 11)]
#: The peer's objective must be within this of ours, relative to the scale.
OBJECTIVE_MATCH = 1e-6
TARGET_RATIO = 2.0


def objective(X, y, coef, lam):
    """``||y - X b||^2 + lam ||b||^2``."""
    residual = y - X @ coef
    return float(residual @ residual + lam * coef @ coef)


def matched_peer(make_peer, X, y, lam, ours, scale):
    """The peer at the loosest tolerance whose objective is within 1e-6 of ours (scaled)."""
    for tol in PEER_TOLERANCES:
        peer = make_peer(lam, tol)
        coef = peer.fit(X, y).coef_.ravel()
        if abs(objective(X, y, coef, lam) - ours) <= OBJECTIVE_MATCH * scale:
            return tol, peer
    return tol, peer


def interleaved(ours, peer, repeats):
    """Median times of ``ours()`` and ``peer()`` and the median of their ratios."""
    times = {"ours": [], "peer": []}
    for repeat in range(repeats):
        order = (("ours", ours), ("peer", peer))
        for side, fn in order if repeat % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            fn()
            times[side].append(time.perf_counter() - start)
    ratios = np.array(times["ours"]) / np.array(times["peer"])
    return np.median(times["ours"]), np.median(times["peer"]), np.median(ratios)


def main():
    parser = benchmark_parser(__doc__.splitlines()[0])
    parser.set_defaults(repeats=5)
    args = parser.parse_args()
    threads = 1 if args.threads is None else args.threads
    print(
        f"{'peer':>15s} {'n':>6s} {'d':>7s} {'lam':>5s} {'ours s':>8s} {'peer s':>8s} "
        f"{'ratio':>6s} {'iters':>5s} {'gap':>8s} {'peer tol':>8s}  solver"
    )
    with threadpool_limits(threads):
        for n, d in QUICK_SIZES if args.quick else SIZES:
            X, labels = text_like(n, d)
            target = text_regression_target(X)
            problems = [
                ("Ridge", target, lambda lam, tol: Ridge(lam, fit_intercept=False, tol=tol)),
                (
                    "RidgeClassifier",
                    labels,
                    lambda lam, tol: RidgeClassifier(lam, fit_intercept=False, tol=tol),
                ),
            ]
            for name, y, make_peer in problems:
                for lam in LAMS:
                    result = ridge_cg(X, y, lam)
                    certificate = result.certificate
                    tol, peer = matched_peer(
                        make_peer, X, y, lam, certificate.primal, certificate.scale
                    )
                    labels_or_y = labels if name == "RidgeClassifier" else y
                    ours_s, peer_s, ratio = interleaved(
                        lambda X=X, y=y, lam=lam: ridge_cg(X, y, lam),
                        lambda X=X, peer=peer, y=labels_or_y: peer.fit(X, y),
                        args.repeats,
                    )
                    solver = getattr(peer, "solver_", peer.solver)
                    print(
                        f"{name:>15s} {n:6d} {d:7d} {lam:5g} {ours_s:8.4f} {peer_s:8.4f} "
                        f"{ratio:6.2f} {result.iterations:5d} {certificate.relative_gap:8.1e} "
                        f"{tol:8.0e}  {solver}"
                        + ("" if result.converged else "  (ours NOT converged)"),
                        flush=True,
                    )
    print(f"target: ratio <= {TARGET_RATIO}")


if __name__ == "__main__":
    main()
