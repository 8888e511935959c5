"""The L1-penalised models (004 eq. 3, 6, 7): weights, lam_max, and their backends.

``L1SVM``, ``SVM2``, ``WeightedLasso`` and ``AdaptiveLasso`` share the penalty
``lam sum_j W_j |w_j|``, its weights convention (each ``>= 0`` or ``+inf``: 0
unpenalised, ``+inf`` excluded) and how a fit runs, all in :class:`WeightedL1Model`;
the estimators only declare their loss (``_LOSS``: the hinge of eq. 6, the squared
hinge of eq. 7, the squares of eq. 3), model key, exact path and whether their
weights are adaptive:

1. the features of infinite weight are left out (their coefficients are 0) and the
   offset columns centred (a Unix timestamp; exact with the free intercept,
   :func:`solvers._columns.centre_offset_columns`);
2. above lam_max the closed form (every coefficient 0, the best intercept);
3. otherwise the planned chain (:mod:`solvers._planner`) over the model's backends:
   the library's own (``"CD"``, ``"HOMOTOPY"``, ``"COLUMN_GENERATION"``), which take
   the data as it is, and CVXPY's, which solve the formulation on equilibrated
   columns (unit norms, weights divided by them: the same problem, but a backend no
   longer sees a column at 1e12 beside one at 1), on a working set of features when
   there are many more features than samples and on a working set of samples when
   there are many samples.
"""

import math
import warnings

import numpy as np
import scipy.sparse as sp

from sparsify.utils import column_norms

from ._base import (
    BACKEND_CONSTRAINTS,
    CONTROL_CONSTRAINTS,
    POSITIVE,
    LinearModel,
    fingerprint,
    optimal,
    own_options,
    signature,
    weights_or_ones,
)
from ._centred_gram import least_squares_factor
from ._chain import Outcome
from ._columns import centre_offset_columns
from ._dask_models import fit_lasso, fit_on_samples
from ._l2_svm import hinge, read_primal, support
from ._losses import LOSSES, SQUARES
from ._memory import dense_fits
from ._penalty import check_penalty_weights, l1_lam_max, l1_value
from ._polish import hinge_intercept, refit_on_support
from ._ridge_closed_form import ridge_with_intercept
from ._sample_working_set import cvxpy_on_samples, restricted_outcome
from .certificates import (
    GAP_TOLERANCE,
    _l1_svm_margin_multipliers,
    l1_svm_certificate,
    lasso_certificate,
    svm2_certificate,
)
from .exceptions import PathWarning
from .formulations import l1_svm, svm2, weighted_lasso

__all__ = ["WeightedL1Model", "adaptive_weights"]

#: The formulation (:mod:`solvers.formulations`) of each loss with the weighted L1 penalty.
_FORMULATIONS = {"hinge": l1_svm, "squared_hinge": svm2, "squares": weighted_lasso}
#: Initial coefficients below this fraction of the largest are round-off: infinite weight.
_ZERO_RTOL = 1e-10

#: Working sets of features are used by the CVXPY backends when the data has at
#: least this many features and more than twice as many features as samples.
_WS_MIN_FEATURES = 500
#: The first working set holds at least this many features (n / 2 if more).
_WS_FIRST_FEATURES = 100
#: Relative excess ``|X_j'v| / (lam W_j) - 1`` above which a feature outside the
#: working set violates its dual constraint.
_WS_VIOLATION = 1e-9
#: Rounds of a working-set loop before it gives up.
WS_MAX_ROUNDS = 30


