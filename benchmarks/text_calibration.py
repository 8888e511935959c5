"""The synthetic text corpus against the real one: statistics and solver iterations.

``python -m benchmarks.text_calibration [--quick] [--documents 20000] [--split hard]``

The real corpus is :func:`benchmarks.real_text.corpora` (the Debian descriptions,
tf-idf of the words of five letters or more seen in two documents; ``hard``: as they
come, libs and libdevel against the rest; ``easy``: deduplicated, the programming
languages against the rest) at ``--documents`` documents drawn at random; the
synthetic ones are :func:`benchmarks._text.text_like` at the same n and d, with its
defaults (the text sweep's corpora) and with
:data:`benchmarks._text.DEBIAN_CALIBRATION`. For each corpus it prints
(:func:`statistics`):

- the document lengths (distinct words per document: 10th, 50th, 90th percentile);
- the word-frequency law: the log-log slope of the document frequency against its
  rank (least squares), over the head (ranks 10 to 1000) and over the tail (rank 100
  to the last word seen in three documents or more), the share of documents holding
  the most frequent word and the share of the words seen (df >= 1) seen in one or
  two documents;
- near-duplicates: the share of documents with another at cosine similarity >= 0.9
  (tf-idf rows), and the share of documents with such a near-duplicate of the other
  label;
- the share of positive labels;

and the solver iterations (:func:`iterations`, read from ``solve_attempts_``):
the epochs of ``DUAL_CD`` for ``SVMDual`` at C = 1 and C = 100, the epochs of ``CD``
for ``WeightedLasso`` at 0.1 lam_max, each backend named (``solver=``: no fallback) (target
:func:`benchmarks._text.text_regression_target`), with their ratio real / synthetic:
a ratio near 1 means the text sweep's corpus is as hard for the solvers as the real
one. One BLAS thread. ``--quick`` uses the sample shipped with the package.
"""

import argparse
import os
import time

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks._text import DEBIAN_CALIBRATION, text_like, text_regression_target
from benchmarks.real_text import corpora
from solvers import SolverError, SVMDual, WeightedLasso

#: Cosine similarity (tf-idf rows) from which two documents are near-duplicates.
NEAR = 0.9
HEAD = (10, 1000)
TAIL_FROM = 100
#: (estimator name, setting, backend whose iterations count).
RUNS = (("SVMDual", "C=1", "DUAL_CD"), ("SVMDual", "C=100", "DUAL_CD"),
        ("WeightedLasso", "0.1 lam_max", "CD"))  # fmt: skip


def _slope(frequencies, lo, hi):
    """Least-squares slope of log frequency against log rank over ranks lo..hi."""
    ranks = np.arange(lo, hi + 1)
    return float(np.polyfit(np.log(ranks), np.log(frequencies[lo - 1 : hi]), 1)[0])


def near_duplicates(X, y, block=1000):
    """Whether each document has a near-duplicate (cosine >= :data:`NEAR`; rows of unit
    norm, so the products), and whether it has one of the other label; the
    similarities in blocks of ``block`` documents against all."""
    n = X.shape[0]
    near, other = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        similar = np.asarray(X @ X[lo:hi].T.toarray()) >= NEAR
        similar[np.arange(lo, hi), np.arange(hi - lo)] = False
        near[lo:hi] = similar.any(axis=0)
        other[lo:hi] = (similar & (y[:, None] != y[None, lo:hi])).any(axis=0)
    return near, other


def statistics(X, y):
    """The corpus statistics of the module's docstring, as a dict of floats."""
    lengths = np.diff(X.indptr)
    df = np.sort(np.bincount(X.indices, minlength=X.shape[1]))[::-1]
    seen = df[df > 0]
    tail_to = int(np.searchsorted(-seen, -3, side="right"))
    near, other = near_duplicates(X, y)
    return {
        "length p10": float(np.percentile(lengths, 10)),
        "length p50": float(np.percentile(lengths, 50)),
        "length p90": float(np.percentile(lengths, 90)),
        "zipf head": _slope(seen, *HEAD),
        "zipf tail": _slope(seen, TAIL_FROM, tail_to),
        "top word share": float(seen[0] / X.shape[0]),
        "words df <= 2": float(np.mean(seen <= 2)),
        "near-duplicates": float(np.mean(near)),
        "near-dup. other label": float(np.mean(other)),
        "positive": float(np.mean(y > 0)),
    }


def _counted(attempts, backend):
    return sum(int(a.get("iterations") or 0) for a in attempts if a["backend"] == backend)


def iterations(X, y):
    """The iterations of :data:`RUNS`, each backend named alone (no fallback: its own
    iterations, ``solve_attempts_``, or those of the ``SolverError`` when it did not
    certify, backend "failed": DUAL_CD's cap is 1000 epochs): a dict run ->
    (iterations, seconds, backend)."""
    t = text_regression_target(X)
    lam_max = 2.0 * float(np.abs(np.asarray(X.T @ (t - t.mean()))).max())
    fits = {
        RUNS[0]: lambda: SVMDual(C=1.0, solver="DUAL_CD").fit(X, y),
        RUNS[1]: lambda: SVMDual(C=100.0, solver="DUAL_CD").fit(X, y),
        RUNS[2]: lambda: WeightedLasso(lam=0.1 * lam_max, solver="CD").fit(X, t),
    }
    out = {}
    with threadpool_limits(1):
        for run, fit in fits.items():
            start = time.perf_counter()
            try:
                estimator = fit()
                attempts, backend = estimator.solve_attempts_, estimator.backend_
            except SolverError as error:
                attempts, backend = error.attempts, "failed"
            out[run] = (_counted(attempts, run[2]), time.perf_counter() - start, backend)
    return out


def _table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def compare(X, y, *, seed=0):
    """Statistics and iterations of the real (X, y) and of the two synthetic corpora
    of its shape; prints the two tables and returns ``{name: (statistics, iterations)}``."""
    n, d = X.shape
    corpora_ = {
        "real": (X, y),
        "text_like (sweep)": text_like(n, d, seed=seed),
        "text_like (calibrated)": text_like(n, d, seed=seed, **DEBIAN_CALIBRATION),
    }
    found = {}
    for name, data in corpora_.items():
        found[name] = (statistics(*data), iterations(*data))
        print(f"  {name}: {found[name][0]}; {list(found[name][1].values())}", flush=True)
    names = list(found)
    _table(["statistic", *names],
           [[key] + [f"{found[name][0][key]:.3g}" for name in names]
            for key in found["real"][0]])  # fmt: skip
    print()
    rows = []
    for run in RUNS:
        real = found["real"][1][run][0]
        cells = []
        for name in names:
            count, seconds, backend = found[name][1][run]
            ratio = "" if name == "real" else f", ratio {real / max(count, 1):.2f}"
            cells.append(f"{count} ({backend} {seconds:.2g} s){ratio}")
        rows.append([f"{run[0]} {run[1]}: {run[2]} iterations", *cells])
    _table(["iterations (real / synthetic)", *names], rows)
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the shipped sample, 1000 documents")
    parser.add_argument("--documents", type=int, default=None, help="default 20000")
    parser.add_argument("--split", default="hard", choices=("hard", "easy"))
    args = parser.parse_args(argv)
    size = args.documents or (1000 if args.quick else 20000)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    (_, X, y), = corpora((args.split,), (size,), sample=args.quick)  # fmt: skip
    print(f"text calibration: Debian {args.split} split, {X.shape[0]} x {X.shape[1]}, "
          "1 BLAS thread")  # fmt: skip
    return compare(X, y)


if __name__ == "__main__":
    main()
