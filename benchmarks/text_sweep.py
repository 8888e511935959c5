"""The text sweep: every estimator's default fit against its best peer, at the papers' scale.

``python -m benchmarks.solvers --sweep text [--quick] [--repeats 3] [--budget 300]
[--estimators NAMES]`` (or ``python -m benchmarks.text_sweep``). The data are
:func:`benchmarks._text.text_like` corpora (CSR, about 100 distinct words per
document, Zipf word frequencies, tf-idf rows of unit norm) of n in {2000, 20000}
documents and d in {20000, 200000} words; the regression target is
:func:`benchmarks._text.text_regression_target`. Each estimator is fitted at two
settings: lam at 0.1 and 0.01 of lam_max for the L1 models, C in {1, 100} for the
2-norm SVMs, lam in {1, 0.01} for ridge regression.

For each (shape, estimator, setting) and each side (ours, the peer):

- **first fit**: a new estimator fitted at the setting;
- **re-fit**: the same estimator set to half the value (half of lam or of C) and
  fitted again, as a path of lams or a grid search does (ours may start from its
  last answer; a peer without warm starts fits from scratch);
- **peak memory**: the peak resident memory of the process during a first fit,
  above what it held before (``/proc/self/status`` VmHWM, reset through
  ``/proc/self/clear_refs``), so that allocations in C, Fortran and numba code count.
  It is measured once per side after the timed fits, with glibc's allocator told to
  hand freed memory back to the system (a fixed ``mmap`` threshold, ``malloc_trim``
  before the fit): else a fit would reuse the memory an earlier one freed and look
  free. The timed fits run with the allocator's defaults, as a user's do (returning
  every block at once costs page faults: 2x on a fit that takes 10 ms);
- **objective**: the paper's objective at the answer (intercepts free), by NumPy.

Ours runs with its defaults (``solver=None``: the planned chain) and must be
certified. Each peer is run at the loosest tolerance of :data:`PEER_TOLERANCES` whose
objective is within ``1e-6`` of ours relative to the problem's scale (the
certificate's, :class:`solvers.certificates.Certificate`): so the two answers are
equally good, and the peer is not slowed by a tolerance tighter than needed.
Ours and the peer alternate, each cell in a forked child, one BLAS thread.

The peers: ``LinearSVC`` (liblinear: dual coordinate descent for the hinge and the
squared hinge, primal coordinate descent for the L1 penalty) for SVMDual, L2SVM and
SVM2; the fastest of scikit-learn's ``Lasso``, skglm's ``WeightedLasso`` and celer's
``Lasso`` for WeightedLasso; ``Ridge(fit_intercept=False)`` for RidgeRegression;
``scipy.optimize.linprog(method="highs")`` on the full LP for L1SVM. liblinear
penalises its intercept (a feature of value 1, ``intercept_scaling=1``, its default
and its fastest setting), so it solves a slightly different problem and may settle
above our optimum: its objective is evaluated without that penalty, and the table
shows ``(peer - ours) / scale``, which must not be below ``-1e-6`` (ours at least as
good).

Targets (issue 19): every estimator's default within 2x of the best peer, first fit
and re-fit; peak memory within 2x of the peer's or of the data's own size,
whichever is larger (a fit that allocates less than its data is lean at any size);
objectives as good as the peer's to 1e-6 of the scale; every answer certified. Per
estimator and setting, the log-log slopes of the first-fit time in n (at the
largest d) and in d (at the largest n), ours beside the peer's.
"""

import argparse
import ctypes
import ctypes.util
import os
import time
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, Ridge
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from benchmarks._text import text_like, text_regression_target
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from solvers import L1SVM, L2SVM, SVM2, RidgeRegression, SVMDual, WeightedLasso

