"""The ridge closed forms: the least squares ``||y - X beta||^2 + lam ||beta||^2`` solved
directly (backend ``"SVD"`` of :class:`solvers.RLSC` and :class:`solvers.RidgeRegression`;
000 eq. (1)-(3), 002 sec. 3.4).

The routes: Cholesky of the smaller Gram matrix (``X'X`` or ``XX'``), the orthogonal
(QR/SVD) route, and LSMR on products with X for a sparse X beyond the memory rule
(:mod:`solvers._memory`); the first route whose answer the certificate
(:func:`solvers.certificates.ridge_certificate`) accepts is kept. Also here, because
other backends reach them: :func:`ridge_with_intercept` (the 2-norm start of the
adaptive weights and of the lasso's working sets) and :class:`SplitGram` (the few
columns of a very large scale, :func:`solvers._columns.dominant_columns`, kept apart:
the finite Newton method uses it). A backend module: it imports nothing
of the estimators.
"""

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, lsmr

from sparsify.utils import column_norms, one_blas_thread, rank_tolerance

from ._columns import dominant_columns
from ._memory import dense_fits
from .certificates import ridge_certificate, scale_rows
from .exceptions import SolverError

__all__ = [
    "CLOSED_FORM",
    "SplitGram",
    "dominant_columns",
    "ridge_closed_form",
    "ridge_with_intercept",
]

#: The name of the closed form, as a value of ``solver`` and as ``backend_``.
CLOSED_FORM = "SVD"


def _dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


def _gram(A):
    """The dense Gram matrix ``AA'`` of a dense or sparse A (a sparse A is never densified).

    Dense: NumPy's ``A @ A.T`` recognises the product of an array with its own
    transpose and calls BLAS ``syrk`` (one triangle, half the flops, mirrored: the
    result is exactly symmetric) on A in whichever memory order it has, without
    copying it (at 8000 x 50, 0.8 ms against 1.9 ms for ``scipy.linalg.blas.dsyrk``
    on the C-ordered X, which f2py copies to Fortran order, and the mirroring).
    """
    if sp.issparse(A):
        return (A @ A.T).toarray()
    A = np.asarray(A, dtype=np.float64)
    return A @ A.T


def _add_to_diagonal(A, value):
    A.flat[:: A.shape[0] + 1] += value
    return A


def _cholesky(A):
    return sla.cho_factor(A, overwrite_a=True, check_finite=False)


