r"""Ridge regression and RLSC by preconditioned conjugate gradients, for large sparse X.

The problem (002 sec. 3.4; RLSC is 000 eq. (1) on the labels -1 and +1), without
intercept, with sample weights ``s_i >= 0``:

- primal: ``min_b sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2``;
- dual: ``max_u 2u'Sy - u'Su - ||X'Su||^2 / lam`` (:func:`solvers.certificates.ridge_certificate`
  on the rows ``sqrt(s_i) x_i``), with ``b = X'x`` for the dual coefficients
  ``x = S(y - Xb) / lam`` (RLSC's ``x = (XX' + lam I)^-1 y`` when s = 1, 000 eq. (2)).

With ``A = sqrt(S) X`` the optimum solves the smaller of two positive definite systems,
each by the conjugate gradient method (Hestenes & Stiefel 1952), using products with X
and X' only (X is never densified or copied, no Gram matrix is formed; the weights
enter the products as the vectors s and ``sqrt(s)``):

- ``d <= n``, primal route: ``(A'A + lam I) b = A'sqrt(S) y``;
- ``n < d``, dual route: ``(AA' + lam I) z = sqrt(S) y``, ``x = sqrt(S) z``, ``b = A'z = X'x``.

CG stops on the certificate's own measure: the duality gap of b is
``||A'(sqrt(S) y - A b) - lam b||^2 / lam`` (the squared gradient over lam), which is
``||r||^2 / lam`` for the primal route's residual r and ``||A'r||^2 / lam`` for the dual
route's. Both come with no extra product: on the dual route CG carries the image
``A'p`` of its direction p along (``A'r`` is the one product with X' of each iteration,
``A'p`` follows from the same recurrence as p, and ``A(A'p)`` is the one product with
X), so the gap is known at every iteration. CG stops when the gap is below ``tol``
times ``sum_i s_i y_i^2`` (the objective at b = 0, at most the certificate's scale).
The answer is then certified from the data by
:func:`solvers.certificates.ridge_certificate`; if rounding in CG's recurrences left
the true gap above ``tol`` (or above the rounding level of float64, the certificate's
``resolution``), CG restarts from the true residual, until ``max_iter``.

No preconditioner: the Jacobi one (the diagonal of ``A'A + lam I``, the squared column
norms) took 86 iterations where plain CG took 17 (lam = 0.1, 2000 x 20000 text of
``benchmarks._text``) and 98 for 50 at 20000 x 200000. The columns of the frequent
words carry the signal; their few large eigenvalues are what CG resolves first, and
the diagonal scaling pulls them into the bulk. On the dual route the diagonal is
``s_i ||x_i||^2 + lam``, constant for tf-idf rows of unit norm.
"""

from dataclasses import dataclass

