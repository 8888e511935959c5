"""Fit times of the estimators against their peers over sweeps in n and d, in the same run.

Two sweeps, each estimator against its peer on the same data:

- n in {500, 1000, 2000, 4000, 8000} at d = 50: dense ``make_classification`` data
  with 10% flipped labels and overlapping classes (many support vectors);
- d in {100, 1000, 10000} (the same generator) and 50000 (:func:`techtc_like`, CSR,
  1% dense) at n = 200.

Regression targets are a sparse linear model of X plus noise
(:func:`regression_target`). At each size and for each estimator: the time of a
first fit and of a re-fit at a new C/lam on the same data
(``est.set_params(lam=...).fit``, which re-solves the compiled CVXPY problem), each
as a ratio ours/peer, the peer refitted at the new value too. Our
``dual_gap_`` (the certified relative duality gap) and the objective of the paper,
evaluated by NumPy on both solutions (``(peer - ours) / |ours|``: negative when
ours is worse), show that a fast answer is also a right one. Per sweep and
estimator: the log-log slope of the first-fit time against the size
(``np.polyfit``) for ours and the peer, and whether the target holds. At Ionosphere
size: how much of a first fit and of a re-fit is CVXPY's compilation
(``solve_attempts_``).

Peers (no 1/n factors in our objectives): SVMDual and L2SVM (hinge):
``SVC(kernel="linear", C)``; L2SVM (squared hinge):
``LinearSVC(loss="squared_hinge", C, intercept_scaling=100)``; L1SVM:
``scipy.optimize.linprog(method="highs")`` on the full LP (:func:`l1_svm_linprog`);
SVM2: ``LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1/lam,
intercept_scaling=100)``; WeightedLasso: ``Lasso(alpha=lam/(2n))``; RLSC:
``RidgeClassifier(alpha=lam, fit_intercept=False)``; RidgeRegression:
``Ridge(alpha=lam, fit_intercept=False)``. liblinear penalises the intercept (a
feature of constant value ``intercept_scaling``); at 100 that penalty is
``b^2 / (2 * 100^2)`` (``|b| / 100`` for the L1 penalty), so its optimum is close to
ours, whose intercept is free. The peers run with their default tolerances, the
iterative ones (LinearSVC, Lasso) with ``max_iter=PEER_MAX_ITER`` so that they reach
them; column "peer converged" says whether every peer fit of the cell did (no
``ConvergenceWarning``).

Timing: each cell of a table is the median over ``--repeats`` pairs, ours and the
peer interleaved (the order alternates from pair to pair), first fits and re-fits
timed apart; ratios are medians of the per-pair ratios. Every cell runs in a
forked child, after a warm-up of every estimator and peer in the parent. A fit
of ours above ``--budget`` seconds (or any fit still running after it, which is
then killed) ends that estimator's sweep: the larger sizes are skipped and the
table says "over budget". No new pair starts once a cell has used ``--budget``
seconds, so a slow cell has fewer pairs (column "pairs").

Targets (issue 7): at the largest size of each sweep, every estimator within 3x of
its peer (first fit and re-fit), and the slope of its time no more than 0.2 above
the peer's; its answers certified (gap <= 1e-6) and no worse than the peer's by
more than 1e-6 (relative) at every size.

Run: ``python -m benchmarks.solvers [--quick] [--repeats 3] [--threads 1]
[--sweep n|d|both] [--estimators SVMDual,L1SVM,...] [--budget 120]``.
``--quick`` runs tiny sizes (for the test suite).
"""

import argparse
import time
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, Ridge, RidgeClassifier
from sklearn.svm import SVC, LinearSVC
from threadpoolctl import threadpool_limits

from benchmarks import text_sweep
from benchmarks._timing import ChildError, StepTimeout, forked_steps, timed
from solvers import L1SVM, L2SVM, RLSC, SVM2, RidgeRegression, SVMDual, WeightedLasso
from solvers.certificates import GAP_TOLERANCE
from sparsify.datasets import load_ionosphere

