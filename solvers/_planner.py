"""The planner: which backends a fit tries, in which order, and why.

``solver=None`` asks the planner for the chain of a fit. Each backend declared for
the estimator's model (:mod:`solvers._registry`) gets a cost estimate in seconds
from the size of the problem (:class:`ProblemStats`: n, d, the nonzeros, dense or
sparse, how hard the regularisation makes it, sample weights, a warm start), and the
chain is every eligible backend in increasing order of its estimate: the cheapest
first, the others as fallbacks should its answer fail the certificate. Only the CVXPY
backends of :data:`solvers._registry.DEFAULT_BACKENDS` enter it (the others stop short
of a certified answer on these models). ``solve_attempts_``
records each backend's estimate and rank.

When the exact path (``"HOMOTOPY"``) is planned ahead of a backend that takes a warm
start, it runs with a budget of breakpoints (:data:`PATH_BUDGET`, or ``2 (n + min(n,
d))``): its breakpoints are what its estimate knows least, and past the
budget it hands its last breakpoint to that backend (:mod:`solvers._chain`).

An estimate is the fit's fixed cost (:func:`fixed_cost`: validation, statistics,
centring, the certificate, bookkeeping; ``a + b (nnz + n + d)`` per model, the same for
every backend) plus its backend's solve, log-linear in the statistics,
``log t = theta . (1, log n, log d, log nnz, hardness, weighted, sparse, warm,
log min(n, d), hardness^2 if dense with d > n)`` (``log min(n, d)`` for the methods
whose cost is a Gram matrix's or a factorisation's; the squared hardness of dense data
with more features than samples apart, as coordinate descent's epochs grow faster than
any power of lam_max / lam there, with the conditioning of the active columns as the
active features approach n: SVM2 on dense 200 x 2000 takes 0.01, 0.024 and 0.4-1.1 s
at lam = 0.3, 0.1 and 0.01 lam_max (2600 epochs at the last, 180 active features and
183 samples inside the margin), where the exact path takes 0.02, 0.05 and 0.1-0.2 s,
while on a 2000 x 200000 text corpus coordinate descent is 10 times faster than the
path at 0.01 lam_max),
with one ``theta`` per (model, backend) and one ``(a, b)`` per model fitted by least
squares on the logs of measured fit times: ``python -m benchmarks.planner --calibrate``
measures every backend on a grid of problems (synthetic, and real corpora: ``--corpora
grid,real,small``) and rewrites :mod:`solvers._costs`, which this module reads.
"""

import functools
import math
import os
from dataclasses import dataclass

import numpy as np

from . import _costs
from ._registry import (
    DEFAULT_BACKENDS,
    PROBLEM_CLASS,
    backend,
    backends_for,
    check_chain,
    over_size,
    split_options,
)

__all__ = [
    "MEMORY_SHARE",
    "ProblemStats",
    "Step",
    "cvxpy_memory",
    "estimate",
    "fixed_cost",
    "machine_memory",
    "plan",
]

#: Hardness beyond this (lam = 0 for ridge, C times 1e12 for a column at 1e6) is
#: counted as this: the cost models are fitted well below it and must not extrapolate.
HARDNESS_CAP = 15.0
#: The share of the machine's memory a CVXPY backend of a planned chain may need
#: (:func:`cvxpy_memory`); one that would need more is listed, not run.
MEMORY_SHARE = 0.5
#: The least budget of breakpoints the exact path gets in a planned chain: twice the
#: samples (which cross the margin, for the SVMs) and the features that can be active
#: (the smaller dimension of X) when that is more.
PATH_BUDGET = 100


