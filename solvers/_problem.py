"""A fit's problem as a value: the data, the loss, the penalty and the intercept rule.

``min_{w, b} sum_i s_i loss(y_i, x_i'w + b) + lam (l1_ratio sum_j W_j |w_j| +
(1 - l1_ratio)/2 ||w||^2)``: an estimator validates its input, builds one of these,
hands it to the planned chain and sets its fitted attributes from the answer; the
objective and the certificate (:func:`solvers.certificates.certificate`, sound by
construction) are read off it. Nothing about the problem being solved lives on the
estimator while it is solved. :class:`solvers.SparseLogisticRegression` is built on it
(docs/architecture.md, "Adding a model").
"""

from dataclasses import dataclass

import numpy as np

from ._penalty import Penalty
from .certificates import GAP_TOLERANCE, _certify, _model_name

__all__ = ["Problem"]


@dataclass(frozen=True)
class Problem:
    """One binary problem, immutable.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples (the columns of finite weight).
    y : ndarray of shape (n_samples,)
        Targets, or labels -1/+1 for a classification loss.
    sample_weight : ndarray of shape (n_samples,) or None
        ``s_i > 0`` (zeros dropped before), None for all 1.
    loss : solvers._losses.Loss
    lam : float
    weights : ndarray of shape (n_features,)
        Penalty weights of the L1 term, each >= 0 (0: unpenalised).
    l1_ratio : float, default=1.0
    fit_intercept : bool, default=True
    """

    X: object
    y: np.ndarray
    sample_weight: object
    loss: object
    lam: float
    weights: np.ndarray
    l1_ratio: float = 1.0
    fit_intercept: bool = True

    @property
    def penalty(self):
        """The weighted elastic net (:class:`solvers._penalty.Penalty`)."""
        return Penalty.elastic_net(self.lam, self.weights, self.l1_ratio)

    def objective(self, coef, intercept):
        """The primal objective at ``(coef, intercept)``."""
        fitted = np.asarray(self.X @ coef).ravel() + intercept
        return self.loss.value(self.y, fitted, self.sample_weight) + self.penalty.value(coef)

    def certificate(self, coef, intercept, tolerance=GAP_TOLERANCE):
        """The generic certificate of ``(coef, intercept)`` on this problem."""
        s = np.ones(self.y.size) if self.sample_weight is None else self.sample_weight
        coef = np.asarray(coef, dtype=np.float64).ravel()
        return _certify(
            _model_name(self.loss, self.l1_ratio), self.X, self.y, coef, float(intercept),
            self.loss, self.penalty, s, self.fit_intercept, tolerance, [],
        )  # fmt: skip