SHAPES = ((2000, 20000), (2000, 200000), (20000, 20000), (20000, 200000))
QUICK_SHAPES = ((100, 1000), (200, 2000))
#: Tolerances tried for a peer, loosest first.
PEER_TOLERANCES = (1e-3, 1e-4, 1e-5, 1e-6, 1e-8, 1e-10)
#: How far (relative to the problem's scale) the peer's objective may be from ours.
OBJECTIVE_TOLERANCE = 1e-6
TARGET_RATIO = 2.0
TARGET_MEMORY_RATIO = 2.0
#: The re-fit is at this times the first value of lam or C.
REFIT_FACTOR = 0.5
PEER_MAX_ITER = 100_000


def _hinge(X, y, w, b):
    return np.maximum(0.0, 1.0 - y * (np.asarray(X @ w).ravel() + b))


def _objective(kind, X, t, w, b, value):
    """The paper's objective at (w, b): ``kind`` names the model."""
    if kind in ("svm", "svm_squared"):
        loss = _hinge(X, t, w, b)
        return 0.5 * w @ w + value * (loss @ loss if kind == "svm_squared" else loss.sum())
    if kind in ("l1_svm", "svm2"):
        loss = _hinge(X, t, w, b)
        return (loss @ loss if kind == "svm2" else loss.sum()) + value * np.abs(w).sum()
    residual = t - np.asarray(X @ w).ravel() - b
    if kind == "lasso":
        return residual @ residual + value * np.abs(w).sum()
    return residual @ residual + value * w @ w


def _coef(model):
    coef = model.coef_.toarray() if sp.issparse(model.coef_) else model.coef_
    return np.asarray(coef, dtype=float).ravel(), float(np.ravel(model.intercept_)[0])


def _liblinear(**fixed):
    def fit(X, t, value, tol):
        C = value if "penalty" not in fixed else 1.0 / value
        model = LinearSVC(C=C, tol=tol, max_iter=PEER_MAX_ITER, **fixed)
        return _coef(model.fit(X, t))

    return fit


def _sklearn_lasso(X, t, lam, tol):
    return _coef(Lasso(alpha=lam / (2 * X.shape[0]), tol=tol, max_iter=PEER_MAX_ITER).fit(X, t))


def _skglm_lasso(X, t, lam, tol):
    from skglm import WeightedLasso as SkglmWeightedLasso

    model = SkglmWeightedLasso(
        alpha=lam / (2 * X.shape[0]), weights=np.ones(X.shape[1]), tol=tol, fit_intercept=True
    )
    return _coef(model.fit(X, t))


def _celer_lasso(X, t, lam, tol):
    import celer

    return _coef(celer.Lasso(alpha=lam / (2 * X.shape[0]), tol=tol).fit(X, t))


LASSO_PEERS = {"Lasso": _sklearn_lasso, "skglm": _skglm_lasso, "celer": _celer_lasso}


def _ridge(X, t, lam, tol):
    model = Ridge(alpha=lam, fit_intercept=False, tol=tol).fit(X, t)
    return np.asarray(model.coef_, dtype=float).ravel(), 0.0


