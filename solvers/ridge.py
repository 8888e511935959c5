"""RLSC (000 eq. (1)-(3)) and ridge regression (002 sec. 3.4): closed form, CG or CVXPY.

Both minimise ``||y - X beta||^2 + lam ||beta||^2`` without an intercept: ridge
regression in its primal form, RLSC in its dual form ``min_x ||Kx - y||^2 + lam x'Kx``
(K = XX', ``beta = X'x``). Their backends: the closed form (``"SVD"``,
:mod:`solvers._ridge_closed_form`), conjugate gradients on the normal equations
(``"CG"``, :mod:`solvers._ridge_cg`) and CVXPY's, which solve the formulation (the tests
cross-check them); every answer is certified by
:func:`solvers.certificates.ridge_certificate`. With sample weights s
(``sum_i s_i (y_i - x_i'beta)^2``) the closed form runs on the rows ``sqrt(s_i) x_i``
and targets ``sqrt(s_i) y_i`` (:func:`solvers.certificates.scale_rows`), which is the
same problem without weights.
"""

import numpy as np
import scipy.sparse as sp
from sklearn.base import ClassifierMixin, RegressorMixin, is_classifier

from ._base import (
    BACKEND_CONSTRAINTS,
    CLASS_WEIGHT_CONSTRAINTS,
    CONTROL_CONSTRAINTS,
    NONNEGATIVE,
    POSITIVE,
    LinearModel,
)
from ._losses import SQUARES
from ._problem import Problem, unit_weights

__all__ = ["RLSC", "RidgeRegression"]

class _RidgeFit(LinearModel):
    """The fit of RLSC and ridge regression: the planned chain over the closed form
    (``"SVD"``), conjugate gradients (``"CG"``) and CVXPY's backends on the
    formulation (:func:`solvers.formulations.rlsc` for the classifier,
    :func:`solvers.formulations.ridge` in primal or dual form for the regressor)."""

    _MODEL = "ridge"

    def _fit_dask(self, X, y, sample_weight):
        """A Dask X through its Gram matrix, certified over its chunks
        (:func:`solvers._dask_models.fit_ridge`)."""
        from ._dask_models import fit_ridge

        return fit_ridge(self, X, y, sample_weight, classifier=is_classifier(self))

    def _fit_problem(self, X, y, s):
        """The problem ``||y - X beta||^2 + lam ||beta||^2`` (sample weights s), solved by
        the planned chain; ``dual_coef_`` when the backend found it (``beta = X'x``)."""
        entries = X.data if sp.issparse(X) else X
        mean = float(np.vdot(entries, entries)) / max(X.shape[1], 1)  # of the squared norms
        hardness = np.log1p(mean / self.lam) if self.lam > 0 else np.log1p(mean * 1e12)
        problem = Problem(
            "ridge", X, y, s, SQUARES, 2.0 * self.lam, unit_weights(X.shape[1]), l1_ratio=0.0,
            fit_intercept=False, form="rlsc" if is_classifier(self) else None,
            tolerance=self._tolerance(),
        )  # fmt: skip
        answer = self._solve(problem, hardness)
        self.coef_, self.intercept_ = np.asarray(answer.coef, dtype=float), 0.0
        if answer.dual is None:
            self.__dict__.pop("dual_coef_", None)
        else:
            self.dual_coef_ = answer.dual

    @property
    def objective_(self):
        """The objective ``sum_i s_i (y_i - x_i'coef_)^2 + lam ||coef_||^2`` (s = 1 unweighted).

        A one-vs-rest RLSC: an array of shape (n_classes,), one per binary problem.
        """
        if isinstance(self.certificate_, list):
            return np.array([certificate.primal for certificate in self.certificate_])
        return self.certificate_.primal


