"""The 2-norm SVMs (001 eq. 2, and the squared hinge): how a fit runs.

``SVMDual`` and ``L2SVM`` minimise ``1/2 ||w||^2 + C sum_i s_i loss_i``: the
:class:`solvers._problem.Problem` with ``lam = 1/C`` and the 2-norm penalty alone
(the objective divided by C). A fit centres the offset columns (a timestamp at 1e9
with spread 1e7 becomes a column at 1e7, :func:`solvers._columns.centre_offset_columns`),
exact with the free intercept, which absorbs the means, and runs the planned chain
(:mod:`solvers._planner`) over the model's backends: ``"DUAL_CD"``
(:mod:`solvers.backends.dual_cd`), ``"NEWTON"`` (the squared hinge's,
:mod:`solvers.backends.newton`) and CVXPY's (:mod:`solvers.backends.cvxpy`, which
scales out dominant columns and an extreme C).
"""

import math

import numpy as np

from ._base import LinearModel
from ._columns import centre_offset_columns
from ._dask_models import fit_on_samples
from ._losses import LOSSES, margin_slack
from ._problem import Problem, unit_weights
from .backends.cvxpy import row_squares

__all__ = ["TwoNormSVM", "hinge", "margin", "support"]

_SUPPORT_RTOL = 1e-6


def support(alpha):
    """Indices of the support vectors: multipliers above 1e-6 of the largest (or of 1)."""
    return np.flatnonzero(alpha > _SUPPORT_RTOL * max(1.0, float(alpha.max(initial=0.0))))


def margin(w):
    """``1 / ||w||``, the geometric margin (inf for w = 0)."""
    norm = np.linalg.norm(w)
    return np.inf if norm == 0 else 1.0 / norm


def hinge(X, y, w, b):
    """``max(0, 1 - y_i (x_i'w + b))`` for every sample."""
    return margin_slack(y, np.asarray(X @ w).ravel() + b)


class TwoNormSVM(LinearModel):
    """The fit of the 2-norm SVMs: the problem on the centred columns, the planned chain.

    The estimators declare data only: ``SVMDual`` sets ``_DUAL`` (001 eq. 2: the dual
    is always the problem CVXPY solves, and ``objective_`` its value), ``L2SVM`` has
    the parameter ``loss`` (the hinge or its square: the model ``"svm"`` or
    ``"svm_squared_hinge"``; without it, the hinge), and CVXPY solves the dual when
    d > n, the primal otherwise.
    """

    #: Whether the dual (001 eq. 2) is the formulation whatever the shape (SVMDual).
    _DUAL = False

    def _fit_problem(self, X, y, sample_weight):
        """The planned chain on the centred columns; the intercept moved back."""
        centred, shift = centre_offset_columns(X)
        problem = Problem(
            self._MODEL, centred, y, sample_weight, LOSSES[self._LOSS], 1.0 / self.C,
            unit_weights(X.shape[1]), l1_ratio=0.0, form="dual" if self._DUAL else None,
            tolerance=self._tolerance(),
        )  # fmt: skip
        s = problem.sample_weights()
        size = self.C * (s @ row_squares(centred)) / y.size
        answer = self._solve(problem, math.log1p(size))
        self.alpha_ = answer.dual
        self.support_ = support(answer.dual)
        self.coef_ = np.asarray(answer.coef, dtype=float)
        self.margin_ = margin(self.coef_)
        self.objective_ = self._objective(problem, answer)
        # b absorbs the shift of the centred columns: x'w + b = (x - m)'w + b_centred.
        self.intercept_ = float(answer.intercept - shift @ self.coef_)

    def _objective(self, problem, answer):
        """SVMDual's objective is the dual's value (001 eq. 2); L2SVM's the primal
        ``1/2 ||w||^2 + C sum_i s_i loss_i``, or the dual's value where CVXPY solved
        the dual (the optimum: the primal at ``w = X'Ya`` would amplify the solver's
        tolerance on the margins)."""
        if answer.value is not None:
            return answer.value
        if self._DUAL:
            # A primal backend's multipliers: ``1'a - 1/2 ||w||^2`` mixes them with its w
            # (2.4e-4 off with a column at 3000, C = 1e6), and ``1'a - 1/2 ||X'Ya||^2``
            # magnifies their error by a column at 1e12: the certificate's dual value,
            # at its feasible point built from them, is within its gap of the optimum.
            return float(self.certificate_.dual)
        return float(self.C * problem.objective(answer))

    def _fit_dask(self, X, y, sample_weight):
        """Fit a Dask X through a working set of samples, certified on every chunk
        (:func:`solvers._dask_models.fit_on_samples`)."""
        return fit_on_samples(self, X, y, sample_weight)

    @property
    def _LOSS(self):
        """The loss: ``loss`` (L2SVM), else the hinge (SVMDual, 001 eq. 2)."""
        return getattr(self, "loss", "hinge")

    @property
    def _MODEL(self):
        return "svm_squared_hinge" if self._LOSS == "squared_hinge" else "svm"
