"""The weighted lasso of 004 eq. (3) and the adaptive lasso (weights from an initial fit)."""

from numbers import Real

from sklearn.base import RegressorMixin
from sklearn.utils._param_validation import Interval, StrOptions

from ._base import BACKEND_CONSTRAINTS, CONTROL_CONSTRAINTS, POSITIVE
from ._l1_models import WeightedL1Model
from .path import lasso_path

__all__ = ["WeightedLasso", "AdaptiveLasso"]


class WeightedLasso(RegressorMixin, WeightedL1Model):
    """The weighted lasso, eq. (3) of 004, with an unpenalised intercept.

    Primal (solved): ``min_{beta, beta0} ||y - X beta - beta0||^2 + lam sum_j W_j |beta_j|``.
    Dual: ``max_u -||u||^2/4 + u'y  s.t.  |X'u| <= lam W, 1'u = 0``, with the residual
    ``u = 2 (y - X beta - beta0)``. Same as ``sklearn.linear_model.Lasso(alpha=lam / (2 n))``
    on the columns ``X_j / W_j`` (then ``beta_j = beta'_j / W_j``).

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``sum_i s_i (y_i - x_i'beta - beta0)^2 + lam sum_j W_j |beta_j|``; an integer weight
    is the same as repeating the row, a weight of 0 the same as dropping it. Peer:
    ``Lasso(alpha=lam / (2 sum_i s_i))`` with the same ``sample_weight`` (scikit-learn
    rescales the weights to sum to n and divides the loss by 2n). When n > 2 (d + 1)
    the weighted problem is reduced exactly to an unweighted one on d + 1 rows (see
    ``_fit_kept``), which the exact path solves; otherwise the exact path, which is
    unweighted, is left out of the default chain.

    Parameters
    ----------
    lam : float > 0, default=1.0
        The penalty lam of eq. (3) (``alpha = lam / (2 n)`` in scikit-learn's Lasso);
        every coefficient is 0 from :meth:`lam_max` up.
    weights : array of shape (n_features,), optional
        Penalty weights W, each >= 0 or +inf (default 1; 0: unpenalised, +inf:
        excluded). A re-fit on the same data with a new lam or new weights re-solves
        the compiled problem (DPP Parameter ``lam_w``).
    solver : str or list of str, optional
        A backend of this model, or a chain of them tried in order; names are
        case-insensitive and ``solvers.available_backends("WeightedLasso")`` lists them:
        ``"CD"`` (coordinate descent on working sets of features with Anderson
        acceleration), ``"HOMOTOPY"`` (the exact LARS path, :func:`solvers.path.lasso_path`;
        no sample weights) and CVXPY's installed QP backends (Clarabel, ECOS, OSQP, ...).
        None (default): the chain the planner orders by cost for this problem
        (docs/solvers.md, "Backends"); ``solve_attempts_`` says what ran and why.
        Whichever backend answers, the answer is certified.
    solver_options : dict, optional
        Options of the backends: a key that is a backend's name holds its own
        (``{"DUAL_CD": {"tol": 1e-9}}``), any other key goes to every backend of the
        chain that takes it; an option no backend of the chain takes is a ValueError
        naming the valid ones. ``"time_limit"`` (seconds, default 60) bounds each CVXPY
        attempt.
    tol : float in (0, 1), optional
        As in :class:`solvers.SVMDual`.
    max_iter : int >= 1, optional
        As in :class:`solvers.SVMDual`.
    verbose : int, default=0
        As in :class:`solvers.SVMDual`.
    warm_start : bool, default=True
        As in :class:`solvers.SVMDual`.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        beta; the features with ``coef_ != 0`` are selected.
    intercept_ : float
        beta0 (unpenalised).
    objective_ : float
        The objective above, evaluated at (coef_, intercept_).
    problem_ : cvxpy.Problem
        Set when a CVXPY backend solved it.
    backend_ : str
        The backend that solved it (``"closed_form"`` above lam_max).
    certificate_ : solvers.certificates.Certificate
        The optimality certificate (:func:`solvers.certificates.lasso_certificate`).
    dual_gap_ : float
        The certificate's relative duality gap.
    n_iter_ : int
        As in :class:`solvers.SVMDual`.

    See Also
    --------
    AdaptiveLasso : Weights from an initial least-squares or ridge fit.
    solvers.WeightedLassoCV : The penalty chosen by cross-validation on exact paths.
    solvers.RSWeightedLasso : Weights from randomized sampling (004 Algorithm 1).
    solvers.path.lasso_path : The solutions for every lam.
    sklearn.linear_model.Lasso : The peer (``alpha = lam / (2 n)``, unit weights).

    Examples
    --------
    >>> from solvers import WeightedLasso
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = X @ np.array([1.5, -2.0, 0.0, 0.0, 0.5]) + 0.1 * rng.standard_normal(30)
    >>> model = WeightedLasso(lam=5.0).fit(X, y)
    >>> model.coef_.shape, bool(model.certificate_.holds)
    ((5,), True)
    >>> from sklearn.linear_model import Lasso
    >>> peer = Lasso(alpha=5.0 / (2 * 30), tol=1e-10).fit(X, y)
    >>> bool(np.allclose(model.coef_, peer.coef_, atol=1e-6))
    True

    Above lam_max every coefficient is 0; a weight of +inf excludes a feature:

    >>> lam_max = WeightedLasso.lam_max(X, y)
    >>> bool(np.all(WeightedLasso(lam=1.01 * lam_max).fit(X, y).coef_ == 0))
    True
    >>> float(WeightedLasso(lam=5.0, weights=[1, 1, np.inf, 1, 1]).fit(X, y).coef_[2])
    0.0
    """

    _MODEL = "lasso"
    _LOSS = "squares"
    _CLOSED_FORM_ZERO = True
    path = staticmethod(lasso_path)