class RLSC(ClassifierMixin, _RidgeFit):
    """Regularised least-squares classification with the linear kernel, 000 eq. (1)-(3).

    Dual (000 eq. (1)): ``min_x ||K x - y||^2 + lam x'K x`` with K = XX' and y in
    {-1, +1}; closed form ``x = U (S^2 + lam I)^-1 U'y`` (eq. (2)). Primal: ridge
    regression on the +-1 labels, ``min_w ||y - X w||^2 + lam ||w||^2``. Map:
    ``w = X'x``, and the classifier is ``f(q) = q'X'x = q'w`` (eq. (3)); no intercept,
    as in the paper. Peer: ``RidgeClassifier(alpha=lam, fit_intercept=False)``.

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``sum_i s_i (y_i - x_i'w)^2 + lam ||w||^2`` (the closed form on the rows scaled by
    ``sqrt(s_i)``; ``dual_coef_`` is then an x with ``w = X'x``, 0 for a sample of weight
    0); an integer weight is the same as repeating the row.

    Parameters
    ----------
    lam : float >= 0, default=1.0
        The ridge penalty of eq. (1). A value of 0 is least squares (the
        minimum-norm solution).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the sample weights of each class, as in ``sklearn.svm.SVC``.
    solver : str or list of str, optional
        A backend of this model, or a chain of them tried in order; names are
        case-insensitive and ``solvers.available_backends("RLSC")`` lists them: ``"SVD"``
        (the closed form through the smaller Gram matrix, 000 eq. 2), ``"CG"`` (conjugate
        gradients; lam > 0) and CVXPY's installed QP backends (Clarabel, ECOS, OSQP, ...).
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
    dual_coef_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
        x of eq. (1) (the minimum-norm solution when K is singular).
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        ``w = X'x``.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        Always 0.0.
    objective_ : float or ndarray of shape (n_classes,)
        The value of eq. (1) at x (equal to the primal objective at w).
    backend_ : str or list of str
        The backend that answered (``"SVD"``, ``"CG"`` or a CVXPY backend);
        ``problem_`` is set only with a CVXPY backend.
    n_iter_ : int or ndarray of shape (n_classes,)
        CG iterations, or the CVXPY solver's; 1 for the closed form (one per class one-vs-rest).
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of RLSC
        With more than two classes: the binary fit of each class against the rest
        (one-vs-rest, docs/solvers.md "Multiclass"); the per-problem attributes above
        are gathered over them.

    See Also
    --------
    RidgeRegression : The same problem with real-valued targets.
    ridge_closed_form : The certified closed form this estimator runs by default.
    solvers.formulations.rlsc : The CVXPY formulation of eq. (1).
    sklearn.linear_model.RidgeClassifier : The peer (``alpha=lam, fit_intercept=False``).

    Examples
    --------
    >>> from solvers import RLSC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> clf = RLSC(lam=1.0).fit(X, y)
    >>> clf.coef_.shape, clf.backend_, clf.certificate_.holds
    ((1, 5), 'SVD', True)
    >>> bool(np.allclose(clf.coef_, X.T @ clf.dual_coef_))  # eq. (3): w = X'x
    True
    >>> from sklearn.linear_model import RidgeClassifier
    >>> peer = RidgeClassifier(alpha=1.0, fit_intercept=False).fit(X, y)
    >>> bool(np.allclose(clf.coef_, peer.coef_))
    True
    >>> bool(clf.score(X, y) >= 0.9)
    True
    """

    _parameter_constraints = {
        "lam": [NONNEGATIVE],
        **CLASS_WEIGHT_CONSTRAINTS,
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }

    def _expected_failed_checks(self):
        """The scikit-learn checks RLSC fails by design, each with its reason: pass them to
        ``check_estimator(RLSC(), expected_failed_checks=RLSC()._expected_failed_checks())``.

        Returns
        -------
        dict of str to str
            Check name to the reason it fails.
        """
        return {
            "check_class_weight_classifiers": (
                "RLSC has no intercept (000 eq. (1)): with class 0 weighted 1000, least "
                "squares through the origin still predicts class 1 on about half of the "
                "check's blobs; RidgeClassifier(fit_intercept=False, class_weight=...) "
                "predicts the same."
            )
        }

    def __init__(
        self,
        lam=1.0,
        *,
        class_weight=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.lam = lam
        self.class_weight = class_weight
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start



class RidgeRegression(RegressorMixin, _RidgeFit):
    """Ridge regression without intercept, in primal or dual form (002 sec. 3.4).

    Primal: ``min_beta ||y - X beta||^2 + lam ||beta||^2``, ``beta = (X'X + lam I)^-1 X'y``.
    Dual: ``min_x ||K x - y||^2 + lam x'K x`` (K = XX'). Map: ``beta = X'x``. With a CVXPY
    backend the smaller form is built (dual when d > n). Peer:
    ``sklearn.linear_model.Ridge(alpha=lam, fit_intercept=False)``, with
    ``sample_weight`` too.

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``sum_i s_i (y_i - x_i'beta)^2 + lam ||beta||^2`` (the closed form on the rows
    scaled by ``sqrt(s_i)``); an integer weight is the same as repeating the row, a
    weight of 0 the same as dropping it.

    Parameters
    ----------
    lam : float > 0, default=1.0
        The ridge penalty; scikit-learn's ``Ridge`` calls it ``alpha`` (the same
        objective, so ``alpha=lam``).
    solver : str or list of str, optional
        As in :class:`RLSC`: ``"SVD"``, ``"CG"`` or CVXPY's QP backends solving
        :func:`solvers.formulations.ridge`; None (default) for the planned chain.
    solver_options : dict, optional
        As in :class:`RLSC`.
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
    dual_coef_ : ndarray of shape (n_samples,)
        x (set by the closed form and by the dual CVXPY form).
    intercept_ : float
        Always 0.0.
    objective_ : float
        The objective at ``coef_``.
    backend_ : str
        The backend that answered (``"SVD"``, ``"CG"`` or a CVXPY backend);
        ``problem_`` is set only with a CVXPY backend.
    n_iter_ : int
        As in :class:`RLSC`.

    See Also
    --------
    RLSC : The same problem on +-1 labels, a classifier.
    ridge_closed_form : The certified closed form this estimator runs by default.
    ridge_with_intercept : The closed form with an unpenalised intercept.
    sklearn.linear_model.Ridge : The peer (``alpha=lam, fit_intercept=False``).

    Examples
    --------
    >>> from solvers import RidgeRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = X @ np.array([1.0, -2.0, 0.0, 0.5, 0.0]) + 0.1 * rng.standard_normal(30)
    >>> reg = RidgeRegression(lam=2.0).fit(X, y)
    >>> reg.coef_.shape, reg.certificate_.holds
    ((5,), True)
    >>> normal_equations = np.linalg.solve(X.T @ X + 2.0 * np.eye(5), X.T @ y)
    >>> bool(np.allclose(reg.coef_, normal_equations))
    True
    >>> from sklearn.linear_model import Ridge
    >>> peer = Ridge(alpha=2.0, fit_intercept=False).fit(X, y)
    >>> bool(np.allclose(reg.coef_, peer.coef_))
    True
    """

    _parameter_constraints = {"lam": [POSITIVE], **BACKEND_CONSTRAINTS, **CONTROL_CONSTRAINTS}

    def __init__(
        self,
        lam=1.0,
        *,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.lam = lam
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start

