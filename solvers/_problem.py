"""A fit's problem as a value, and its answer: the data, the loss, the penalty, the intercept rule.

Every model of the package is one instance of

``min_{w, b} sum_i s_i loss(y_i, x_i'w + b) + lam (l1_ratio sum_j W_j |w_j| +
(1 - l1_ratio)/2 ||w||^2)``

(:class:`Problem`): the lasso, the 1-norm SVM and SVM2 (004 eq. 3, 6, 7: the weighted
L1 penalty), the 2-norm SVMs (001 eq. 2 divided by C: ``lam = 1/C``, ``l1_ratio =
0``), ridge regression and RLSC (000 eq. 1: the squares, ``lam`` twice ridge's,
``l1_ratio = 0``, no intercept) and the elastic-net logistic regression. An estimator
validates its input, builds one problem, hands it to the planned chain (each backend
a function ``run(problem, options, warm_start)``, :mod:`solvers.backends`) and sets
its fitted attributes from the certified :class:`Answer`; nothing about the problem
lives on the estimator while it is solved. The certificate
(:meth:`Problem.certificate`, :mod:`solvers.certificates`) is read off the problem and
the answer, sound by construction. docs/architecture.md, "Adding a model", walks
through it.
"""

from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from ._penalty import Penalty
from .certificates import (
    GAP_TOLERANCE,
    _certify,
    _check_candidate,
    _model_name,
    _svm_certificate,
    l1_svm_certificate,
    lasso_certificate,
    ridge_certificate,
    svm2_certificate,
)

__all__ = ["Answer", "Problem", "unit_weights"]


def unit_weights(n_features):
    """Penalty weights of 1 for every feature as a read-only view (no memory): the
    problem of a 2-norm model (``l1_ratio = 0``), which has no L1 term to weigh."""
    return np.broadcast_to(1.0, (n_features,))


@dataclass(frozen=True)
class Answer:
    """A backend's answer to a :class:`Problem`.

    Parameters
    ----------
    coef : ndarray of shape (n_features,)
    intercept : float, default=0.0
    dual : ndarray of shape (n_samples,), optional
        The multipliers ``a`` of the classification losses (``alpha_``), or ridge's
        dual coefficients ``x`` with ``w = X'x`` (``dual_coef_``), when the backend
        found them.
    value : float, optional
        The optimal value as the backend's dual gave it (the SVM dual of 001 eq. 2, in
        the model's own scaling), when it solved the dual.
    """

    coef: np.ndarray
    intercept: float = 0.0
    dual: object = None
    value: object = None