def _cholesky_route(X, y, lam, mean=None, dual=True, squares=None, gram=None):
    """The fast route: a Cholesky solve with the smaller Gram matrix (002 sec. 3.4).

    n >= d: ``(X'X + lam I) beta = X'y``; d > n: ``(XX' + lam I) x = y`` (000 eq. (1),
    whose solution is eq. (2)) and ``beta = X'x``. Sparse X stays sparse: only the
    Gram matrix is dense. With ``mean`` (the column means of X; y already centred)
    the data are centred implicitly, ``X - 1 mean'``, through the Gram matrix of the
    centred data: ``X'X - n mean mean'`` or ``H XX' H`` (H the centring projection),
    plus ``11' c / n`` (any c > 0), which leaves the solution (orthogonal to 1)
    unchanged and makes the matrix definite when lam = 0.

    The normal equations are invariant to column scaling (Cholesky is invariant to
    symmetric diagonal scaling), but square the condition number of X. ``XX'`` is not:
    a column that dwarfs the others (a Unix timestamp) would swamp them when it is
    rounded, so when d > n such columns are kept out of it (:class:`SplitGram`). The
    certificate decides whether the answer is kept. ``squares``, the squared column
    norms of X when known, spare :func:`dominant_columns` a pass over X; ``gram``,
    ``X'X`` when known (n >= d, no ``mean``), the product.

    Returns
    -------
    x : ndarray of shape (n,) or None
        The dual solution of minimum norm (000 eq. (2)); None unless ``dual``.
    beta : ndarray of shape (d,)

    Raises
    ------
    numpy.linalg.LinAlgError
        When a Gram matrix is not numerically positive definite (for the dual when
        n >= d: ``X'X``, singular when X has dependent nonzero columns).
    """
    n, d = X.shape
    shift = np.zeros(d) if mean is None else mean

    def times(v):  # (X - 1 shift') v
        return np.asarray(X @ v).ravel() - shift @ v

    if n >= d:
        gram = (_gram(X.T) if gram is None else gram) - n * np.outer(shift, shift)
        factor = _cholesky(_add_to_diagonal(gram.copy(), lam))
        beta = sla.cho_solve(factor, np.asarray(X.T @ y).ravel(), check_finite=False)
        if not dual:
            return None, beta
        # The dual solution of minimum norm (000 eq. (2)) lies in the range of X:
        # x = X (X'X)^-1 beta. An all-zero column only adds a zero row and column.
        if lam > 0:
            factor = _cholesky(_add_to_diagonal(gram, np.diag(gram) == 0))
        return times(sla.cho_solve(factor, beta, check_finite=False)), beta
    if mean is None:
        split = SplitGram(X, squares=squares)
        if split.split:  # a dominant column: kept out of XX' (Woodbury)
            x, g = split.solve(np.arange(n), y, lam)
            return x, split.refine(y, split.coef(x, g)[0], lam)
        gram = _add_to_diagonal(split.gram, lam)
    else:
        gram = _add_to_diagonal(_gram(X), lam)
        k = np.asarray(X @ mean).ravel()  # K 1 / n
        gram -= k[:, None] + k[None, :] - mean @ mean
        gram += (np.trace(gram) / n or 1.0) / n  # the 11' c / n term, c = mean pivot
    x = sla.cho_solve(_cholesky(gram), y, check_finite=False)
    return x, np.asarray(X.T @ x).ravel() - shift * x.sum()


