"""RLSC (000 eq. (1)-(3)) and ridge regression (002 sec. 3.4): closed form or CVXPY.

Both minimise ``||y - X beta||^2 + lam ||beta||^2`` without an intercept: ridge
regression in its primal form, RLSC in its dual form ``min_x ||Kx - y||^2 + lam x'Kx``
(K = XX', ``beta = X'x``). By default they use the closed form through the SVD
(``solver="svd"``); any CVXPY backend name solves the formulation instead, which the
tests use to cross-check the two.
"""

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import StrOptions

from ._base import (
    BACKEND_CONSTRAINTS,
    NONNEGATIVE,
    POSITIVE,
    BinaryLinearClassifier,
    LinearRegressor,
)
from .formulations import gram, ridge, rlsc

__all__ = ["RLSC", "RidgeRegression", "ridge_closed_form"]


def ridge_closed_form(X, y, lam):
    """Solve ``min_beta ||y - X beta||^2 + lam ||beta||^2`` and its dual through the SVD.

    With the thin SVD ``X = U S V'`` (singular values above ``max(n, d) eps s_max``):
    ``x = U (S^2 + lam I)^-1 U'y`` (000 eq. (2), the minimum-norm solution of 000
    eq. (1)) and ``beta = X'x = V S (S^2 + lam I)^-1 U'y``. lam = 0 gives the
    minimum-norm least-squares solution. Sparse X is never densified: the SVD comes
    from the eigendecomposition of the smaller of XX' and X'X.

    Parameters
    ----------
    X : array or sparse matrix of shape (n, d)
    y : array of shape (n,)
    lam : float >= 0

    Returns
    -------
    x : ndarray of shape (n,)
        The dual (RLSC) solution.
    beta : ndarray of shape (d,)
        The primal (ridge) solution.
    """
    n, d = X.shape
    if sp.issparse(X):
        if n <= d:
            s2, U = np.linalg.eigh(gram(X))
        else:
            s2, V = np.linalg.eigh((X.T @ X).toarray())
        keep = s2 > s2.max(initial=0.0) * max(n, d) * np.finfo(float).eps
        s = np.sqrt(s2[keep])
        if n <= d:
            U = U[:, keep]
        else:
            U = (X @ V[:, keep]) / s
    else:
        U, s, _ = np.linalg.svd(X, full_matrices=False)
        keep = s > s.max(initial=0.0) * max(n, d) * np.finfo(float).eps
        U, s = U[:, keep], s[keep]
    x = U @ ((U.T @ y) / (s**2 + lam))
    beta = np.asarray(X.T @ x).ravel()
    return x, beta


class _RidgeFit:
    """Shared fit: closed form for ``solver="svd"``, else the CVXPY formulation."""

    _dpp_params = ("lam",)

    def _parameter_values(self, X, y):
        return {"lam": self.lam}

    def _fit_ridge(self, X, y):
        if self.solver == "svd":
            self.dual_coef_, self.coef_ = ridge_closed_form(X, y, self.lam)
            self.backend_ = "svd"
            self.__dict__.pop("problem_", None)  # from an earlier fit with a CVXPY backend
        else:
            problem = self._solve(X, y)
            if "x" in problem.var_dict:
                self.dual_coef_ = np.asarray(problem.var_dict["x"].value, dtype=float)
                self.coef_ = np.asarray(X.T @ self.dual_coef_).ravel()
            else:
                self.coef_ = np.asarray(problem.var_dict["beta"].value, dtype=float)
                self.__dict__.pop("dual_coef_", None)
        self.intercept_ = 0.0
        residual = y - np.asarray(X @ self.coef_).ravel()
        self.objective_ = float(residual @ residual + self.lam * self.coef_ @ self.coef_)


_CONSTRAINTS = {
    **BACKEND_CONSTRAINTS,
    "solver": [StrOptions({"svd"}), None, str, list, tuple],
}


class RLSC(_RidgeFit, BinaryLinearClassifier):
    """Regularised least-squares classification with the linear kernel, 000 eq. (1)-(3).

    Dual (000 eq. (1)): ``min_x ||K x - y||^2 + lam x'K x`` with K = XX' and y in
    {-1, +1}; closed form ``x = U (S^2 + lam I)^-1 U'y`` (eq. (2)). Primal: ridge
    regression on the +-1 labels, ``min_w ||y - X w||^2 + lam ||w||^2``. Map:
    ``w = X'x``, and the classifier is ``f(q) = q'X'x = q'w`` (eq. (3)); no intercept,
    as in the paper. Peer: ``RidgeClassifier(alpha=lam, fit_intercept=False)``.

    Parameters
    ----------
    lam : float >= 0, default=1.0
        lam = 0 is least squares (minimum-norm solution).
    solver : "svd", str or list of str, default="svd"
        "svd" for the closed form; otherwise a CVXPY backend or chain solving
        :func:`solvers.formulations.rlsc`.
    solver_options : dict, optional

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        x of eq. (1) (the minimum-norm solution when K is singular).
    coef_ : ndarray of shape (n_features,)
        ``w = X'x``.
    intercept_ : float
        Always 0.0.
    objective_ : float
        The value of eq. (1) at x (equal to the primal objective at w).
    backend_ : str
        "svd" or the CVXPY backend; ``problem_`` is set only with a CVXPY backend.
    classes_ : ndarray of shape (2,)
    """

    _parameter_constraints = {"lam": [NONNEGATIVE], **_CONSTRAINTS}

    def __init__(self, lam=1.0, *, solver="svd", solver_options=None):
        self.lam = lam
        self.solver = solver
        self.solver_options = solver_options

    def _build_problem(self, X, y):
        return rlsc(X, y)

    def _fit_pm(self, X, y):
        self._fit_ridge(X, y)


class RidgeRegression(_RidgeFit, LinearRegressor):
    """Ridge regression without intercept, in primal or dual form (002 sec. 3.4).

    Primal: ``min_beta ||y - X beta||^2 + lam ||beta||^2``, ``beta = (X'X + lam I)^-1 X'y``.
    Dual: ``min_x ||K x - y||^2 + lam x'K x`` (K = XX'). Map: ``beta = X'x``. With a CVXPY
    backend the smaller form is built (dual when d > n). Peer:
    ``sklearn.linear_model.Ridge(alpha=lam, fit_intercept=False)``.

    Parameters
    ----------
    lam : float > 0, default=1.0
    solver : "svd", str or list of str, default="svd"
        "svd" for the closed form; otherwise a CVXPY backend or chain.
    solver_options : dict, optional

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    dual_coef_ : ndarray of shape (n_samples,)
        x (set by the closed form and by the dual CVXPY form).
    intercept_ : float
        Always 0.0.
    objective_ : float
    backend_ : str
    """

    _parameter_constraints = {"lam": [POSITIVE], **_CONSTRAINTS}

    def __init__(self, lam=1.0, *, solver="svd", solver_options=None):
        self.lam = lam
        self.solver = solver
        self.solver_options = solver_options

    def _build_problem(self, X, y):
        return ridge(X, y, form="dual" if X.shape[1] > X.shape[0] else "primal")

    def _fit_xy(self, X, y):
        self._fit_ridge(X, y)
