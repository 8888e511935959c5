"""The 2-norm SVMs (001 eq. 2, and the squared hinge): how a fit runs, and their backends.

``SVMDual`` and ``L2SVM`` minimise ``1/2 ||w||^2 + C sum_i s_i loss_i``. A fit

1. centres the offset columns (a timestamp at 1e9 with spread 1e7 becomes a column
   at 1e7, :func:`solvers._columns.centre_offset_columns`), exact with the free
   intercept, which absorbs the means;
2. runs the planned chain (:mod:`solvers._planner`) over the model's backends: the
   library's own (``"DUAL_CD"``, ``"NEWTON"``) take the centred data as it is; CVXPY's
   solve the formulation on transformed data (below), on a working set of samples
   when there are many (:mod:`solvers._sample_working_set`).

For CVXPY's backends two exact transformations keep the numbers in range:

- *columns that dwarf the others* (:func:`large_column_scale`): the dual's Gram matrix
  would hold entries 1e14 times the others, beyond what an interior-point method
  resolves in float64, so the primal is solved in rescaled coordinates
  (``svm_primal``'s ``column_scale``);
- *an extreme C* (:func:`c_plans`): the problem with the data scaled by ``sqrt(C)`` and
  C = 1, so that the backends see multipliers in [0, 1].
"""

import math

import numpy as np
import scipy.sparse as sp
from sklearn.utils.extmath import row_norms

from sparsify.utils import column_norms

from ._base import LinearModel, optimal, own_options, signature, weights_or_ones
from ._chain import Outcome
from ._columns import centre_offset_columns, large_columns
from ._dask_models import fit_on_samples
from ._losses import LOSSES, margin_slack
from ._polish import hinge_intercept, refit_svm_dual
from ._ridge_closed_form import dominant_columns
from ._sample_working_set import cvxpy_on_samples
from .certificates import GAP_TOLERANCE, svm_certificate
from .formulations import svm_dual, svm_primal

__all__ = ["TwoNormSVM", "c_plans", "large_column_scale", "read_primal"]

_SUPPORT_RTOL = 1e-6
#: ``C`` times the mean squared norm of a sample, outside this range, is extreme: the
#: backends then see the problem with ``C = 1`` and the data scaled by ``sqrt(C)``.
_C_RANGE = (1e-2, 1e4)


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


def read_primal(est, problem, column_scale=None):
    """Set coef_, intercept_, alpha_, support_ from a solved hinge-type primal.

    ``column_scale``: the t of ``svm_primal``'s rescaled coordinates, ``w = v / t``.
    """
    v = problem.var_dict
    if column_scale is not None:
        w = v["v"].value / column_scale
    else:
        w = v["w"].value if "w" in v else v["w_pos"].value - v["w_neg"].value
    est.coef_ = np.asarray(w, dtype=float)
    est.intercept_ = float(problem.var_dict["b"].value)
    est.alpha_ = np.maximum(np.asarray(problem.constraints[0].dual_value, dtype=float), 0.0)
    est.support_ = support(est.alpha_)


def box_values(C, s, name):
    """The Parameter values of the 2-norm SVM's C: ``name`` = C, or ``"C_s"`` = C s
    (sample weights s; None: all 1)."""
    if s is not None:
        return {"C_s": C * s}
    return {name: C}


def read_dual(est, problem, X, y, upper):
    """Set alpha_, support_, coef_ = X'Y a, intercept_, margin_ from a solved SVM dual.

    ``upper`` is the box of the multipliers (``C s_i``, or inf for the squared hinge).
    """
    est.alpha_ = np.clip(problem.var_dict["alpha"].value, 0.0, upper)
    est.support_ = support(est.alpha_)
    est.coef_ = np.asarray(X.T @ (y * est.alpha_)).ravel()
    # The multiplier of y'a = 0 is the intercept (KKT of the primal/dual pair).
    est.intercept_ = float(problem.constraints[0].dual_value)
    est.margin_ = margin(est.coef_)


def row_squares(X):
    """``||x_i||^2`` for every row of X (scikit-learn's ``row_norms``: one pass, no copy)."""
    return row_norms(X, squared=True)


