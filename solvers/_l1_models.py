"""The L1-penalised models (004 eq. 3, 6, 7): weights, lam_max, and their backends.

``L1SVM``, ``SVM2``, ``WeightedLasso`` and ``AdaptiveLasso`` share the penalty
``lam sum_j W_j |w_j|``, its weights convention (each ``>= 0`` or ``+inf``: 0
unpenalised, ``+inf`` excluded) and how a fit runs, all in :class:`WeightedL1Model`;
the estimators only declare their loss (``_LOSS``: the hinge of eq. 6, the squared
hinge of eq. 7, the squares of eq. 3), model key, exact path and whether their
weights are adaptive. A fit builds one :class:`solvers._problem.Problem`:

1. on the features of finite weight (the others' coefficients are 0), the offset
   columns centred (a Unix timestamp; exact with the free intercept,
   :func:`solvers._columns.centre_offset_columns`), for the lasso with many samples
   on a factor of the centred Gram matrix;
2. above lam_max the closed form (every coefficient 0, the best intercept);
3. otherwise the planned chain (:mod:`solvers._planner`) over the model's backends
   (:mod:`solvers.backends`): the library's own (``"CD"``, ``"HOMOTOPY"``,
   ``"COLUMN_GENERATION"``), which take the data as it is, and CVXPY's, which solve
   the formulation on equilibrated columns (unit norms, weights divided by them: the
   same problem, but a backend no longer sees a column at 1e12 beside one at 1), on
   working sets of features and samples when there are many.
"""

import math
import warnings
from dataclasses import replace

import numpy as np

from sparsify.utils import column_norms

from ._base import BACKEND_CONSTRAINTS, CONTROL_CONSTRAINTS, POSITIVE, LinearModel, scattered
from ._centred_gram import least_squares_factor
from ._columns import centre_offset_columns
from ._dask_models import fit_lasso, fit_on_samples
from ._l2_svm import support
from ._losses import SQUARES
from ._memory import dense_fits
from ._penalty import check_penalty_weights, l1_lam_max
from ._problem import Answer
from ._ridge_closed_form import ridge_with_intercept
from .backends._answers import certified, complete
from .exceptions import PathWarning
from .path._steps import budget_reached

__all__ = ["WeightedL1Model", "adaptive_weights"]

#: Initial coefficients whose part of the fit is below this fraction of the largest are
#: round-off: infinite weight (`_inverse_power_weights`).
_ZERO_RTOL = 1e-10


