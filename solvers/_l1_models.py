"""The L1-penalised models (004 eq. 3, 6, 7): weights, lam_max, and their backends.

``L1SVM``, ``SVM2``, ``WeightedLasso`` and ``AdaptiveLasso`` share the penalty
``lam sum_j W_j |w_j|``, its weights convention (each ``>= 0`` or ``+inf``: 0
unpenalised, ``+inf`` excluded) and how a fit runs:

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
    fingerprint,
    optimal,
    own_options,
    signature,
)
from ._chain import Outcome
from ._columns import centre_offset_columns
from ._losses import SQUARES
from ._penalty import check_penalty_weights, l1_lam_max
from ._sample_working_set import SampleWorkingSet
from .certificates import GAP_TOLERANCE
from .exceptions import PathWarning

__all__ = ["WeightedL1Penalty"]

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


class WeightedL1Penalty(SampleWorkingSet):
    """The penalty ``lam sum_j W_j |w_j|`` (004 eq. 3-7): hyperparameters, weights, lam_max.

    Mixed into the estimators whose formulation takes the penalty as the one DPP
    Parameter ``lam_w = lam * weights`` (a re-fit with a new lam or new weights
    re-solves the compiled problem).

    Subclasses set ``_MODEL``, ``path`` (the exact path function of
    :mod:`solvers.path`) and ``_CLOSED_FORM_ZERO`` (True when, with every weight
    positive, the solution for ``lam >= lam_max`` is ``coef = 0`` and
    ``intercept = mean(y)``: the lasso and SVM2), and implement
    ``_set_solution(X, y, coef, intercept)`` and ``_dual_vector(X, y)`` (the dual
    point ``v`` of the fitted attributes, whose constraints are ``|X_j'v| <= lam W_j``).
    """

    _parameter_constraints = {
        "lam": [POSITIVE],
        "weights": ["array-like", None],
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }
    _dpp_params = ("lam", "weights")
    _CLOSED_FORM_ZERO = False

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

    def _penalty_weights(self, X, y):
        """The weights of every feature of X (each >= 0 or +inf)."""
        return check_penalty_weights(self.weights, X.shape[1])

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
        """The coefficients of the problem on the columns of X, whose weights are finite.

        Offset columns are centred (the intercept absorbs their means); above lam_max
        the closed form; otherwise the planned chain. A subclass may reduce the
        problem before this (the lasso through the d x d Gram matrix when n > d).

        Returns
        -------
        ndarray of shape (X.shape[1],)
        """
        X, shift = centre_offset_columns(X)
        self._kept_weights = weights
        if not self._solve_zero(X, y):
            hardness = math.log(self._zero_lam_max / self.lam) if self._zero_lam_max > 0 else 0.0
            key = signature(X, y, self._weights_or_ones(X.shape[0]))
            self._solve_planned(
                self._stats(X, hardness, warm=self._has_warm_state(key)),
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

        key = signature(X, y, self._weights_or_ones(X.shape[0]))
        start = self._warm_state("CD", key) or {}
        if warm is not None:
            start = {**start, "coef": warm[0], "intercept": warm[1]}
        result = l1_coordinate_descent(
            X, y, self.lam, self._kept_weights, loss=self._LOSS,
            sample_weight=self._sample_weight, **start, **own_options(options),
        )  # fmt: skip
        self._keep_warm_state(
            "CD",
            key,
            {"coef": result.coef, "intercept": result.intercept, "working_set": result.working_set},
        )
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

        key = signature(X, y, self._weights_or_ones(X.shape[0]))
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
                outcome = self._cvxpy_on_samples(X_unit, y, name, options)
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
        s = self._weights_or_ones(n)
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
                outcome = self._cvxpy_on_samples(X[:, working], y, name, options)
                if outcome.status == "optimal":
                    outcome = self._restricted_outcome(X[:, working], y, "features")
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
        """Set the full problem's attributes from the solution of a reduced one."""
        self._set_solution(X, y, coef, intercept)

    def _parameter_values(self, X, y):
        values = {"lam_w": self.lam * self._kept_weights}
        if self._weighted:
            values["sample_weight"] = self._sample_weight
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