def c_plans(squares, C, *, hinge, sample_weight=None):
    """The problems to try, in order: ``(s, C_solved)`` with the data scaled by ``sqrt(s)``.

    ``1/2 ||w'||^2 + (C/s) sum_i loss(y_i (sqrt(s) x_i'w' + b))`` is the 2-norm SVM's
    objective divided by s, with ``w = sqrt(s) w'``, the same b and multipliers
    ``a = s a'``. A moderate C (``C`` times the mean squared sample norm in
    ``_C_RANGE``) is solved as it is, so that a re-fit with a new C re-solves the
    compiled problem. An extreme C is solved with s = C: the backends see
    ``a' in [0, 1]`` and objective values of order n. For the hinge with a huge C,
    first the problem at the largest moderate C: when no multiplier reaches that
    bound (separable data, the hard margin), no sample has slack and the solution
    is the same for every larger C (the certificate at C decides). With sample weights
    s the size is that of the boxes ``C s_i``: C times the mean of ``s_i ||x_i||^2``.
    ``squares``: the squared norms of the rows the backends see.
    """
    s = np.ones(squares.size) if sample_weight is None else sample_weight
    size = C * (s @ squares) / squares.size
    if _C_RANGE[0] <= size <= _C_RANGE[1]:
        return [(1.0, C)]
    plans = [(float(C), 1.0)]
    if hinge and size > _C_RANGE[1]:
        plans.insert(0, (1.0, C * _C_RANGE[1] / size))
    return plans


def large_column_scale(norms):
    """Column scales t bringing the large columns to the typical norm, or None.

    For :func:`solvers.formulations.svm_primal`'s ``column_scale``: a column whose norm
    exceeds 1e3 times the median norm of the nonzero columns
    (:func:`solvers._columns.large_columns`) is scaled to that median; the others keep
    ``t_j = 1``. None when no column is that large.
    """
    large, typical = large_columns(norms)
    if large.size == 0:
        return None
    scale = np.ones(norms.size)
    scale[large] = norms[large] / typical
    return scale


