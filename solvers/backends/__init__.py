"""The backends: one module per backend, each a function ``run(problem, options, warm_start)``.

A backend takes a :class:`solvers._problem.Problem` (the data, the loss, the penalty,
the intercept rule), its options (checked against its declaration in
:mod:`solvers._registry`) and a :class:`WarmStart`, and returns a
:class:`solvers._chain.Outcome` holding its :class:`solvers._problem.Answer` and what
it keeps for its next run on the same data. It sets nothing anywhere: the estimator
that planned the chain (:mod:`solvers._planner`) keeps the state and sets its fitted
attributes from the certified answer.

The library's own backends: :mod:`~solvers.backends.dual_cd` (the 2-norm SVMs' dual
coordinate descent), :mod:`~solvers.backends.newton` (the squared hinge's finite
Newton method), :mod:`~solvers.backends.cd` (coordinate descent on working sets for
SVM2 and the lasso), :mod:`~solvers.backends.homotopy` (the exact path run down to
lam), :mod:`~solvers.backends.column_generation` (the 1-norm SVM's LP on a working set
of features), :mod:`~solvers.backends.prox_newton` (logistic regression),
:mod:`~solvers.backends.svd` and :mod:`~solvers.backends.cg` (ridge and RLSC); and
:mod:`~solvers.backends.cvxpy`, every CVXPY solver on the problem's formulation
(:mod:`solvers.formulations`), wrapped in working sets of features and samples
(:mod:`~solvers.backends._working_sets`).
"""

from dataclasses import dataclass

__all__ = ["WarmStart", "descent_start", "descent_status", "kept_descent", "own_options"]


@dataclass(frozen=True)
class WarmStart:
    """Where a backend starts.

    Attributes
    ----------
    kept : object, optional
        What this backend kept of its last run on the same data (its ``Outcome.state``).
    answer : solvers._problem.Answer, optional
        The answer of the backend that ran before it in the chain (one that stopped
        short, or whose answer failed its certificate).
    """

    kept: object = None
    answer: object = None


def own_options(options):
    """The options of one of the library's own backends, as its function takes them:
    without ``time_limit``, which bounds CVXPY's backends (the library's own are
    bounded by their iteration options)."""
    return {key: value for key, value in options.items() if key != "time_limit"}


def descent_start(warm_start):
    """The start of a coordinate descent on working sets (CD, PROX_NEWTON): what it kept
    of its last answer (point and working set), with the chain's answer in place of
    that point when there is one."""
    start = dict(warm_start.kept or {})
    if warm_start.answer is not None:
        start.update(coef=warm_start.answer.coef, intercept=warm_start.answer.intercept)
    return start


def kept_descent(result):
    """What a coordinate descent keeps for the next run: its point and working set."""
    return {"coef": result.coef, "intercept": result.intercept, "working_set": result.working_set}


def descent_status(result, unit):
    """``(status, message)`` of a descent's result: ``"max_iter"`` when it stopped at its
    cap with a relative gap above the certificate's tolerance, else ``"optimal"`` (with
    a note when it stopped at its cap within that tolerance). ``unit``: what its
    iterations count."""
    from ..certificates import GAP_TOLERANCE

    if result.converged:
        return "optimal", ""
    stopped = f"not converged in {result.iterations} {unit}"
    if result.relative_gap > GAP_TOLERANCE:
        return "max_iter", f"{stopped} (relative duality gap {result.relative_gap:.2e})"
    return "optimal", stopped
