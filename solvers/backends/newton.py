"""``NEWTON``: the squared-hinge SVM's finite Newton method (Keerthi & DeCoste 2005), exact.

:func:`solvers._newton.squared_hinge_newton` on ``1/2 ||w||^2 + C sum_i s_i [1 - y_i
f_i]_+^2``; the multipliers are the KKT map ``a = 2 C s [1 - y f]_+``.
"""

from .._chain import Outcome
from ._answers import complete

__all__ = ["run"]


def run(problem, options, warm_start):
    """The finite Newton method on ``problem`` (the squared-hinge 2-norm SVM)."""
    from .._newton import squared_hinge_newton

    coef, intercept = squared_hinge_newton(problem.X, problem.y, problem.C, problem.sample_weight)
    return Outcome("optimal", answer=complete(problem, coef, intercept), record={"iterations": 1})