class TwoNormSVM(LinearModel):
    """The fit of the 2-norm SVMs: centring, the planned chain, CVXPY's transformations.

    The estimators declare data only: ``SVMDual`` sets ``_DUAL`` (001 eq. 2: the dual
    is always the problem CVXPY solves, and ``objective_`` its value), ``L2SVM`` has
    the parameter ``loss`` (the hinge or its square: the model ``"svm"`` or
    ``"svm_squared_hinge"``; without it, the hinge), and CVXPY solves the dual when
    d > n, the primal otherwise. The box of the multipliers is ``self._C_solved``
    times the sample weights.
    """

    #: Whether the dual (001 eq. 2) is the formulation whatever the shape (SVMDual).
    _DUAL = False
    #: The sample weights of the problem being solved, on the estimator while it is
    #: solved (None: all 1; a working set of samples swaps them).
    _sample_weight = None

    _SAMPLE_WORKING_SET = True
    #: Column scales for ``svm_primal`` while CVXPY solves data with dominant columns.
    _column_scale = None

    @property
    def _C_solved(self):
        """The C of the problem being solved (another one while a C plan runs)."""
        return self.__dict__.get("_C_plan", self.C)

    def _fit_problem(self, X, y, sample_weight):
        self._sample_weight = sample_weight
        try:
            self._fit_centred(X, y)
        finally:
            del self._sample_weight

    def _fit_centred(self, X, y):
        """The planned chain on the centred columns; the intercept moved back."""
        centred, shift = centre_offset_columns(X)
        squares = row_squares(centred)
        s = weights_or_ones(self._sample_weight, y.size)
        key = signature(centred, y, s)
        self._solve_planned(
            self._stats(
                centred,
                math.log1p(self.C * (s @ squares) / y.size),
                weighted=self._sample_weight is not None,
                warm=self._has_warm_state(key),
            ),
            lambda step, warm: self._attempt(centred, y, squares, step, warm),
            lambda: self._certify(centred, y),
        )
        # b absorbs the shift of the centred columns: x'w + b = (x - m)'w + b_centred.
        self.intercept_ = float(self.intercept_ - shift @ self.coef_)

    def _attempt(self, X, y, squares, step, warm):
        own = {"DUAL_CD": self._run_dual_cd, "NEWTON": self._run_newton}
        if step.backend in own:
            return own[step.backend](X, y, step.options, warm)
        return self._cvxpy_scaled(X, y, squares, step.backend, step.options)

    def _set_dual_solution(self, X, y, alpha, coef, intercept):
        """The fitted attributes from multipliers, ``w = X'Y a`` and b."""
        self.alpha_ = alpha
        self.support_ = support(alpha)
        self.coef_ = np.asarray(coef, dtype=float)
        self.intercept_ = float(intercept)
        self.margin_ = margin(self.coef_)
        self._set_full_objective(X, y)

    def _run_dual_cd(self, X, y, options, warm):
        """Dual coordinate descent with an exact intercept (:mod:`solvers._dual_cd`), from
        the last fit's multipliers on the same data (at another C, clipped into the box)."""
        from ._dual_cd import dual_coordinate_descent

        s = weights_or_ones(self._sample_weight, y.size)
        key = signature(X, y, s)
        rows = X
        if sp.issparse(X) and not (X.format == "csr" and X.has_canonical_format):
            rows = X.tocsr(copy=True)
            rows.sum_duplicates()  # the kernel reads each row's entries once
        result = dual_coordinate_descent(
            rows, y, self.C * s, loss=self._LOSS,
            **(self._warm_state("DUAL_CD", key) or {}), **own_options(options),
        )  # fmt: skip
        self._keep_warm_state(
            "DUAL_CD",
            key,
            {"alpha": result.alpha, "intercept": result.intercept, "spread": result.spread},
        )
        self._set_dual_solution(X, y, result.alpha, result.coef, result.intercept)
        free = np.count_nonzero((result.alpha > 0) & (result.alpha < self.C * s))
        # The exact solution on its pattern (when cheap) may finish an answer that stopped
        # short; judged at the estimator's tol, as the chain judges it.
        certificate = self._polish_if_cheap(X, y, X.shape[1], free)
        gap = result.relative_gap if certificate is None else certificate.relative_gap
        if not result.converged and gap > (GAP_TOLERANCE if self.tol is None else self.tol):
            return Outcome(
                "max_iter",
                f"not converged in {result.epochs} epochs (relative duality gap {gap:.2e})",
                record={"iterations": result.epochs, "work": result.work},
                certificate=certificate,
            )
        message = "" if result.converged else f"not converged in {result.epochs} epochs"
        return optimal(message, result.epochs, certificate, work=result.work)

    def _run_newton(self, X, y, options, warm):
        """The finite Newton method for the squared hinge (:mod:`solvers._newton`)."""
        from ._newton import squared_hinge_newton

        C, s = self.C, self._sample_weight
        coef, intercept = squared_hinge_newton(X, y, C, s)
        alpha = 2.0 * C * weights_or_ones(s, y.size) * hinge(X, y, coef, intercept)
        self._set_dual_solution(X, y, alpha, coef, intercept)
        return optimal()

    def _cvxpy_scaled(self, X, y, squares, name, options):
        """CVXPY's backend ``name``, with the dominant columns and an extreme C scaled out.

        Each C plan (:func:`c_plans`) is solved on the data scaled by ``sqrt(s)``; its
        answer is mapped back and certified at C. The outcome says what failed, with
        what to try when columns dwarf the others.
        """
        # Only when some columns dominate the rest together: otherwise the dual copes.
        norms = column_norms(X)
        dominant = dominant_columns(X, squares=norms * norms)
        self._column_scale = large_column_scale(norms) if dominant.size else None
        try:
            seen = squares
            if self._column_scale is not None:
                seen = row_squares(X @ sp.diags(1.0 / self._column_scale)) if sp.issparse(
                    X
                ) else row_squares(X / self._column_scale)
            plans = c_plans(
                seen, self.C, hinge=not self._SQUARED, sample_weight=self._sample_weight
            )
            outcome = None
            for scale, C_solved in plans:
                self._C_plan = C_solved
                data = X if scale == 1.0 else X * np.sqrt(scale)
                try:
                    outcome = cvxpy_on_samples(self, data, y, name, options)
                finally:
                    del self._C_plan
                if outcome.status != "optimal" or (scale, C_solved) == (1.0, self.C):
                    continue
                boxes = C_solved * weights_or_ones(self._sample_weight, y.size)
                if scale == 1.0 and np.any(self.alpha_ >= (1 - 1e-6) * boxes):
                    continue  # a multiplier at the smaller bound: not the solution at C
                self._set_dual_solution(
                    X, y, scale * self.alpha_, np.sqrt(scale) * self.coef_, self.intercept_
                )
                certificate = self._certify(X, y)
                if certificate.holds:
                    break
                outcome = Outcome(
                    "uncertified",
                    f"the solution of the problem scaled for C={self.C:g} does not certify "
                    f"on the original one: {certificate}",
                )
            if outcome.status != "optimal" and self._column_scale is not None:
                large = np.flatnonzero(self._column_scale != 1.0)
                outcome.message += (
                    f". X has columns whose norms dwarf the others (indices "
                    f"{large[:10].tolist()}): the 2-norm penalty is not invariant to column "
                    "scaling, and the backends could not resolve both scales. Standardise X "
                    "(e.g. sklearn.preprocessing.StandardScaler) or use "
                    "loss='squared_hinge', whose Newton backend handles them."
                )
            return outcome
        finally:
            self._column_scale = None

    def _fit_dask(self, X, y, sample_weight):
        """Fit a Dask X through a working set of samples, certified on every chunk
        (:func:`solvers._dask_models.fit_on_samples`)."""
        return fit_on_samples(self, X, y, sample_weight)

    def _lift_samples(self, X, y, alpha):
        """The full problem's attributes from the multipliers of every sample."""
        self.alpha_ = alpha
        self.support_ = support(alpha)
        self._set_full_objective(X, y)

    def _expected_failed_checks(self):
        """The scikit-learn checks the hinge-loss SVMs fail by design, each with its
        reason: pass them to ``check_estimator(est,
        expected_failed_checks=est._expected_failed_checks())``.

        Returns
        -------
        dict of str to str
            Check name to the reason it fails.
        """
        if getattr(self, "loss", "hinge") != "hinge":
            return {}
        reason = (
            "weights equal repeated rows to the certificate's tolerance (tol, a relative "
            "duality gap of 1e-6 by default; a certified answer is not polished further): "
            "the decision values agree to about 2e-8, not to the check's rtol of 1e-7; with "
            "tol=1e-12 the check passes (tests/solvers/test_sample_weight.py checks the "
            "weighted certificate at the repeated rows' optimum)."
        )
        return {
            "check_sample_weight_equivalence_on_dense_data": reason,
            "check_sample_weight_equivalence_on_sparse_data": reason,
        }

    def _certificate(self, X, y):
        return svm_certificate(
            X,
            y,
            self.coef_,
            self.intercept_,
            self._C_solved,
            loss=self._LOSS,
            alpha=self.alpha_,
            sample_weight=self._sample_weight,
        )

    def _polish(self, X, y):
        """The exact KKT solution on the support-vector pattern, else a better intercept."""
        s, squared = self._sample_weight, self._SQUARED
        refitted = refit_svm_dual(
            X,
            y,
            self.alpha_,
            self._C_solved,
            squared=squared,
            sample_weight=s,
            column_scale=self._column_scale,
        )
        if refitted is None:
            offsets = np.asarray(X @ self.coef_).ravel()
            self.intercept_ = hinge_intercept(offsets, y, squared=squared, sample_weight=s)
            return
        self._set_dual_solution(X, y, *refitted)

    def _primal_objective(self, X, y):
        """``1/2 ||w||^2 + C sum_i s_i loss_i`` at the fitted (coef_, intercept_)."""
        fitted = np.asarray(X @ self.coef_).ravel() + self.intercept_
        total = LOSSES[self._LOSS].value(y, fitted, self._sample_weight)
        return float(0.5 * self.coef_ @ self.coef_ + self._C_solved * total)

    @property
    def _LOSS(self):
        """The loss: ``loss`` (L2SVM), else the hinge (SVMDual, 001 eq. 2)."""
        return getattr(self, "loss", "hinge")

    @property
    def _SQUARED(self):
        return self._LOSS == "squared_hinge"

    @property
    def _MODEL(self):
        return "svm_squared_hinge" if self._SQUARED else "svm"

    # -- the formulation CVXPY solves ------------------------------------------------

    def _solves_dual(self, X):
        """The dual on the n x n Gram matrix: always for SVMDual, otherwise when d > n
        (the smaller problem); the primal while a column dominates (scaled columns)."""
        return self._column_scale is None and (self._DUAL or X.shape[1] > X.shape[0])

    def _build_problem(self, X, y, s):
        if self._solves_dual(X):
            return svm_dual(X, y, loss=self._LOSS, sample_weight=s)
        return svm_primal(X, y, loss=self._LOSS, sample_weight=s, column_scale=self._column_scale)

    def _parameter_values(self, X, y, s):
        if self._solves_dual(X) and self._SQUARED:
            if s is not None:
                return {"inv_2C_s": 0.5 / (self._C_solved * s)}
            return {"inv_2C": 0.5 / self._C_solved}
        return box_values(self._C_solved, s, "C")

    def _set_full_objective(self, X, y):
        """SVMDual's objective is the dual's value (001 eq. 2) while it solves the dual;
        otherwise the primal objective."""
        if self._DUAL and self._column_scale is None:
            self.objective_ = float(self.alpha_.sum() - 0.5 * self.coef_ @ self.coef_)
        else:
            self.objective_ = self._primal_objective(X, y)

    def _read_solution(self, problem, X, y, s):
        C, s = self._C_solved, weights_or_ones(s, y.size)
        if not self._solves_dual(X):
            read_primal(self, problem, self._column_scale)
            self.margin_ = margin(self.coef_)
            self.objective_ = self._primal_objective(X, y)
            return
        read_dual(self, problem, X, y, upper=np.inf if self._SQUARED else C * s)
        # The dual value (the primal optimum): evaluating the primal at w = X'Ya would
        # amplify the solver's tolerance on the margins.
        ridge = self.alpha_ @ (self.alpha_ / s) / (4 * C) if self._SQUARED else 0.0
        self.objective_ = float(self.alpha_.sum() - 0.5 * self.coef_ @ self.coef_ - ridge)
