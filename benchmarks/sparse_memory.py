"""Peak memory of every estimator on a sparse (CSR) text corpus, beside the data's size.

The contract (docs/architecture.md, "Conventions"): a sparse X is never densified, and
every estimator's peak memory on CSR input is ``O(nnz + n + d)``. This script fits each
estimator of the package on a tf-idf corpus of ``benchmarks._text`` (20000 x 200000,
about 100 words per document; ``--quick``: 3000 x 30000 with 30 words per document) at
its default parameters and at a weak penalty (0.1 lam_max for the L1 models, C = 10 for
the 2-norm SVMs, lam = 1e-6 for ridge and RLSC, for these also with their closed form
named, ``solver="SVD"``), each in a fresh process, and reports:

- ``traced``: tracemalloc's peak during ``lam_max`` (where the setting needs it) and
  the fit (Python and NumPy allocations, which
  include SciPy's sparse products); it does not see what compiled code (numba's
  kernels, HiGHS, the CVXPY solvers) allocates in C;
- ``rss``: the growth of the process's peak resident set during the fit (VmHWM, reset
  before the fit, less the resident set before it; after a first fit on a 200 x 2000
  corpus, which loads the compiled code), which sees every allocation, the compiled
  ones too;
- both as multiples of the data's size, ``csr = data + indices + indptr bytes`` plus
  ``(n + d) * 8`` (one float64 vector per sample and per feature);
- whether the answer is certified (``certificate_.holds``).

An n x n float64 array at 20000 x 200000 is 3.2 GB (about 100 times the data), a
d x d one 320 GB: either would stand out. The tests
(``tests/solvers/test_issue30_memory.py``) bound the traced multiple on a smaller
corpus.

Each fit's process is limited to ``--max-gb`` (8) GiB of address space: a fit that
would take more raises MemoryError (reported) instead of taking the machine's memory.

Run: ``python -m benchmarks.sparse_memory [--quick] [--only NAME ...] [--settings ...]``
"""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from benchmarks._text import text_like, text_regression_target

#: (name, constructor source, setting): every estimator, at defaults and weak penalty.
ESTIMATORS = ("SVMDual", "L2SVM", "L2SVM_squared", "L1SVM", "SVM2", "WeightedLasso",
              "AdaptiveLasso", "RLSC", "RidgeRegression", "HybridSVM")  # fmt: skip
#: "svd": lam = 1e-6 with the closed form named (solver="SVD"), ridge and RLSC only.
SETTINGS = ("default", "weak", "svd")


def data_bytes(X):
    """The CSR's own bytes plus one float64 per sample and per feature."""
    n, d = X.shape
    return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + 8 * (n + d)


def make_estimator(name, setting, X, y, target):
    """The estimator ``name`` at ``setting`` ("default" or "weak"), and its targets."""
    import solvers

    weak = setting != "default"
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
    if name in ("RLSC", "RidgeRegression"):
        cls = getattr(solvers, name)
        model = cls(lam=1e-6 if weak else 1.0, solver="SVD" if setting == "svd" else None)
        return model, (y if name == "RLSC" else target)
    if name == "HybridSVM":
        lam = 0.1 * solvers.L1SVM.lam_max(X, y)
        return (solvers.HybridSVM(lam=lam) if weak else solvers.HybridSVM()), y
    raise ValueError(f"unknown estimator {name!r}")


def _status_bytes(field):
    """A field of /proc/self/status in bytes: VmRSS (now) or VmHWM (the peak)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def _reset_peak_rss():
    """Reset the peak resident set (VmHWM) to the current one (Linux 4.0+)."""
    with open("/proc/self/clear_refs", "w") as clear_refs:
        clear_refs.write("5")


def measure(name, setting, corpus, words):
    """Fit one estimator in this process on the corpus saved at ``corpus`` (an .npz of
    the CSR's arrays and both targets); return its row of the table as a dict."""
    # A first fit on a small corpus loads the compiled code (numba's cache, CVXPY),
    # which would otherwise count as the fit's memory.
    small, small_y = text_like(200, 2000, words_per_document=min(words, 20), seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warm, warm_targets = make_estimator(
            name, setting, small, small_y, text_regression_target(small)
        )
        warm.fit(small, warm_targets)
    # Loaded, not generated here: generating it peaks far above the fit, and the pages
    # freed would hide the fit's own growth of the resident set.
    with np.load(corpus) as saved:
        X = sp.csr_matrix((saved["data"], saved["indices"], saved["indptr"]), saved["shape"])
        y, target = saved["y"], saved["target"]
    n, d = X.shape
    size = data_bytes(X)
    _reset_peak_rss()  # the corpus's loading peaked higher than the fit may
    before = _status_bytes("VmRSS")
    tracemalloc.start()
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:  # lam_max, where the setting needs it, counts with the fit
            estimator, targets = make_estimator(name, setting, X, y, target)
            estimator.fit(X, targets)
            error = ""
        except Exception as exc:  # the table reports it
            error = f"{type(exc).__name__}: {str(exc)[:120]}"
    seconds = time.perf_counter() - start
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = _status_bytes("VmHWM") - before
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
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per fit")
    parser.add_argument(
        "--max-gb", type=float, default=8.0, help="address space of each fit's process"
    )
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, setting, corpus, words = args.child
        # A fit that would take the machine's memory raises MemoryError instead.
        limit = int(args.max_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        print(json.dumps(measure(name, setting, corpus, int(words))))
        return
    n, d, words = (3000, 30000, 30) if args.quick else (20000, 200000, 100)
    print(f"CSR {n} x {d}, {words} words per document; multiples of nnz bytes + 8 (n + d)")
    X, y = text_like(n, d, words_per_document=words)
    corpus = Path(tempfile.mkdtemp()) / "corpus.npz"
    np.savez(corpus, data=X.data, indices=X.indices, indptr=X.indptr, shape=X.shape, y=y,
             target=text_regression_target(X))  # fmt: skip
    del X, y
    header = f"{'estimator':16} {'setting':8} {'data MB':>8} {'traced MB':>10} {'x':>6} "
    print(header + f"{'rss MB':>8} {'x':>6} {'s':>7}  backend / holds")
    for name in args.only:
        for setting in args.settings:
            if setting == "svd" and name not in ("RLSC", "RidgeRegression"):
                continue
            command = [sys.executable, "-m", "benchmarks.sparse_memory", "--child",
                       name, setting, str(corpus), str(words),
                       "--max-gb", str(args.max_gb)]  # fmt: skip
            try:
                done = subprocess.run(
                    command, capture_output=True, text=True, timeout=args.timeout
                )
            except subprocess.TimeoutExpired:
                print(f"{name:16} {setting:8} over {args.timeout} s", flush=True)
                continue
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
    corpus.unlink()
    corpus.parent.rmdir()


if __name__ == "__main__":
    main()
