"""The planner: its cost models calibrated on a grid of problems, and its choices checked there.

``python -m benchmarks.planner [--quick] [--budget 30]`` fits, on every case of the
grid (:func:`grid`: the six models, dense and CSR data with n from 100 to 20000 and d
from 20 to 200000, three levels of regularisation, with and without sample weights;
and :data:`SEPARABLE`, the SVM on separable data as drawn and times 1000),
the estimator with its default chain (``solver=None``) and with each backend the
planner may choose for it, one at a time, and prints one row per case: each
backend's time (or why it has none), the default's backend and time, and the ratio
of the default to the fastest backend. **Target (issue 19):** that ratio is at most
1.5 on every case. ``--corpora grid,real,small`` runs the grid on real corpora too
(issue 32: :data:`REAL_KINDS`, the Debian descriptions' hard and easy splits at
``--real-size`` documents; the 200-document tasks of :mod:`benchmarks.small_corpora`,
other pairs of sections with ``--pairs``), each model at its three levels;
``--estimates`` prints the planner's estimates over the measured times per corpora and
backend (:func:`print_estimates`), the fits' overheads outside their chains, and the
ratio the current plan has from the measured times (:func:`print_planned`).

``python -m benchmarks.planner --calibrate`` measures the same grid and fits the cost
models (:mod:`solvers._planner`: a fit's seconds are its model's fixed cost
``a + b (nnz + n + d)`` plus its backend's solve ``exp(theta . (1, log n, log d, log
nnz, hardness, weighted, sparse, warm, log min(n, d), hardness^2 if dense with d >
n))``) per model by nonlinear least squares on the logs of the times
(:func:`calibrate`: each case's ratios of its fastest backend to the others weighted in,
shrunk towards the current coefficients where the grid says little, so that a backend
measured on few cases keeps a sensible model), and rewrites :mod:`solvers._costs`
with the result (``--fixed-only``: the models' fixed costs alone, every backend's
``theta`` kept, so that the plans stay as they are). ``--load FILE[,FILE...]`` prints
(and with ``--calibrate`` calibrates from) the results earlier runs saved with
``--save FILE`` instead of measuring again, a later file's measurements replacing an
earlier one's; ``--own-only`` measures the library's own backends only (after a change
to them, saved and loaded over a full run), ``--models svm2,lasso`` the cases of some
models only (measured, or of the loaded ones: printed and calibrated), and ``--recheck``
measures again the cases whose default is above the target (after a run, or on loaded
results), keeping each backend's faster time. A backend that ran past its budget on a
case counts there with the budget as its time (an underestimate).

Each fit runs in a forked child with one BLAS thread; a case's times are the best of
``--repeats`` fits (as many as fit in half a second, at least two: a child's first fit
also pays its page faults), in processor seconds of the child (``time.process_time``:
every fit runs in one thread, and on a shared machine the wall clock of a fit of a few
ms is mostly the scheduler's time slices: the same DUAL_CD fit of a 200-document corpus
took 3 and 11 ms of wall clock in two children at load 5 on 2 cores); the budget is of
the wall clock (a child's fits and its start), so that on a loaded machine a fit of
less processor time may count as past it. Only certified answers count; a fit that
fails counts, for the calibration, as one that ran out of its budget.
"""

import argparse
import functools
import itertools
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import least_squares
from sklearn.base import clone
from threadpoolctl import threadpool_limits

from benchmarks import real_text, small_corpora
from benchmarks._text import text_like, text_regression_target
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from benchmarks.separable_svm import separable_data
from benchmarks.solvers import classification_data, regression_target
from benchmarks.table2_protocol import PAIRS
from solvers import L1SVM, L2SVM, SVM2, RidgeRegression, SVMDual, WeightedLasso, _base
from solvers._planner import ProblemStats, estimate
from solvers._registry import DEFAULT_BACKENDS, PROBLEM_CLASS, backend, backends_for
from sparsify.datasets import make_text_tasks

COSTS_FILE = Path(__file__).parents[1] / "solvers" / "_costs.py"
#: The positions of the hardness and of the dense data's hardness among the cost
#: models' features (their coefficients are kept >= 0: harder is never cheaper).
HARDNESS = 4
DENSE_HARDNESS = 9
TARGET_RATIO = 1.5
#: How strongly a fit is pulled towards the current coefficients (per case, in the
#: units of squared log seconds).
SHRINKAGE = 0.3

