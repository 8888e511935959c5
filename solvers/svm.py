"""Linear SVM estimators: the dual of 001, the 2-norm primal, the 1-norm SVM and SVM2 of 004.

Every estimator here exposes the multipliers ``alpha_`` of the margin constraints
``y_i (x_i'w + b) >= 1 - xi_i`` (the variable of the SVM dual, the constraint duals
otherwise) and ``support_``, the indices with ``alpha_ > 0``: the support vectors
:class:`solvers.SupportVectorSelector` runs a feature selector on.
"""

import numpy as np
from sklearn.utils._param_validation import StrOptions

from ._base import (
    BACKEND_CONSTRAINTS,
    POSITIVE,
    BinaryLinearClassifier,
    WeightedL1Penalty,
    lam_max_of,
)
from ._polish import hinge_intercept, refit_on_support, refit_svm_dual
from .certificates import (
    _l1_svm_margin_multipliers,
    l1_svm_certificate,
    svm2_certificate,
    svm_certificate,
)
from .formulations import l1_svm, svm2, svm_dual, svm_primal
from .path import l1_svm_path, svm2_path

__all__ = ["SVMDual", "L2SVM", "L1SVM", "SVM2"]

_SUPPORT_RTOL = 1e-6


def _support(alpha):
    """Indices of the support vectors: multipliers above 1e-6 of the largest (or of 1)."""
    return np.flatnonzero(alpha > _SUPPORT_RTOL * max(1.0, float(alpha.max(initial=0.0))))


def _margin(w):
    norm = np.linalg.norm(w)
    return np.inf if norm == 0 else 1.0 / norm


class SVMDual(BinaryLinearClassifier):
    """Soft-margin linear SVM solved in the dual, eq. (2) of 001.

    Dual (solved): ``max_a 1'a - 1/2 a'Y X X'Y a  s.t.  y'a = 0, 0 <= a <= C``.
    Primal: ``min_{w,b} 1/2 ||w||^2 + C sum_i max(0, 1 - y_i (x_i'w + b))``.
    Map: ``w = X'Y a``; b is the multiplier of ``y'a = 0``; the support vectors are the
    points with ``a_i > 0``, the margin is ``1 / ||w||``. Built on the n x n Gram matrix
    when n <= d (see :func:`solvers.formulations.svm_dual`). Same model as
    ``sklearn.svm.SVC(kernel="linear", C=C)``.

    Parameters
    ----------
    C : float > 0, default=1.0
        Box constraint. A re-fit on the same data with a new C re-solves the compiled
        problem.
    solver : str or list of str, optional
        CVXPY backend or fallback chain; default ``DEFAULT_BACKENDS["QP"]``.
    solver_options : dict, optional
        Passed to ``cvxpy.Problem.solve``; see :func:`solvers.available_backends`.

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,)
        The dual solution a.
    support_ : ndarray of int
        Indices of the support vectors.
    coef_ : ndarray of shape (n_features,)
        ``w = X'Y a``.
    intercept_ : float
    margin_ : float
        ``1 / ||w||`` (the geometric margin of 001).
    objective_ : float
        The dual objective at ``alpha_`` (equal to the primal optimum).
    problem_ : cvxpy.Problem
    backend_ : str
        The backend that solved it.
    classes_ : ndarray of shape (2,)
    """

    _parameter_constraints = {"C": [POSITIVE], **BACKEND_CONSTRAINTS}
    _dpp_params = ("C",)

    def __init__(self, C=1.0, *, solver=None, solver_options=None):
        self.C = C
        self.solver = solver
        self.solver_options = solver_options

    def _build_problem(self, X, y):
        return svm_dual(X, y)

    def _parameter_values(self, X, y):
        return {"C": self.C}

    def _fit_pm(self, X, y):
        self._solve(X, y)

    def _read_solution(self, problem, X, y):
        _read_dual(self, problem, X, y, upper=self.C)
        self.objective_ = float(self.alpha_.sum() - 0.5 * self.coef_ @ self.coef_)

    def _certificate(self, X, y):
        return svm_certificate(X, y, self.coef_, self.intercept_, self.C, alpha=self.alpha_)

    def _polish(self, X, y):
        _polish_l2(self, X, y, self.C, squared=False)