#: Sizes of the sweeps: (swept dimension, sizes, the other dimension's value).
SWEEPS = {"n": ((500, 1000, 2000, 4000, 8000), 50), "d": ((100, 1000, 10000, 50000), 200)}
QUICK_SWEEPS = {"n": ((40, 80), 8), "d": ((20, 600), 30)}
#: From this d on, the d sweep uses sparse TechTC-like data (CSR, 1% dense).
SPARSE_FROM = {"full": 50000, "quick": 600}

#: Targets of issue 7 at the largest size of a sweep.
TARGET_RATIO = 3.0
TARGET_SLOPE_EXCESS = 0.2
#: How much worse (relative) than the peer's objective ours may be.
OBJECTIVE_TOLERANCE = 1e-6
#: The re-fit uses the first value of C or lam times this.
REFIT_FACTOR = 0.5
#: lam of the L1 models as a fraction of the scale at which every coefficient is 0.
LAM_FRACTION = 0.1
#: liblinear's intercept feature: a large value makes its intercept penalty negligible.
INTERCEPT_SCALING = 100.0
#: Iterations allowed to the iterative peers (LinearSVC, Lasso; scikit-learn's default is
#: 1000), so that they reach their own tolerance: at n=200, d=50000 (CSR)
#: LinearSVC(penalty="l1") stops at 1000 iterations with a ConvergenceWarning 3.3e-3
#: above the optimum, and converges after 3306. A peer that converges sooner is
#: unaffected. A peer that still warns is marked in the tables ("peer converged").
PEER_MAX_ITER = 10_000


def techtc_like(n=200, d=50000, density=0.01, seed=0):
    """Sparse nonnegative term counts; labels from a planted sparse linear rule.

    Parameters
    ----------
    n, d : int
        Shape of X.
    density : float
        Fraction of nonzero entries.
    seed : int

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, d)
        Counts ``1 + Poisson(2)`` at random positions.
    y : ndarray of shape (n,)
        -1/+1: the sign of a score on ``min(500, d)`` features about its median.
    """
    rng = np.random.default_rng(seed)
    X = sp.random(
        n,
        d,
        density=density,
        format="csr",
        random_state=rng,
        data_rvs=lambda k: rng.poisson(2.0, k) + 1.0,
    )
    w = np.zeros(d)
    k = min(500, d)
    w[rng.choice(d, k, replace=False)] = rng.standard_normal(k)
    score = X @ w
    return X, np.where(score > np.median(score), 1.0, -1.0)


def classification_data(n, d, seed=0):
    """Dense two-class data with overlapping classes: many points are support vectors.

    ``make_classification`` with ``min(10, d)`` informative features, 10% of the labels
    flipped and ``class_sep=0.5``.

    Returns
    -------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), values in {-1, +1}
    """
    X, y = make_classification(
        n_samples=n,
        n_features=d,
        n_informative=min(10, d),
        n_redundant=0,
        n_repeated=0,
        flip_y=0.1,
        class_sep=0.5,
        random_state=seed,
    )
    return X, 2.0 * y - 1.0


