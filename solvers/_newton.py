"""The finite Newton method for the squared-hinge 2-norm SVM (Keerthi & DeCoste 2005).

``min_{w, b} 1/2 ||w||^2 + C sum_i [1 - y_i (x_i'w + b)]_+^2`` is piecewise quadratic:
on the samples inside the margin, A = {i : y_i f_i < 1}, it is the ridge problem
``1/2 ||w||^2 + C sum_{i in A} (y_i - f_i)^2`` (``y_i^2 = 1``), whose minimiser solves
a (d + 1) x (d + 1) linear system. Newton's method moves towards that minimiser,
with a backtracking line search on the true objective, and recomputes A; it stops
when A no longer changes after a full step, at the exact optimum of the piecewise
problem. Each iteration costs O(|A| d^2): the method is for n >= d. It is the
``"NEWTON"`` backend of :class:`solvers.L2SVM` with ``loss="squared_hinge"``; its
answer is certified like every other (:func:`solvers.certificates.svm_certificate`).
"""

import numpy as np
import scipy.sparse as sp

__all__ = ["squared_hinge_newton"]

_MAX_ITER = 100
_MAX_HALVINGS = 40


def squared_hinge_newton(X, y, C):
    """Minimise ``1/2 ||w||^2 + C sum_i [1 - y_i (x_i'w + b)]_+^2`` exactly.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float > 0

    Returns
    -------
    coef : ndarray of shape (n_features,)
    intercept : float

    Raises
    ------
    ArithmeticError
        When the iteration does not settle within 100 steps.
    """
    n, d = X.shape
    theta = np.zeros(d + 1)  # (w, b)

    def fitted(theta):
        return np.asarray(X @ theta[:d]).ravel() + theta[d]

    def objective(theta, f):
        slack = np.maximum(0.0, 1.0 - y * f)
        return 0.5 * theta[:d] @ theta[:d] + C * slack @ slack

    f = fitted(theta)
    value = objective(theta, f)
    inside = None
    for _ in range(_MAX_ITER):
        now = y * f < 1.0
        target = _ridge_on_rows(X, y, C, now)
        direction, target_f = target - theta, fitted(target)
        step, new_f = 1.0, target_f
        new_value = objective(target, new_f)
        for _ in range(_MAX_HALVINGS):
            if new_value <= value:
                break
            step /= 2.0
            new_f = f + step * (target_f - f)
            new_value = objective(theta + step * direction, new_f)
        theta, f, value = theta + step * direction, new_f, new_value
        if step == 1.0 and inside is not None and np.array_equal(now, inside):
            return theta[:d].copy(), float(theta[d])
        inside = now
    raise ArithmeticError("the finite Newton iteration did not settle in 100 steps")


def _ridge_on_rows(X, y, C, rows):
    """Minimiser of ``1/2 ||w||^2 + C sum_{i in rows} (y_i - x_i'w - b)^2``."""
    d = X.shape[1]
    Z = X[rows]
    Z = Z.toarray() if sp.issparse(Z) else np.asarray(Z)
    Z = np.column_stack((Z, np.ones(Z.shape[0])))
    system = 2.0 * C * (Z.T @ Z)
    system[np.arange(d), np.arange(d)] += 1.0
    if Z.shape[0] == 0:
        system[d, d] = 1.0  # no sample inside: w = 0, b free; keep b
    return np.linalg.solve(system, 2.0 * C * (Z.T @ y[rows]))