@dataclass(frozen=True)
class ProblemStats:
    """What the planner knows of a problem before solving it.

    Attributes
    ----------
    model : str
        A key of :data:`solvers._registry.MODELS`.
    n, d, nnz : int
        Samples, features and stored entries of X (``n d`` when dense).
    sparse : bool
        Whether X is a sparse matrix.
    hardness : float
        How much harder the regularisation makes the problem, >= 0:
        ``log(lam_max / lam)`` for the L1 models, ``log(1 + C mean_i s_i ||x_i||^2)``
        for the 2-norm SVMs, ``log(1 + mean_j ||X_j||^2 / lam)`` for ridge regression.
    weighted : bool
        Whether the fit has sample weights.
    warm : bool
        Whether a previous solution on the same data is at hand.
    """

    model: str
    n: int
    d: int
    nnz: int
    sparse: bool
    hardness: float
    weighted: bool = False
    warm: bool = False

    def features(self):
        """The regressors of the cost model."""
        return np.array(self._regressors)

    @functools.cached_property
    def _regressors(self):
        """:meth:`features` as a tuple of floats, computed once per problem: the
        planner estimates every eligible backend from them (plain floats, see
        :func:`estimate`)."""
        return (
            1.0,
            math.log(self.n),
            math.log(self.d),
            math.log(max(self.nnz, 1)),
            min(self.hardness, HARDNESS_CAP),
            float(self.weighted),
            float(self.sparse),
            float(self.warm),
            math.log(min(self.n, self.d)),
            self._dense_wide_hardness(),
        )

    def _dense_wide_hardness(self):
        """The squared hardness of dense X with more features than samples, else 0."""
        if self.sparse or self.d <= self.n:
            return 0.0
        return min(self.hardness, HARDNESS_CAP) ** 2


@dataclass(frozen=True)
class Step:
    """One planned attempt: the backend, its options and why it is where it is.

    ``skip``: why it is not run (a CVXPY solver named in the chain but not installed);
    ``warm_start``: whether it starts from the last point a stopped backend hands over.
    """

    backend: str
    options: dict
    reason: str
    skip: str = ""
    warm_start: bool = False


def estimate(name, stats):
    """The estimated seconds of backend ``name`` on the problem ``stats`` describes.

    ``inf`` when the backend has no cost model for the model (it is then last).
    """
    theta = _costs.COSTS.get((stats.model, name))
    if theta is None:
        return math.inf
    # A model fitted before a feature was added counts it with coefficient 0 (zip
    # stops at the shorter). Plain floats: a fit plans five backends, and NumPy's
    # per-call overhead was a tenth of a millisecond of a 1 ms ridge fit.
    solve = math.exp(sum(t * f for t, f in zip(theta, stats._regressors, strict=False)))
    return fixed_cost(stats) + solve


def fixed_cost(stats):
    """The seconds of a fit that do not depend on its backend (an estimate).

    Validation, the planner's statistics, centring, the certificate's passes over X,
    the bookkeeping of the chain: ``a + b (nnz + n + d)`` with the model's ``(a, b)``
    of :data:`solvers._costs.FIXED` (0 for a model without one). On a 200-document
    corpus they are most of a fit: a cost model of the backend alone, log-linear in
    the size, put 0.24 ms on a ridge fit of 1.6 ms (issue 32).
    """
    a, b = _costs.FIXED.get(stats.model, (0.0, 0.0))
    return a + b * (stats.nnz + stats.n + stats.d)


