"""L1 logistic regression on text: SparseLogisticRegression against liblinear, saga and skglm.

``python -m benchmarks.logistic [--large] [--repeats 1] [--budget 300] [--shapes ...]``.
The corpora of the text sweep (:func:`benchmarks._text.text_like`: tf-idf CSR, about 100
distinct words per document, Zipf word frequencies): 2000 documents of 20000 and of
200000 words by default, and with ``--large`` also 20000 documents (the sweep's four
shapes). lam at 0.1 and 0.01 of lam_max (:meth:`solvers.SparseLogisticRegression.lam_max`).

For each shape, lam and side:

- **first fit**: a new estimator fitted at lam;
- **re-fit**: the same estimator at lam / 2 (ours and skglm start from their last answer,
  scikit-learn's saga too with ``warm_start=True``; liblinear has no warm start);
- **peak memory**: the peak resident memory above what the process held before, during a
  first fit (:func:`benchmarks.text_sweep.peak_memory`);
- **objective**: ``sum_i log(1 + exp(-y_i f_i)) + lam ||w||_1`` at the answer, by NumPy
  (the table shows ``(peer - ours) / scale`` of the first fit and of the re-fit).

The peers: scikit-learn's ``LogisticRegression(C=1/lam, l1_ratio=1)`` with
``solver="liblinear"`` and ``solver="saga"``, and skglm's
``SparseLogisticRegression(alpha=lam/n)``. liblinear penalises its intercept (a feature
of value ``intercept_scaling = 1``): it solves a slightly different problem and may settle
above our optimum. Each peer runs at the loosest tolerance of :data:`PEER_TOLERANCES`
at which both its first fit and its re-fit are within 1e-6 of ours relative to the
certificate's scale (or, if it never gets there, at the one after which it stops
improving): equally good answers, no peer slowed by a tolerance it does not need, none
timed on a re-fit that stopped early (warm-started at a loose tolerance, a solver may
return after one check). Ours runs with its defaults and must be certified. Every side
runs in a forked child with one BLAS thread, after one untimed fit on a small problem
(numba compiles skglm's kernels on first use; ours load from numba's cache).

Targets (issue 29): within 2x of the fastest peer, first fit and re-fit, and within 2x of
its peak memory (or of the data's own size, whichever is larger).
"""

import argparse
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from benchmarks._text import text_like
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from benchmarks.text_sweep import peak_memory

SHAPES = ((2000, 20000), (2000, 200000))
LARGE_SHAPES = ((2000, 20000), (2000, 200000), (20000, 20000), (20000, 200000))
QUICK_SHAPES = ((300, 2000),)
FRACTIONS = (0.1, 0.01)
#: The tolerances tried for each peer, loosest first.
PEER_TOLERANCES = (1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10)
#: A peer's objective within this share of the scale above ours counts as reached.
OBJECTIVE_TOLERANCE = 1e-6
PEERS = ("liblinear", "saga", "skglm")


def objective(X, y, coef, intercept, lam):
    """``sum_i log(1 + exp(-y_i (x_i'w + b))) + lam ||w||_1``."""
    fitted = np.asarray(X @ coef).ravel() + intercept
    return float(np.logaddexp(0.0, -y * fitted).sum() + lam * np.abs(coef).sum())


def _answer(model):
    return np.ravel(model.coef_).astype(float), float(np.ravel(model.intercept_)[0])


def ours(lam, tol=None):
    from solvers import SparseLogisticRegression

    return SparseLogisticRegression(lam=lam)


def _sklearn(solver):
    def make(lam, tol):
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(
            C=1.0 / lam, l1_ratio=1.0, solver=solver, tol=tol, max_iter=100000,
            warm_start=solver == "saga",
        )  # fmt: skip

    return make


def _skglm(lam, tol, n):
    from skglm import SparseLogisticRegression

    return SparseLogisticRegression(alpha=lam / n, tol=tol, max_iter=1000, warm_start=True)


def _make(side, lam, tol, n):
    if side == "ours":
        return ours(lam)
    if side == "skglm":
        return _skglm(lam, tol, n)
    return _sklearn(side)(lam, tol)