def many_features(X):
    """Whether the CVXPY backends solve on a working set of features."""
    n, d = X.shape
    return d >= _WS_MIN_FEATURES and d > 2 * n


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
    _dpp_params = ("lam", "weights")
    _LOSS = None
    _CLOSED_FORM_ZERO = False
    _ADAPTIVE = False
    #: The sample weights of the problem being solved, on the estimator while it is
    #: solved (None: all 1; a working set of samples or the lasso's Gram factor swaps
    #: them).
    _sample_weight = None

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

    @property
    def _SAMPLE_WORKING_SET(self):
        """The hinge-type losses solve on a working set of samples when there are many
        (:func:`solvers._sample_working_set.cvxpy_on_samples`)."""
        return self._LOSS != "squares"

    def _penalty_weights(self, X, y):
        """The weights of every feature of X (each >= 0 or +inf)."""
        if self._ADAPTIVE:
            self.weights_ = adaptive_weights(
                X, y, self.gamma, self.init, self.init_lam, sample_weight=self._sample_weight
            )
            return self.weights_
        return check_penalty_weights(self.weights, X.shape[1])

    def _fit_problem(self, X, y, sample_weight):
        """The binary (labels -1/+1) or real problem on (X, y)."""
        self._sample_weight = sample_weight
        try:
            if self._LOSS != "squares":
                self._fit_penalised(X, y)
                return
            # The intercept is free: fit y less its (s-weighted) mean and move the
            # intercept back, exactly; with an offset such as a Unix timestamp
            # (y = 1.7e9 + signal) the residuals would otherwise cancel to the offset's
            # rounding.
            offset = float(np.average(y, weights=sample_weight))
            self._fit_penalised(X, y - offset)
            self.intercept_ += offset
        finally:
            del self._sample_weight

    def _fit_penalised(self, X, y):
        """Solve on the features of finite weight; the excluded ones get coefficient 0."""
        weights = self._full_weights = self._penalty_weights(X, y)
        finite = np.isfinite(weights)
        if finite.all():
            self.coef_ = self._fit_kept(X, y, weights)
            return
        kept = np.flatnonzero(finite)
        coef = np.zeros(X.shape[1])
        if kept.size == 0:
            # No feature left: the constant model is the answer (zero coefficients, the
            # best intercept), found and certified as the fit on one zero column.
            warnings.warn(
                f"every feature's weight is +inf, so {type(self).__name__} keeps no "
                "feature: its model is the constant intercept_ (coef_ all 0).",
                UserWarning,
                stacklevel=4,
            )
            zero = sp.csc_matrix((X.shape[0], 1)) if sp.issparse(X) else np.zeros((X.shape[0], 1))
            self._fit_kept(zero, y, np.ones(1))
        else:
            coef[kept] = self._fit_kept(X[:, kept], y, weights[kept])
        self.coef_ = coef

    def _fit_kept(self, X, y, weights):
        """The lasso with n > 2 (d + 1): the formulation on a factor of the centred Gram matrix.

        A square root R of the (d + 1) x (d + 1) Gram matrix of the centred data
        ``[Xc, yc]`` gives ``||yc - Xc b||^2 = ||r - R_X b||^2`` for every b. With
        sample weights s the data are centred at their s-weighted means and the rows
        scaled by ``sqrt(s_i)`` (then ``sum_i s_i (yc_i - xc_i'b)^2 = ||r - R_X b||^2``),
        so the problem on the factor is unweighted. Its columns are equilibrated
        (:func:`solvers._centred_gram.least_squares_factor`), as :meth:`_fit_planned` does with X.
        :func:`solvers.formulations.weighted_lasso` (or the exact path, which heads the
        default chain) is solved on the 2 (d + 1) rows ``[R_X; -R_X] / sqrt(2)`` with
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
        n, d = X.shape
        if self._LOSS != "squares" or n <= 2 * (d + 1) or not dense_fits(X, (d + 1) ** 2):
            return self._fit_planned(X, y, weights)
        s = self._sample_weight
        factor = least_squares_factor(X, y, s)
        scales = np.where(factor.norms > 0, factor.norms, 1.0)
        self._sample_weight = None  # the factor's problem is unweighted
        try:
            coef = self._fit_planned(factor.rows, factor.targets, weights / scales) / scales
        finally:
            self._sample_weight = s
        self._kept_weights = weights
        self.coef_ = coef
        self.intercept_ = float(factor.y_mean - factor.x_mean @ coef)
        # The norms from the Gram matrix are X's own only without sample weights.
        certificate = self._certificate(X, y, norms=factor.norms if s is None else None)
        self.objective_ = certificate.primal
        certificate = self._with_tolerance(self._certify(X, y, certificate))
        if not certificate.holds:
            return self._fit_planned(X, y, weights)
        self.certificate_, self.dual_gap_ = certificate, certificate.relative_gap
        return self.coef_

    def _fit_planned(self, X, y, weights):
        """The coefficients on the columns of X: offset columns centred (the intercept
        absorbs their means); above lam_max the closed form; otherwise the planned
        chain."""
        X, shift = centre_offset_columns(X)
        self._kept_weights = weights
        if not self._solve_zero(X, y):
            hardness = math.log(self._zero_lam_max / self.lam) if self._zero_lam_max > 0 else 0.0
            key = signature(X, y, weights_or_ones(self._sample_weight, X.shape[0]))
            self._solve_planned(
                self._stats(
                    X, hardness, weighted=self._sample_weight is not None,
                    warm=self._has_warm_state(key),
                ),
                lambda step, warm: self._attempt(X, y, step, warm),
                lambda: self._certify(X, y),
            )
        self.intercept_ = float(self.intercept_ - shift @ self.coef_)
        return self.coef_

    def _solve_zero(self, X, y):
        """Set the closed-form solution when lam >= lam_max (every coefficient 0).

        Returns True when it applies (and its certificate holds). With every weight
        positive, ``coef = 0`` and ``intercept = mean_s(y)`` (the mean weighted by the
        sample weights s) is optimal exactly when
        ``lam >= max_j |2 X_j'S (y - mean_s(y))| / W_j`` (the lasso, 004 eq. 3, and
        SVM2, eq. 7, whose squared hinge is ``(y_i - f_i)^2`` at that point). The same
        quantity estimates lam_max for the planner otherwise (``_zero_lam_max``).
        """
        weights = self._kept_weights
        s = self._sample_weight
        intercept = SQUARES.null_intercept(y, s)
        null = np.full(y.size, intercept)
        self._zero_lam_max = l1_lam_max(X.T @ SQUARES.dual_point(y, null, s), weights)
        if not (self._CLOSED_FORM_ZERO and np.all(weights > 0)) or self.lam < self._zero_lam_max:
            return False
        self._set_solution(X, y, np.zeros(X.shape[1]), intercept)
        certificate = self._with_tolerance(self._certificate(X, y))
        if not certificate.holds:
            return False
        self.backend_ = "closed_form"
        self.solve_attempts_ = [
            {"backend": "closed_form", "status": "optimal", "message": "lam >= lam_max",
             "reason": "every coefficient is 0 at lam >= lam_max", "certificate": certificate}
        ]
        self.certificate_, self.dual_gap_ = certificate, certificate.relative_gap
        self.n_iter_ = 1
        self.__dict__.pop("problem_", None)
        return True

    def _attempt(self, X, y, step, warm):
        """Run backend ``step.backend`` on (X, y); set the fitted attributes."""
        own = {
            "CD": self._run_coordinate_descent,
            "HOMOTOPY": self._run_homotopy,
            "COLUMN_GENERATION": self._run_column_generation,
        }
        if step.backend in own:
            return own[step.backend](X, y, step.options, warm)
        return self._cvxpy_equilibrated(X, y, step.backend, step.options)

    def _run_homotopy(self, X, y, options, warm):
        """The exact path of :mod:`solvers.path` run down to lam.

        With ``max_steps`` (a budget of breakpoints) a path that stops above lam hands
        its last breakpoint to the next backend as a warm start.
        """
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PathWarning)
            path = self.path(
                X, y, self._kept_weights, sample_weight=self._sample_weight, lam_min=self.lam,
                return_path=False, **own_options(options),
            )  # fmt: skip
        stopped = [w for w in caught if issubclass(w.category, PathWarning)]
        if stopped:
            last = path.lams[-1]
            self._set_solution(X, y, *path.at(last))  # kept if no backend does better
            return Outcome(
                "max_iter", str(stopped[0].message), point=path.at(last),
                record={"iterations": path.n_steps},
            )  # fmt: skip
        self._set_solution(X, y, *path.at(self.lam))
        return optimal(iterations=path.n_steps)

    def _run_coordinate_descent(self, X, y, options, warm):
        """Coordinate descent on working sets of features with Anderson acceleration
        (:mod:`solvers._coordinate_descent`), from the last fit's answer and working set
        on the same data or the point a stopped backend handed over."""
        from ._coordinate_descent import l1_coordinate_descent

        key = signature(X, y, weights_or_ones(self._sample_weight, X.shape[0]))
        result = l1_coordinate_descent(
            X, y, self.lam, self._kept_weights, loss=self._LOSS,
            sample_weight=self._sample_weight, **self._descent_start("CD", key, warm),
            **own_options(options),
        )  # fmt: skip
        self._keep_descent("CD", key, result)
        self._set_solution(X, y, result.coef, result.intercept)
        if not result.converged and result.relative_gap > GAP_TOLERANCE:
            return Outcome(
                "max_iter",
                f"not converged in {result.iterations} rounds (relative duality gap "
                f"{result.relative_gap:.2e})",
                record={"iterations": result.iterations},
            )
        certificate = self._polish_if_cheap(X, y, X.shape[0], np.count_nonzero(result.coef))
        message = "" if result.converged else f"not converged in {result.iterations} rounds"
        return optimal(message, iterations=result.iterations, certificate=certificate)

    def _run_column_generation(self, X, y, options, warm):
        """HiGHS's dual simplex on a working set of features
        (:func:`solvers._lp_column_generation.l1_svm_column_generation`), warm-started
        from the last fit's set and basis on the same data."""
        from ._lp_column_generation import l1_svm_column_generation

        key = signature(X, y, weights_or_ones(self._sample_weight, X.shape[0]))
        result = l1_svm_column_generation(
            X,
            y,
            self.lam,
            self._kept_weights,
            sample_weight=self._sample_weight,
            **(self._warm_state("COLUMN_GENERATION", key) or {}),
            **own_options(options),
        )
        self._keep_warm_state(
            "COLUMN_GENERATION", key, {"working": result.working, "basis": result.basis}
        )
        self._set_dual_solution(X, y, result.coef, result.intercept, result.alpha)
        message = "" if result.converged else f"not converged in {result.rounds} rounds"
        # result.certificate is _certificate's (l1_svm_certificate with alpha_); one that
        # fails goes through _certify, which polishes.
        held = result.certificate if result.certificate.holds else None
        return Outcome("optimal", message, certificate=held, record={"iterations": result.rounds})

    # -- CVXPY's backends -------------------------------------------------------

    def _cvxpy_equilibrated(self, X, y, name, options):
        """CVXPY's backend ``name`` on the columns scaled to unit norm; coef_ mapped back.

        With ``c_j = m_j b_j`` the columns ``X_j / m_j`` have unit norm and the weights
        become ``W_j / m_j``: the problem (and its certificate) is the same. The answer
        is certified in those units (polished if needed) before it is mapped back.
        """
        norms = column_norms(X)
        scales = np.where(norms > 0, norms, 1.0)
        X_unit = X @ sp.diags(1.0 / scales) if sp.issparse(X) else X / scales
        weights = self._kept_weights
        self._kept_weights = weights / scales
        try:
            if many_features(X_unit):
                outcome = self._cvxpy_on_features(X_unit, y, name, options)
            else:
                outcome = cvxpy_on_samples(self, X_unit, y, name, options)
        finally:
            self._kept_weights = weights
        if outcome.status == "optimal":
            self.coef_ = self.coef_ / scales
        return outcome

    def _cvxpy_on_features(self, X, y, name, options):
        """The formulation on a growing set of features until the full certificate holds.

        The outer loop of skglm, celer and Blitz: start from the features most
        correlated with the residual at the zero solution (and every unpenalised one,
        and the last fit's set on the same data); solve the formulation on them
        (certified on that restricted problem); extend the solution by zeros; while
        some feature outside the set violates its dual constraint
        ``|X_j'v| <= lam W_j``, add the most violating ones, as many as the set holds.
        """
        weights = self._kept_weights
        n, d = X.shape
        s = weights_or_ones(self._sample_weight, n)
        key = fingerprint(X, y, s)
        working = self._warm_state("FEATURES", key)
        if working is None:
            scores = np.abs(np.asarray(X.T @ (s * (y - np.average(y, weights=s)))).ravel())
            with np.errstate(divide="ignore"):
                scores = np.where(weights > 0, scores / weights, np.inf)
            size = min(d, max(_WS_FIRST_FEATURES, n // 2))
            working = np.sort(np.argsort(-scores, kind="stable")[:size])
        working = np.union1d(working, np.flatnonzero(weights == 0))
        for _ in range(WS_MAX_ROUNDS):
            self._kept_weights = weights[working]
            try:
                outcome = cvxpy_on_samples(self, X[:, working], y, name, options)
                if outcome.status == "optimal":
                    outcome = restricted_outcome(self, X[:, working], y, "features")
            finally:
                self._kept_weights = weights
            if outcome.status != "optimal":
                return outcome
            coef = np.zeros(d)
            coef[working] = self.coef_
            self._extend(X, y, coef, self.intercept_)
            # Features outside the set whose dual constraint |X_j'v| <= lam W_j fails
            # must join.
            correlations = np.abs(np.asarray(X.T @ self._dual_vector(X, y)).ravel())
            with np.errstate(divide="ignore", invalid="ignore"):
                excess = correlations / (self.lam * weights) - 1.0
            excess[working] = -np.inf
            violators = np.flatnonzero(excess > _WS_VIOLATION)
            if violators.size == 0:
                break
            violators = violators[np.argsort(-excess[violators], kind="stable")]
            working = np.union1d(working, violators[: max(working.size, 10)])
        self._keep_warm_state("FEATURES", key, working)
        self._certify(X, y)  # polished here, in the units the backend saw
        return optimal(f"on a working set of {working.size} of {d} features")

    def _extend(self, X, y, coef, intercept):
        """Set the full problem's attributes from the solution of a reduced one.

        The multipliers of the 1-norm SVM's restricted LP are a dual point of the full
        one (same samples): they are kept rather than the margin LP solved on every
        feature."""
        if self._LOSS != "hinge":
            self._set_solution(X, y, coef, intercept)
            return
        self.coef_, self.intercept_ = coef, float(intercept)
        self._set_objective(X, y)

    # -- what depends on the loss --------------------------------------------------

    def _build_problem(self, X, y, s):
        return _FORMULATIONS[self._LOSS](X, y, sample_weight=s)

    def _read_solution(self, problem, X, y, s):
        if self._LOSS == "squares":
            beta = problem.var_dict["beta"].value
            self._set_solution(X, y, beta, problem.var_dict["beta0"].value)
            return
        read_primal(self, problem)
        self._set_objective(X, y)

    def _set_objective(self, X, y):
        """``objective_``: the loss plus ``lam sum_j W_j |w_j|`` at (coef_, intercept_)."""
        fitted = np.asarray(X @ self.coef_).ravel() + self.intercept_
        loss = LOSSES[self._LOSS].value(y, fitted, self._sample_weight)
        self.objective_ = loss + l1_value(self.lam, self._kept_weights, self.coef_)

    def _set_solution(self, X, y, coef, intercept):
        """The fitted attributes at (coef, intercept): the SVMs' multipliers ``alpha_``
        (004 eq. 6's margin LP, eq. 7's KKT map) and ``support_``, and ``objective_``."""
        self.coef_, self.intercept_ = np.asarray(coef, dtype=float), float(intercept)
        if self._LOSS == "hinge":
            alpha = _l1_svm_margin_multipliers(
                X, y, self.coef_, self.intercept_, self.lam, self._kept_weights,
                self._sample_weight,
            )  # fmt: skip
            if alpha is None:  # not optimal: the certificate will say so
                inside = hinge(X, y, self.coef_, self.intercept_) > 0
                alpha = weights_or_ones(self._sample_weight, y.size) * inside
            self._set_multipliers(alpha)
        elif self._LOSS == "squared_hinge":
            self._set_multipliers(self._loss_dual_point(X, y))
        self._set_objective(X, y)

    def _set_multipliers(self, alpha):
        self.alpha_ = alpha
        self.support_ = support(alpha)

    def _set_dual_solution(self, X, y, coef, intercept, alpha):
        """The fitted attributes from a solution and the LP's multipliers."""
        self.coef_, self.intercept_ = np.asarray(coef, dtype=float), float(intercept)
        self._set_multipliers(alpha)
        self._set_objective(X, y)

    def _lift_samples(self, X, y, alpha):
        """The full problem's attributes from the multipliers of every sample."""
        self._set_multipliers(alpha)
        self._set_objective(X, y)

    def _loss_dual_point(self, X, y):
        """The loss's dual point at the fitted values: ``a = 2 s [1 - y f]_+`` (004 eq.
        7's KKT map) or the weighted residual ``2 s (y - f)`` (eq. 3)."""
        fitted = np.asarray(X @ self.coef_).ravel() + self.intercept_
        return LOSSES[self._LOSS].dual_point(y, fitted, self._sample_weight)

    def _dual_vector(self, X, y):
        """The dual point ``v`` of the fitted attributes, whose constraints are
        ``|X_j'v| <= lam W_j``: ``Y a`` for the SVMs, the residual for the lasso."""
        if self._LOSS == "hinge":
            return y * self.alpha_
        point = self._loss_dual_point(X, y)
        return y * point if LOSSES[self._LOSS].labels else point

    def _certificate(self, X, y, norms=None):
        s, weights = self._sample_weight, self._kept_weights
        coef, intercept = self.coef_, self.intercept_
        if self._LOSS == "hinge":
            return l1_svm_certificate(
                X, y, coef, intercept, self.lam, weights, alpha=self.alpha_, sample_weight=s
            )
        if self._LOSS == "squared_hinge":
            return svm2_certificate(X, y, coef, intercept, self.lam, weights, sample_weight=s)
        return lasso_certificate(
            X, y, coef, intercept, self.lam, weights, sample_weight=s, norms=norms
        )

    def _polish(self, X, y):
        """The exact optimum on the backend's pattern (:mod:`solvers._polish`); for the
        1-norm SVM, the best intercept."""
        s = self._sample_weight
        if self._LOSS == "hinge":
            offsets = np.asarray(X @ self.coef_).ravel()
            intercept = hinge_intercept(offsets, y, squared=False, sample_weight=s)
            self._set_solution(X, y, self.coef_, intercept)
            return
        rows = {"rows": "margin"} if self._LOSS == "squared_hinge" else {}
        refitted = refit_on_support(
            X, y, self.coef_, self.intercept_, self.lam, self._kept_weights,
            sample_weight=s, **rows,
        )  # fmt: skip
        if refitted is not None:
            self._set_solution(X, y, *refitted)

    def _fit_dask(self, X, y, sample_weight):
        """Fit a Dask X: the lasso through its centred Gram matrix
        (:func:`solvers._dask_models.fit_lasso`), the SVMs through a working set of
        samples (:func:`solvers._dask_models.fit_on_samples`), certified over its chunks."""
        if self._LOSS == "squares":
            return fit_lasso(self, X, y, sample_weight)
        return fit_on_samples(self, X, y, sample_weight)

    def _parameter_values(self, X, y, s):
        values = {"lam_w": self.lam * self._kept_weights}
        if s is not None:
            values["sample_weight"] = s
        return values

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
        """
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PathWarning)
            path = cls.path(X, y, weights, sample_weight=sample_weight, max_steps=1)
            return float(path.lams[0])


def adaptive_weights(X, y, gamma, init, init_lam, *, sample_weight=None):
    """The adaptive lasso's weights ``|b_init|^-gamma`` (004 eq. 3), b_init from least
    squares (``init="ols"``) or ridge at ``init_lam``; a coefficient at round-off (below
    1e-10 of the largest) is 0, its weight +inf."""
    lam = init_lam if init == "ridge" else 0.0
    beta = np.abs(ridge_with_intercept(X, y, lam, sample_weight=sample_weight)[0])
    beta[beta <= _ZERO_RTOL * beta.max(initial=0.0)] = 0.0  # round-off, not a coefficient
    with np.errstate(divide="ignore"):
        return beta**-gamma