class SplitGram:
    """Ridge in the sample space with the dominant columns of X kept out of the Gram matrix.

    ``min_{b, g} ||t - X_R b_R - U g||^2 + lam (||b_R||^2 + sum_k rho_k g_k^2)`` over the
    rows S, where R are the columns of X that are not dominant
    (:func:`dominant_columns`), ``U = X_L / s_L`` the dominant ones scaled to unit norm
    (``g = s_L b_L``, so ``rho = 1 / s_L^2``) and, with ``intercept``, a column of ones
    first (``rho = 0``: unpenalised). For fixed g the minimiser is ``b_R = X_R'x`` with
    ``x = M (t - U g)``, ``M = (K_SS + lam I)^-1`` and ``K = X_R X_R'``; g solves the
    small system ``(U_S'M U_S + diag(rho)) g = U_S'M t`` (the Woodbury identity on the
    full Gram matrix ``K + U diag(s^2) U'``, 000 eq. (2)). Every matrix formed is well
    scaled: K holds no dominant column, U has unit columns. Sparse X is never
    densified (only the n x n K and the n x |L| U are dense).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    intercept : bool
        Add an unpenalised column of ones to U.
    squares : ndarray of shape (d,), optional
        The squared column norms of X, when known (see :func:`dominant_columns`).

    Attributes
    ----------
    gram : ndarray of shape (n, n)
        ``K = X_R X_R'``.
    U : ndarray of shape (n, |L| (+ 1))
    rho : ndarray
        Penalty of each column of U relative to lam.
    """

    def __init__(self, X, *, intercept=False, squares=None):
        n, d = X.shape
        if squares is None:
            squares = column_norms(X, squared=True)
        self._dominant = dominant_columns(X, squares=squares)
        rest = np.ones(d, dtype=bool)
        rest[self._dominant] = False
        self._rest = np.flatnonzero(rest)
        self._X = X
        self._X_rest = X if self._dominant.size == 0 else X[:, self._rest]
        self.gram = _gram(self._X_rest)
        self._scales = np.sqrt(squares[self._dominant])
        U = _dense(X[:, self._dominant]) / self._scales if self.split else np.zeros((n, 0))
        rho = 1.0 / self._scales**2
        if intercept:
            U, rho = np.column_stack((np.ones(n), U)), np.concatenate(([0.0], rho))
        self.U, self.rho, self._intercept = U, rho, intercept

    @property
    def split(self):
        """Whether any column was split off."""
        return self._dominant.size > 0

    def solve(self, rows, t, lam):
        """``(x_S, g)`` of the problem on the rows S (indices), targets ``t`` (length |S|).

        ``lam`` is a number or one value per row of S: the diagonal added to ``K_SS``
        (row weights ``1 / lam_i`` on the squared residuals, as the Newton method's).

        Raises
        ------
        numpy.linalg.LinAlgError
            When ``K_SS + lam I`` is not numerically positive definite.
        """
        factor = _cholesky(_add_to_diagonal(self.gram[np.ix_(rows, rows)], lam))
        U = self.U[rows]
        MU = sla.cho_solve(factor, U, check_finite=False)
        Mt = sla.cho_solve(factor, t, check_finite=False)
        if U.shape[1] == 0:
            return Mt, np.zeros(0)
        system = U.T @ MU + np.diag(self.rho)
        g = sla.lstsq(system, U.T @ Mt, check_finite=False)[0]
        return Mt - MU @ g, g

    def fitted(self, x, g):
        """``X_R X_R'x + U g`` for a dual vector x over all n rows."""
        return self.gram @ x + self.U @ g

    def penalty(self, x, g):
        """``||b_R||^2 + sum_k rho_k g_k^2`` with ``b_R = X_R'x``."""
        return float(x @ (self.gram @ x) + self.rho @ g**2)

    def refine(self, t, beta, lam):
        """One Newton step on the dominant coefficients of a ridge solution (no intercept).

        ``b_L`` is the better part of float64's precision away from its exact value:
        for a column at 1e12, one unit in its last place moves ``||X_L'r - lam b_L||``
        by 1e24 ulps, which the certificate sees. With ``b_R`` fixed, the residual is
        formed in extended precision (``numpy.longdouble``) and ``b_L`` minimises the
        objective exactly: ``(X_L'X_L + lam I) step = X_L'r - lam b_L``, solved with the
        unit columns U.

        Returns
        -------
        ndarray of shape (d,)
        """
        L, scales = self._dominant, self._scales
        wide = np.longdouble
        X = self._X.astype(wide)
        residual = t.astype(wide) - np.asarray(X @ beta.astype(wide)).ravel()
        gradient = np.asarray(X[:, L].T @ residual).ravel() - lam * beta[L].astype(wide)
        U = self.U[:, 1:] if self._intercept else self.U
        system = U.T @ U + lam * np.diag(1.0 / scales**2)
        step = sla.lstsq(system, np.asarray(gradient / scales, dtype=float))[0] / scales
        refined = beta.copy()
        refined[L] += step
        return refined

    def coef(self, x, g):
        """The coefficients b of every column of X (and the intercept, 0 without one)."""
        beta = np.empty(self._rest.size + self._dominant.size)
        beta[self._rest] = np.asarray(self._X_rest.T @ x).ravel()
        offset = 1 if self._intercept else 0
        beta[self._dominant] = g[offset:] / self._scales
        return beta, float(g[0]) if self._intercept else 0.0


def _augmented_least_squares(A, y, lam):
    """``min_b ||y - A b||^2 + lam ||b||^2`` as least squares with ``[A; sqrt(lam) I]``.

    Solved by Householder QR with column pivoting (LAPACK ``gelsy``), which is
    backward stable column by column, so the answer is insensitive to column scales;
    for lam = 0 and a rank-deficient A it is the minimum-norm solution (singular
    values below ``max(shape) * eps`` of the largest count as 0, NumPy's default: a
    rank deficiency by rounding, as in centred data, must not add a null component).
    """
    d = A.shape[1]
    stacked = np.vstack((A, np.sqrt(lam) * np.eye(d)))
    rhs = np.concatenate((y, np.zeros(d)))
    cond = rank_tolerance(stacked.shape)
    return sla.lstsq(stacked, rhs, cond=cond, lapack_driver="gelsy", check_finite=False)[0]


