"""Every declared backend of every estimator configuration, timed on text corpora.

``python -m benchmarks.backends_by_model [--quick] [--budget 60] [--corpora small,sweep]``

For each estimator configuration (SVMDual, L2SVM with the hinge and the squared hinge,
L1SVM, SVM2, WeightedLasso, RidgeRegression, RLSC; one setting each: C = 1, lam at 0.1
lam_max for the L1 models, lam = 1 for ridge) and each backend that
``solvers.available_backends`` lists for it, one fit with ``solver=`` that backend,
timed in a forked child under one BLAS thread (the library's own backends compiled
first, in the parent), with ``solver_options={"time_limit":
budget}`` and a wall-clock limit of ``budget`` seconds. The table gives the time,
whether the answer is certified, or why there is none (the attempt's status, or
"over budget"), and the ratio to the fastest certified backend of the configuration
in the same run: the rule of issue 30 is that a declared backend answers within a
small multiple of the others (the registry undeclares the ones that did not:
``solvers._registry.NOT_DECLARED``).

Corpora (:func:`benchmarks._text.text_like`, CSR tf-idf rows of unit norm): "small",
318 documents x 1263 words, 40 words per document (the size of a TechTC task's
corpus); "sweep", the text sweep's 2000 x 20000 (100 words per document).
``--quick``: 100 x 1000 only.
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.base import clone
from threadpoolctl import threadpool_limits

from benchmarks._text import text_like, text_regression_target
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
    available_backends,
)
from solvers._registry import backend as backend_declaration
from solvers.exceptions import SolverError

CORPORA = {
    "small": dict(n=318, d=1263, words_per_document=40),
    "sweep": dict(n=2000, d=20000, words_per_document=100),
}
QUICK = {"quick": dict(n=100, d=1000, words_per_document=30)}

#: (label, estimator, parameter, setting, regression, relative): ``relative`` settings
#: are fractions of lam_max.
CONFIGURATIONS = (
    ("SVMDual", SVMDual(), "C", 1.0, False, False),
    ("L2SVM", L2SVM(), "C", 1.0, False, False),
    ("L2SVM(loss='squared_hinge')", L2SVM(loss="squared_hinge"), "C", 1.0, False, False),
    ("L1SVM", L1SVM(), "lam", 0.1, False, True),
    ("SVM2", SVM2(), "lam", 0.1, False, True),
    ("WeightedLasso", WeightedLasso(), "lam", 0.1, True, True),
    ("RidgeRegression", RidgeRegression(), "lam", 1.0, True, False),
    ("RLSC", RLSC(), "lam", 1.0, False, False),
)


def _fit(estimator, backend, X, target, budget):
    fitted = clone(estimator).set_params(solver=backend, solver_options={"time_limit": budget})
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fitted.fit(X, target)
        except SolverError as error:
            attempt = error.attempts[-1]
            detail = attempt["status"] + (f": {attempt['message']}" if attempt["message"] else "")
            return time.perf_counter() - start, False, detail[:70]
    seconds = time.perf_counter() - start
    return seconds, bool(fitted.certificate_.holds), ""


def measure(corpus, budget):
    """One row per (configuration, backend): label, backend, seconds, certified, note."""
    X, y = text_like(**corpus, seed=0)
    t = text_regression_target(X, seed=0)
    rows = []
    for label, estimator, param, setting, regression, relative in CONFIGURATIONS:
        target = t if regression else y
        value = setting * type(estimator).lam_max(X, target) if relative else setting
        configured = clone(estimator).set_params(**{param: value})
        for backend in available_backends(configured):
            if not backend_declaration(backend).cvxpy:  # compile its numba code here, once
                _fit(configured, backend, X[:60], target[:60], budget)

            def steps(backend=backend, configured=configured, target=target):
                with threadpool_limits(1):
                    yield _fit(configured, backend, X, target, budget)

            try:
                seconds, certified, note = next(forked_steps(steps, budget + 30))
            except StepTimeout:
                seconds, certified, note = float("inf"), False, f"over budget ({budget:g} s)"
            except ChildError as error:
                seconds, certified, note = float("nan"), False, str(error)[:70]
            rows.append((label, backend, seconds, certified, note))
            verdict = "certified" if certified else "NOT certified"
            print(f"  {label:28s} {backend:18s} {seconds:9.3g} s  {verdict} {note}", flush=True)
    return rows


def print_table(name, corpus, rows):
    print(
        f"\n{name}: {corpus['n']} x {corpus['d']}, {corpus['words_per_document']} words per "
        "document; time (s), ratio to the fastest certified backend of the configuration"
    )
    print("| configuration | backend | time (s) | ratio | certified | note |")
    print("|---|---|---|---|---|---|")
    for label in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == label]
        best = min((r[2] for r in mine if r[3]), default=float("nan"))
        for _, backend, seconds, certified, note in sorted(mine, key=lambda r: r[2]):
            ratio = seconds / best if np.isfinite(seconds) else float("inf")
            print(f"| {label} | {backend} | {seconds:.3g} | {ratio:.3g} | "
                  f"{'yes' if certified else 'no'} | {note} |")  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 x 1000 only")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per fit")
    parser.add_argument("--corpora", default="small,sweep", help="names among small, sweep")
    args = parser.parse_args(argv)
    corpora = QUICK if args.quick else {k: CORPORA[k] for k in args.corpora.split(",")}
    for name, corpus in corpora.items():
        print(f"{name}: {corpus}", flush=True)
        print_table(name, corpus, measure(corpus, args.budget))


if __name__ == "__main__":
    main()
