"""The finite Newton method for the squared-hinge 2-norm SVM (Keerthi & DeCoste 2005).

``min_{w, b} 1/2 ||w||^2 + C sum_i [1 - y_i (x_i'w + b)]_+^2`` is piecewise quadratic:
on the samples inside the margin, A = {i : y_i f_i < 1}, it is the ridge problem
``1/2 ||w||^2 + C sum_{i in A} (y_i - f_i)^2`` (``y_i^2 = 1``) with a free intercept.
Newton's method moves towards that ridge minimiser, with a backtracking line search
on the true objective, and recomputes A; it stops when A no longer changes after a
full step, at the exact optimum of the piecewise problem.

The ridge step is taken in the smaller space:

- n >= d, the feature space: a (d + 1) x (d + 1) system, O(|A| d^2) per step,
  solved after scaling it to unit diagonal (a column at 1e12 beside unit ones);
- d > n, the sample space: ``w = X'x`` with x supported on A, through the n x n Gram
  matrix ``XX'`` formed once (:class:`solvers._ridge_closed_form.SplitGram`, which keeps a
  column that dwarfs the others out of it); each step factors ``K_AA + I / (2C)``,
  O(|A|^3), and sparse X is never densified.

On a sparse X the method runs only where these dense blocks hold at most
``2 (nnz + n + d)`` entries (:func:`solvers._memory.dense_fits`); elsewhere it declines
with a ValueError, and the chain moves on.

Sample weights ``s_i > 0`` (the loss ``C sum_i s_i [.]_+^2``) enter the ridge step as
row weights: ``Z'S Z`` in the feature space, the diagonal ``1 / (2 C s_i)`` in place
of ``I / (2C)`` in the sample space.

It is the ``"NEWTON"`` backend of :class:`solvers.L2SVM` with ``loss="squared_hinge"``;
its answer is certified like every other (:func:`solvers.certificates.svm_certificate`).
"""

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ._losses import SQUARED_HINGE
from ._memory import dense_fits
from ._ridge_closed_form import SplitGram

__all__ = ["squared_hinge_newton"]

_MAX_ITER = 100
_MAX_HALVINGS = 40


def dense_entries(n, d):
    """The entries of the method's dense blocks on n x d data: the n x n Gram matrix
    (d > n), or the rows of X inside the margin and their (d + 1)^2 system (n >= d)."""
    return n * n if d > n else n * (d + 1) + (d + 1) ** 2


def squared_hinge_newton(X, y, C, sample_weight=None):
    """Minimise ``1/2 ||w||^2 + C sum_i s_i [1 - y_i (x_i'w + b)]_+^2`` exactly.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float > 0
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` (default 1).

    Returns
    -------
    coef : ndarray of shape (n_features,)
    intercept : float

    Raises
    ------
    ValueError
        When X is sparse and the dense blocks would hold more entries than it
        (:func:`solvers._memory.dense_fits`): the backend declines.
    ArithmeticError
        When the iteration does not settle within 100 steps.
    numpy.linalg.LinAlgError
        When a ridge step's system is singular.
    """
    n, d = X.shape
    entries = dense_entries(n, d)
    if not dense_fits(X, entries):
        raise ValueError(
            f"Newton's method would form dense blocks of {8 * entries / 2**30:.2g} GiB from "
            f"this sparse X ({X.nnz} nonzeros, shape {n} x {d}), more than twice X; "
            'solver="DUAL_CD" works on X in O(nnz + n + d) memory.'
        )
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    costs = C * s  # the loss of sample i is costs_i [.]_+^2
    space = _SampleSpace(X, costs) if d > n else _FeatureSpace(X, costs)
    theta = space.zeros()
    f, penalty = space.evaluate(theta)

    def objective(f, penalty):
        return 0.5 * penalty + SQUARED_HINGE.value(y, f, costs)

    value = objective(f, penalty)
    inside = None
    for _ in range(_MAX_ITER):
        now = y * f < 1.0
        target = space.ridge_on_rows(theta, np.flatnonzero(now), y)
        direction = target - theta
        step = 1.0
        new_f, new_penalty = space.evaluate(target)
        target_f = new_f
        new_value = objective(new_f, new_penalty)
        for _ in range(_MAX_HALVINGS):
            if new_value <= value:
                break
            step /= 2.0
            new_f = f + step * (target_f - f)
            new_value = objective(new_f, space.evaluate(theta + step * direction)[1])
        theta, f, value = theta + step * direction, new_f, new_value
        if step == 1.0 and inside is not None and np.array_equal(now, inside):
            return space.solution(theta)
        inside = now
    raise ArithmeticError("the finite Newton iteration did not settle in 100 steps")


