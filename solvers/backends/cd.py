"""``CD``: coordinate descent on working sets of features with Anderson acceleration.

SVM2 and the lasso (004 eq. 7 and 3) by :func:`solvers._coordinate_descent.l1_coordinate_descent`,
from the last run's answer and working set on the same data, or from the answer of a
backend that stopped before it.
"""

import numpy as np

from .._chain import Outcome
from . import descent_start, descent_status, kept_descent, own_options
from ._answers import complete, polish_if_cheap

__all__ = ["run"]


def run(problem, options, warm_start):
    """Coordinate descent on ``problem``: see the module docstring. An answer that
    converged is certified (with the column norms the descent computed); one that fails
    its certificate is polished when cheap
    (:func:`solvers.backends._answers.polish_if_cheap`)."""
    from .._coordinate_descent import l1_coordinate_descent

    X = problem.X
    result = l1_coordinate_descent(
        X, problem.y, problem.lam, problem.weights, loss=problem.loss.name,
        sample_weight=problem.sample_weight, **descent_start(warm_start), **own_options(options),
    )  # fmt: skip
    answer, state = complete(problem, result.coef, result.intercept), kept_descent(result)
    status, message = descent_status(result, "rounds")
    certificate = None
    if status == "optimal":
        # The lasso's certificate reads X's column norms: the descent computed them.
        certificate = problem.certificate(answer, norms=result.norms)
        if not certificate.holds:
            rows, columns = X.shape[0], np.count_nonzero(result.coef)
            certificate, answer = polish_if_cheap(problem, answer, rows, columns)
    return Outcome(status, message, answer, {"iterations": result.iterations}, certificate, state)