def _qr_route(X, y, lam, norms=None):
    """The stable route (dense; a sparse X is densified): orthogonal factorisations only.

    n >= d: :func:`_augmented_least_squares` on X. d > n: the solution lies in the row
    space of X, so with the QR factorisation ``X' = Q R`` (rows of X' sorted by
    decreasing norm first, which keeps Householder QR backward stable row by row,
    i.e. column by column for X) ``beta = Q c`` where c solves the n-dimensional
    problem with the matrix R'. The dual is the minimum-norm solution of ``X'x = beta``
    (000 eq. (2)). ``norms``: the column norms of X, when known.

    Returns
    -------
    x : ndarray of shape (n,)
    beta : ndarray of shape (d,)
    """
    X = _dense(X)
    n, d = X.shape
    if n >= d:
        beta = _augmented_least_squares(X, y, lam)
    else:
        order = np.argsort(-(column_norms(X) if norms is None else norms))
        Q, R = np.linalg.qr(X[:, order].T)
        beta = np.empty(d)
        beta[order] = Q @ _augmented_least_squares(R.T, y, lam)
    return sla.lstsq(X.T, beta, lapack_driver="gelsy", check_finite=False)[0], beta


#: LSMR's tolerances (``atol``, ``btol``) in :func:`_lsmr_route`, first and on the
#: restart that follows an uncertified answer.
_LSMR_TOLERANCES = (1e-12, 1e-15)


def _centred_operator(X, mean=None, root=None):
    """``A = sqrt(S) (X - 1 mean')`` as a :class:`scipy.sparse.linalg.LinearOperator`.

    Products with X and X' only: X is neither densified nor copied. ``mean`` (the
    column means to take off) and ``root`` (``sqrt(s_i)``, row scales) default to none.
    """
    n, d = X.shape

    def matvec(v):
        v = np.ravel(v)
        product = np.asarray(X @ v).ravel()
        if mean is not None:
            product -= mean @ v
        return product if root is None else root * product

    def rmatvec(u):
        u = np.ravel(u) if root is None else root * np.ravel(u)
        product = np.asarray(X.T @ u).ravel()
        if mean is not None:
            product -= mean * u.sum()
        return product

    return LinearOperator((n, d), matvec=matvec, rmatvec=rmatvec, dtype=np.float64)


def _centred_column_norms(X, mean=None, root=None):
    """The column norms of ``sqrt(S) (X - 1 mean')`` from one pass over X's entries
    (rounded where a column's mean dwarfs its spread: a preconditioner only)."""
    s = np.ones(X.shape[0]) if root is None else root**2
    squares = np.asarray((X.multiply(X) if sp.issparse(X) else X * X).T @ s).ravel()
    if mean is not None:  # sum_i s_i (x_ij - m_j)^2
        squares = squares - 2.0 * mean * np.asarray(X.T @ s).ravel() + mean**2 * s.sum()
    return np.sqrt(np.maximum(squares, 0.0))