class _FeatureSpace:
    """theta = (w, b): ``f = X w + b``, penalty ``||w||^2``; ``costs`` = C s."""

    def __init__(self, X, costs):
        self.X, self.costs, self.d = X, costs, X.shape[1]

    def zeros(self):
        return np.zeros(self.d + 1)

    def evaluate(self, theta):
        w = theta[: self.d]
        return np.asarray(self.X @ w).ravel() + theta[self.d], float(w @ w)

    def ridge_on_rows(self, theta, rows, y):
        """Minimiser of ``1/2 ||w||^2 + sum_{i in rows} costs_i (y_i - x_i'w - b)^2``."""
        d = self.d
        if rows.size == 0:  # no sample inside: w = 0, b free; keep b
            return np.concatenate((np.zeros(d), theta[d:]))
        Z = self.X[rows]
        Z = Z.toarray() if sp.issparse(Z) else np.asarray(Z)
        Z = np.column_stack((Z, np.ones(rows.size)))
        weighted = Z.T * (2.0 * self.costs[rows])
        system = weighted @ Z
        system[np.arange(d), np.arange(d)] += 1.0
        rhs = weighted @ y[rows]
        # Scaled to unit diagonal: Cholesky is then as accurate as the columns'
        # correlations allow, whatever their norms.
        scale = np.sqrt(np.diag(system))
        scale[scale == 0] = 1.0
        unit = system / np.outer(scale, scale)
        try:
            solution = sla.cho_solve(sla.cho_factor(unit), rhs / scale, check_finite=False)
        except np.linalg.LinAlgError:  # the intercept column is collinear: least squares
            solution = sla.lstsq(unit, rhs / scale, check_finite=False)[0]
        return solution / scale

    def solution(self, theta):
        return theta[: self.d].copy(), float(theta[self.d])


class _SampleSpace:
    """theta = (x, g): ``w_R = X_R'x``, ``(w_L, b)`` from g
    (:class:`solvers._ridge_closed_form.SplitGram`).

    ``f = K x + U g``; penalty ``x'K x + sum_k rho_k g_k^2``; the ridge step on the rows
    A has ``x`` supported on A and the diagonal ``lam_i = 1 / (2 C s_i)`` (``costs`` = C s).
    """

    def __init__(self, X, costs):
        self.split = SplitGram(X, intercept=True)
        self.n, self.k, self.lam = X.shape[0], self.split.U.shape[1], 0.5 / costs

    def zeros(self):
        return np.zeros(self.n + self.k)

    def evaluate(self, theta):
        x, g = theta[: self.n], theta[self.n :]
        return self.split.fitted(x, g), self.split.penalty(x, g)

    def ridge_on_rows(self, theta, rows, y):
        target = np.zeros_like(theta)
        if rows.size == 0:  # no sample inside: w = 0, b free; keep b
            target[self.n] = theta[self.n]
            return target
        x, g = self.split.solve(rows, y[rows], self.lam[rows])
        target[rows] = x
        target[self.n :] = g
        return target

    def solution(self, theta):
        return self.split.coef(theta[: self.n], theta[self.n :])
