"""Peak memory of every estimator on a sparse (CSR) text corpus, beside the data's size.

The contract (docs/architecture.md, "Conventions"): a sparse X is never densified, and
every estimator's peak memory on CSR input is ``O(nnz + n + d)``. This script fits each
estimator of the package on a tf-idf corpus of ``benchmarks._text`` (20000 x 200000,
about 100 words per document; ``--quick``: 3000 x 30000 with 30 words per document) at
its default parameters and at a weak penalty (0.1 lam_max for the L1 models, C = 10 for
the 2-norm SVMs, lam = 1e-6 for ridge and RLSC), each in a fresh process, and reports:

- ``traced``: tracemalloc's peak during the fit (Python and NumPy allocations, which
  include SciPy's sparse products); it does not see what compiled code (numba's
  kernels, HiGHS, the CVXPY solvers) allocates in C;
- ``rss``: the growth of the process's peak resident set during the fit
  (``ru_maxrss`` after the fit less the resident set before it), which sees every
  allocation, the compiled ones too (and the page cache of the libraries loaded);
- both as multiples of the data's size, ``csr = data + indices + indptr bytes`` plus
  ``(n + d) * 8`` (one float64 vector per sample and per feature);
- whether the answer is certified (``certificate_.holds``).

An n x n float64 array at 20000 x 200000 is 3.2 GB (about 100 times the data), a
d x d one 320 GB: either would stand out. The tests
(``tests/solvers/test_issue30_memory.py``) bound the traced multiple on a smaller
corpus.

Run: ``python -m benchmarks.sparse_memory [--quick] [--only NAME ...]``
"""

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
import warnings

import numpy as np

from benchmarks._text import text_like, text_regression_target

#: (name, constructor source, setting): every estimator, at defaults and weak penalty.
ESTIMATORS = ("SVMDual", "L2SVM", "L2SVM_squared", "L1SVM", "SVM2", "WeightedLasso",
              "AdaptiveLasso", "RLSC", "RidgeRegression", "HybridSVM")  # fmt: skip
SETTINGS = ("default", "weak")


def data_bytes(X):
    """The CSR's own bytes plus one float64 per sample and per feature."""
    n, d = X.shape
    return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + 8 * (n + d)


def make_estimator(name, setting, X, y, target):
    """The estimator ``name`` at ``setting`` ("default" or "weak"), and its targets."""
    import solvers

    weak = setting == "weak"
    if name == "SVMDual":
        return solvers.SVMDual(C=10.0) if weak else solvers.SVMDual(), y
    if name == "L2SVM":
        return solvers.L2SVM(C=10.0) if weak else solvers.L2SVM(), y
    if name == "L2SVM_squared":
        return solvers.L2SVM(C=10.0 if weak else 1.0, loss="squared_hinge"), y
    if name in ("L1SVM", "SVM2"):
        cls = getattr(solvers, name)
        return (cls(lam=0.1 * cls.lam_max(X, y)) if weak else cls()), y
    if name == "WeightedLasso":
        lam = 0.1 * solvers.WeightedLasso.lam_max(X, target)
        return (solvers.WeightedLasso(lam=lam) if weak else solvers.WeightedLasso()), target
    if name == "AdaptiveLasso":
        # lam_max of the weighted lasso with the adaptive weights is only known after the
        # initial fit: 0.1 lam_max of the plain lasso, an equally weak penalty in scale.
        lam = 0.1 * solvers.WeightedLasso.lam_max(X, target)
        return (solvers.AdaptiveLasso(lam=lam) if weak else solvers.AdaptiveLasso()), target
    if name == "RLSC":
        return (solvers.RLSC(lam=1e-6) if weak else solvers.RLSC()), y
    if name == "RidgeRegression":
        reg = solvers.RidgeRegression(lam=1e-6) if weak else solvers.RidgeRegression()
        return reg, target
    if name == "HybridSVM":
        lam = 0.1 * solvers.L1SVM.lam_max(X, y)
        return (solvers.HybridSVM(lam=lam) if weak else solvers.HybridSVM()), y
    raise ValueError(f"unknown estimator {name!r}")


def _rss_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def measure(name, setting, n, d, words):
    """Fit one estimator in this process; return its row of the table as a dict."""
    X, y = text_like(n, d, words_per_document=words)
    target = text_regression_target(X)
    estimator, targets = make_estimator(name, setting, X, y, target)
    size = data_bytes(X)
    before = _rss_bytes()
    tracemalloc.start()
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            estimator.fit(X, targets)
            error = ""
        except Exception as exc:  # the table reports it
            error = f"{type(exc).__name__}: {str(exc)[:120]}"
    seconds = time.perf_counter() - start
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    holds = None if error else bool(np.all(_holds(estimator.certificate_)))
    return {
        "estimator": name, "setting": setting, "n": n, "d": d, "nnz": int(X.nnz),
        "data_mb": size / 1e6, "traced_mb": traced / 1e6, "rss_mb": max(rss, 0) / 1e6,
        "traced_x": traced / size, "rss_x": max(rss, 0) / size, "seconds": seconds,
        "backend": None if error else str(getattr(estimator, "backend_", "")),
        "holds": holds, "error": error,
    }  # fmt: skip


def _holds(certificate):
    if isinstance(certificate, list):
        return [c.holds for c in certificate]
    return certificate.holds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3000 x 30000, 30 words")
    parser.add_argument("--only", nargs="*", default=ESTIMATORS)
    parser.add_argument("--settings", nargs="*", default=SETTINGS)
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, setting, n, d, words = args.child
        print(json.dumps(measure(name, setting, int(n), int(d), int(words))))
        return
    n, d, words = (3000, 30000, 30) if args.quick else (20000, 200000, 100)
    print(f"CSR {n} x {d}, {words} words per document; multiples of nnz bytes + 8 (n + d)")
    header = f"{'estimator':16} {'setting':8} {'data MB':>8} {'traced MB':>10} {'x':>6} "
    print(header + f"{'rss MB':>8} {'x':>6} {'s':>7}  backend / holds")
    for name in args.only:
        for setting in args.settings:
            command = [sys.executable, "-m", "benchmarks.sparse_memory", "--child",
                       name, setting, str(n), str(d), str(words)]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{name:16} {setting:8} failed: {done.stderr.strip()[-300:]}")
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            tail = row["error"] or f"{row['backend']} / {row['holds']}"
            print(
                f"{name:16} {setting:8} {row['data_mb']:8.1f} {row['traced_mb']:10.1f} "
                f"{row['traced_x']:6.1f} {row['rss_mb']:8.1f} {row['rss_x']:6.1f} "
                f"{row['seconds']:7.1f}  {tail}",
                flush=True,
            )


if __name__ == "__main__":
    main()