@dataclass(frozen=True)
class Problem:
    """One binary or real problem, immutable (see the module docstring).

    Parameters
    ----------
    model : str
        A key of :data:`solvers._registry.MODELS`.
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples (the columns of finite weight).
    y : ndarray of shape (n_samples,)
        Targets, or labels -1/+1 for a classification loss.
    sample_weight : ndarray of shape (n_samples,) or None
        ``s_i > 0`` (zeros dropped before), None for all 1.
    loss : solvers._losses.Loss
    lam : float
        ``1/C`` for the 2-norm SVMs, twice ridge's lam for ridge and RLSC.
    weights : ndarray of shape (n_features,)
        Penalty weights of the L1 term, each >= 0 (0: unpenalised).
    l1_ratio : float, default=1.0
    fit_intercept : bool, default=True
    form : str, optional
        Which CVXPY formulation states it, where the model has several
        (:mod:`solvers.backends.cvxpy`): ``"dual"`` for the SVM dual of 001 eq. 2
        whatever the shape, ``"rlsc"`` for RLSC's problem in the kernel's
        coefficients (000 eq. 1); None: the smaller of the primal and the dual.
    tolerance : float, default=GAP_TOLERANCE
        The relative duality gap at which an answer is certified (the estimator's
        ``tol``).
    """

    model: str
    X: object
    y: np.ndarray
    sample_weight: object
    loss: object
    lam: float
    weights: np.ndarray
    l1_ratio: float = 1.0
    fit_intercept: bool = True
    form: str = None
    tolerance: float = GAP_TOLERANCE

    @property
    def C(self):
        """The 2-norm SVMs' C (001 eq. 2): ``1 / lam``."""
        return 1.0 / self.lam

    @property
    def ridge_lam(self):
        """Ridge's and RLSC's lam (``||y - Xb||^2 + lam ||b||^2``): half the problem's."""
        return 0.5 * self.lam

    @property
    def penalty(self):
        """The weighted elastic net (:class:`solvers._penalty.Penalty`)."""
        return Penalty.elastic_net(self.lam, self.weights, self.l1_ratio)

    def sample_weights(self):
        """``s``, ones when the problem is unweighted."""
        return np.ones(self.y.size) if self.sample_weight is None else self.sample_weight

    def fitted(self, answer):
        """``X w + b`` at ``answer``."""
        return np.asarray(self.X @ answer.coef).ravel() + answer.intercept

    def objective(self, answer):
        """The primal objective at ``answer``: ``sum_i s_i loss_i + penalty(w)``."""
        return self.loss.value(self.y, self.fitted(answer), self.sample_weight) + (
            self.penalty.value(answer.coef)
        )

    def restricted(self, *, rows=None, columns=None):
        """The problem on the samples ``rows`` and the features ``columns`` (index
        arrays; None: all): a working set's."""
        X, y, s, weights = self.X, self.y, self.sample_weight, self.weights
        if rows is not None:
            X, y, s = X[rows], y[rows], None if s is None else s[rows]
        if columns is not None:
            X, weights = X[:, columns], weights[columns]
        return replace(self, X=X, y=y, sample_weight=s, weights=weights)

    def with_unit_columns(self, scales):
        """The same L1 problem on the columns ``X_j / m_j`` with weights ``W_j / m_j``
        (``c_j = m_j w_j``): equilibrated, as a backend sees it best."""
        X = self.X @ sp.diags(1.0 / scales) if sp.issparse(self.X) else self.X / scales
        return replace(self, X=X, weights=self.weights / scales)

    def certificate(self, answer, *, norms=None):
        """The certificate of ``answer`` at the problem's tolerance
        (:mod:`solvers.certificates`): the papers' models through their own functions
        (each an instance of the generic one, with the backend's multipliers as a dual
        point), the others the generic one. ``norms``: X's column norms, when known."""
        X, y, s, tolerance = self.X, self.y, self.sample_weight, self.tolerance
        coef, b = np.asarray(answer.coef, dtype=np.float64).ravel(), float(answer.intercept)
        if self.model == "l1_svm":
            return l1_svm_certificate(
                X, y, coef, b, self.lam, self.weights, alpha=answer.dual, sample_weight=s,
                tolerance=tolerance,
            )  # fmt: skip
        if self.model == "svm2":
            return svm2_certificate(
                X, y, coef, b, self.lam, self.weights, sample_weight=s, norms=norms,
                tolerance=tolerance,
            )  # fmt: skip
        if self.model == "lasso":
            return lasso_certificate(
                X, y, coef, b, self.lam, self.weights, sample_weight=s, norms=norms,
                tolerance=tolerance,
            )  # fmt: skip
        if self.model in ("svm", "svm_squared_hinge"):  # the data checked: the answer only
            _check_candidate(coef, b, X.shape[1])
            return _svm_certificate(
                X, y, coef, b, self.C, self.loss, answer.dual, self.sample_weights(), tolerance,
                norms,
            )  # fmt: skip
        if self.model == "ridge":
            return ridge_certificate(
                X, y, coef, self.ridge_lam, dual_coef=answer.dual, sample_weight=s,
                tolerance=tolerance,
            )  # fmt: skip
        return _certify(
            _model_name(self.loss, self.l1_ratio), X, y, coef, b, self.loss, self.penalty,
            self.sample_weights(), self.fit_intercept, tolerance, [], norms=norms,
        )  # fmt: skip