def _linprog(X, t, lam, tol):
    """The 1-norm SVM LP, variables [w+, w-, b, xi], by HiGHS (exact: ``tol`` unused)."""
    n, d = X.shape
    c = np.concatenate([np.full(2 * d, lam), [0.0], np.ones(n)])
    YX = sp.csr_matrix(X).multiply(t[:, None]).tocsr()
    A = sp.hstack([-YX, YX, sp.csr_matrix(-t[:, None]), -sp.eye(n)], format="csr")
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    result = linprog(c, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    return result.x[:d] - result.x[d : 2 * d], float(result.x[2 * d])


@dataclass(frozen=True)
class Case:
    """One estimator, its peer, its objective and its two settings.

    ``peer`` is ``peer(X, t, value, tol) -> (w, b)``; None for the lasso, whose peer is
    the fastest of :data:`LASSO_PEERS` on each cell.
    """

    name: str
    estimator: object
    param: str
    kind: str
    peer_name: str
    peer: object
    settings: tuple
    regression: bool = False
    #: The settings are fractions of lam_max (else the values themselves).
    relative: bool = False
    #: The peer has a tolerance (linprog is exact).
    tolerant: bool = True


CASES = (
    Case(
        "SVMDual", SVMDual(), "C", "svm", "LinearSVC hinge", _liblinear(loss="hinge"), (1.0, 100.0)
    ),
    Case("L2SVM", L2SVM(), "C", "svm", "LinearSVC hinge", _liblinear(loss="hinge"), (1.0, 100.0)),
    Case(
        "L2SVM-squared",
        L2SVM(loss="squared_hinge"),
        "C",
        "svm_squared",
        "LinearSVC",
        _liblinear(loss="squared_hinge"),
        (1.0, 100.0),
    ),
    Case(
        "SVM2",
        SVM2(),
        "lam",
        "svm2",
        "LinearSVC l1",
        _liblinear(penalty="l1", loss="squared_hinge", dual=False),
        (0.1, 0.01),
        relative=True,
    ),
    Case(
        "WeightedLasso",
        WeightedLasso(),
        "lam",
        "lasso",
        "best of Lasso/skglm/celer",
        None,
        (0.1, 0.01),
        regression=True,
        relative=True,
    ),
    Case(
        "RidgeRegression",
        RidgeRegression(),
        "lam",
        "ridge",
        "Ridge",
        _ridge,
        (1.0, 0.01),
        regression=True,
    ),
    Case(
        "L1SVM",
        L1SVM(),
        "lam",
        "l1_svm",
        "linprog HiGHS",
        _linprog,
        (0.1, 0.01),
        relative=True,
        tolerant=False,
    ),
)


def _lam_max(case, X, t):
    if case.kind == "l1_svm":
        return L1SVM.lam_max(X, t)
    return 2.0 * float(np.abs(np.asarray(X.T @ (t - t.mean()))).max())


def _memory():
    """(current resident KiB, peak resident KiB) of this process."""
    found = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                found[key] = int(value.split()[0])
    return found["VmRSS"], found["VmHWM"]


def _glibc():
    """The C library if it is glibc (which has ``malloc_trim``), else None."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None


def timed(fit):
    """Run ``fit()``: (seconds, its result)."""
    start = time.perf_counter()
    result = fit()
    return time.perf_counter() - start, result


def peak_memory(fit):
    """Run ``fit()``: the peak resident MiB above the resident memory before.

    Sets glibc's allocator (for the rest of the process) to return large blocks to the
    system when freed, and trims it first, so that memory freed by earlier fits is not
    reused unseen.
    """
    libc = _glibc()
    if libc is not None:
        M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
        libc.mallopt(M_MMAP_THRESHOLD, 128 * 1024)  # fixed: no longer grows after a free
        libc.mallopt(M_TRIM_THRESHOLD, 128 * 1024)
        libc.malloc_trim(0)
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # reset the peak resident memory (VmHWM) to the current
    except OSError:
        pass
    before, _ = _memory()
    fit()
    _, peak = _memory()
    return max(peak - before, 0) / 1024.0


def _our_fit(est, X, t):
    est.fit(X, t)
    w = np.ravel(est.coef_).astype(float)
    return w, float(np.ravel(est.intercept_)[0]), est


def _steps(case, X, t, values, repeats, budget):
    """The steps of one cell in the child: the peer's tolerance, then interleaved pairs."""
    from sklearn.base import clone

    def steps():
        with threadpool_limits(1), warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est = clone(case.estimator).set_params(**{case.param: values[0]})
            seconds, (w, b, est) = timed(lambda: _our_fit(est, X, t))
            reference = est.certificate_
            yield {"kind": "reference", "seconds": seconds,
                   "gap": reference.relative_gap, "scale": reference.scale,
                   "objective": _objective(case.kind, X, t, w, b, values[0]),
                   "backend": est.backend_}  # fmt: skip
            peer, tolerance = _choose_peer(case, X, t, values[0], reference, budget)
            yield {"kind": "peer", "peer": peer, "tolerance": tolerance}
            fit_peer = LASSO_PEERS.get(peer, case.peer)
            start = time.perf_counter()
            for pair in range(repeats):
                if pair and time.perf_counter() - start > budget:
                    break
                order = ("ours", "peer") if pair % 2 == 0 else ("peer", "ours")
                est = clone(case.estimator)
                for phase, value in zip(("first", "refit"), values, strict=True):
                    for side in order:
                        step = {"kind": "fit", "pair": pair, "phase": phase, "side": side}
                        if side == "ours":
                            est.set_params(**{case.param: value})
                            seconds, (w, b, est) = timed(lambda est=est: _our_fit(est, X, t))
                            certificate = est.certificate_
                            step.update(gap=certificate.relative_gap, holds=certificate.holds,
                                        scale=certificate.scale, backend=est.backend_)  # fmt: skip
                        else:
                            seconds, (w, b) = timed(lambda v=value: fit_peer(X, t, v, tolerance))
                        step.update(seconds=seconds,
                                    objective=_objective(case.kind, X, t, w, b, value))  # fmt: skip
                        yield step
            fresh = clone(case.estimator).set_params(**{case.param: values[0]})
            yield {"kind": "memory", "side": "ours",
                   "memory": peak_memory(lambda: _our_fit(fresh, X, t))}  # fmt: skip
            yield {"kind": "memory", "side": "peer",
                   "memory": peak_memory(lambda: fit_peer(X, t, values[0], tolerance))}  # fmt: skip

    return steps


def _choose_peer(case, X, t, value, reference, budget):
    """The peer (for the lasso: the fastest of three) at its loosest tolerance whose
    objective is within ``OBJECTIVE_TOLERANCE`` of the scale of our certified optimum.

    A peer whose own problem differs from ours (liblinear penalises its intercept)
    may never get there: then the loosest tolerance after which its objective stops
    improving by that much (its own optimum), and the tables show the difference.
    """
    candidates = LASSO_PEERS if case.peer is None else {case.peer_name: case.peer}
    best = None
    for name, fit in candidates.items():
        previous = None
        for tolerance in PEER_TOLERANCES if case.tolerant else (None,):
            seconds, (w, b) = timed(lambda fit=fit, tol=tolerance: fit(X, t, value, tol))
            objective = _objective(case.kind, X, t, w, b, value)
            reached = objective - reference.primal <= OBJECTIVE_TOLERANCE * reference.scale
            settled = (
                previous is not None
                and previous[1] - objective <= OBJECTIVE_TOLERANCE * reference.scale
            )
            if reached or settled:
                chosen = tolerance if reached else previous[0]
                if best is None or seconds < best[0]:
                    best = (seconds, name, chosen)
                break
            if seconds > budget / 4:
                break
            previous = (tolerance, objective)
    if best is None:  # nothing settled within the budget: the peer's default
        return next(iter(candidates)), 1e-4 if case.tolerant else None
    return best[1], best[2]


def _cell(case, X, t, value, repeats, budget):
    values = (value, REFIT_FACTOR * value)
    steps, status = [], "ok"
    try:
        for step in forked_steps(_steps(case, X, t, values, repeats, budget), budget):
            steps.append(step)
    except StepTimeout:
        status = f"over budget ({budget:g} s)"
    except ChildError as exc:
        status = f"error: {exc}"
    return {"status": status, **_summary(steps, _mebibytes(X))}


def _mebibytes(X):
    """The size of X's arrays in MiB."""
    arrays = (X.data, X.indices, X.indptr) if sp.issparse(X) else (X,)
    return sum(a.nbytes for a in arrays) / 2**20


def _summary(steps, data_mib):
    """Medians over the complete pairs; the memory ratio's denominator is the peer's
    peak or the data's own size, whichever is larger."""
    out = {"peer": "-", "tolerance": None, "pairs": 0}
    fits = [s for s in steps if s["kind"] == "fit"]
    for s in steps:
        if s["kind"] == "peer":
            out["peer"], out["tolerance"] = s["peer"], s["tolerance"]
        if s["kind"] == "reference":
            out["backend"] = s["backend"]
    pairs = {}
    for s in fits:
        pairs.setdefault(s["pair"], {})[s["phase"], s["side"]] = s
    complete = [p for p in pairs.values() if len(p) == 4]
    out["pairs"] = len(complete)
    ours = [s for s in fits if s["side"] == "ours"]
    out["certified"] = bool(ours) and all(s["holds"] for s in ours)
    out["gap"] = max((s["gap"] for s in ours), default=np.nan)
    out["backend"] = "/".join(sorted({s["backend"] for s in ours})) or out.get("backend", "-")
    out["objective_diff"] = min(
        ((p[ph, "peer"]["objective"] - p[ph, "ours"]["objective"]) / p[ph, "ours"]["scale"]
         for p in complete for ph in ("first", "refit")),
        default=np.nan,
    )  # fmt: skip
    for phase in ("first", "refit"):
        for side in ("ours", "peer"):
            out[f"{side}_{phase}"] = _median([p[phase, side]["seconds"] for p in complete])
        out[f"{phase}_ratio"] = _median(
            [p[phase, "ours"]["seconds"] / p[phase, "peer"]["seconds"] for p in complete]
        )
    memory = {s["side"]: s["memory"] for s in steps if s["kind"] == "memory"}
    out["ours_memory"], out["peer_memory"] = memory.get("ours", np.nan), memory.get("peer", np.nan)
    out["memory_ratio"] = out["ours_memory"] / max(out["peer_memory"], data_mib)
    return out


def _median(values):
    return float(np.median(values)) if len(values) else np.nan


def _fmt(value, spec):
    return "-" if value is None or not np.isfinite(value) else format(value, spec)


def run(cases, shapes, repeats, budget):
    """Every case at every shape and setting; print the tables. Returns the results."""
    corpora = (("text_like", *text_like(n, d)) for n, d in shapes)
    return run_corpora(cases, corpora, repeats, budget)


def run_corpora(cases, corpora, repeats, budget):
    """Every case on every corpus ``(name, X, y)`` (generated one at a time) and setting;
    print the tables. Returns the results."""
    results = []
    for corpus, X, y in corpora:
        n, d = X.shape
        for case in cases:
            for setting in case.settings:
                t = text_regression_target(X) if case.regression else y
                scale = _lam_max(case, X, t) if case.relative else 1.0
                result = {"case": case, "corpus": corpus, "n": n, "d": d, "setting": setting,
                          **_cell(case, X, t, setting * scale, repeats, budget)}  # fmt: skip
                results.append(result)
                print(f"  {case.name} {corpus} {n}x{d} {case.param}={setting:g}"
                      f"{' lam_max' if case.relative else ''}: {_progress(result)}",
                      flush=True)  # fmt: skip
    print()
    print_table(results)
    print()
    print_slopes(results)
    return results


def _progress(r):
    return (
        f"{r['status']}, first {_fmt(r['ours_first'], '.3g')} s / "
        f"{_fmt(r['peer_first'], '.3g')} s ({r['peer']}), re-fit {_fmt(r['ours_refit'], '.3g')}"
        f" s / {_fmt(r['peer_refit'], '.3g')} s, memory {_fmt(r['ours_memory'], '.0f')}"
        f" / {_fmt(r['peer_memory'], '.0f')} MiB, {r['backend']}"
    )


def _table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def print_table(results):
    header = ["estimator", "corpus", "n x d", "setting", "peer (tol)", "pairs", "ours first s",
              "peer first s", "first ratio", "ours re-fit s", "peer re-fit s", "re-fit ratio",
              "ours MiB", "peer MiB", "memory ratio", "gap", "(peer − ours) obj / scale",
              "certified",
              "backend", "target"]  # fmt: skip
    rows = []
    for r in results:
        case = r["case"]
        target = (r["status"] == "ok" and r["certified"] and r["pairs"] > 0
                  and r["first_ratio"] <= TARGET_RATIO and r["refit_ratio"] <= TARGET_RATIO
                  and r["memory_ratio"] <= TARGET_MEMORY_RATIO
                  and r["objective_diff"] >= -OBJECTIVE_TOLERANCE)  # fmt: skip
        setting = f"{case.param}={r['setting']:g}{' lam_max' if case.relative else ''}"
        tolerance = "" if r["tolerance"] is None else f" ({r['tolerance']:g})"
        rows.append([
            case.name, r["corpus"], f"{r['n']} x {r['d']}", setting, f"{r['peer']}{tolerance}",
            str(r["pairs"]), _fmt(r["ours_first"], ".3g"), _fmt(r["peer_first"], ".3g"),
            _fmt(r["first_ratio"], ".2f"), _fmt(r["ours_refit"], ".3g"),
            _fmt(r["peer_refit"], ".3g"), _fmt(r["refit_ratio"], ".2f"),
            _fmt(r["ours_memory"], ".0f"), _fmt(r["peer_memory"], ".0f"),
            _fmt(r["memory_ratio"], ".2f"), _fmt(r["gap"], ".1e"),
            _fmt(r["objective_diff"], ".1e"), "yes" if r["certified"] else "no",
            r["backend"], ("holds" if target else "fails") + (
                "" if r["status"] == "ok" else f" ({r['status']})"),
        ])  # fmt: skip
    _table(header, rows)


def _slope(points):
    points = [(x, t) for x, t in points if np.isfinite(t) and t > 0]
    if len(points) < 2:
        return np.nan
    xs, ts = np.log([p[0] for p in points]), np.log([p[1] for p in points])
    return float(np.polyfit(xs, ts, 1)[0])


def print_slopes(results):
    """Log-log slopes of the first-fit time in n (largest d) and in d (largest n), per
    corpus; on a real corpus subsampled by documents (its vocabulary grows with n) the
    slope in n is taken over every subsample."""
    header = ["estimator", "corpus", "setting", "slope in n: ours", "peer", "slope in d: ours",
              "peer"]  # fmt: skip
    rows = []
    key = lambda r: (r["case"].name, r["corpus"], r["setting"])  # noqa: E731
    for name, corpus, setting in dict.fromkeys(map(key, results)):
        cell = [r for r in results if key(r) == (name, corpus, setting)]
        d_max, n_max = max(r["d"] for r in cell), max(r["n"] for r in cell)
        in_n = [r for r in cell if r["d"] == d_max]
        in_n = in_n if len(in_n) > 1 else cell
        in_d = [r for r in cell if r["n"] == n_max]
        rows.append([name, corpus, f"{setting:g}"] + [
            _fmt(_slope([(r[axis], r[f"{side}_first"]) for r in group]), ".2f")
            for axis, group in (("n", in_n), ("d", in_d)) for side in ("ours", "peer")
        ])  # fmt: skip
    _table(header, rows)


def select(names, cases=CASES):
    if not names:
        return list(cases)
    known = {case.name.lower(): case for case in cases}
    wanted = [name.strip().lower() for name in names.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise ValueError(f"unknown estimators {unknown}; choose from {list(known)}")
    return [known[name] for name in wanted]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small shapes, for the tests")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=300.0, help="seconds per step")
    parser.add_argument("--estimators", default=None)
    parser.add_argument("--shapes", default=None, help="e.g. 2000x20000,20000x200000")
    args = parser.parse_args(argv)
    shapes = QUICK_SHAPES if args.quick else SHAPES
    if args.shapes:
        shapes = tuple(tuple(int(v) for v in s.split("x")) for s in args.shapes.split(","))
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"text sweep: shapes {shapes}, repeats {args.repeats}, budget {args.budget:g} s, "
          "1 BLAS thread")  # fmt: skip
    return run(select(args.estimators), shapes, args.repeats, args.budget)


if __name__ == "__main__":
    main()