def _set_lam(model, side, lam, n):
    if side == "ours":
        model.set_params(lam=lam)
    elif side == "skglm":
        model.set_params(alpha=lam / n)
    else:
        model.set_params(C=1.0 / lam)


def _warm_up(side):
    """Untimed fits on a small problem: numba's compilation (or cache load), for CSR and
    for CSC (ours reads a tf-idf matrix, whose indices are unsorted, as the CSC its
    validation sorts it into: other kernels than a sorted CSR's)."""
    X, y = text_like(60, 300, words_per_document=20, seed=1)
    for layout in (X, X.tocsc()):
        _make(side, 0.5, 1e-4, 60).fit(layout, y)


def _steps(side, X, y, lam, reference, repeats, budget):
    n = X.shape[0]

    def steps():
        with threadpool_limits(1), warnings.catch_warnings():
            warnings.simplefilter("ignore", (ConvergenceWarning, FutureWarning, UserWarning))
            _warm_up(side)
            tol = None
            if side != "ours":
                tol = _choose_tolerance(side, X, y, lam, reference, budget)
            yield {"kind": "tolerance", "tol": tol}
            for _ in range(repeats):
                model = _make(side, lam, tol, n)
                step = {}
                for phase, value in (("first", lam), ("refit", lam / 2)):
                    _set_lam(model, side, value, n)
                    start = time.perf_counter()
                    model.fit(X, y)
                    step[phase] = time.perf_counter() - start
                    step[phase + "_objective"] = objective(X, y, *_answer(model), value)
                    if side == "ours":
                        step[phase + "_certified"] = bool(model.certificate_.holds)
                        step[phase + "_scale"] = model.certificate_.scale
                yield {"kind": "fit", "tol": tol, **step}
            fresh = _make(side, lam, tol, n)
            yield {"kind": "memory", "memory": peak_memory(lambda: fresh.fit(X, y))}

    return steps


def _choose_tolerance(side, X, y, lam, reference, budget):
    """The loosest tolerance at which the first fit and the re-fit both reach ours to
    OBJECTIVE_TOLERANCE (or the one after which the peer stops improving by that much)."""
    previous = None
    start = time.perf_counter()
    for tol in PEER_TOLERANCES:
        began = time.perf_counter()
        values = _protocol_objectives(side, X, y, lam, tol)
        seconds = time.perf_counter() - began
        excess = [(value - ours["objective"]) / ours["scale"]
                  for value, ours in zip(values, reference, strict=True)]  # fmt: skip
        if max(excess) <= OBJECTIVE_TOLERANCE:
            return tol
        if previous is not None and max(
            (before - value) / ours["scale"]
            for before, value, ours in zip(previous[1], values, reference, strict=True)
        ) <= OBJECTIVE_TOLERANCE:
            return previous[0]
        previous = (tol, values)
        if seconds > budget / 4 or time.perf_counter() - start > budget / 2:
            break  # tighter would not fit in the budget
    return previous[0]


def _protocol_objectives(side, X, y, lam, tol):
    """The objectives of the timed protocol's first fit (lam) and re-fit (lam / 2)."""
    model = _make(side, lam, tol, X.shape[0])
    values = []
    for value in (lam, lam / 2):
        _set_lam(model, side, value, X.shape[0])
        model.fit(X, y)
        values.append(objective(X, y, *_answer(model), value))
    return values


def _reference(X, y, lam):
    """Our certified answers of the protocol (lam, then lam / 2 warm): each objective,
    the certificate's scale and whether it is certified."""
    from solvers import SparseLogisticRegression

    model = SparseLogisticRegression(lam=lam)
    found = []
    with threadpool_limits(1):
        for value in (lam, lam / 2):
            model.set_params(lam=value).fit(X, y)
            found.append({"objective": objective(X, y, *_answer(model), value),
                          "scale": model.certificate_.scale,
                          "certified": model.certificate_.holds})  # fmt: skip
    return found


def _mebibytes(X):
    return sum(a.nbytes for a in (X.data, X.indices, X.indptr)) / 2**20


