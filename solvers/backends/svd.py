"""``SVD``: ridge regression and RLSC in closed form (000 eq. 1-3, 002 sec. 3.4).

:func:`solvers._ridge_closed_form.ridge_closed_form`: the Cholesky factor of the
smaller Gram matrix, QR if it fails its certificate. With sample weights s it runs on
the rows ``sqrt(s_i) x_i`` and targets ``sqrt(s_i) y_i``, the same problem unweighted.
"""

import numpy as np

from .._chain import Outcome
from .._problem import Answer
from ..certificates import scale_rows
from ..exceptions import SolverError

__all__ = ["run"]


def run(problem, options, warm_start):
    """The closed form of ``problem`` (ridge): see the module docstring."""
    from .._ridge_closed_form import ridge_closed_form

    s = problem.sample_weight
    rows, targets = (problem.X, problem.y) if s is None else scale_rows(problem.X, problem.y, s)
    try:
        dual_coef, coef, _, routes = ridge_closed_form(rows, targets, problem.ridge_lam)
    except SolverError as error:
        last = error.attempts[-1]
        return Outcome("uncertified", str(error), certificate=last.get("certificate"))
    if s is not None:  # beta = (sqrt(S) X)'x = X'(sqrt(s) x)
        dual_coef = np.sqrt(s) * dual_coef
    answer = Answer(coef, 0.0, dual_coef)
    return Outcome("optimal", f"route: {routes[-1]['backend']}", answer, {"iterations": 1})