def _lsmr_route(
    X, t, lam, *, mean=None, root=None, dual=True, tol=_LSMR_TOLERANCES[0], equilibrate=False
):
    """The iterative route: ``min_b ||t - A b||^2 + lam ||b||^2`` by LSMR on products only.

    ``A = sqrt(S) (X - 1 mean')`` (:func:`_centred_operator`; X is never densified, no
    Gram matrix is formed: memory O(nnz + n + d)) and t the targets on the same rows.
    LSMR (Fong & Saunders 2011) is MINRES on the normal equations, run on A itself
    (with ``damp = sqrt(lam)``), so it does not square A's condition number, and it
    converges where conjugate gradients on ``A'A + lam I`` stall at a tiny lam. From
    0 its iterates stay in the row space of A, so for lam = 0 they converge to the
    minimum-norm least-squares solution (as ``numpy.linalg.lstsq`` and scikit-learn's
    ``LinearRegression``). On a tf-idf corpus of 3000 x 30000 it takes 50 to 200
    iterations for lam from 1 to 1e-12 at ``tol = 1e-12``.

    With ``equilibrate`` it solves for ``c = D b`` with the columns of A scaled by
    their norms D (and the penalty ``lam ||D^-1 c||^2`` as the extra rows
    ``sqrt(lam) D^-1``): the same problem, and the same answer where it is unique, but
    not the minimum-norm one among several; the fallback when the plain run fails its
    certificate.

    Returns
    -------
    x : ndarray of shape (n,) or None
        The dual solution (000 eq. (2)): ``sqrt(S) (t - A b) / lam`` when lam > 0, the
        minimum-norm solution of ``A'x = b`` when lam = 0; None unless ``dual``.
    beta : ndarray of shape (d,)
    """
    n, d = X.shape
    A = _centred_operator(X, mean, root)
    limit = 10 * min(n, d) + 100
    with one_blas_thread():  # vector operations only: threads cost more than they give
        if equilibrate:
            norms = _centred_column_norms(X, mean, root)
            scales = np.where(norms > 0, norms, 1.0)
            damp = np.sqrt(lam) / scales

            def matvec(c):
                c = np.ravel(c)
                return np.concatenate((A.matvec(c / scales), damp * c))

            def rmatvec(u):
                u = np.ravel(u)
                return A.rmatvec(u[:n]) / scales + damp * u[n:]

            stacked = LinearOperator((n + d, d), matvec=matvec, rmatvec=rmatvec, dtype=float)
            rhs = np.concatenate((t, np.zeros(d)))
            beta = lsmr(stacked, rhs, atol=tol, btol=tol, maxiter=limit)[0] / scales
        else:
            beta = lsmr(A, t, damp=np.sqrt(lam), atol=tol, btol=tol, maxiter=limit)[0]
        if not dual:
            return None, beta
        if lam > 0:
            residual = t - A.matvec(beta)
            return (residual if root is None else root * residual) / lam, beta
        x = lsmr(A.H, beta, atol=tol, btol=tol, maxiter=limit)[0]
    return (x if root is None else root * x), beta


def _first_certified(routes, certify):
    """Run the routes in order; return the first answer whose certificate holds.

    Parameters
    ----------
    routes : list of (str, callable)
        Name and a function returning ``(x, beta)``.
    certify : callable
        ``certify(beta)`` -> :class:`solvers.certificates.Certificate`.

    Returns
    -------
    x, beta, certificate, attempts
        ``attempts`` as :class:`solvers.exceptions.SolverError` lists them.

    Raises
    ------
    SolverError
        When no route gives a certified answer; the message names the closed form
        and every certificate.
    """
    attempts = []
    for name, route in routes:
        try:
            x, beta = route()
        except np.linalg.LinAlgError as exc:
            attempts.append({"backend": name, "status": "error", "message": str(exc)})
            continue
        certificate = certify(beta)
        attempts.append(
            {
                "backend": name,
                "status": "optimal" if certificate.holds else "uncertified",
                "message": str(certificate),
                "certificate": certificate,
            }
        )
        if certificate.holds:
            return x, beta, certificate, attempts
    tried = "; ".join(f"{a['backend']}: {a['message']}" for a in attempts)
    raise SolverError(f'solver="{CLOSED_FORM}" found no certified solution ({tried}).', attempts)


