"""The 1-norm SVM LP (004 eq. 6) by column generation against linprog on the full LP.

Ours: :func:`solvers._lp_column_generation.l1_svm_column_generation` (HiGHS on the dual
LP over a growing set of features, certificate included). Peer:
``scipy.optimize.linprog(method="highs")`` on the full primal LP, variables
``[w+, w-, b, xi]`` as in ``benchmarks.solvers.l1_svm_linprog`` (whose LP is built here
again only to pass HiGHS a time limit, ``--peer-time-limit``; the build is not timed).
Data: ``benchmarks._text.text_like`` at (2000, 20000) and (20000, 200000) (``--quick``:
(200, 2000)); lam = 0.1 and 0.01 lam_max, lam_max from
:func:`solvers._lp_column_generation.l1_svm_lam_max` (``solvers.L1SVM.lam_max``, the
exact path's first breakpoint, agrees with it to 1e-14 at 2000 x 20000 but ran out of
memory, 24 GiB, at 20000 x 200000).

Each fit runs in a forked child (``benchmarks._timing.forked_steps``), ours and the
peer's interleaved (the order alternating from pair to pair), on one BLAS thread; the
table gives medians of times and of the per-pair ratios, and each side's peak memory
above what the child inherited (``VmHWM`` after resetting it through
``/proc/self/clear_refs``, once ``malloc_trim`` has returned the free heap to the
system). The objectives are compared relative to the problem's scale (the
certificate's ``scale``), and ours is certified.

Target: within 2x of the peer (ratio <= 2).

Run: ``python -m benchmarks.lp_column_generation [--quick] [--repeats 3]
[--peer-time-limit 600]``.
"""

import ctypes
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from threadpoolctl import threadpool_limits

from benchmarks._text import text_like
from benchmarks._timing import benchmark_parser, forked_steps
from solvers._lp_column_generation import l1_svm_column_generation, l1_svm_lam_max

SIZES = [(2000, 20000), (20000, 200000)]
QUICK_SIZES = [(200, 2000)]
RATIOS = (0.1, 0.01)
TARGET_RATIO = 2.0


def full_lp(X, y, lam, time_limit):
    """linprog on the full primal LP ``[w+, w-, b, xi]``; returns a callable -> (fun, status)."""
    n, d = X.shape
    cost = np.concatenate((np.full(2 * d, lam), [0.0], np.ones(n)))
    YX = sp.csr_matrix(X).multiply(y[:, None]).tocsr()
    A = sp.hstack((-YX, YX, sp.csr_matrix(-y[:, None]), -sp.eye(n)), format="csr")
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n

    def solve():
        result = linprog(
            cost,
            A_ub=A,
            b_ub=-np.ones(n),
            bounds=bounds,
            method="highs",
            options={"time_limit": time_limit},
        )
        return result.fun, result.status, result.message

    return solve


def ours(X, y, lam):
    """Our fit; returns (primal objective, relative gap, scale, converged)."""

    def solve():
        result = l1_svm_column_generation(X, y, lam)
        certificate = result.certificate
        return certificate.primal, certificate.relative_gap, certificate.scale, result.converged

    return solve


def _memory_kib(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def measured(fn, timeout):
    """``fn()`` in a forked child: (seconds, peak memory above the start in MiB, its value)."""

    def steps():
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # free heap the child could reuse unseen
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")  # reset the peak resident size (VmHWM) to the current one
        start = _memory_kib("VmRSS")
        began = time.perf_counter()
        value = fn()
        seconds = time.perf_counter() - began
        yield seconds, (_memory_kib("VmHWM") - start) / 1024.0, value

    return next(forked_steps(steps, timeout))


def main():
    parser = benchmark_parser(__doc__.splitlines()[0])
    parser.add_argument("--peer-time-limit", type=float, default=600.0)
    args = parser.parse_args()
    threads = 1 if args.threads is None else args.threads
    print(
        f"{'n':>6s} {'d':>7s} {'lam/lmax':>8s} {'ours s':>8s} {'peer s':>8s} {'ratio':>6s} "
        f"{'ours MiB':>8s} {'peer MiB':>8s} {'obj diff':>9s} {'gap':>8s}  peer status"
    )
    with threadpool_limits(threads):
        for n, d in QUICK_SIZES if args.quick else SIZES:
            X, y = text_like(n, d)
            lam_max = l1_svm_lam_max(X, y)
            for ratio in RATIOS:
                lam = ratio * lam_max
                sides = {
                    "ours": ours(X, y, lam),
                    "peer": full_lp(X, y, lam, args.peer_time_limit),
                }
                runs = {"ours": [], "peer": []}
                for repeat in range(args.repeats):
                    order = ("ours", "peer") if repeat % 2 == 0 else ("peer", "ours")
                    for side in order:
                        runs[side].append(measured(sides[side], args.peer_time_limit + 600))
                ratios = [o[0] / p[0] for o, p in zip(runs["ours"], runs["peer"], strict=True)]
                primal, gap, scale, converged = runs["ours"][-1][2]
                peer_fun, peer_status, message = runs["peer"][-1][2]
                status = "optimal" if peer_status == 0 else f"NOT optimal ({message})"
                print(
                    f"{n:6d} {d:7d} {ratio:8.2f} "
                    f"{np.median([r[0] for r in runs['ours']]):8.3f} "
                    f"{np.median([r[0] for r in runs['peer']]):8.3f} {np.median(ratios):6.3f} "
                    f"{max(r[1] for r in runs['ours']):8.1f} "
                    f"{max(r[1] for r in runs['peer']):8.1f} "
                    f"{(primal - peer_fun) / scale:9.1e} {gap:8.1e}  {status}"
                    + ("" if converged else "  (ours NOT converged)"),
                    flush=True,
                )
    print(f"target: ratio <= {TARGET_RATIO}; obj diff = (ours - peer) / scale")


if __name__ == "__main__":
    main()