#: The estimator of each model, its hyperparameter, and its three levels: fractions of
#: lam_max for the L1 models, C for the 2-norm SVMs, lam for ridge regression.
MODELS = {
    "svm": (SVMDual(), "C", (0.1, 1.0, 100.0), False),
    "svm_squared_hinge": (L2SVM(loss="squared_hinge"), "C", (0.1, 1.0, 100.0), False),
    "l1_svm": (L1SVM(), "lam", (0.3, 0.1, 0.01), False),
    "svm2": (SVM2(), "lam", (0.3, 0.1, 0.01), False),
    "lasso": (WeightedLasso(), "lam", (0.3, 0.1, 0.01), True),
    "ridge": (RidgeRegression(), "lam", (10.0, 1.0, 0.01), True),
}

#: (n, d, kind): dense ``make_classification`` data or a CSR ``text_like`` corpus.
SHAPES = (
    (100, 20, "dense"),
    (1000, 50, "dense"),
    (5000, 20, "dense"),
    (20000, 50, "dense"),
    (200, 2000, "dense"),
    (2000, 20000, "text"),
    (2000, 200000, "text"),
    (20000, 200000, "text"),
)
QUICK_SHAPES = ((100, 20, "dense"), (200, 2000, "dense"), (300, 3000, "text"))


@dataclass(frozen=True)
class Case:
    """One problem of the grid; ``scale`` multiplies X (the separable data only)."""

    model: str
    n: int
    d: int
    kind: str
    level: float
    weighted: bool
    scale: float = 1.0


#: The certificates issue's case (:mod:`benchmarks.separable_svm`): SVMDual on separable
#: Gaussian 200 x 1000 data, as drawn and times 1000 (where C = 1 is C = 1e6 on the data
#: as drawn: the hard margin, which no C beyond it changes), C = 1 and 100.
SEPARABLE = tuple(
    Case("svm", 200, 1000, "separable", level, False, scale)
    for scale in (1.0, 1000.0)
    for level in (1.0, 100.0)
)


#: The real corpora of the grid (issue 32), as ``Case.kind``: the Debian descriptions'
#: hard and easy splits (:func:`benchmarks.real_text.corpora`) at :data:`REAL_SIZE`
#: documents, and the three 200-document tasks of :mod:`benchmarks.small_corpora`
#: (word counts, ``"small:<section>/<section>"``).
REAL_KINDS = ("debian-hard", "debian-easy")
REAL_SIZE = 2000
SMALL_KINDS = tuple(f"small:{a}/{b}" for a, b in PAIRS)
#: What ``--corpora`` names: the synthetic grid, the real corpora, the small ones.
CORPORA = ("grid", "real", "small")


def corpus_kind(kind):
    """Which of :data:`CORPORA` a case's ``kind`` belongs to."""
    if kind in REAL_KINDS:
        return "real"
    return "small" if kind.startswith("small:") else "grid"


@functools.cache
def _corpus(kind, size=REAL_SIZE):
    """``(X, labels)`` of a real corpus (loaded once per process): a split of
    :data:`REAL_KINDS` at ``size`` documents, or the task of two sections
    ``"small:<section>/<section>"`` (:func:`sparsify.datasets.make_text_tasks`)."""
    if kind in REAL_KINDS:
        ((_, X, y),) = real_text.corpora((kind.removeprefix("debian-"),), (size,))
        return X, y
    # The tasks of benchmarks.small_corpora as it draws them (one generator for the three).
    tasks = small_corpora.corpora() if kind in SMALL_KINDS else make_text_tasks(
        pairs=(tuple(kind.removeprefix("small:").split("/")),),
        n_per_class=small_corpora.N_PER_CLASS,
    )  # fmt: skip
    (task,) = [t for t in tasks if f"small:{t.name}" == kind]
    return task.X, task.y


def corpus_grid(kinds, size=REAL_SIZE):
    """Every model at each of its three levels on each real corpus of ``kinds``
    (:data:`REAL_KINDS` at ``size`` documents, ``"small:<section>/<section>"``),
    without sample weights."""
    cases = []
    for kind in kinds:
        n, d = _corpus(kind, size)[0].shape
        cases += [Case(model, n, d, kind, level, weighted=False)
                  for model, (_, _, levels, _) in MODELS.items() for level in levels]  # fmt: skip
    return cases