def ridge_closed_form(X, y, lam):
    """Solve ``min_beta ||y - X beta||^2 + lam ||beta||^2`` and its dual, certified.

    The primal is ridge regression (002 sec. 3.4), the dual RLSC's 000 eq. (1), with
    solution ``x = (XX' + lam I)^-1 y`` (eq. (2); the minimum-norm solution for
    lam = 0) and ``beta = X'x``. First the Cholesky solve with the smaller Gram
    matrix (``X'X`` when n >= d, ``XX'`` when d > n); if its certificate
    (:func:`solvers.certificates.ridge_certificate`) fails, the orthogonal
    factorisations of :func:`_qr_route` (dense X), which are stable under column
    scaling, or LSMR on products with X (sparse X, :func:`_lsmr_route`). A sparse X
    is never densified, and its Gram matrix is formed only when it holds at most
    ``2 (nnz + n + d)`` entries (:func:`solvers._memory.dense_fits`); otherwise LSMR alone
    runs, in O(nnz + n + d) memory. lam = 0 gives the minimum-norm least-squares
    solution: the orthogonal route or LSMR runs first there, the Cholesky route only
    if their certificate fails.

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
    certificate : solvers.certificates.Certificate
        The certificate of beta, which holds.
    attempts : list of dict
        The routes tried (``backend`` "cholesky", "qr" or "lsmr", ``status``, ``message``,
        ``certificate``).

    Raises
    ------
    SolverError
        When neither route gives a certified answer.
    """
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    gram_fits = dense_fits(X, min(n, d) ** 2)
    # The squared column norms, for the dominance test (d > n) and the certificate: the
    # diagonal of X'X when n >= d (which the Cholesky route needs), else one pass over X.
    gram = _gram(X.T) if n >= d and gram_fits else None
    squares = column_norms(X, squared=True) if gram is None else np.diag(gram).copy()
    norms = np.sqrt(squares)
    routes = [("cholesky", lambda: _cholesky_route(X, y, lam, squares=squares, gram=gram))]
    if not gram_fits:  # a sparse X whose smaller Gram matrix would outgrow it
        routes = []
    if sp.issparse(X):
        routes += _lsmr_routes(X, y, lam)
    else:
        routes.append(("qr", lambda: _qr_route(X, y, lam, norms=norms)))
    return _first_certified(
        _minimum_norm_first(routes, lam),
        lambda beta: ridge_certificate(X, y, beta, lam, norms=norms),
    )


def _lsmr_routes(X, t, lam, **centring):
    """:func:`_lsmr_route` and, if uncertified, the same on equilibrated columns at the
    tighter tolerance (a column at 1e-12 beside unit ones: LSMR's stopping test, relative
    to the norm of the whole operator, does not see its gradient)."""
    first, second = _LSMR_TOLERANCES
    return [
        ("lsmr", lambda: _lsmr_route(X, t, lam, tol=first, **centring)),
        ("lsmr", lambda: _lsmr_route(X, t, lam, tol=second, equilibrate=True, **centring)),
    ]


