"""The fit of a model declared by its loss: one :class:`solvers._problem.Problem` value.

An estimator on :class:`ProblemModel` declares data only: ``_MODEL`` (the registry's
model) and ``_LOSS`` (a key of :data:`solvers._losses.LOSSES`), with the parameters
``lam``, ``weights`` and (optionally) ``l1_ratio`` of the weighted elastic net
(:class:`solvers._penalty.Penalty`). Its fit validates the input
(:class:`solvers._base.LinearModel`), builds the problem (the features of finite
weight, the sample weights with zeros dropped), runs the planned chain on it and sets
the fitted attributes from the certified answer (:meth:`solvers._problem.Problem.certificate`).
Nothing about the problem lives on the estimator while it is solved; the warm starts
and the compiled CVXPY problem of the last fit do (:meth:`LinearModel._kept`).
:class:`solvers.SparseLogisticRegression` is built on it (docs/architecture.md,
"Adding a model").
"""

from dataclasses import replace

import numpy as np

from ._base import LinearModel, scattered
from ._columns import centre_offset_columns
from ._penalty import check_penalty_weights, l1_lam_max

__all__ = ["LAM_MAX_L1_RATIO", "ProblemModel", "lam_max_estimate", "null_correlations"]

#: lam_max of a penalty whose L1 share is below this is that of this share (glmnet's
#: rule for its grid: the pure 2-norm penalty has no lam at which every coefficient is 0).
LAM_MAX_L1_RATIO = 1e-3


class ProblemModel(LinearModel):
    """The fit through a :class:`solvers._problem.Problem`: see the module docstring."""

    def _fit_problem(self, X, y, sample_weight):
        """Build the :class:`solvers._problem.Problem` of (X, y) on the features of
        finite weight, solve it and set the fitted attributes from the answer.

        Offset columns (a Unix timestamp) are centred first, exactly, the intercept
        absorbing their means (:func:`solvers._columns.centre_offset_columns`): on the
        column as it comes, no dual point's ``X_j'Ya`` keeps its digits."""
        weights = check_penalty_weights(self.weights, X.shape[1])
        problem, kept = self._penalised_problem(
            X, y, sample_weight, weights, l1_ratio=float(getattr(self, "l1_ratio", 1.0))
        )
        centred, shift = centre_offset_columns(problem.X)
        problem = replace(problem, X=centred)
        lam_max = lam_max_estimate(problem)
        hardness = np.log(lam_max / problem.lam) if lam_max > 0 else 0.0
        answer = self._solve(problem, hardness)
        self.coef_ = scattered(answer.coef, kept, X.shape[1])
        self.intercept_ = float(answer.intercept - shift @ answer.coef)
        self.objective_ = self.certificate_.primal  # the objective at the answer, certified


def null_correlations(loss, X, y, s):
    """``X'v`` at the best constant model, v the loss's dual point there (``Y a`` with
    ``a = s sigma(-y b)``, b the log-odds, for the logistic loss)."""
    fitted = np.full(y.size, loss.null_intercept(y, s))
    point = loss.dual_point(y, fitted, s)
    return np.asarray(X.T @ (y * point if loss.labels else point)).ravel()


def lam_max_estimate(problem):
    """lam_max from the constant model's correlations (the planner's hardness)."""
    correlations = null_correlations(problem.loss, problem.X, problem.y, problem.sample_weight)
    return l1_lam_max(correlations, problem.weights) / max(problem.l1_ratio, LAM_MAX_L1_RATIO)