def regression_target(X, k=10, noise=0.5, seed=0):
    """A sparse linear model of X plus noise: ``X beta + e`` with k nonzero coefficients.

    The k coefficients sit on the k columns of largest norm (so that a sparse X still
    carries the signal), drawn N(0, 1); the noise has ``noise`` times the standard
    deviation of the signal.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    rng = np.random.default_rng(seed)
    squares = X.multiply(X).sum(axis=0) if sp.issparse(X) else (X**2).sum(axis=0)
    norms = np.asarray(squares).ravel()
    beta = np.zeros(X.shape[1])
    support = np.argsort(norms)[::-1][: min(k, X.shape[1])]
    beta[support] = rng.standard_normal(support.size)
    signal = np.asarray(X @ beta).ravel()
    return signal + noise * max(signal.std(), 1.0) * rng.standard_normal(X.shape[0])


def l1_svm_linprog(X, y, lam):
    """The 1-norm SVM LP built once for scipy: variables [w+, w-, b, xi] (the peer's LP).

    Returns
    -------
    callable
        Solves the LP with HiGHS and returns scipy's ``OptimizeResult``.
    """
    n, d = X.shape
    c = np.concatenate([np.full(2 * d, lam), [0.0], np.ones(n)])
    YX = sp.csr_matrix(X).multiply(y[:, None]).tocsr()
    A = sp.hstack([-YX, YX, sp.csr_matrix(-y[:, None]), -sp.eye(n)], format="csr")
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    return lambda: linprog(c, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")


# The objectives of the paper, evaluated by NumPy at a solution (w, b).


def _hinge(X, y, w, b):
    return np.maximum(0.0, 1.0 - y * (np.asarray(X @ w).ravel() + b))


def svm_objective(X, y, w, b, C):
    """``1/2 ||w||^2 + C sum_i max(0, 1 - y_i (x_i'w + b))``."""
    return 0.5 * w @ w + C * _hinge(X, y, w, b).sum()


def squared_hinge_svm_objective(X, y, w, b, C):
    """``1/2 ||w||^2 + C sum_i max(0, 1 - y_i (x_i'w + b))^2``."""
    losses = _hinge(X, y, w, b)
    return 0.5 * w @ w + C * losses @ losses


def l1_svm_objective(X, y, w, b, lam):
    """``sum_i max(0, 1 - y_i (x_i'w + b)) + lam ||w||_1``."""
    return _hinge(X, y, w, b).sum() + lam * np.abs(w).sum()


def svm2_objective(X, y, w, b, lam):
    """``sum_i max(0, 1 - y_i (x_i'w + b))^2 + lam ||w||_1``."""
    losses = _hinge(X, y, w, b)
    return losses @ losses + lam * np.abs(w).sum()


def lasso_objective(X, y, w, b, lam):
    """``||y - X w - b||^2 + lam ||w||_1``."""
    residual = y - np.asarray(X @ w).ravel() - b
    return residual @ residual + lam * np.abs(w).sum()


def ridge_objective(X, y, w, b, lam):
    """``||y - X w||^2 + lam ||w||^2`` (no intercept)."""
    residual = y - np.asarray(X @ w).ravel()
    return residual @ residual + lam * w @ w


# The peers: each fits at one value of C or lam and returns its solution (w, b).


def _sklearn_solution(model):
    coef = model.coef_.toarray() if sp.issparse(model.coef_) else model.coef_
    return np.asarray(coef, dtype=float).ravel(), float(np.ravel(model.intercept_)[0])


def _sklearn_peer(make):
    """A peer from ``make(value, n_samples)`` returning an unfitted scikit-learn model."""

    def fit(X, y, value):
        return _sklearn_solution(make(value, X.shape[0]).fit(X, y))

    return fit


def _linprog_peer(X, y, lam):
    result = l1_svm_linprog(X, y, lam)()
    d = X.shape[1]
    return result.x[:d] - result.x[d : 2 * d], float(result.x[2 * d])


def _ridge_peer(model_class):
    def fit(X, y, lam):
        model = model_class(alpha=lam, fit_intercept=False).fit(X, y)
        return np.asarray(model.coef_, dtype=float).ravel(), 0.0

    return fit


def _lam_l1(scale):
    """lam = LAM_FRACTION times ``scale(X, t)``: an L1 model with a few nonzeros."""

    def lam(X, t):
        return LAM_FRACTION * float(np.abs(np.asarray(X.T @ scale(t))).max())

    return lam


def _centred_twice(t):
    return 2.0 * (t - t.mean())


def _unit(X, t):
    return 1.0


@dataclass(frozen=True)
class Case:
    """One estimator against its peer.

    Attributes
    ----------
    name : str
    estimator : sklearn estimator
        Ours, with every parameter but ``param`` set.
    param : str
        "C" or "lam": the value a re-fit changes.
    peer_name : str
    peer : callable
        ``peer(X, t, value) -> (w, b)``: the peer fitted at that value.
    objective : callable
        ``objective(X, t, w, b, value)``: the paper's objective, by NumPy.
    regression : bool
        True when the target is real (else the -1/+1 labels).
    first_value : callable
        ``first_value(X, t)``: the value of ``param`` of the first fit.
    """

    name: str
    estimator: object
    param: str
    peer_name: str
    peer: object
    objective: object
    regression: bool = False
    first_value: object = _unit


CASES = (
    Case(
        "SVMDual",
        SVMDual(),
        "C",
        "SVC",
        _sklearn_peer(lambda C, n: SVC(kernel="linear", C=C)),
        svm_objective,
    ),
    Case(
        "L2SVM",
        L2SVM(),
        "C",
        "SVC",
        _sklearn_peer(lambda C, n: SVC(kernel="linear", C=C)),
        svm_objective,
    ),
    Case(
        "L2SVM-squared",
        L2SVM(loss="squared_hinge"),
        "C",
        "LinearSVC",
        _sklearn_peer(
            lambda C, n: LinearSVC(
                C=C, intercept_scaling=INTERCEPT_SCALING, max_iter=PEER_MAX_ITER
            )
        ),
        squared_hinge_svm_objective,
    ),
    Case(
        "L1SVM",
        L1SVM(),
        "lam",
        "linprog HiGHS",
        _linprog_peer,
        l1_svm_objective,
        first_value=_lam_l1(lambda t: t),
    ),
    Case(
        "SVM2",
        SVM2(),
        "lam",
        "LinearSVC l1",
        _sklearn_peer(
            lambda lam, n: LinearSVC(
                penalty="l1",
                dual=False,
                C=1.0 / lam,
                intercept_scaling=INTERCEPT_SCALING,
                max_iter=PEER_MAX_ITER,
            )
        ),
        svm2_objective,
        first_value=_lam_l1(_centred_twice),
    ),
    Case(
        "WeightedLasso",
        WeightedLasso(),
        "lam",
        "Lasso",
        _sklearn_peer(lambda lam, n: Lasso(alpha=lam / (2 * n), max_iter=PEER_MAX_ITER)),
        lasso_objective,
        regression=True,
        first_value=_lam_l1(_centred_twice),
    ),
    Case("RLSC", RLSC(), "lam", "RidgeClassifier", _ridge_peer(RidgeClassifier), ridge_objective),
    Case(
        "RidgeRegression",
        RidgeRegression(),
        "lam",
        "Ridge",
        _ridge_peer(Ridge),
        ridge_objective,
        regression=True,
    ),
)


def select_cases(names=None):
    """The cases named in ``names`` (comma-separated, case-insensitive; all when None)."""
    if not names:
        return list(CASES)
    wanted = [name.strip().lower() for name in names.split(",") if name.strip()]
    known = {case.name.lower(): case for case in CASES}
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise ValueError(f"unknown estimators {unknown}; choose from {[c.name for c in CASES]}")
    return [known[name] for name in wanted]


# Measuring one cell: interleaved pairs in a forked child.


def _pair_steps(case, X, t, values, repeats, budget, threads):
    """The steps of one cell: ``repeats`` pairs (first fit, re-fit) of ours and the peer.

    Each step yields one dict: pair, phase ("first" or "refit"), side ("ours" or
    "peer"), seconds, objective, and for ours gap and backend.
    """

    def steps():
        with threadpool_limits(threads):
            warm_up([case])  # the child's first touches of the code (copy-on-write), untimed
            start = time.perf_counter()
            for pair in range(repeats):
                if pair and time.perf_counter() - start > budget:
                    return
                order = ("ours", "peer") if pair % 2 == 0 else ("peer", "ours")
                est = clone(case.estimator)
                for phase, value in zip(("first", "refit"), values, strict=True):
                    for side in order:
                        step = {"pair": pair, "phase": phase, "side": side}
                        if side == "ours":
                            est.set_params(**{case.param: value})
                            step["seconds"], _ = timed(lambda est=est: est.fit(X, t))
                            w = np.ravel(est.coef_).astype(float)  # classifiers: (1, d)
                            b = float(np.ravel(est.intercept_)[0])
                            step.update(gap=float(est.dual_gap_), backend=est.backend_)
                        else:
                            with warnings.catch_warnings(record=True) as caught:
                                warnings.simplefilter("always", ConvergenceWarning)
                                step["seconds"], (w, b) = timed(
                                    lambda v=value: case.peer(X, t, v)
                                )
                            step["peer_warned"] = any(
                                issubclass(caught_warning.category, ConvergenceWarning)
                                for caught_warning in caught
                            )
                        step["objective"] = float(case.objective(X, t, w, b, value))
                        yield step

    return steps


def _step(index):
    """(phase, side) of the step of this index in the sequence of :func:`_pair_steps`."""
    pair, within = divmod(index, 4)
    order = ("ours", "peer") if pair % 2 == 0 else ("peer", "ours")
    return ("first", "refit")[within // 2], order[within % 2]


def measure(case, X, y, repeats, budget, threads):
    """Time ``case`` on (X, y): interleaved pairs of ours and the peer, in a forked child.

    Parameters
    ----------
    case : Case
    X : ndarray or sparse matrix
    y : ndarray
        -1/+1 labels; the regression cases use :func:`regression_target` of X.
    repeats : int
        Pairs at most (fewer once the cell has used ``budget`` seconds).
    budget : float
        Seconds a fit may take: a fit of ours above it, or any fit still running at
        it (then killed), ends the cell with status "over budget".
    threads : int or None
        BLAS threads in the child.

    Returns
    -------
    dict
        ``status`` ("ok", "over budget", "peer over budget" or "error: ..."),
        ``pairs`` (complete pairs), the medians ``ours_first``, ``peer_first``,
        ``ours_refit``, ``peer_refit`` (seconds), ``first_ratio`` and ``refit_ratio``
        (medians of the per-pair ratios), ``gap`` (the largest of ours),
        ``objective_diff`` (the smallest ``(peer - ours) / |ours|``) and ``backend``
        (ours, every one seen).
    """
    t = regression_target(X) if case.regression else y
    first = case.first_value(X, t)
    values = (first, REFIT_FACTOR * first)
    steps = []
    status = "ok"
    try:
        for step in forked_steps(_pair_steps(case, X, t, values, repeats, budget, threads), budget):
            steps.append(step)
            if step["side"] == "ours" and step["seconds"] > budget:
                status = f"over budget ({step['phase']} fit {step['seconds']:.0f} s)"
                break
    except StepTimeout:
        phase, side = _step(len(steps))
        who = "over budget" if side == "ours" else "peer over budget"
        status = f"{who} ({phase} fit killed at {budget:g} s)"
    except ChildError as exc:
        status = f"error: {exc}"
    return {"status": status, **_summarise(steps)}


def _summarise(steps):
    """Medians over the complete pairs of a cell's steps (see :func:`measure`)."""
    by_pair = {}
    for step in steps:
        by_pair.setdefault(step["pair"], {})[step["phase"], step["side"]] = step
    pairs = [p for p in by_pair.values() if len(p) == 4]
    summary = {"pairs": len(pairs)}
    ours = [s for s in steps if s["side"] == "ours"]
    summary["gap"] = max((s["gap"] for s in ours), default=np.nan)
    summary["backend"] = "/".join(sorted({s["backend"] for s in ours})) or "-"
    summary["peer_converged"] = not any(s.get("peer_warned") for s in steps)
    diffs = [
        (p[phase, "peer"]["objective"] - p[phase, "ours"]["objective"])
        / max(abs(p[phase, "ours"]["objective"]), np.finfo(float).tiny)
        for p in pairs
        for phase in ("first", "refit")
    ]
    summary["objective_diff"] = min(diffs, default=np.nan)
    for phase in ("first", "refit"):
        ours_s = [p[phase, "ours"]["seconds"] for p in pairs]
        peer_s = [p[phase, "peer"]["seconds"] for p in pairs]
        summary[f"ours_{phase}"] = _median(ours_s)
        summary[f"peer_{phase}"] = _median(peer_s)
        summary[f"{phase}_ratio"] = _median([a / b for a, b in zip(ours_s, peer_s, strict=True)])
    if not pairs and ours:  # an over-budget first fit: its time is still worth printing
        summary["ours_first"] = ours[0]["seconds"]
    return summary


def _median(values):
    return float(np.median(values)) if len(values) else np.nan


# The sweeps.


def sweep_data(axis, size, quick=False):
    """The data at one size of a sweep: (X, y) with y in {-1, +1}.

    ``axis`` "n": dense, d fixed; "d": n fixed, dense below ``SPARSE_FROM`` and
    :func:`techtc_like` (CSR, 1% dense; 5% in quick mode) from it on.
    """
    sizes, other = (QUICK_SWEEPS if quick else SWEEPS)[axis]
    if axis == "n":
        return classification_data(size, other)
    if size >= SPARSE_FROM["quick" if quick else "full"]:
        return techtc_like(n=other, d=size, density=0.05 if quick else 0.01)
    return classification_data(other, size)


def run_sweep(axis, cases, repeats, budget, threads, quick=False):
    """Measure every case at every size of one sweep; print its markdown tables.

    Returns
    -------
    dict
        Case name -> list of (size, result of :func:`measure`).
    """
    sizes, other = (QUICK_SWEEPS if quick else SWEEPS)[axis]
    fixed = "d" if axis == "n" else "n"
    print(f"\n### Sweep in {axis} ({fixed} = {other})\n", flush=True)
    results = {case.name: [] for case in cases}
    stopped = set()
    for size in sizes:
        X, y = sweep_data(axis, size, quick)
        for case in cases:
            if case.name in stopped:
                continue
            result = measure(case, X, y, repeats, budget, threads)
            result["sparse"] = sp.issparse(X)
            results[case.name].append((size, result))
            print(f"  {case.name} {axis}={size}: {_progress(result)}", flush=True)
            if result["status"] != "ok":
                stopped.add(case.name)
    print()
    print_sweep_table(axis, cases, results)
    print()
    print_slope_table(axis, cases, results, sizes[-1])
    return results


def _progress(result):
    return (
        f"{result['status']}, first {result['ours_first']:.3g} s / {result['peer_first']:.3g} s, "
        f"re-fit {result['ours_refit']:.3g} s / {result['peer_refit']:.3g} s, "
        f"gap {result['gap']:.1e}, {result['pairs']} pairs"
    )


def _cell(value, fmt):
    return "-" if value is None or not np.isfinite(value) else format(value, fmt)


def _table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def print_sweep_table(axis, cases, results):
    """One markdown row per estimator and size: times, ratios, gap, objectives."""
    header = [
        "estimator", "peer", axis, "pairs", "ours first s", "peer first s", "first ratio",
        "ours re-fit s", "peer re-fit s", "re-fit ratio", "gap", "Δobj peer-ours",
        "peer converged", "backend", "status",
    ]  # fmt: skip
    rows = []
    for case in cases:
        for size, r in results[case.name]:
            rows.append([
                case.name, case.peer_name, f"{size}{' (CSR)' if r['sparse'] else ''}",
                str(r["pairs"]), _cell(r["ours_first"], ".3g"), _cell(r["peer_first"], ".3g"),
                _cell(r["first_ratio"], ".2f"), _cell(r["ours_refit"], ".3g"),
                _cell(r["peer_refit"], ".3g"), _cell(r["refit_ratio"], ".2f"),
                _cell(r["gap"], ".1e"), _cell(r["objective_diff"], ".1e"),
                "yes" if r["peer_converged"] else "no", r["backend"], r["status"],
            ])  # fmt: skip
    _table(header, rows)


def slope(sizes, seconds):
    """The log-log slope of time against size (``np.polyfit`` of degree 1); nan below 2 sizes."""
    sizes, seconds = np.asarray(sizes, dtype=float), np.asarray(seconds, dtype=float)
    keep = np.isfinite(seconds) & (seconds > 0)
    if keep.sum() < 2:
        return np.nan
    return float(np.polyfit(np.log(sizes[keep]), np.log(seconds[keep]), 1)[0])


def verdict(results, largest):
    """Slopes and the target of one estimator's sweep.

    Parameters
    ----------
    results : list of (size, dict)
        What :func:`measure` returned at each size.
    largest : int
        The largest size of the sweep.

    Returns
    -------
    dict
        ``slope_ours``, ``slope_peer`` (first fits), ``first_ratio`` and
        ``refit_ratio`` at the largest size (nan when not reached), ``answers_ok``
        (every gap within ``GAP_TOLERANCE`` and every objective within
        ``OBJECTIVE_TOLERANCE`` of the peer's), and ``holds`` (all of the target).
    """
    ok = [(size, r) for size, r in results if r["status"] == "ok" and r["pairs"]]
    sizes = [size for size, _ in ok]
    out = {
        "slope_ours": slope(sizes, [r["ours_first"] for _, r in ok]),
        "slope_peer": slope(sizes, [r["peer_first"] for _, r in ok]),
        "first_ratio": np.nan,
        "refit_ratio": np.nan,
    }
    if ok and ok[-1][0] == largest:
        out["first_ratio"], out["refit_ratio"] = ok[-1][1]["first_ratio"], ok[-1][1]["refit_ratio"]
    out["answers_ok"] = bool(ok) and all(
        r["gap"] <= GAP_TOLERANCE and r["objective_diff"] >= -OBJECTIVE_TOLERANCE for _, r in ok
    )
    out["holds"] = bool(
        out["answers_ok"]
        and out["first_ratio"] <= TARGET_RATIO
        and out["refit_ratio"] <= TARGET_RATIO
        and out["slope_ours"] <= out["slope_peer"] + TARGET_SLOPE_EXCESS
    )
    return out


def print_slope_table(axis, cases, results, largest):
    """One markdown row per estimator: slopes, ratios at the largest size, the target."""
    header = [
        "estimator", f"slope ours (log t / log {axis})", "slope peer",
        f"first ratio at {axis}={largest}", "re-fit ratio", "answers ok", "target",
    ]  # fmt: skip
    rows = []
    for case in cases:
        v = verdict(results[case.name], largest)
        reached = results[case.name][-1][1]["status"] if results[case.name] else "not run"
        target = "holds" if v["holds"] else "fails"
        if reached != "ok":
            target += f" ({reached})"
        rows.append([
            case.name, _cell(v["slope_ours"], ".2f"), _cell(v["slope_peer"], ".2f"),
            _cell(v["first_ratio"], ".2f"), _cell(v["refit_ratio"], ".2f"),
            "yes" if v["answers_ok"] else "no", target,
        ])  # fmt: skip
    _table(header, rows)


# Compilation at Ionosphere size.


def compile_share(cases, repeats, threads):
    """Print how much of a first fit and of a re-fit is CVXPY's compilation, on Ionosphere.

    Medians over ``repeats`` fits. The compile and backend times are summed over the
    CVXPY attempts of the chain (``solve_attempts_``); a fit answered without CVXPY
    (the closed form, the exact path) has none.
    """
    X, y = load_ionosphere()
    print(f"\n### CVXPY compilation at Ionosphere size ({X.shape[0]} x {X.shape[1]})\n")
    header = [
        "estimator", "backend", "first fit s", "compile s", "compile %", "backend solve s",
        "re-fit s", "re-fit compile s", "re-fit compile %",
    ]  # fmt: skip
    rows = []
    with threadpool_limits(threads):
        for case in cases:
            t = regression_target(X) if case.regression else y
            first = case.first_value(X, t)
            records = {"first": [], "refit": []}
            backends = set()
            for _ in range(repeats):
                est = clone(case.estimator)
                for phase, value in (("first", first), ("refit", REFIT_FACTOR * first)):
                    est.set_params(**{case.param: value})
                    seconds, _ = timed(lambda est=est, t=t: est.fit(X, t))
                    attempts = est.solve_attempts_
                    compile_s = sum(a.get("compile_time") or 0.0 for a in attempts)
                    solve_s = sum(a.get("solve_time") or 0.0 for a in attempts)
                    records[phase].append((seconds, compile_s, solve_s))
                    backends.add(est.backend_)
            fw, fc, fs = np.median(records["first"], axis=0)
            rw, rc, _ = np.median(records["refit"], axis=0)
            rows.append([
                case.name, "/".join(sorted(backends)), f"{fw:.3g}", f"{fc:.3g}",
                f"{100 * fc / fw:.0f}%", f"{fs:.3g}", f"{rw:.3g}", f"{rc:.3g}",
                f"{100 * rc / rw:.0f}%",
            ])  # fmt: skip
    _table(header, rows)


def warm_up(cases):
    """Fit every estimator and peer once on tiny data, so that lazy imports and
    first-call costs are paid in the parent, before the forked children are timed."""
    X, y = classification_data(40, 8, seed=1)
    for case in cases:
        t = regression_target(X) if case.regression else y
        value = case.first_value(X, t)
        clone(case.estimator).set_params(**{case.param: value}).fit(X, t)
        case.peer(X, t, value)


def main(argv=None):
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the test suite")
    parser.add_argument("--repeats", type=int, default=3, help="pairs ours/peer per cell")
    parser.add_argument(
        "--threads", type=int, default=1, help="BLAS threads, both sides (default 1)"
    )
    parser.add_argument(
        "--sweep",
        choices=("n", "d", "both", "text"),
        default="both",
        help="text: the papers' scale (benchmarks/text_sweep.py)",
    )
    parser.add_argument("--estimators", default=None, help="comma-separated names (default all)")
    parser.add_argument(
        "--budget", type=float, default=120.0, help="seconds a fit may take (default 120)"
    )
    parser.add_argument(
        "--no-compile", action="store_true", help="leave out the Ionosphere compile table"
    )
    args = parser.parse_args(argv)
    if args.sweep == "text":
        options = ["--repeats", str(args.repeats), "--budget", str(args.budget)]
        options += ["--quick"] if args.quick else []
        options += ["--estimators", args.estimators] if args.estimators else []
        return text_sweep.main(options)
    cases = select_cases(args.estimators)
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", message=".*converge")
    with threadpool_limits(args.threads):
        warm_up(cases)
    print(
        f"repeats {args.repeats}, BLAS threads {args.threads}, budget {args.budget:g} s"
        f"{', quick sizes' if args.quick else ''}"
    )
    results = {}
    for axis in ("n", "d") if args.sweep == "both" else (args.sweep,):
        results[axis] = run_sweep(
            axis, cases, args.repeats, args.budget, args.threads, quick=args.quick
        )
    if not args.no_compile:
        compile_share(cases, args.repeats, args.threads)
    return results


if __name__ == "__main__":
    main()