def grid(shapes):
    """Every model on every shape, the levels and the sample weights in turn; and the
    L1 models unweighted at every level on the shapes with more features than samples,
    where the exact path (unweighted only) competes and its cost grows with the level."""
    cases = []
    for model, (_, _, levels, _) in MODELS.items():
        for k, (n, d, kind) in enumerate(shapes):
            cases.append(Case(model, n, d, kind, levels[k % 3], weighted=k % 2 == 1))
            if model in ("l1_svm", "svm2", "lasso") and d > n:
                cases += [
                    Case(model, n, d, kind, level, weighted=False)
                    for level in levels
                    if level != levels[k % 3] or k % 2 == 1
                ]
    return cases


def data(case):
    """(X, target, sample weights or None) of a case."""
    if case.kind == "text" or corpus_kind(case.kind) != "grid":
        X, y = text_like(case.n, case.d) if case.kind == "text" else _corpus(case.kind, case.n)
        target = text_regression_target(X) if MODELS[case.model][3] else y
    elif case.kind == "separable":
        X, target = separable_data(case.n, case.d, case.scale)
    else:
        X, y = classification_data(case.n, case.d)
        target = regression_target(X) if MODELS[case.model][3] else y
    weights = None
    if case.weighted:
        weights = np.random.default_rng(1).uniform(0.5, 2.0, case.n)
    return X, target, weights


def estimator(case, X, target):
    """The case's estimator at its level (lam from lam_max for the L1 models)."""
    est, param, _, _ = MODELS[case.model]
    value = case.level
    if case.model in ("l1_svm", "svm2", "lasso"):
        if case.model == "l1_svm":
            lam_max = L1SVM.lam_max(X, target)
        else:
            lam_max = 2.0 * float(np.abs(np.asarray(X.T @ (target - target.mean()))).max())
        value = case.level * lam_max
    return clone(est).set_params(**{param: value})


def candidates(case, *, own_only=False):
    """The backends the planner may choose for the case: the model's own and its
    default CVXPY ones; ``own_only``: the library's own backends only."""
    fallbacks = () if own_only else DEFAULT_BACKENDS[PROBLEM_CLASS[case.model]]
    return [
        name for name in backends_for(case.model) if not backend(name).cvxpy or name in fallbacks
    ]


def _fit(case, X, target, weights, name, repeats, budget):
    """The steps of one fit in a child: its best time, its answer, the planner's view,
    and its overhead (its processor seconds outside the chain: validation, statistics,
    centring, bookkeeping; the chain runs the backends and their certificates)."""

    def steps():
        chain = _ChainClock()
        with threadpool_limits(1), warnings.catch_warnings(), chain:
            warnings.simplefilter("ignore")
            base = estimator(case, X, target)
            best, answer, stats, spent, overhead = np.inf, None, None, 0.0, np.nan
            for repeat in range(repeats):
                est = clone(base).set_params(solver=name)
                start, chain.seconds = time.process_time(), 0.0
                try:
                    est.fit(X, target, sample_weight=weights)
                except Exception as exc:  # noqa: BLE001 - reported in the table
                    answer = f"failed: {type(exc).__name__}"
                    break
                seconds = time.process_time() - start
                if seconds < best:
                    best, overhead = seconds, seconds - chain.seconds
                answer = est.backend_ if est.certificate_.holds else "uncertified"
                stats = est.__dict__.get("_plan_stats")
                spent += seconds
                # At least two fits: a child's first fit also pays its page faults.
                if (spent > 0.5 and repeat >= 1) or seconds > budget / 4:
                    break
            yield {"seconds": best, "answer": answer, "stats": stats, "overhead": overhead}

    return steps


