r"""Ridge regression and RLSC by preconditioned conjugate gradients, for large sparse X.

The problem (002 sec. 3.4; RLSC is 000 eq. (1) on the labels -1 and +1), without
intercept, with sample weights ``s_i >= 0``:

- primal: ``min_b sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2``;
- dual: ``max_u 2u'y - ||u||^2 - ||A'u||^2 / lam`` with ``A = sqrt(S) X`` and y scaled
  to ``sqrt(S) y`` (:func:`solvers.certificates.ridge_certificate` on those rows);
- the map: ``u = sqrt(S) (y - Xb)`` and ``b = X'x`` for the dual coefficients
  ``x = S(y - Xb) / lam`` (RLSC's ``x = (XX' + lam I)^-1 y`` when s = 1, 000 eq. (2)).

The optimum solves the normal equations ``(A'A + lam I) b = X'Sy``, here by the
preconditioned conjugate gradient method (Hestenes & Stiefel 1952) with products with
X and X' only: X is never densified or copied, no Gram matrix is formed, and the
weights enter the products as the vector s (``A'A v = X'(s * Xv)``). Its residual is
the gradient of the primal, so the certificate's duality gap,
``||X'S(y - Xb) - lam b||^2 / lam``, is known at every iteration for free; CG stops
when it is below ``tol`` times ``sum_i s_i y_i^2`` (the objective at b = 0, at most the
certificate's scale). The answer is then certified from the data by
:func:`solvers.certificates.ridge_certificate`; if rounding in CG's recurrences left
the true gap above ``tol`` (or above the rounding level of float64, the certificate's
``resolution``), CG restarts from the true residual, until ``max_iter``.

Two choices were measured on ``benchmarks._text`` corpora (tf-idf, Zipf word
frequencies), lam in {0.1, 1, 10}, to a gap of 1e-7:

- The primal system even when n < d: CG on the dual system ``(AA' + lam I) z =
  sqrt(S) y`` (``b = A'z``; the same Krylov space of b) took 15-25% more iterations
  (63 for 50 at 20000 x 200000, lam = 0.1): primal CG minimises the primal objective
  over that space, the dual CG does not. Both keep vectors of length d.
- The preconditioner ``M = diag(A'A + lam I)^(1/2)``, the square root of Jacobi's:
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

from .certificates import GAP_TOLERANCE, Certificate, ridge_certificate

__all__ = ["RidgeCGResult", "ridge_cg"]

#: The relative duality gap at which CG stops (a tenth of the estimators' tolerance).
INNER_TOLERANCE = 0.1 * GAP_TOLERANCE
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


def _weighted_column_squares(X, s):
    """``sum_i s_i X_ij^2``: the diagonal of ``A'A`` (the squared column norms of A)."""
    if sp.issparse(X):
        return np.asarray(X.multiply(X).T @ s).ravel()
    return np.einsum("ij,ij,i->j", X, X, s)


def ridge_cg(
    X,
    y,
    lam,
    *,
    sample_weight=None,
    coef=None,
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
        A starting b (e.g. an earlier fit's, at another lam).
    tol : float, default=INNER_TOLERANCE
        The relative duality gap to reach.
    max_iter : int, default=MAX_ITER
        CG iterations at most.

    Returns
    -------
    RidgeCGResult

    See Also
    --------
    solvers.ridge.ridge_closed_form : The Cholesky solve with the smaller Gram matrix.
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
    squares = _weighted_column_squares(X, s)
    system = _NormalEquations(X, s, lam, np.sqrt(squares + lam))
    rhs = system.transposed(s * y)
    target = tol * float(s @ (y * y))
    beta = np.zeros(d) if coef is None else np.array(coef, dtype=np.float64)
    iterations = 0
    while True:
        start = iterations
        beta, iterations = _conjugate_gradients(system, rhs, beta, target, iterations, max_iter)
        certificate = ridge_certificate(
            X, y, beta, lam, sample_weight=sample_weight, norms=np.sqrt(squares)
        )
        converged = certificate.relative_gap <= max(tol, certificate.resolution)
        # A restart from the true residual that stops at once cannot do better.
        if converged or iterations >= max_iter or iterations == start:
            break
    return RidgeCGResult(
        coef=beta,
        dual_coef=s * (y - system.times(beta)) / lam,
        certificate=certificate,
        converged=bool(converged),
        iterations=iterations,
    )


class _NormalEquations:
    """``(X'SX + lam I) v`` by two products, and the preconditioner's diagonal."""

    def __init__(self, X, s, lam, preconditioner):
        self.X, self.s, self.lam = X, s, lam
        self.preconditioner = preconditioner

    def times(self, v):
        return np.asarray(self.X @ v).ravel()

    def transposed(self, v):
        return np.asarray(self.X.T @ v).ravel()

    def apply(self, v):
        return self.transposed(self.s * self.times(v)) + self.lam * v


def _conjugate_gradients(system, rhs, beta, target, iterations, max_iter):
    """Preconditioned CG on the normal equations from ``beta``.

    Stops when ``||gradient||^2`` (the residual's, the gap times lam, by the
    recurrences) is at most ``target * lam``, or after ``max_iter`` iterations in all.
    Returns ``(beta, iterations)``.
    """
    residual = rhs - system.apply(beta)
    preconditioned = residual / system.preconditioner
    direction = preconditioned
    energy = residual @ preconditioned
    while iterations < max_iter and residual @ residual > target * system.lam:
        product = system.apply(direction)
        step = energy / (direction @ product)
        beta = beta + step * direction
        residual = residual - step * product
        preconditioned = residual / system.preconditioner
        energy, previous = residual @ preconditioned, energy
        direction = preconditioned + (energy / previous) * direction
        iterations += 1
    return beta, iterations