def _read_dual(est, problem, X, y, upper):
    """Set alpha_, support_, coef_ = X'Y a, intercept_, margin_ from a solved SVM dual."""
    est.alpha_ = np.clip(problem.var_dict["alpha"].value, 0.0, upper)
    est.support_ = _support(est.alpha_)
    est.coef_ = np.asarray(X.T @ (y * est.alpha_)).ravel()
    # The multiplier of y'a = 0 is the intercept (KKT of the primal/dual pair).
    est.intercept_ = float(problem.constraints[0].dual_value)
    est.margin_ = _margin(est.coef_)


class L2SVM(BinaryLinearClassifier):
    """Linear SVM with the 2-norm penalty, hinge or squared hinge loss.

    Primal: ``min_{w,b} 1/2 ||w||^2 + C sum_i loss_i`` with
    ``loss_i = max(0, 1 - y_i (x_i'w + b))`` (``"hinge"``) or its square
    (``"squared_hinge"``). Dual: for the hinge, eq. (2) of 001; for the squared hinge,
    the same with ``Q + I/(2C)`` in place of Q and no upper bound. Map: the multipliers
    a of the margin constraints give ``w = X'Y a`` (``alpha_``). The primal
    (:func:`solvers.formulations.svm_primal`, d + n + 1 variables) is solved when
    n >= d, the dual (:func:`solvers.formulations.svm_dual` on the n x n Gram matrix)
    when d > n.
    Peers: ``SVC(kernel="linear")`` (hinge) and ``LinearSVC(loss="squared_hinge")``.

    Parameters
    ----------
    C : float > 0, default=1.0
    loss : {"hinge", "squared_hinge"}, default="hinge"
    solver, solver_options
        As in :class:`SVMDual`.

    Attributes
    ----------
    coef_, intercept_, alpha_, support_, margin_, objective_, problem_, backend_, classes_
        As in :class:`SVMDual`. ``objective_`` is the primal objective at
        (coef_, intercept_) when the primal is solved, the dual objective at ``alpha_``
        (equal at the optimum) when the dual is.
    """

    _parameter_constraints = {
        "C": [POSITIVE],
        "loss": [StrOptions({"hinge", "squared_hinge"})],
        **BACKEND_CONSTRAINTS,
    }
    _dpp_params = ("C",)

    def __init__(self, C=1.0, *, loss="hinge", solver=None, solver_options=None):
        self.C = C
        self.loss = loss
        self.solver = solver
        self.solver_options = solver_options

    def _build_problem(self, X, y):
        if _use_dual(X):
            return svm_dual(X, y, loss=self.loss)
        return svm_primal(X, y, loss=self.loss)

    def _parameter_values(self, X, y):
        if _use_dual(X) and self.loss == "squared_hinge":
            return {"inv_2C": 0.5 / self.C}
        return {"C": self.C}

    def _fit_pm(self, X, y):
        self._solve(X, y)

    def _read_solution(self, problem, X, y):
        squared = self.loss == "squared_hinge"
        if _use_dual(X):
            _read_dual(self, problem, X, y, upper=np.inf if squared else self.C)
            # The dual value (the primal optimum): evaluating the primal at w = X'Ya
            # would amplify the solver's tolerance on the margins.
            ridge = self.alpha_ @ self.alpha_ / (4 * self.C) if squared else 0.0
            self.objective_ = float(self.alpha_.sum() - 0.5 * self.coef_ @ self.coef_ - ridge)
            return
        _read_primal(self, problem)
        self.margin_ = _margin(self.coef_)
        losses = _hinge(X, y, self.coef_, self.intercept_)
        total = losses @ losses if squared else losses.sum()
        self.objective_ = float(0.5 * self.coef_ @ self.coef_ + self.C * total)

    def _certificate(self, X, y):
        return svm_certificate(
            X, y, self.coef_, self.intercept_, self.C, loss=self.loss, alpha=self.alpha_
        )

    def _polish(self, X, y):
        _polish_l2(self, X, y, self.C, squared=self.loss == "squared_hinge")


