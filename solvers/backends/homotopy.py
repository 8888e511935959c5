"""``HOMOTOPY``: the exact piecewise-linear regularization path, run down to lam.

The path of :mod:`solvers.path` for the model (the 1-norm SVM, SVM2, the lasso: 004
sec. 2.2.1) from lam_max to the problem's lam. With ``max_steps`` (a budget of
breakpoints) a path that stops above lam hands its last breakpoint to the next
backend of the chain as a warm start.
"""

import warnings

from .._chain import Outcome
from ..exceptions import PathWarning
from ..path import l1_svm_path, lasso_path, svm2_path
from . import own_options
from ._answers import complete

__all__ = ["run"]

#: The exact path of each model.
PATHS = {"l1_svm": l1_svm_path, "svm2": svm2_path, "lasso": lasso_path}


def run(problem, options, warm_start):
    """The exact path of ``problem``'s model down to its lam: see the module docstring."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PathWarning)
        path = PATHS[problem.model](
            problem.X, problem.y, problem.weights, sample_weight=problem.sample_weight,
            lam_min=problem.lam, return_path=False, **own_options(options),
        )  # fmt: skip
    record = {"iterations": path.n_steps}
    stopped = [w for w in caught if issubclass(w.category, PathWarning)]
    if stopped:
        last = complete(problem, *path.at(path.lams[-1]))
        return Outcome("max_iter", str(stopped[0].message), answer=last, record=record)
    return Outcome("optimal", answer=complete(problem, *path.at(problem.lam)), record=record)