class _ChainClock:
    """While entered, counts the processor seconds the estimators spend in their chains
    (:func:`solvers._chain.run_chain`, as :mod:`solvers._base` calls it) in ``seconds``."""

    def __init__(self):
        self.seconds = 0.0

    def __enter__(self):
        self._run_chain = run_chain = _base.run_chain

        def timed(*args, **kwargs):
            start = time.process_time()
            try:
                return run_chain(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - start

        _base.run_chain = timed
        return self

    def __exit__(self, *exc):
        _base.run_chain = self._run_chain


def warm_up():
    """Fit every model with every candidate backend on tiny dense and CSR data, with and
    without weights, so that imports and compiled kernels are loaded before the
    children fork."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for model, kind, weighted in itertools.product(MODELS, ("dense", "text"), (False, True)):
            d = 8 if kind == "dense" else 300
            case = Case(model, 60, d, kind, MODELS[model][2][0], weighted)
            X, target, weights = data(case)
            base = estimator(case, X, target)
            for name in [None, *candidates(case)]:
                try:
                    clone(base).set_params(solver=name).fit(X, target, sample_weight=weights)
                except Exception:  # noqa: BLE001, S112 - a failure here is measured later
                    continue


#: A backend whose current estimate is this many budgets is not run: it counts as past
#: the budget (the calibration counts it as its estimate, as it would after running it).
SKIP_FACTOR = 3.0


def measure(case, repeats, budget, *, own_only=False):
    """Times of the default and of every candidate backend on one case, each in a child."""
    X, target, weights = data(case)
    results = {"case": case, "times": {}, "answers": {}, "overhead": {}, "budget": budget}
    for name in [None, *candidates(case, own_only=own_only)]:
        key = name or "default"
        expected = estimate(name, results["stats"]) if name and "stats" in results else 0.0
        if expected > SKIP_FACTOR * budget:  # counts as past the budget, as if run
            results["times"][key] = np.inf
            results["answers"][key] = f"over {budget:g} s (estimated {expected:.2g} s, not run)"
            continue
        try:
            (step,) = forked_steps(_fit(case, X, target, weights, name, repeats, budget), budget)
        except StepTimeout:
            results["times"][key], results["answers"][key] = np.inf, f"over {budget:g} s"
            continue
        except ChildError as exc:
            results["times"][key], results["answers"][key] = np.nan, f"error: {exc}"
            continue
        results["times"][key], results["answers"][key] = step["seconds"], step["answer"]
        results["overhead"][key] = step["overhead"]
        if name is None and step["stats"] is not None:
            results["stats"] = step["stats"]
    return results


#: Measurements of a case that ``--recheck`` takes (each backend's fastest counts).
RECHECK_RUNS = 2


def recheck(results, repeats, budget, *, own_only=False):
    """Measure again every case whose default is above the target ratio, ``RECHECK_RUNS``
    times, and keep each backend's fastest time over those runs only: a machine's load
    only slows a fit, so the smaller measurement is the better estimate, and the default
    and the backends then had the same runs (a minimum kept from an earlier, quieter
    run would favour whichever was measured in it: on a 0.5 ms ridge fit the same
    backend took 0.47 ms in one run and 0.85-0.98 ms in later ones)."""
    for result in results:
        if not _ratio(result) > TARGET_RATIO:
            continue
        runs = [measure(result["case"], repeats, budget, own_only=own_only)
                for _ in range(RECHECK_RUNS)]  # fmt: skip
        for name in runs[0]["times"]:
            measured = [(run["times"][name], run["answers"][name]) for run in runs]
            certified = [m for m in measured if m[1] == name or (name == "default" and m[1] in
                                                                 runs[0]["times"])]  # fmt: skip
            result["times"][name], result["answers"][name] = min(certified or measured)
        print(f"  rechecked {result['case']}: ratio {_ratio(result):.2f}", flush=True)
    return results


def _ratio(result):
    """The default's time over the fastest backend's (nan when either is missing)."""
    fastest = _fastest(result)[1]
    default = result["times"].get("default", np.nan)
    return default / fastest if np.isfinite(fastest) and fastest > 0 else np.nan


def _fastest(result):
    times = {
        name: t
        for name, t in result["times"].items()
        if name != "default" and result["answers"].get(name) == name and np.isfinite(t)
    }
    return min(times.items(), key=lambda item: item[1]) if times else (None, np.nan)


def print_table(results):
    header = ["model", "n x d", "data", "level", "weights", "default (backend)", "fastest",
              "ratio", "every backend (s)"]  # fmt: skip
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    worst = 0.0
    for r in results:
        case = r["case"]
        name, fastest = _fastest(r)
        default = r["times"].get("default", np.nan)
        ratio = _ratio(r)
        if np.isfinite(ratio):
            worst = max(worst, ratio)
        others = ", ".join(
            f"{b} {t:.3g}" if r["answers"].get(b) == b else f"{b} {r['answers'].get(b)}"
            for b, t in r["times"].items()
            if b != "default"
        )
        print("| " + " | ".join([
            case.model, f"{case.n} x {case.d}",
            case.kind + (f" x {case.scale:g}" if case.scale != 1.0 else ""), f"{case.level:g}",
            "yes" if case.weighted else "no",
            f"{default:.3g} s ({r['answers'].get('default', '-')})",
            f"{name} {fastest:.3g} s" if name else "-",
            f"{ratio:.2f}" if np.isfinite(ratio) else "-", others,
        ]) + " |")  # fmt: skip
    print(f"\nworst ratio of the default to the fastest backend: {worst:.2f} "
          f"(target {TARGET_RATIO})")  # fmt: skip
    return worst


def estimate_ratios(results):
    """The planner's estimates over the measured times: ``{(corpora, backend): [ratio]}``.

    ``corpora`` is one of :data:`CORPORA`; ``backend`` ``"planned"`` is the estimate of
    the backend planned first over the default fit's time (the planner's estimate of
    what it plans), a backend's name its estimate over its own certified fit's time.
    """
    from solvers._planner import plan

    ratios = {}
    for r in results:
        stats = r.get("stats")
        if stats is None:
            continue
        corpora = corpus_kind(r["case"].kind)
        planned = plan(stats, estimator="the planner grid")[0].backend
        for name, seconds in r["times"].items():
            answered = r["answers"].get(name)
            if not (np.isfinite(seconds) and answered in (name, planned)):
                continue  # the default counts where the backend planned first answered
            key = "planned" if name == "default" else name
            ratios.setdefault((corpora, key), []).append(
                estimate(planned if name == "default" else name, stats) / seconds
            )
    return ratios


def print_estimates(results):
    """A table of :func:`estimate_ratios`: median, lowest and highest ratio, and the
    share within 2x, per corpora and backend; and the fits' measured overheads (their
    time outside the chain's attempts)."""
    ratios = estimate_ratios(results)
    print("| corpora | backend | fits | median estimate / time | lowest | highest | "
          "within 2x |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    order = {name: k for k, name in enumerate(CORPORA)}
    for corpora, name in sorted(ratios, key=lambda k: (order[k[0]], k[1] != "planned", k[1])):
        values = np.array(ratios[corpora, name])
        within = np.mean((values <= 2.0) & (values >= 0.5))
        print(f"| {corpora} | {name} | {values.size} | {np.median(values):.2f} | "
              f"{values.min():.2g} | {values.max():.2g} | {within:.0%} |")  # fmt: skip
    overheads = {}
    for r in results:
        seconds, overhead = r["times"].get("default"), r.get("overhead", {}).get("default")
        if overhead is not None and np.isfinite(seconds):
            key = (corpus_kind(r["case"].kind), r["case"].model)
            overheads.setdefault(key, []).append((overhead, overhead / seconds))
    if overheads:
        print("\n| corpora | model | fits | median overhead ms | median share of the fit |")
        print("|---|---|---|---|---|")
        for (corpora, model), values in sorted(overheads.items()):
            values = np.array(values)
            print(f"| {corpora} | {model} | {len(values)} | {1e3 * np.median(values[:, 0]):.2f} "
                  f"| {np.median(values[:, 1]):.0%} |")  # fmt: skip
    return ratios


def planned_ratios(results):
    """``{case: ratio}``: the measured time of the backend the current cost models plan
    first over the fastest backend's, per case (the target's ratio as the plan would
    have it, from the times measured: after a calibration, before measuring again)."""
    from solvers._planner import plan

    ratios = {}
    for r in results:
        stats, (_, fastest) = r.get("stats"), _fastest(r)
        if stats is None or not np.isfinite(fastest):
            continue
        first = plan(stats, estimator="the planner grid")[0].backend
        measured = r["times"].get(first, np.inf) if r["answers"].get(first) == first else np.inf
        ratios[r["case"]] = measured / fastest
    return ratios


def print_planned(results):
    """Per corpora: the cases whose planned backend is above :data:`TARGET_RATIO`."""
    ratios = planned_ratios(results)
    for corpora in CORPORA:
        mine = {case: v for case, v in ratios.items() if corpus_kind(case.kind) == corpora}
        if not mine:
            continue
        above = {case: v for case, v in mine.items() if v > TARGET_RATIO}
        print(f"{corpora}: the planned backend within {TARGET_RATIO}x of the fastest on "
              f"{len(mine) - len(above)} of {len(mine)} cases")  # fmt: skip
        for case, v in above.items():
            print(f"  {case}: {v:.2f}")
    return ratios


def calibrate(results, *, fixed_only=False):
    """Fit the cost models of every (model, backend) to the measured fits; writes _costs.py.

    The time of a fit is its model's fixed cost plus its backend's solve,
    ``a + b (nnz + n + d) + exp(theta . features)`` (:func:`solvers._planner.estimate`),
    fitted per model by nonlinear least squares on the log of the times: one ``(a, b)``
    per model, one ``theta`` per backend, shrunk towards the current coefficients where
    the grid says little (:data:`SHRINKAGE`), with a harder problem never cheaper (the
    hardness coefficients >= 0).

    A fit that ran out of its budget (or failed) is censored: it took at least the
    budget, and counts with the larger of the budget and the current cost model's
    estimate (a short budget must not teach the model that a backend which ran past it
    on a large problem takes just the budget there: ECOS, past 10 s on every text case
    of a 10-s run, came out first on 20000 x 20000 text, where it takes minutes).

    With ``fixed_only`` only each model's ``(a, b)`` is fitted, every ``theta`` kept: the
    fixed cost is the same for every backend of a model, so the plans stay as they are
    and only the estimates move (after the fixed costs themselves changed).
    """
    from solvers import _costs

    rows = {}
    for r in results:
        stats = r.get("stats")
        if stats is None:
            continue
        for name, seconds in r["times"].items():
            if name == "default" or not (r["answers"].get(name) == name or np.isinf(seconds)):
                continue
            if np.isfinite(seconds):
                value = seconds
            else:  # censored: at least the budget, and as long as the current model says
                value = max(r["budget"], estimate(name, stats))
            rows.setdefault(stats.model, []).append((name, stats, np.log(value)))
    costs, fixed = dict(_costs.COSTS), dict(_costs.FIXED)
    for model, points in rows.items():
        thetas, fixed[model] = _fit_model(
            points, {name: costs.get((model, name), ()) for name, _, _ in points},
            fixed.get(model, FIXED_PRIOR), fixed_only=fixed_only,
        )  # fmt: skip
        costs.update({(model, name): theta for name, theta in thetas.items()})
    write_costs(costs, fixed)
    return costs, fixed


#: The fixed cost ``(a, b)`` a model without one starts from: 1 ms and 10 ns an entry.
FIXED_PRIOR = (1e-3, 1e-8)
#: How strongly the fixed cost's logs are pulled towards the current ones (in all).
FIXED_SHRINKAGE = 1.0
#: The weight of the errors in each case's ratios of its fastest backend to the others
#: (the planner ranks them; an error common to a case's backends does not matter there).
ORDER_WEIGHT = 0.3


def _fit_model(points, priors, fixed_prior, *, fixed_only=False):
    """``({backend: theta}, (a, b))`` of one model, from ``(backend, stats, log seconds)``.

    Parameters: ``log a``, ``log b`` and each backend's ``theta`` (only the first two
    with ``fixed_only``: the thetas stay their priors); residuals: the log of the
    modelled time minus the measured one, and the pulls towards the priors.
    """
    names = sorted(priors)
    features = np.array([stats.features() for _, stats, _ in points])
    size = features.shape[1]
    log_entries = np.log([stats.nnz + stats.n + stats.d for _, stats, _ in points])
    logs = np.array([value for _, _, value in points])
    which = np.array([names.index(name) for name, _, _ in points])
    prior = np.zeros((len(names), size))
    for k, name in enumerate(names):
        prior[k, : len(priors[name])] = priors[name]
    fixed0 = np.log(np.maximum(fixed_prior, 1e-12))  # a model with none starts near 0
    pull = np.sqrt(SHRINKAGE * np.bincount(which, minlength=len(names)))
    # Each case's fastest backend against each of its others: the planner orders them.
    cases = {}
    for k, (_, stats, value) in enumerate(points):
        cases.setdefault(stats, []).append((value, k))
    pairs = [(min(ks)[1], k) for ks in cases.values() for _, k in ks if k != min(ks)[1]]
    pairs = np.array(pairs, dtype=int).reshape(-1, 2)

    def thetas_of(params):
        return prior if fixed_only else params[2:].reshape(len(names), size)

    def residuals(params):
        theta = thetas_of(params)
        modelled = np.logaddexp(
            np.logaddexp(params[0], params[1] + log_entries),
            np.einsum("ij,ij->i", features, theta[which]),
        )
        error = modelled - logs
        return np.concatenate((
            error,
            np.sqrt(ORDER_WEIGHT) * (error[pairs[:, 0]] - error[pairs[:, 1]]),
            np.sqrt(FIXED_SHRINKAGE) * (params[:2] - fixed0),
            ((theta - prior) * pull[:, None]).ravel(),
        ))  # fmt: skip

    if fixed_only:
        start, bounds = fixed0, (-np.inf, np.inf)
    else:
        lower = np.full((len(names), size), -np.inf)
        lower[:, [HARDNESS, DENSE_HARDNESS]] = 0.0
        start = np.concatenate((fixed0, np.maximum(prior, lower).ravel()))
        bounds = (np.concatenate(([-np.inf, -np.inf], lower.ravel())), np.inf)
    params = least_squares(residuals, start, bounds=bounds).x
    theta = thetas_of(params)
    thetas = {name: tuple(round(float(v), 4) for v in theta[k]) for k, name in enumerate(names)}
    return thetas, tuple(float(f"{v:.4g}") for v in np.exp(params[:2]))


def save(results, path):
    """The raw results as JSON: each case, its times, answers and planner statistics."""
    import dataclasses
    import json

    rows = [
        {
            "case": dataclasses.asdict(r["case"]),
            "times": {k: (v if np.isfinite(v) else None) for k, v in r["times"].items()},
            "answers": r["answers"],
            "overhead": {k: v for k, v in r.get("overhead", {}).items() if np.isfinite(v)},
            "stats": dataclasses.asdict(r["stats"]) if r.get("stats") else None,
            "budget": r["budget"],
        }
        for r in results
    ]
    Path(path).write_text(json.dumps(rows, indent=1))


def load(paths):
    """The results :func:`save` wrote (the times back as floats, inf for none).

    ``paths``: one file or several, comma-separated; a later file's measurements of a
    case (its backends' times, the default's, the planner's statistics) replace an
    earlier one's, the others are kept (e.g. a run of the own backends only, after a
    change to them, over a full run).
    """
    import json

    merged = {}
    for path in paths.split(","):
        for row in json.loads(Path(path).read_text()):
            case = Case(**row["case"])
            result = merged.setdefault(
                case, {"case": case, "times": {}, "answers": {}, "stats": None, "budget": 30.0}
            )
            result["times"].update(
                {k: (np.inf if v is None else v) for k, v in row["times"].items()}
            )
            result["answers"].update(row["answers"])
            result.setdefault("overhead", {}).update(row.get("overhead", {}))
            if row["stats"]:
                result["stats"] = ProblemStats(**row["stats"])
            result["budget"] = row.get("budget", result["budget"])
    return list(merged.values())


def write_costs(costs, fixed):
    """Rewrite the COSTS and FIXED tables of :mod:`solvers._costs`, keeping its docstring."""
    text = COSTS_FILE.read_text()
    head = text[: text.index("COSTS = {")]
    lines = [
        f"    {key!r}: (\n        " + ", ".join(f"{v:.4f}" for v in value) + ",\n    ),"
        for key, value in sorted(costs.items())
    ]
    fixed_lines = [f"    {model!r}: ({a:.4g}, {b:.4g})," for model, (a, b) in sorted(fixed.items())]
    COSTS_FILE.write_text(
        head + "COSTS = {\n" + "\n".join(lines) + "\n}\n\nFIXED = {\n"
        + "\n".join(fixed_lines) + "\n}\n"
    )  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small shapes, for the tests")
    parser.add_argument("--calibrate", action="store_true", help="rewrite solvers/_costs.py")
    parser.add_argument(
        "--fixed-only",
        action="store_true",
        help="with --calibrate: fit the models' fixed costs only (the plans stay the same)",
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--save", default=None, help="write the raw results to this JSON file")
    parser.add_argument(
        "--load", default=None, help="print (and --calibrate from) files of --save, comma-separated"
    )
    parser.add_argument(
        "--own-only", action="store_true", help="measure the library's own backends only"
    )
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per fit")
    parser.add_argument(
        "--models", default=None, help=f"measure these models only, comma-separated: {list(MODELS)}"
    )
    parser.add_argument(
        "--estimates",
        action="store_true",
        help="print the planner's estimates over the measured times, per corpora and backend",
    )
    parser.add_argument(
        "--corpora",
        default="grid",
        help=f"comma-separated, of {list(CORPORA)}: the synthetic grid, the Debian "
        "descriptions' splits at 2000 documents, the three 200-document tasks",
    )
    parser.add_argument(
        "--real-size", type=int, default=REAL_SIZE, help="documents of the real corpora"
    )
    parser.add_argument(
        "--pairs",
        default=None,
        help="the small corpora's pairs of sections, e.g. games/math,sound/mail "
        "(default: those of benchmarks.small_corpora)",
    )
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="measure the cases above the target again, keeping each backend's faster time",
    )
    args = parser.parse_args(argv)
    if args.load:
        results = load(args.load)
        if args.models:  # the loaded cases of these models only (printed, calibrated)
            results = [r for r in results if r["case"].model in args.models.split(",")]
        if args.recheck:
            with threadpool_limits(1):
                warm_up()
            recheck(results, args.repeats, args.budget, own_only=args.own_only)
            if args.save:
                save(results, args.save)
        print_table(results)
        _estimates_and_calibration(results, args)
        return None
    kinds = args.corpora.split(",")
    if set(kinds) - set(CORPORA):
        parser.error(f"--corpora: unknown {sorted(set(kinds) - set(CORPORA))}; "
                     f"the corpora are {list(CORPORA)}")  # fmt: skip
    cases = []
    if "grid" in kinds:
        cases += grid(QUICK_SHAPES) if args.quick else grid(SHAPES) + list(SEPARABLE)
    if "real" in kinds:
        cases += corpus_grid(REAL_KINDS, args.real_size)
    if "small" in kinds:
        pairs = (
            args.pairs.split(",") if args.pairs else [k.removeprefix("small:") for k in SMALL_KINDS]
        )
        cases += corpus_grid([f"small:{pair}" for pair in pairs])
    if args.models:
        unknown = set(args.models.split(",")) - set(MODELS)
        if unknown:
            parser.error(f"--models: unknown {sorted(unknown)}; the models are {list(MODELS)}")
        cases = [case for case in cases if case.model in args.models.split(",")]
    with threadpool_limits(1):
        warm_up()
    print(f"planner grid: {len(cases)} cases, budget {args.budget:g} s per fit, 1 BLAS thread")
    results = []
    for case in cases:
        result = measure(case, args.repeats, args.budget, own_only=args.own_only)
        results.append(result)
        name, fastest = _fastest(result)
        print(f"  {case}: default {result['times'].get('default', np.nan):.3g} s "
              f"({result['answers'].get('default')}), fastest {name} {fastest:.3g} s",
              flush=True)  # fmt: skip
        if args.save:
            save(results, args.save)  # after every case: a long run killed keeps its part
    if args.recheck:
        recheck(results, args.repeats, args.budget, own_only=args.own_only)
        if args.save:
            save(results, args.save)
    print()
    worst = print_table(results)
    _estimates_and_calibration(results, args)
    return worst


def _estimates_and_calibration(results, args):
    """``--estimates``: the planner's estimates against the times; ``--calibrate``: the
    cost models fitted again (and, with ``--estimates``, their estimates after)."""
    if args.estimates:
        print("\nthe planner's estimates over the measured times:")
        print_estimates(results)
        print_planned(results)
    if args.calibrate:
        calibrate(results, fixed_only=args.fixed_only)
        print(f"\nrewrote {COSTS_FILE}")
        if args.estimates:
            import importlib

            from solvers import _costs

            importlib.reload(_costs)
            print("\nafter the calibration:")
            print_estimates(results)
            print_planned(results)


if __name__ == "__main__":
    main()
