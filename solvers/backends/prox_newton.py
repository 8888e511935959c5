"""``PROX_NEWTON``: proximal Newton with coordinate descent on working sets of features.

The elastic-net logistic regression as glmnet and skglm solve it
(:func:`solvers._logistic_cd.logistic_prox_newton`), from the last run's answer and
working set on the same data, or from the answer of a backend that stopped before it.
"""

from .._chain import Outcome
from .._problem import Answer
from . import descent_start, descent_status, kept_descent, own_options

__all__ = ["run"]


def run(problem, options, warm_start):
    """Proximal Newton on ``problem`` (the logistic loss): see the module docstring. An
    answer that converged is certified with the column norms the descent computed."""
    from .._logistic_cd import logistic_prox_newton

    result = logistic_prox_newton(
        problem.X, problem.y, problem.lam, problem.weights, l1_ratio=problem.l1_ratio,
        sample_weight=problem.sample_weight, **descent_start(warm_start), **own_options(options),
    )  # fmt: skip
    answer, state = Answer(result.coef, float(result.intercept)), kept_descent(result)
    status, message = descent_status(result, "working sets")
    certificate = None
    if status == "optimal":  # the certificate reads X's column norms: computed above
        certificate = problem.certificate(answer, norms=result.norms)
    return Outcome(status, message, answer, {"iterations": result.iterations}, certificate,
                   state)  # fmt: skip