def plan(stats, solver=None, solver_options=None, *, estimator):
    """The chain of a fit: the given one, or the eligible backends cheapest first.

    Parameters
    ----------
    stats : ProblemStats
    solver : None, str or list of str
        The estimator's ``solver``: None for the planned chain.
    solver_options : dict or None
        The estimator's ``solver_options`` (checked against the chain's backends).
    estimator : str
        The estimator's name, for messages.

    Returns
    -------
    list of Step

    Raises
    ------
    ValueError
        A backend not declared for the model, or an option no backend of the chain takes.
    """
    size = (stats.n, stats.d, stats.nnz)
    if solver is not None:
        named = check_chain(solver, stats.model, estimator)
        for name, usable in named:
            why = usable and over_size(stats.model, name, *size)
            if why:
                others = [
                    b for b in backends_for(stats.model) if not over_size(stats.model, b, *size)
                ]
                raise ValueError(
                    f"solver={name!r} is not declared for {estimator} problems of this size "
                    f"({stats.n} x {stats.d}, {stats.nnz} stored entries): {why}. The "
                    f"backends of {estimator} at this size: {others}."
                )
        chain = [name for name, usable in named if usable]
        options = split_options(solver_options, chain)
        return [
            Step(name, options[name], "as given by solver", warm_start=backend(name).warm_start)
            if usable
            else Step(name, {}, "as given by solver", skip="is not installed")
            for name, usable in named
        ]
    fallbacks = DEFAULT_BACKENDS[PROBLEM_CLASS[stats.model]]
    declared = {
        name: backend(name)
        for name in backends_for(stats.model)
        if not over_size(stats.model, name, *size)
    }
    eligible = [
        name for name, entry in declared.items() if not entry.cvxpy or name in fallbacks
    ]
    costs = {name: estimate(name, stats) for name in eligible}
    # Equal estimates (no cost model) keep the declared order: own backends, then
    # CVXPY's in the order of DEFAULT_BACKENDS.
    order = {name: k for k, name in enumerate(_declared_order(eligible, fallbacks))}
    chain = sorted(eligible, key=lambda name: (costs[name], order[name]))
    options = split_options(solver_options, chain)
    # Whether a backend after each rank takes a warm start (a budgeted path hands over).
    warm_later = [False] * len(chain)
    for rank in range(len(chain) - 2, -1, -1):
        warm_later[rank] = warm_later[rank + 1] or declared[chain[rank + 1]].warm_start
    steps = []
    for rank, name in enumerate(chain, start=1):
        reason = f"planned {rank} of {len(chain)}: estimated " + (
            "(no cost model)" if math.isinf(costs[name]) else f"{costs[name]:.2g} s"
        )
        if name == "HOMOTOPY" and warm_later[rank - 1] and "max_steps" not in options[name]:
            # The path's breakpoints are the hard part to estimate: past a budget it
            # hands its last breakpoint to the next backend that takes a warm start.
            budget = max(PATH_BUDGET, 2 * (stats.n + min(stats.n, stats.d)))
            options[name] = {**options[name], "max_steps": budget}
            reason += f", a budget of {budget} breakpoints"
        too_big = declared[name].cvxpy and _memory_exceeded(stats)
        steps.append(
            Step(
                name,
                options[name],
                reason,
                skip=too_big or "",
                warm_start=declared[name].warm_start,
            )
        )
    return steps


def cvxpy_memory(stats):
    """Bytes a CVXPY backend may need on the problem ``stats`` describes (an estimate).

    Each of them factorises the KKT system of the estimator's formulation (Clarabel
    and ECOS at every interior-point iteration, OSQP and SCS once, HiGHS its basis):
    the factor of the data block fills in up to the ``min(n, d)^2`` entries of its
    Schur complement, held twice (the factor and the matrix it is computed from),
    beside a few copies of the data. So ``8 (2 min(n, d)^2 + 10 (nnz + n + d))``:
    6.4 GB for the 20 000 documents on which an ECOS and a CLARABEL fallback held
    6.4 GB (issue 32).
    """
    return 8.0 * (2.0 * min(stats.n, stats.d) ** 2 + 10.0 * (stats.nnz + stats.n + stats.d))


@functools.cache
def machine_memory():
    """This machine's physical memory in bytes (``os.sysconf``; inf where unknown)."""
    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):  # not a POSIX system
        return math.inf


def _memory_exceeded(stats):
    """Why a CVXPY backend is left out of a planned chain for its memory (None: kept)."""
    needed, total = cvxpy_memory(stats), machine_memory()
    if needed <= MEMORY_SHARE * total:
        return None
    return (
        f"not run: it would need about {needed / 2**30:.3g} GiB (estimated from n, d and "
        f"nnz), more than {MEMORY_SHARE:.0%} of this machine's {total / 2**30:.3g} GiB; "
        "name it with solver= to run it anyway"
    )


def _declared_order(names, fallbacks):
    own = [n for n in names if not backend(n).cvxpy]
    return own + [n for n in fallbacks if n in names]