def _polish_l2(est, X, y, C, *, squared):
    """The exact KKT solution on the backend's support-vector pattern, else a better intercept."""
    refitted = refit_svm_dual(X, y, est.alpha_, C, squared=squared)
    if refitted is None:
        est.intercept_ = hinge_intercept(np.asarray(X @ est.coef_).ravel(), y, squared=squared)
        return
    est.alpha_, est.coef_, est.intercept_ = refitted
    est.support_ = _support(est.alpha_)
    est.margin_ = _margin(est.coef_)
    slack = np.maximum(0.0, 1.0 - y * (np.asarray(X @ est.coef_).ravel() + est.intercept_))
    total = slack @ slack if squared else slack.sum()
    est.objective_ = float(0.5 * est.coef_ @ est.coef_ + C * total)


def _use_dual(X):
    """d > n: the n x n dual is smaller than the primal and avoids a dense n x d block."""
    return X.shape[1] > X.shape[0]


def _hinge(X, y, w, b):
    """``max(0, 1 - y_i (x_i'w + b))`` for every sample."""
    return np.maximum(0.0, 1.0 - y * (np.asarray(X @ w).ravel() + b))


def _read_primal(est, problem):
    """Set coef_, intercept_, alpha_, support_ from a solved hinge-type primal."""
    v = problem.var_dict
    w = v["w"].value if "w" in v else v["w_pos"].value - v["w_neg"].value
    est.coef_ = np.asarray(w, dtype=float)
    est.intercept_ = float(problem.var_dict["b"].value)
    est.alpha_ = np.maximum(np.asarray(problem.constraints[0].dual_value, dtype=float), 0.0)
    est.support_ = _support(est.alpha_)


class _WeightedL1SVM(WeightedL1Penalty, BinaryLinearClassifier):
    """Shared by L1SVM and SVM2: a hinge-type loss plus ``lam sum_j weights_j |w_j|``."""

    def _fit_pm(self, X, y):
        self._fit_penalised(X, y)

    def _read_solution(self, problem, X, y):
        _read_primal(self, problem)
        self._set_objective(X, y)

    def _set_objective(self, X, y):
        losses = _hinge(X, y, self.coef_, self.intercept_)
        penalty = self.lam * self._kept_weights @ np.abs(self.coef_)
        self.objective_ = float((losses**2 if self._squared else losses).sum() + penalty)