def run(shapes, repeats, budget, peers=PEERS, corpora=None):
    """Every shape's ``text_like`` corpus (or every ``(X, y)`` of ``corpora``), both
    fractions, every side; prints the rows and returns them."""
    from solvers import SparseLogisticRegression

    rows = []
    for X, y in corpora or (text_like(n, d) for n, d in shapes):
        X = sp.csr_matrix(X)
        n, d = X.shape
        lam_max = SparseLogisticRegression.lam_max(X, y)
        for fraction in FRACTIONS:
            lam = fraction * lam_max
            reference = _reference(X, y, lam)
            row = {"n": n, "d": d, "fraction": fraction, "data_mib": _mebibytes(X),
                   "certified": all(r["certified"] for r in reference), "sides": {}}  # fmt: skip
            for side in ("ours", *peers):
                fits, memory, status = [], np.nan, "ok"
                try:
                    for step in forked_steps(
                        _steps(side, X, y, lam, reference, repeats, budget), budget
                    ):
                        if step["kind"] == "fit":
                            fits.append(step)
                        elif step["kind"] == "memory":
                            memory = step["memory"]
                except StepTimeout:
                    status = f"over budget ({budget:g} s)"
                except ChildError as exc:
                    status = f"error: {exc}"
                row["sides"][side] = _summary(fits, memory, status, reference)
            rows.append(row)
            print_row(row, peers)
    return rows


def _summary(fits, memory, status, reference):
    out = {"status": status, "memory": memory, "tol": fits[0]["tol"] if fits else None}
    for phase in ("first", "refit"):
        out[phase] = min((f[phase] for f in fits), default=np.nan)
        values = [f[phase + "_objective"] for f in fits]
        out[phase + "_objective"] = values[0] if values else np.nan
    if fits and "first_certified" in fits[0]:
        out["certified"] = all(f["first_certified"] and f["refit_certified"] for f in fits)
    for phase, ours in zip(("first", "refit"), reference, strict=True):
        out[phase + "_diff"] = (out[phase + "_objective"] - ours["objective"]) / ours["scale"]
    return out


def _fastest(row, peers, key):
    values = [row["sides"][p][key] for p in peers if np.isfinite(row["sides"][p][key])]
    return min(values) if values else np.nan


def print_row(row, peers):
    sides = row["sides"]
    mine = sides["ours"]
    print(
        f"\n{row['n']} x {row['d']}, lam = {row['fraction']} lam_max "
        f"(data {row['data_mib']:.1f} MiB; ours certified: {mine.get('certified', False)})"
    )
    print(f"{'side':>10} {'tol':>7} {'first s':>9} {'refit s':>9} {'peak MiB':>9} "
          f"{'(obj-ours)/scale':>17} {'re-fit':>8}  status")  # fmt: skip
    for side in ("ours", *peers):
        s = sides[side]
        tol = "-" if s["tol"] is None else f"{s['tol']:.0e}"
        print(f"{side:>10} {tol:>7} {s['first']:9.3f} {s['refit']:9.3f} {s['memory']:9.1f} "
              f"{s['first_diff']:17.1e} {s['refit_diff']:8.1e}  {s['status']}")  # fmt: skip
    first, refit = _fastest(row, peers, "first"), _fastest(row, peers, "refit")
    memory = max(_fastest(row, peers, "memory"), row["data_mib"])
    print(f"ratio to the fastest peer: first fit {mine['first'] / first:.2f}, re-fit "
          f"{mine['refit'] / refit:.2f}; peak memory to the leanest peer's (or the data's) "
          f"{mine['memory'] / memory:.2f}")  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small corpus, for the tests")
    parser.add_argument("--large", action="store_true", help="also 20000 documents")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--budget", type=float, default=300.0, help="seconds per side")
    parser.add_argument("--shapes", default=None, help="e.g. 2000x20000,20000x200000")
    parser.add_argument("--peers", default=",".join(PEERS))
    args = parser.parse_args(argv)
    if args.shapes:
        shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    else:
        shapes = QUICK_SHAPES if args.quick else (LARGE_SHAPES if args.large else SHAPES)
    return run(shapes, args.repeats, args.budget, tuple(args.peers.split(",")))


if __name__ == "__main__":
    main()
