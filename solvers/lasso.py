"""The weighted lasso of 004 eq. (3) and the adaptive lasso (weights from an initial fit)."""

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ._base import BACKEND_CONSTRAINTS, POSITIVE, LinearRegressor, WeightedL1Penalty
from .formulations import weighted_lasso
from .ridge import ridge_closed_form

__all__ = ["WeightedLasso", "AdaptiveLasso"]

# Initial coefficients below this fraction of the largest are round-off: infinite weight.
_ZERO_RTOL = 1e-10


class WeightedLasso(WeightedL1Penalty, LinearRegressor):
    """The weighted lasso, eq. (3) of 004, with an unpenalised intercept.

    Primal (solved): ``min_{beta, beta0} ||y - X beta - beta0||^2 + lam sum_j W_j |beta_j|``.
    Dual: ``max_u -||u||^2/4 + u'y  s.t.  |X'u| <= lam W, 1'u = 0``, with the residual
    ``u = 2 (y - X beta - beta0)``. Same as ``sklearn.linear_model.Lasso(alpha=lam / (2 n))``
    on the columns ``X_j / W_j`` (then ``beta_j = beta'_j / W_j``).

    Parameters
    ----------
    lam : float > 0, default=1.0
    weights : array of shape (n_features,), optional
        Nonnegative penalty weights W (default 1). A re-fit on the same data with a new
        lam or new weights re-solves the compiled problem (DPP Parameter ``lam_w``).
    solver : str or list of str, optional
        CVXPY backend or fallback chain; default ``DEFAULT_BACKENDS["QP"]``.
    solver_options : dict, optional

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    objective_ : float
        The objective above, evaluated at (coef_, intercept_).
    problem_ : cvxpy.Problem
    backend_ : str
    """

    def _build_problem(self, X, y):
        return weighted_lasso(X, y)

    def _fit_xy(self, X, y):
        problem = self._solve(X, y)
        self.coef_ = np.asarray(problem.var_dict["beta"].value, dtype=float)
        self.intercept_ = float(problem.var_dict["beta0"].value)
        residual = y - np.asarray(X @ self.coef_).ravel() - self.intercept_
        penalty = self._parameter_values(X, y)["lam_w"] @ np.abs(self.coef_)
        self.objective_ = float(residual @ residual + penalty)


class AdaptiveLasso(WeightedLasso):
    """The adaptive lasso: the weighted lasso with ``W_j = |beta_init_j|^-gamma`` (004 eq. (3)).

    ``beta_init`` is the least-squares fit (``init="ols"``; the minimum-norm solution
    when X has fewer rows than columns) or the ridge fit with penalty ``init_lam``
    (``init="ridge"``), both with an unpenalised intercept. A feature with
    ``beta_init_j = 0`` (below 1e-10 of the largest ``|beta_init|``: round-off) has an
    infinite weight: its coefficient is fixed at 0 (it is left out of the problem).

    Parameters
    ----------
    lam : float > 0, default=1.0
    gamma : float > 0, default=1.0
    init : {"ols", "ridge"}, default="ols"
    init_lam : float > 0, default=1.0
        Ridge penalty of the initial fit when ``init="ridge"``.
    solver, solver_options
        As in :class:`WeightedLasso`.

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
        The weights used (``inf`` where ``beta_init_j = 0``).
    coef_, intercept_, objective_, problem_, backend_
        As in :class:`WeightedLasso`; ``objective_`` counts only the features kept.
    """

    _parameter_constraints = {
        "lam": [POSITIVE],
        "gamma": [POSITIVE],
        "init": [StrOptions({"ols", "ridge"})],
        "init_lam": [Interval(Real, 0, None, closed="neither")],
        **BACKEND_CONSTRAINTS,
    }
    _dpp_params = ("lam", "gamma")

    def __init__(
        self, lam=1.0, *, gamma=1.0, init="ols", init_lam=1.0, solver=None, solver_options=None
    ):
        self.lam = lam
        self.gamma = gamma
        self.init = init
        self.init_lam = init_lam
        self.solver = solver
        self.solver_options = solver_options

    def _penalty_weights(self, X, y):
        return self.weights_[self._kept]

    def _fit_xy(self, X, y):
        beta = np.abs(_initial_fit(X, y, self.init_lam if self.init == "ridge" else 0.0))
        beta[beta <= _ZERO_RTOL * beta.max(initial=0.0)] = 0.0  # round-off, not a coefficient
        with np.errstate(divide="ignore"):
            self.weights_ = beta**-self.gamma
        self._kept = np.flatnonzero(np.isfinite(self.weights_))
        super()._fit_xy(X[:, self._kept], y)
        coef = np.zeros(X.shape[1])
        coef[self._kept] = self.coef_
        self.coef_ = coef


def _initial_fit(X, y, lam):
    """Least squares (lam = 0, minimum norm) or ridge coefficients, intercept unpenalised."""
    X = X.toarray() if hasattr(X, "toarray") else X
    return ridge_closed_form(X - X.mean(axis=0), y - y.mean(), lam)[1]