class AdaptiveLasso(RegressorMixin, WeightedL1Model):
    """The adaptive lasso: the weighted lasso with ``W_j = |beta_init_j|^-gamma`` (004 eq. (3)).

    ``beta_init`` is the least-squares fit (``init="ols"``; the minimum-norm solution,
    as ``numpy.linalg.lstsq`` on the centred data and scikit-learn's
    ``LinearRegression``, whenever least squares has several: fewer rows than columns,
    collinear or duplicate columns) or the ridge fit with penalty ``init_lam``
    (``init="ridge"``), both with an unpenalised intercept
    (:func:`solvers._ridge_closed_form.ridge_with_intercept`). It is the same solution for a dense
    and a sparse X; a sparse X is never densified for it (LSMR on products with X). A feature with
    ``beta_init_j = 0`` (below 1e-10 of the largest ``|beta_init|``: round-off) has an
    infinite weight: its coefficient is fixed at 0 (it is left out of the problem).
    With ``sample_weight`` the initial fit is weighted too (an integer weight is the
    same as repeating the row throughout).

    Parameters
    ----------
    lam : float > 0, default=1.0
        The penalty lam of the weighted lasso, eq. (3).
    gamma : float > 0, default=1.0
        The power of the weights, ``W_j = |beta_init_j|^-gamma``.
    init : {"ols", "ridge"}, default="ols"
        The initial fit: least squares or ridge (penalty ``init_lam``).
    init_lam : float > 0, default=1.0
        Ridge penalty of the initial fit when ``init="ridge"``.
    solver : str or list of str, optional
        As in :class:`WeightedLasso`.
    solver_options : dict, optional
        As in :class:`WeightedLasso`.
    tol : float in (0, 1), optional
        As in :class:`solvers.SVMDual`.
    max_iter : int >= 1, optional
        As in :class:`solvers.SVMDual`.
    verbose : int, default=0
        As in :class:`solvers.SVMDual`.
    warm_start : bool, default=True
        As in :class:`solvers.SVMDual`.

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
        The weights used (``inf`` where ``beta_init_j = 0``).
    coef_ : ndarray of shape (n_features,)
        As in :class:`WeightedLasso`.
    intercept_ : float
        As in :class:`WeightedLasso`.
    objective_ : float
        As in :class:`WeightedLasso`; it counts only the features kept.
    problem_ : cvxpy.Problem
        As in :class:`WeightedLasso`.
    backend_ : str
        As in :class:`WeightedLasso`.
    certificate_ : solvers.certificates.Certificate
        As in :class:`WeightedLasso`.
    dual_gap_ : float
        As in :class:`WeightedLasso`.
    n_iter_ : int
        As in :class:`solvers.SVMDual`.

    See Also
    --------
    WeightedLasso : The model, with weights given.
    solvers.RSWeightedLasso : Weights from randomized sampling (004 Algorithm 1).
    solvers.HybridSVM : Zou's weights for the 1-norm SVM and SVM2 (004 eq. 4-5).
    solvers._ridge_closed_form.ridge_with_intercept : The initial fit.

    Examples
    --------
    >>> from solvers import AdaptiveLasso
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = X @ np.array([1.5, -2.0, 0.0, 0.0, 0.5]) + 0.1 * rng.standard_normal(30)
    >>> model = AdaptiveLasso(lam=1.0).fit(X, y)
    >>> model.coef_.shape, bool(model.certificate_.holds)
    ((5,), True)
    >>> from sklearn.linear_model import LinearRegression
    >>> ols = LinearRegression().fit(X, y)
    >>> bool(np.allclose(model.weights_, 1 / np.abs(ols.coef_)))
    True
    >>> bool(np.allclose(model.coef_[[2, 3]], 0.0, atol=1e-6))  # the two null features
    True
    """

    _parameter_constraints = {
        "lam": [POSITIVE],
        "gamma": [POSITIVE],
        "init": [StrOptions({"ols", "ridge"})],
        "init_lam": [Interval(Real, 0, None, closed="neither")],
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }
    _MODEL = "lasso"
    _LOSS = "squares"
    _CLOSED_FORM_ZERO = True
    _ADAPTIVE = True
    path = staticmethod(lasso_path)

    def __init__(
        self,
        lam=1.0,
        *,
        gamma=1.0,
        init="ols",
        init_lam=1.0,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.lam = lam
        self.gamma = gamma
        self.init = init
        self.init_lam = init_lam
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start