import numpy as np

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
        RLSC's dual coefficients x: ``sqrt(S) z`` on the dual route (then ``b = X'x``),
        ``S(y - Xb) / lam`` on the primal route (``b = X'x`` at the optimum).
    certificate : Certificate
        :func:`solvers.certificates.ridge_certificate` of ``coef``.
    converged : bool
        Whether the certificate's relative gap is at most ``tol`` (or at most its
        ``resolution``, the rounding level of float64).
    iterations : int
        CG iterations, over all restarts.
    route : {"primal", "dual"}
        The system solved: ``(A'A + lam I) b = A'sqrt(S) y`` (d <= n) or
        ``(AA' + lam I) z = sqrt(S) y`` (n < d).
    """

    coef: np.ndarray
    dual_coef: np.ndarray
    certificate: Certificate
    converged: bool
    iterations: int
    route: str


class _Operator:
    """The route's system ``(K + lam I) v = rhs`` and the image map ``L`` of its unknowns.

    Primal route: ``K = A'A``, ``L`` the identity (the unknown is b). Dual route:
    ``K = AA'``, ``L v = A'v`` (the unknown z has ``b = A'z``), so that
    ``K v = A (L v)`` and the gradient of b is ``L r`` for the residual r.
    """

    def __init__(self, X, y, lam, s):
        self.X, self.lam, self.s = X, lam, s
        self.root = np.sqrt(s)
        self.primal = X.shape[1] <= X.shape[0]
        self.rhs = self.transposed(s * y) if self.primal else self.root * y

    def times(self, v):
        return np.asarray(self.X @ v).ravel()

    def transposed(self, v):
        return np.asarray(self.X.T @ v).ravel()

    def image(self, v):
        """``L v``: v itself (primal route) or ``A'v`` (one product with X')."""
        return v if self.primal else self.transposed(self.root * v)

    def apply(self, v, image):
        """``(K + lam I) v``, given ``image = L v``."""
        if self.primal:
            return self.transposed(self.s * self.times(v)) + self.lam * v
        return self.root * self.times(image) + self.lam * v


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
    """Solve ridge regression / RLSC without intercept by conjugate gradients.

    See the module's docstring for the problem, the two routes and the stopping rule.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Validated float64 samples (finite); never copied or densified.
    y : ndarray of shape (n_samples,)
        Targets (the labels -1 and +1 for RLSC).
    lam : float > 0
        The penalty lambda.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0``, not all 0 (default 1).
    coef : ndarray of shape (n_features,), optional
        A starting b (e.g. an earlier fit's, at another lam) for the primal route
        (d <= n); ignored on the dual route.
    dual_coef : ndarray of shape (n_samples,), optional
        A starting x for the dual route (n < d; an earlier result's ``dual_coef``);
        ignored on the primal route.
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
    >>> result.converged, result.route, bool(np.allclose(result.coef, exact))
    (True, 'primal', True)
    """
    n, d = X.shape
    y = np.asarray(y, dtype=np.float64)
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    operator = _Operator(X, y, lam, s)
    target = tol * float(s @ (y * y))
    if operator.primal:
        unknown = np.zeros(d) if coef is None else np.array(coef, dtype=np.float64)
    else:
        unknown = np.zeros(n)
        if dual_coef is not None:
            positive = operator.root > 0
            unknown[positive] = np.asarray(dual_coef)[positive] / operator.root[positive]
    norms = None
    iterations = 0
    while True:
        start = iterations
        unknown, iterations = _conjugate_gradients(operator, unknown, target, iterations, max_iter)
        beta = operator.image(unknown)
        certificate = ridge_certificate(X, y, beta, lam, sample_weight=sample_weight, norms=norms)
        converged = certificate.relative_gap <= max(tol, certificate.resolution)
        # A restart from the true residual that stops at once cannot do better.
        if converged or iterations >= max_iter or iterations == start:
            break
    if operator.primal:
        dual = s * (y - operator.times(beta)) / lam
    else:
        dual = operator.root * unknown
    return RidgeCGResult(
        coef=beta,
        dual_coef=dual,
        certificate=certificate,
        converged=bool(converged),
        iterations=iterations,
        route="primal" if operator.primal else "dual",
    )


def _conjugate_gradients(operator, unknown, target, iterations, max_iter):
    """CG on the route's system from ``unknown``, carrying the images ``L v`` along.

    Stops when ``||gradient||^2 = ||L r||^2`` (the gap times lam, by the recurrences)
    is at most ``target * lam``, or after ``max_iter`` iterations in all. Returns
    ``(unknown, iterations)``.
    """
    residual = operator.rhs - operator.apply(unknown, operator.image(unknown))
    gradient = operator.image(residual)
    direction, direction_image = residual, gradient
    energy = residual @ residual
    while iterations < max_iter and gradient @ gradient > target * operator.lam:
        product = operator.apply(direction, direction_image)
        step = energy / (direction @ product)
        unknown = unknown + step * direction
        residual = residual - step * product
        gradient = operator.image(residual)
        energy, previous = residual @ residual, energy
        direction = residual + (energy / previous) * direction
        direction_image = gradient + (energy / previous) * direction_image
        iterations += 1
    return unknown, iterations
