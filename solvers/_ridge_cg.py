r"""Ridge regression and RLSC by preconditioned conjugate gradients, for large sparse X.

The problem (002 sec. 3.4; RLSC is 000 eq. (1) on the labels -1 and +1), without
intercept, with sample weights ``s_i >= 0``:

- primal: ``min_b sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2``;
- dual: ``max_u 2u'y - ||u||^2 - ||A'u||^2 / lam`` with ``A = sqrt(S) X`` and y scaled
  to ``sqrt(S) y`` (:func:`solvers.certificates.ridge_certificate` on those rows);
- the map: ``u = sqrt(S) (y - Xb)`` and ``b = X'x`` for the dual coefficients
  ``x = S(y - Xb) / lam`` (RLSC's ``x = (XX' + lam I)^-1 y`` when s = 1, 000 eq. (2)).

The optimum solves the normal equations ``(A'A + lam I) b = X'Sy`` (n >= d), or the
dual system ``(AA' + lam I) z = sqrt(S) y`` with ``b = A'z`` and ``x = sqrt(S) z``
(n < d), here by the preconditioned conjugate gradient method (Hestenes & Stiefel
1952) with products with X and X' only: X is never densified or copied, no Gram
matrix is formed, and the weights enter the products as vectors. Either residual
gives the certificate's duality gap at every iteration for free: the primal system's
is the gradient g, and the gap of the residual's dual point is ``||g||^2 / lam``; the
dual system's residual r gives, with the dual point ``lam z``, the gap ``||r||^2``
(:func:`solvers.certificates.ridge_certificate` with ``dual_coef``), which a small lam
does not inflate. The objectives come as cheaply: CG minimises
``phi(v) = v'Kv / 2 - v'h`` for the system ``Kv = h``, and ``phi(v) = -v'(h + r) / 2``;
the primal value is ``sum_i s_i y_i^2 + 2 phi(b)`` and the dual value
``-2 lam phi(z)``. CG stops when the gap is below ``tol`` times the certificate's scale
(:func:`solvers.certificates.gap_scale` of those values: the optimum's own size, 300
times below ``sum_i s_i y_i^2`` on a text corpus whose targets have an offset). The
answer is then certified from the data; if rounding in CG's recurrences left the true
gap above ``tol`` (or above the rounding level of float64, the certificate's
``resolution``), CG restarts from the true residual, until ``max_iter``.

Choices measured on ``benchmarks._text`` corpora (tf-idf, Zipf word frequencies):

- The dual system when n < d: its vectors have length n, not d (at 2000 x 200000 the
  primal's d-length vector updates cost more than its two products), and its gap,
  not divided by lam, is met in fewer iterations at a small lam. Unless fewer
  columns than rows dwarf the others (:func:`solvers._columns.large_columns`): the
  primal's preconditioner scales them, the dual's scales rows (at 3 x 4 with two
  columns at 1e6 and lam = 1e-3 the dual system stopped at 1000 iterations, gap 5e-6).
- The preconditioner ``M = diag(A'A + lam I)^(1/2)`` for the primal system (and
  ``diag(AA' + lam I)^(1/2)`` for the dual), the square root of Jacobi's:
  21, 9 and 6 iterations at 20000 x 200000 where none took 50, 21 and 8 and Jacobi's
  98, 36 and 20; Jacobi equalises the columns and spreads the small eigenvalues of
  the rare words through the spectrum, no scaling leaves the frequent words' large
  ones apart. On Gaussian columns of log-normal scales (n > d) it took 227 iterations
  where none took more than 3000. It costs when d > n and the columns are alike
  (Gaussian 300 x 1000: 29 iterations for 18), as it moves the iterates off the row
  space of X.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._columns import large_columns
from .certificates import GAP_TOLERANCE, Certificate, gap_scale, ridge_certificate

__all__ = ["RidgeCGResult", "ridge_cg"]

#: The relative duality gap at which CG stops (half the estimators' tolerance: the
#: gap CG tracks is the certificate's, and a restart mends what rounding drifts).
INNER_TOLERANCE = 0.5 * GAP_TOLERANCE
#: CG iterations at most, over all restarts.
MAX_ITER = 1000


@dataclass
class RidgeCGResult:
    """The answer of :func:`ridge_cg`.

    Attributes
    ----------
    coef : ndarray of shape (n_features,)
        b.
    dual_coef : ndarray of shape (n_samples,)
        RLSC's dual coefficients ``x = S(y - Xb) / lam`` (``b = X'x`` at the optimum;
        ``||X'x - b||`` is the gradient's norm over lam).
    certificate : Certificate
        :func:`solvers.certificates.ridge_certificate` of ``coef``.
    converged : bool
        Whether the certificate's relative gap is at most ``tol`` (or at most its
        ``resolution``, the rounding level of float64).
    iterations : int
        CG iterations, over all restarts.
    """

    coef: np.ndarray
    dual_coef: np.ndarray
    certificate: Certificate
    converged: bool
    iterations: int


class _Squares:
    """The squared entries of X, formed once for a sparse X: ``columns(s) = sum_i s_i
    X_ij^2`` (the diagonal of ``A'A``, the squared column norms of A) and ``rows() =
    sum_j X_ij^2``."""

    def __init__(self, X):
        self.X = X
        self.entries = X.multiply(X) if sp.issparse(X) else None

    def columns(self, s):
        if self.entries is not None:
            return np.asarray(self.entries.T @ s).ravel()
        return np.einsum("ij,ij,i->j", self.X, self.X, s)

    def rows(self):
        if self.entries is not None:
            return np.asarray(self.entries.sum(axis=1)).ravel()
        return np.einsum("ij,ij->i", self.X, self.X)


def ridge_cg(
    X,
    y,
    lam,
    *,
    sample_weight=None,
    coef=None,
    dual_coef=None,
    tol=INNER_TOLERANCE,
    max_iter=MAX_ITER,
):
    """Solve ridge regression / RLSC without intercept by preconditioned CG.

    See the module's docstring for the problem, the method and the stopping rule.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Validated float64 samples (finite); never densified.
    y : ndarray of shape (n_samples,)
        Targets (the labels -1 and +1 for RLSC).
    lam : float > 0
        The penalty lambda.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0``, not all 0 (default 1).
    coef : ndarray of shape (n_features,), optional
        A starting b (e.g. an earlier fit's, at another lam) for the primal system
        (n >= d).
    dual_coef : ndarray of shape (n_samples,), optional
        A starting x for the dual system (n < d).
    tol : float, default=INNER_TOLERANCE
        The relative duality gap to reach.
    max_iter : int, default=MAX_ITER
        CG iterations at most.

    Returns
    -------
    RidgeCGResult

    See Also
    --------
    solvers._ridge_closed_form.ridge_closed_form : The Cholesky solve with the smaller Gram matrix.
    solvers.certificates.ridge_certificate : The certificate.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((50, 3)); y = rng.standard_normal(50)
    >>> result = ridge_cg(X, y, 2.0)
    >>> exact = np.linalg.solve(X.T @ X + 2.0 * np.eye(3), X.T @ y)
    >>> result.converged, bool(np.allclose(result.coef, exact))
    (True, True)
    """
    n, d = X.shape
    y = np.asarray(y, dtype=np.float64)
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    entries = _Squares(X)
    squares = entries.columns(s)
    # The dual system's preconditioner scales rows: fewer columns than rows that dwarf
    # the others (a Unix timestamp) give AA' as many huge eigenvalues beside ordinary
    # ones, and need the primal's, which scales columns. At least as many span the
    # rows: AA' is well conditioned (10 x 20, ten columns at 1e6, lam = 1e-3: relative
    # gap 3e-13 by the dual system, 1.7e-7 by the primal).
    if d > n and large_columns(np.sqrt(squares))[0].size not in range(1, n):
        system = _DualSystem(X, s, lam, squares, entries.rows())
    else:
        system = _NormalEquations(X, s, lam, squares)
    null = float(s @ (y * y))  # the objective at b = 0
    unknown, iterations = system.start(coef, dual_coef), 0
    while True:
        first = iterations
        unknown, iterations = _conjugate_gradients(
            system, system.rhs(y), unknown, null, tol, iterations, max_iter
        )
        beta, x = system.solution(unknown, y)
        certificate = ridge_certificate(
            X, y, beta, lam, dual_coef=x, sample_weight=sample_weight, norms=system.norms
        )
        converged = certificate.relative_gap <= max(tol, certificate.resolution)
        # A restart from the true residual that stops at once cannot do better.
        if converged or iterations >= max_iter or iterations == first:
            break
    return RidgeCGResult(
        coef=beta,
        dual_coef=x,
        certificate=certificate,
        converged=bool(converged),
        iterations=iterations,
    )


class _NormalEquations:
    """The primal system ``(X'SX + lam I) b = X'Sy``, its preconditioner and its gap.

    ``A'A v = X'(s * Xv)``; the gap of the residual's dual point is ``||g||^2 / lam``.
    """

    def __init__(self, X, s, lam, squares):
        self.X, self.s, self.lam = X, s, lam
        self.norms = np.sqrt(squares)
        self.preconditioner = np.sqrt(squares + lam)

    def start(self, coef, dual_coef):
        return np.zeros(self.X.shape[1]) if coef is None else np.array(coef, dtype=np.float64)

    def rhs(self, y):
        return np.asarray(self.X.T @ (self.s * y)).ravel()

    def apply(self, v):
        return np.asarray(self.X.T @ (self.s * (self.X @ v))).ravel() + self.lam * v

    def gap(self, residual):
        return residual @ residual / self.lam

    def primal_dual(self, beta, rhs, residual, null):
        """The primal value at b and the dual value of the residual's dual point."""
        primal = null - beta @ (rhs + residual)
        return primal, primal - self.gap(residual)

    def solution(self, beta, y):
        """b, and the dual coefficients ``x = S(y - Xb) / lam``."""
        return beta, self.s * (y - np.asarray(self.X @ beta).ravel()) / self.lam


class _DualSystem:
    """The dual system ``(AA' + lam I) z = sqrt(S) y`` (``A = sqrt(S) X``), its
    preconditioner and its gap: with ``b = A'z`` and the dual point ``lam z``, the
    certificate's gap is the squared residual."""

    def __init__(self, X, s, lam, squares, rows):
        self.X, self.root, self.lam = X, np.sqrt(s), lam
        self.norms = np.sqrt(squares)
        self.preconditioner = np.sqrt(s * rows + lam)

    def start(self, coef, dual_coef):
        if dual_coef is None:
            return np.zeros(self.X.shape[0])
        x = np.asarray(dual_coef, dtype=np.float64)
        return np.divide(x, self.root, out=np.zeros_like(x), where=self.root > 0)

    def rhs(self, y):
        return self.root * y

    def apply(self, v):
        product = np.asarray(self.X.T @ (self.root * v)).ravel()
        return self.root * np.asarray(self.X @ product).ravel() + self.lam * v

    def gap(self, residual):
        return residual @ residual

    def primal_dual(self, z, rhs, residual, null):
        """The primal value at ``b = A'z`` and the dual value at ``lam z``."""
        dual = self.lam * (z @ (rhs + residual))
        return dual + self.gap(residual), dual

    def solution(self, z, y):
        """``b = A'z`` and ``x = sqrt(S) z``."""
        x = self.root * z
        return np.asarray(self.X.T @ x).ravel(), x


def _conjugate_gradients(system, rhs, beta, null, tol, iterations, max_iter):
    """Preconditioned CG on ``system`` from ``beta``.

    Stops when the gap that the residual gives (:meth:`_NormalEquations.gap`,
    :meth:`_DualSystem.gap`, by the recurrences) is at most ``tol`` times the
    certificate's scale (:func:`solvers.certificates.gap_scale` of the values
    :meth:`_NormalEquations.primal_dual`, :meth:`_DualSystem.primal_dual` give;
    ``null`` is the objective at b = 0), or after ``max_iter`` iterations in all.
    Returns ``(beta, iterations)``.
    """
    residual = rhs - system.apply(beta)
    preconditioned = residual / system.preconditioner
    direction = preconditioned
    energy = residual @ preconditioned
    while iterations < max_iter and system.gap(residual) > tol * gap_scale(
        *system.primal_dual(beta, rhs, residual, null), null
    ):
        product = system.apply(direction)
        step = energy / (direction @ product)
        beta = beta + step * direction
        residual = residual - step * product
        preconditioned = residual / system.preconditioner
        energy, previous = residual @ preconditioned, energy
        direction = preconditioned + (energy / previous) * direction
        iterations += 1
    return beta, iterations
