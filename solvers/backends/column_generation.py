"""``COLUMN_GENERATION``: the 1-norm SVM's LP (004 eq. 6) on a working set of features.

HiGHS's dual simplex on the restricted LP, priced out until no feature outside the set
violates its dual constraint
(:func:`solvers._lp_column_generation.l1_svm_column_generation`); warm-started from the
last run's set and basis on the same data. Its multipliers are the answer's ``dual``.
"""

from .._chain import Outcome
from .._problem import Answer
from . import own_options

__all__ = ["run"]


def run(problem, options, warm_start):
    """Column generation on ``problem`` (the 1-norm SVM): see the module docstring."""
    from .._lp_column_generation import l1_svm_column_generation

    result = l1_svm_column_generation(
        problem.X, problem.y, problem.lam, problem.weights,
        sample_weight=problem.sample_weight, **(warm_start.kept or {}), **own_options(options),
    )  # fmt: skip
    answer = Answer(result.coef, float(result.intercept), result.alpha)
    message = "" if result.converged else f"not converged in {result.rounds} rounds"
    # The LP's own certificate (l1_svm_certificate with its multipliers); one that fails
    # is computed again by the chain, which polishes.
    held = result.certificate if result.certificate.holds else None
    return Outcome(
        "optimal", message, answer, {"iterations": result.rounds}, held,
        {"working": result.working, "basis": result.basis},
    )  # fmt: skip