class L1SVM(_WeightedL1SVM):
    """The (weighted) 1-norm SVM, eq. (6) of 004: a linear program.

    Primal (solved): ``min_{w,b} sum_i max(0, 1 - y_i (x_i'w + b)) + lam sum_j W_j |w_j|``.
    Dual: ``max_a 1'a  s.t.  |X'Y a| <= lam W, y'a = 0, 0 <= a <= 1``; the map is
    complementary slackness (``w_j != 0`` only where ``|X'Y a|_j = lam W_j``), and
    ``alpha_`` holds a. Sparse in w: the features with ``coef_ != 0`` are selected.
    Peer: ``scipy.optimize.linprog(method="highs")`` on the same LP.

    Parameters
    ----------
    lam : float > 0, default=1.0
    weights : array of shape (n_features,), optional
        Nonnegative penalty weights W (default 1). Changing lam or weights and
        re-fitting on the same data re-solves the compiled problem (one DPP Parameter
        ``lam_w = lam * weights``).
    solver, solver_options
        As in :class:`SVMDual`; default chain ``DEFAULT_BACKENDS["LP"]``.

    Attributes
    ----------
    coef_, intercept_, alpha_, support_, objective_, problem_, backend_, classes_
        As in :class:`SVMDual`; ``objective_`` is the primal objective above, evaluated
        at (coef_, intercept_).
    """

    _problem_class = "LP"
    _squared = False
    path = staticmethod(l1_svm_path)

    @staticmethod
    def lam_max(X, y, weights=None):
        """The smallest lam at which every penalised coefficient is 0 (``lams[0]`` of the path).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        weights : array-like of shape (n_features,), optional

        Returns
        -------
        float
        """
        return lam_max_of(l1_svm_path, X, y, weights)

    def _build_problem(self, X, y):
        return l1_svm(X, y)

    def _set_solution(self, X, y, coef, intercept):
        self.coef_, self.intercept_ = np.asarray(coef, dtype=float), float(intercept)
        alpha = _l1_svm_margin_multipliers(
            X, y, self.coef_, self.intercept_, self.lam, self._kept_weights
        )
        if alpha is None:  # not optimal: the certificate will say so
            alpha = (_hinge(X, y, self.coef_, self.intercept_) > 0).astype(float)
        self.alpha_ = alpha
        self.support_ = _support(self.alpha_)
        self._set_objective(X, y)

    def _certificate(self, X, y):
        return l1_svm_certificate(
            X, y, self.coef_, self.intercept_, self.lam, self._kept_weights, alpha=self.alpha_
        )

    def _polish(self, X, y):
        offsets = np.asarray(X @ self.coef_).ravel()
        self._set_solution(X, y, self.coef_, hinge_intercept(offsets, y, squared=False))


class SVM2(_WeightedL1SVM):
    """SVM2, eq. (7) of 004: squared hinge loss with a (weighted) L1 penalty, a QP.

    Primal (solved): ``min_{w,b} sum_i max(0, 1 - y_i (x_i'w + b))^2 + lam sum_j W_j |w_j|``.
    Dual: ``max_{a >= 0} 1'a - 1/4 ||a||^2  s.t.  |X'Y a| <= lam W, y'a = 0``, with
    ``a_i = 2 max(0, 1 - y_i f(x_i))`` (``alpha_``). Peer:
    ``LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1/lam)``, whose
    objective is ``||w||_1 + C sum_i loss_i`` = (this objective) / lam when the
    intercept is unpenalised.

    Parameters
    ----------
    lam : float > 0, default=1.0
    weights : array of shape (n_features,), optional
        Nonnegative penalty weights W (default 1; 004 eq. (5) with weights).
    solver, solver_options
        As in :class:`SVMDual`; default chain ``DEFAULT_BACKENDS["QP"]``.

    Attributes
    ----------
    coef_, intercept_, alpha_, support_, objective_, problem_, backend_, classes_
        As in :class:`L1SVM`.
    """

    _squared = True
    _CLOSED_FORM_ZERO = True
    path = staticmethod(svm2_path)

    @staticmethod
    def lam_max(X, y, weights=None):
        """The smallest lam at which every penalised coefficient is 0 (``lams[0]`` of the path).

        With every weight positive it is ``max_j |2 X_j'(y - mean(y))| / W_j`` (labels
        mapped to -1/+1).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        weights : array-like of shape (n_features,), optional

        Returns
        -------
        float
        """
        return lam_max_of(svm2_path, X, y, weights)

    def _build_problem(self, X, y):
        return svm2(X, y)

    def _set_solution(self, X, y, coef, intercept):
        self.coef_, self.intercept_ = np.asarray(coef, dtype=float), float(intercept)
        self.alpha_ = 2.0 * _hinge(X, y, self.coef_, self.intercept_)  # a = 2 [1 - y f]_+
        self.support_ = _support(self.alpha_)
        self._set_objective(X, y)

    def _certificate(self, X, y):
        return svm2_certificate(X, y, self.coef_, self.intercept_, self.lam, self._kept_weights)

    def _polish(self, X, y):
        refitted = refit_on_support(
            X, y, self.coef_, self.intercept_, self.lam, self._kept_weights, rows="margin"
        )
        if refitted is not None:
            self._set_solution(X, y, *refitted)
