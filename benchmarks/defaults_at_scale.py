"""Every estimator's defaults at 20 000 x 200 000 (synthetic text) against its peer.

``python -m benchmarks.defaults_at_scale [--quick] [--shape 20000x200000]
[--estimators NAMES] [--repeats 1] [--budget 300]``

The corpus is the text sweep's :func:`benchmarks._text.text_like` (the regression
target :func:`benchmarks._text.text_regression_target`). Each estimator runs at its
default parameters (C = 1, lam = 1) against its peer at the same parameters with the
text sweep's protocol (:func:`benchmarks.text_sweep.run_corpora`: first fit, re-fit at
half the value, peak memory, the peer at its loosest tolerance reaching our
objective; ``linprog`` on the full LP for L1SVM, capped by ``--budget`` seconds a
step). The estimators without a peer solving the same problem (``AdaptiveLasso``:
its weights come from its own first fit; ``HybridSVM``: its weights from a 2-norm
SVM, its lam chosen on held-out rows) and the L1 logistic regression (its
peers' protocol is :mod:`benchmarks.logistic`'s, at fractions of lam_max; here
liblinear's ``LogisticRegression(C=1/lam)`` at its default tolerance) are timed in
:func:`alone`: one default fit in a forked child, its backend, whether it is
certified, its peak memory, and the peer's time where there is one. Target (issue
32): within 2x of the peer, or under a minute where no peer finishes.
"""

import argparse
import os
import time
from dataclasses import replace
from functools import partial

from threadpoolctl import threadpool_limits

from benchmarks import logistic
from benchmarks._text import text_like, text_regression_target
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from benchmarks.real_text import EXTRA_CASES
from benchmarks.text_sweep import CASES, peak_memory, run_corpora, select
from solvers import AdaptiveLasso, HybridSVM, SparseLogisticRegression

SHAPE = (20000, 200000)
QUICK_SHAPE = (200, 2000)
#: The text sweep's cases at their defaults (C = 1, lam = 1: the values themselves).
DEFAULT_CASES = tuple(replace(c, settings=(1.0,), relative=False) for c in (*CASES, *EXTRA_CASES))
#: ``name: (estimator, regression target?, peer(X, t) or None)``, timed alone.
ALONE = {
    "AdaptiveLasso": (AdaptiveLasso, True, None),
    # No peer fits the hybrid SVM (004 eq. 4-6, lam chosen on validation data).
    "HybridSVM": (partial(HybridSVM, random_state=0), False, None),
    "SparseLogisticRegression": (
        SparseLogisticRegression,
        False,
        lambda X, t: logistic._sklearn("liblinear")(1.0, 1e-4).fit(X, t),
    ),
}


def _alone_steps(make, peer, X, t):
    def steps():
        with threadpool_limits(1):
            start = time.perf_counter()
            model = make().fit(X, t)
            yield {"ours": time.perf_counter() - start, "backend": model.backend_,
                   "certified": bool(model.certificate_.holds),
                   "iterations": int(model.n_iter_)}  # fmt: skip
            yield {"ours_memory": peak_memory(lambda: make().fit(X, t))}
            if peer is not None:
                start = time.perf_counter()
                peer(X, t)
                yield {"peer": time.perf_counter() - start}
                yield {"peer_memory": peak_memory(lambda: peer(X, t))}

    return steps


def alone(names, X, y, budget):
    """The default fit of each of ``names`` (keys of :data:`ALONE`): prints a table."""
    print("| estimator | ours s | backend (iterations) | certified | ours MiB | peer s "
          "| peer MiB | ratio | status |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for name in names:
        make, regression, peer = ALONE[name]
        t = text_regression_target(X) if regression else y
        with threadpool_limits(1):  # numba's kernels loaded before the child forks
            make().fit(X[:200], t[:200])
        found, status = {}, "ok"
        try:
            for step in forked_steps(_alone_steps(make, peer, X, t), budget):
                found.update(step)
        except StepTimeout:
            status = f"over budget ({budget:g} s)"
        except ChildError as exc:
            status = f"error: {exc}"
        rows.append({"name": name, "status": status, **found})
        get = lambda key, spec, found=found: (  # noqa: E731
            format(found[key], spec) if key in found else "-"
        )
        ratio = f"{found['ours'] / found['peer']:.2f}" if "peer" in found else "-"
        print(f"| {name} | {get('ours', '.3g')} | {found.get('backend', '-')} "
              f"({found.get('iterations', '-')}) | {found.get('certified', '-')} | "
              f"{get('ours_memory', '.0f')} | {get('peer', '.3g')} | "
              f"{get('peer_memory', '.0f')} | {ratio} | {status} |", flush=True)  # fmt: skip
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small corpus, for the tests")
    parser.add_argument("--shape", default=None, help="e.g. 20000x200000")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--budget", type=float, default=300.0, help="seconds per step")
    parser.add_argument("--estimators", default=None, help="default: all")
    args = parser.parse_args(argv)
    n, d = QUICK_SHAPE if args.quick else SHAPE
    if args.shape:
        n, d = (int(v) for v in args.shape.split("x"))
    names = [v.strip() for v in (args.estimators or "").split(",") if v.strip()]
    swept = [v for v in names if v not in ALONE]
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"defaults at {n} x {d}: repeats {args.repeats}, budget {args.budget:g} s, "
          "1 BLAS thread")  # fmt: skip
    X, y = text_like(n, d)
    data = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    print(f"the CSR: {X.nnz} stored entries, {data / 2**20:.1f} MiB")
    results = []
    if swept or not names:
        cases = select(",".join(swept), DEFAULT_CASES)
        results += run_corpora(cases, [("text_like", X, y)], args.repeats, args.budget)
    print()
    results += alone([v for v in names if v in ALONE] or list(ALONE) * (not swept), X, y,
                     args.budget)  # fmt: skip
    return results


if __name__ == "__main__":
    main()
