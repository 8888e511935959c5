"""``CG``: ridge regression and RLSC by conjugate gradients on the smaller normal equations.

:func:`solvers._ridge_cg.ridge_cg`, from the last run's coefficients on the same data.
"""

from .._chain import Outcome
from .._problem import Answer
from . import own_options

__all__ = ["run"]


def run(problem, options, warm_start):
    """Conjugate gradients on ``problem`` (ridge): see the module docstring."""
    from .._ridge_cg import ridge_cg

    if problem.lam == 0:
        return Outcome("error", "CG needs lam > 0: least squares has no unique answer")
    result = ridge_cg(
        problem.X, problem.y, problem.ridge_lam, sample_weight=problem.sample_weight,
        **(warm_start.kept or {}), **own_options(options),
    )  # fmt: skip
    message = "" if result.converged else f"not converged in {result.iterations}"
    return Outcome(
        "optimal", message, Answer(result.coef, 0.0, result.dual_coef),
        {"iterations": result.iterations}, result.certificate,
        {"coef": result.coef, "dual_coef": result.dual_coef},
    )  # fmt: skip