class WeightedL1Model(LinearModel):
    """A loss plus the penalty ``lam sum_j W_j |w_j|`` (004 eq. 3, 6, 7): the whole fit.

    The one base of ``L1SVM``, ``SVM2``, ``WeightedLasso`` and ``AdaptiveLasso``, which
    declare data only: ``_MODEL`` (the registry's model), ``_LOSS`` (a key of
    :data:`solvers._losses.LOSSES`: ``"hinge"``, ``"squared_hinge"`` or
    ``"squares"``), ``path`` (the exact path function of :mod:`solvers.path`),
    ``_CLOSED_FORM_ZERO`` (True when, with every weight positive, the solution for
    ``lam >= lam_max`` is ``coef = 0`` and ``intercept = mean(y)``: the lasso and
    SVM2) and ``_ADAPTIVE`` (the weights come from an initial fit,
    :func:`adaptive_weights`, instead of ``weights``). Everything that depends on the
    loss (its formulation, certificate, dual point, multipliers, polish) is chosen
    here from ``_LOSS``.

    The formulation takes the penalty as the one DPP Parameter ``lam_w = lam *
    weights`` (a re-fit with a new lam or new weights re-solves the compiled problem).
    """

    _parameter_constraints = {
        "lam": [POSITIVE],
        "weights": ["array-like", None],
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }
    _LOSS = None
    _CLOSED_FORM_ZERO = False
    #: CD and column generation read X by columns.
    _SPARSE_FORMAT = "csc"
    _ADAPTIVE = False

    def __init__(
        self,
        lam=1.0,
        *,
        weights=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.lam = lam
        self.weights = weights
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start

    def _penalty_weights(self, X, y, sample_weight):
        """The weights of every feature of X (each >= 0 or +inf)."""
        if self._ADAPTIVE:
            self.weights_ = adaptive_weights(
                X, y, self.gamma, self.init, self.init_lam, sample_weight=sample_weight
            )
            return self.weights_
        return check_penalty_weights(self.weights, X.shape[1])

    def _fit_problem(self, X, y, sample_weight):
        """The binary (labels -1/+1) or real problem on (X, y), on the features of
        finite weight (the excluded ones get coefficient 0).

        For the squares the intercept is free: y less its (s-weighted) mean is fitted
        and the intercept moved back, exactly; with an offset such as a Unix timestamp
        (y = 1.7e9 + signal) the residuals would otherwise cancel to the offset's
        rounding.
        """
        weights = self._full_weights = self._penalty_weights(X, y, sample_weight)
        offset = float(np.average(y, weights=sample_weight)) if self._LOSS == "squares" else 0.0
        target = y - offset if offset else y
        problem, kept = self._penalised_problem(X, target, sample_weight, weights)
        answer = self._fit_kept(problem)
        self.coef_ = scattered(answer.coef, kept, X.shape[1])
        self.intercept_ = answer.intercept + offset
        self.objective_ = problem.objective(answer)
        if self._LOSS != "squares":
            self.alpha_ = answer.dual
            self.support_ = support(answer.dual)

    def _fit_kept(self, problem):
        """The lasso with n > 2 (d + 1): the formulation on a factor of the centred Gram matrix.

        A square root R of the (d + 1) x (d + 1) Gram matrix of the centred data
        ``[Xc, yc]`` gives ``||yc - Xc b||^2 = ||r - R_X b||^2`` for every b. With
        sample weights s the data are centred at their s-weighted means and the rows
        scaled by ``sqrt(s_i)`` (then ``sum_i s_i (yc_i - xc_i'b)^2 = ||r - R_X b||^2``),
        so the problem on the factor is unweighted. Its columns are equilibrated
        (:func:`solvers._centred_gram.least_squares_factor`), as the CVXPY backends do with X.
        The problem is solved on the 2 (d + 1) rows ``[R_X; -R_X] / sqrt(2)`` with
        targets ``[r; -r] / sqrt(2)``, whose column means are 0, so that its intercept
        is 0 and its objective is the centred one; then ``b0 = ybar - xbar'b`` (the
        s-weighted means). A sparse X takes this route only when the Gram matrix holds
        at most ``2 (nnz + n + d)`` entries (:func:`solvers._memory.dense_fits`).
        One O(n d^2) product replaces an O(n d) pass at every step
        of the path or every iteration of a backend, and X itself is neither copied
        nor equilibrated. The answer is certified on the full data (one residual, the
        column norms from the Gram matrix); if rounding in the factor spoils it, the
        problem is solved on the full data instead.
        Otherwise, and when that answer does not certify on X, :meth:`_fit_planned`.
        """
        X, y, s = problem.X, problem.y, problem.sample_weight
        n, d = X.shape
        if self._LOSS != "squares" or n <= 2 * (d + 1) or not dense_fits(X, (d + 1) ** 2):
            return self._fit_planned(problem)
        factor = least_squares_factor(X, y, s)
        scales = np.where(factor.norms > 0, factor.norms, 1.0)
        on_factor = replace(
            problem, X=factor.rows, y=factor.targets, sample_weight=None,
            weights=problem.weights / scales,
        )  # fmt: skip
        coef = self._fit_planned(on_factor).coef / scales
        answer = Answer(coef, float(factor.y_mean - factor.x_mean @ coef))
        # The norms from the Gram matrix are X's own only without sample weights.
        certificate = problem.certificate(answer, norms=factor.norms if s is None else None)
        certificate, answer = certified(problem, answer, certificate)
        if not certificate.holds:
            return self._fit_planned(problem)
        self.certificate_, self.dual_gap_ = certificate, certificate.relative_gap
        return answer

    def _fit_planned(self, problem):
        """The answer on the columns of X: offset columns centred (the intercept absorbs
        their means); above lam_max the closed form; otherwise the planned chain."""
        X, shift = centre_offset_columns(problem.X)
        centred = replace(problem, X=X)
        answer, lam_max = self._solve_zero(centred)
        if answer is None:
            hardness = math.log(lam_max / problem.lam) if lam_max > 0 else 0.0
            answer = self._solve(centred, hardness)
        return replace(answer, intercept=float(answer.intercept - shift @ answer.coef))

    def _solve_zero(self, problem):
        """``(answer, lam_max)``: the closed-form answer when lam >= lam_max (every
        coefficient 0; None when it does not apply or its certificate fails), and the
        estimate of lam_max the planner reads otherwise.

        With every weight positive, ``coef = 0`` and ``intercept = mean_s(y)`` (the mean
        weighted by the sample weights s) is optimal exactly when
        ``lam >= max_j |2 X_j'S (y - mean_s(y))| / W_j`` (the lasso, 004 eq. 3, and
        SVM2, eq. 7, whose squared hinge is ``(y_i - f_i)^2`` at that point).
        """
        X, y, s, weights = problem.X, problem.y, problem.sample_weight, problem.weights
        intercept = SQUARES.null_intercept(y, s)
        null = np.full(y.size, intercept)
        lam_max = l1_lam_max(X.T @ SQUARES.dual_point(y, null, s), weights)
        if not (self._CLOSED_FORM_ZERO and np.all(weights > 0)) or problem.lam < lam_max:
            return None, lam_max
        answer = complete(problem, np.zeros(X.shape[1]), intercept)
        certificate = problem.certificate(answer)
        if not certificate.holds:
            return None, lam_max
        self.backend_ = "closed_form"
        self.solve_attempts_ = [
            {"backend": "closed_form", "status": "optimal", "message": "lam >= lam_max",
             "reason": "every coefficient is 0 at lam >= lam_max", "certificate": certificate}
        ]  # fmt: skip
        self.certificate_, self.dual_gap_ = certificate, certificate.relative_gap
        self.n_iter_ = 1
        self.__dict__.pop("problem_", None)
        return answer, lam_max

    def _fit_dask(self, X, y, sample_weight):
        """Fit a Dask X: the lasso through its centred Gram matrix
        (:func:`solvers._dask_models.fit_lasso`), the SVMs through a working set of
        samples (:func:`solvers._dask_models.fit_on_samples`), certified over its chunks."""
        if self._LOSS == "squares":
            return fit_lasso(self, X, y, sample_weight)
        return fit_on_samples(self, X, y, sample_weight)

    @classmethod
    def lam_max(cls, X, y, weights=None, *, sample_weight=None):
        """The smallest lam at which every penalised coefficient is 0: ``lams[0]`` of ``path``.

        With every weight positive it is ``max_j |2 X_j'S(y - mean_s(y))| / W_j`` for
        the lasso (004 eq. 3) and SVM2 (eq. 7, labels mapped to -1/+1; S the sample
        weights, 1 by default); for the 1-norm SVM (eq. 6) it comes from the LP at the
        start of its path. Only the first breakpoint of the path is computed.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        weights : array-like of shape (n_features,), optional
            Each >= 0 or +inf (default 1).
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss (default 1), as in ``fit``.

        Returns
        -------
        float

        Warns
        -----
        PathWarning
            When the path stops at its first breakpoint for another reason than the
            one step asked for (no certified direction, a failed optimality check):
            lam_max is then not certified and may be wrong.
        """
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PathWarning)
            path = cls.path(X, y, weights, sample_weight=sample_weight, max_steps=1)
        lam_max = float(path.lams[0])
        penalty = check_penalty_weights(weights, path.coefs.shape[1])
        # No penalised feature: lam_max is 0 whatever the path says of its (empty) path.
        certain = not np.any(np.isfinite(penalty) & (penalty > 0))
        for warning in caught:
            if not issubclass(warning.category, PathWarning):
                warnings.warn_explicit(
                    warning.message, warning.category, warning.filename, warning.lineno
                )
            elif not certain and budget_reached(1) not in str(warning.message):
                warnings.warn(
                    f"{cls.__name__}.lam_max={lam_max:.6g} is not certified, the path's first "
                    f"breakpoint is not: {warning.message}",
                    PathWarning,
                    stacklevel=2,
                )
        return lam_max