def ridge_with_intercept(X, y, lam, *, sample_weight=None):
    """Solve ``min_{b, b0} ||y - X b - b0||^2 + lam ||b||^2`` (intercept unpenalised).

    Ridge regression (002 sec. 3.4) on the centred data, ``b0 = mean(y - X b)``.
    A dense X is centred explicitly; a sparse X implicitly, through the Gram matrix
    of the centred data (never densified), whose rounding is relative to the column
    norms, so a column's scale does not matter, but grows with ``(mean / std)^2`` of
    a column. The answer is certified as in :func:`ridge_closed_form`: with
    ``r = y - X b - b0`` (``1'r = 0``), the gradient of the centred problem is
    ``X'r - lam b``, which is :func:`solvers.certificates.ridge_certificate` of
    ``(X, y - b0, b)``. If the certificate fails, the stable route of
    :func:`ridge_closed_form` runs on the centred data (explicitly for a dense X,
    implicitly for a sparse one).

    With sample weights s (``sum_i s_i (y_i - x_i'b - b0)^2``), ``b0`` is the s-weighted
    mean of ``y - X b`` and b is :func:`ridge_closed_form` of the data centred at their
    s-weighted means with the rows scaled by ``sqrt(s_i)`` (a sparse X implicitly, by
    LSMR on products with X: never densified).

    A sparse X whose centred Gram matrix would hold more than ``2 (nnz + n + d)`` entries
    (:func:`solvers._memory.dense_fits`) is solved by LSMR alone (:func:`_lsmr_route`,
    memory O(nnz + n + d)). For lam = 0 the answer is the minimum-norm least-squares
    solution for every representation of X (numpy.linalg.lstsq's on the centred data,
    scikit-learn's ``LinearRegression``): the orthogonal route (dense) or LSMR from 0
    (sparse) runs first, the Cholesky route, which may land on another solution when
    columns are collinear, only if their certificate fails.

    Parameters
    ----------
    X : array or sparse matrix of shape (n, d)
    y : array of shape (n,)
    lam : float >= 0
    sample_weight : array of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's squared residual (default 1).

    Returns
    -------
    coef : ndarray of shape (d,)
    intercept : float

    Raises
    ------
    SolverError
        When neither route gives a certified answer.
    """
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    if sample_weight is not None and sp.issparse(X):
        # Centred at the s-weighted means and the rows scaled by sqrt(s_i), implicitly.
        total = sample_weight.sum()
        mean = np.asarray(X.T @ sample_weight).ravel() / total
        offset = float(sample_weight @ y) / total
        root = np.sqrt(sample_weight)
        target = root * (y - offset)

        def intercept(beta):  # the s-weighted mean of y - X b
            return float(offset - mean @ beta)

        # With 1'S r = 0 the gradient X'S r - lam b is the centred problem's.
        _, beta, _, _ = _first_certified(
            _lsmr_routes(X, target, lam, mean=mean, root=root, dual=False),
            lambda beta: ridge_certificate(
                X, y - intercept(beta), beta, lam, sample_weight=sample_weight
            ),
        )
        return beta, intercept(beta)
    if sample_weight is not None:
        mean = np.average(X, axis=0, weights=sample_weight)
        offset = np.average(y, weights=sample_weight)
        centred, target = scale_rows(X - mean, y - offset, sample_weight)
        routes = [
            ("cholesky", lambda: _cholesky_route(centred, target, lam, dual=False)),
            ("qr", lambda: _qr_route(centred, target, lam)),
        ]
        _, beta, _, _ = _first_certified(
            _minimum_norm_first(routes, lam),
            lambda beta: ridge_certificate(centred, target, beta, lam),
        )
        return beta, float(offset - mean @ beta)
    mean = np.asarray(X.mean(axis=0)).ravel()
    centred_y = y - y.mean()

    def intercept(beta):
        return float(np.mean(y - np.asarray(X @ beta).ravel()))

    if sp.issparse(X):
        routes = [("cholesky", lambda: _cholesky_route(X, centred_y, lam, mean, dual=False))]
        if not dense_fits(X, min(n, d) ** 2):
            routes = []
        routes += _lsmr_routes(X, centred_y, lam, mean=mean, dual=False)
    else:
        routes = [
            ("cholesky", lambda: _cholesky_route(X - mean, centred_y, lam, dual=False)),
            ("qr", lambda: _qr_route(X - mean, centred_y, lam)),
        ]
    _, beta, _, _ = _first_certified(
        _minimum_norm_first(routes, lam),
        lambda beta: ridge_certificate(X, y - intercept(beta), beta, lam),
    )
    return beta, intercept(beta)


def _minimum_norm_first(routes, lam):
    """The routes, the Cholesky route last for lam = 0.

    Least squares with more columns than rows, or with collinear columns, has many
    solutions; the certificate at lam = 0 (the KKT violation) accepts any of them, but
    only the orthogonal route (dense X) and LSMR from 0 (sparse X) are sure to give the
    minimum-norm one, the same for every representation of X (the Cholesky route's
    Gram matrix is singular there, and its rounding picks some other solution).
    """
    if lam != 0 or routes[0][0] != "cholesky":
        return routes
    return routes[1:] + routes[:1]