def adaptive_weights(X, y, gamma, init, init_lam, *, sample_weight=None):
    """The adaptive lasso's weights ``|b_init|^-gamma`` (004 eq. 3), b_init from least
    squares (``init="ols"``) or ridge at ``init_lam``; a coefficient at round-off
    (``|b_j| ||X_j||`` below 1e-10 of the largest) is 0, its weight +inf
    (:func:`_inverse_power_weights`)."""
    lam = init_lam if init == "ridge" else 0.0
    beta = ridge_with_intercept(X, y, lam, sample_weight=sample_weight)[0]
    return _inverse_power_weights(beta, gamma, X)


def _inverse_power_weights(coef, gamma, X):
    """``|coef_j|^-gamma``, ``+inf`` where ``coef_j`` is 0 or round-off: where feature j's
    part of the fit, ``|coef_j| ||X_j||``, is below 1e-10 of the largest feature's (a
    column at 1e12 beside unit ones has a coefficient 1e-12 times theirs and is no
    round-off; a zero column is). The adaptive lasso's and the hybrid weights (004 eq. 3-5)."""
    magnitude = np.abs(np.asarray(coef, dtype=float))
    size = magnitude * column_norms(X)
    magnitude[size <= _ZERO_RTOL * size.max(initial=0.0)] = 0.0
    with np.errstate(divide="ignore"):
        return magnitude**-gamma
