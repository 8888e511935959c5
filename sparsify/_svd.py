"""Top right singular vectors of a data matrix, dense or sparse, without densifying sparse input."""

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence, svds

from ._dask import dask_singular_pairs, is_dask

__all__ = ["rank_tolerance", "right_singular_vectors"]

# A sparse X gets a truncated SVD when k + 1 <= min(n, d) / _TRUNCATED_FRACTION;
# nearer the rank, the full decomposition costs about the same.
_TRUNCATED_FRACTION = 4
# The truncated SVD is kept when Wedin's bound on the sine of the angle between
# its top-k right singular subspace and X's is at most this.
_SUBSPACE_TOL = 1e-9
# Seed of ARPACK's starting vector (a fixed start makes the result reproducible).
_ARPACK_SEED = 0


def rank_tolerance(shape):
    """Relative cutoff of the numerical rank of a matrix: ``max(n, d) * eps``.

    Singular values at or below ``s_max * rank_tolerance(shape)`` count as zero,
    as in `numpy.linalg.matrix_rank` (and the ``rcond`` of `numpy.linalg.lstsq`):
    rounding errors of a backward-stable SVD are of that size.

    Parameters
    ----------
    shape : tuple of int
        Shape of the matrix, (n, d).

    Returns
    -------
    float
        The cutoff, relative to the largest singular value.

    See Also
    --------
    numpy.linalg.matrix_rank : The same cutoff, by default.
    sparsify.utils.right_singular_vectors : Keeps the singular values above it.

    Examples
    --------
    >>> from sparsify.utils import rank_tolerance
    >>> bool(rank_tolerance((10, 4)) == 10 * np.finfo(np.float64).eps)
    True
    """
    return max(shape) * np.finfo(np.float64).eps


def _numerical_rank(s, shape):
    """Rank as numpy.linalg.matrix_rank defines it: s_i > s_max * rank_tolerance(shape)."""
    if s.size == 0 or s[0] <= 0:
        return 0
    return int(np.sum(s > s[0] * rank_tolerance(shape)))


def _truncated_svd(X, k):
    """Top-k right singular vectors of a sparse X by ARPACK, certified, or None.

    ``scipy.sparse.linalg.svds`` computes k + 1 triplets ``(s_j, u_j, v_j)``
    (the extra one measures the gap). With the residuals
    ``rho_j = (||X v_j - s_j u_j||^2 + ||X' u_j - s_j v_j||^2)^(1/2)``, Wedin's
    theorem bounds the sine of the angle between the span of v_1..v_k and X's
    top-k right singular subspace by ``(sum_{j<=k} rho_j^2)^(1/2) / delta``,
    with ``delta = s_k - (s_{k+1} + rho_{k+1})`` (the next singular value is
    within rho_{k+1} of s_{k+1}). The result is kept when that bound is at most
    _SUBSPACE_TOL, which puts every leverage score within about 2e-9 of the
    exact one. It is not (None) when s_k is at the rounding level (k may exceed
    the rank) or s_k = s_{k+1}: the top-k subspace is then not unique, or not
    resolved, and the caller falls back to the full decomposition; nor when
    ARPACK does not converge.

    ARPACK may in principle converge to triplets that are not the top k; the
    residuals cannot tell. Its Lanczos iteration finds the extreme part of the
    spectrum first, and the tests compare with LAPACK's SVD.
    """
    n, d = X.shape
    v0 = np.random.default_rng(_ARPACK_SEED).standard_normal(min(n, d))
    try:
        U, s, Vt = svds(X, k=k + 1, v0=v0)
    except ArpackNoConvergence:
        return None
    order = np.argsort(-s, kind="stable")  # svds returns ascending values
    U, s, V = U[:, order], s[order], np.ascontiguousarray(Vt[order].T)
    rho = np.sqrt(
        np.sum(np.square(X @ V - U * s), axis=0) + np.sum(np.square(X.T @ U - V * s), axis=0)
    )
    gap = s[k - 1] - (s[k] + rho[k])
    at_rounding_level = s[k - 1] <= s[0] * rank_tolerance(X.shape)
    if at_rounding_level or not np.linalg.norm(rho[:k]) <= _SUBSPACE_TOL * gap:
        return None
    return np.ascontiguousarray(V[:, :k]), s[:k]


def gram_singular_pairs(gram):
    """Right singular vectors and singular values of X from its d x d Gram matrix ``X'X``.

    The eigenvectors of ``X'X``, by decreasing eigenvalue, and the square roots
    of the eigenvalues (clipped at 0 from below).
    """
    w, V = la.eigh(gram)
    w, V = np.clip(w[::-1], 0, None), V[:, ::-1]
    return V, np.sqrt(w)


def right_singular_vectors(X, k=None, *, name="X"):
    """Return the top-k right singular vectors V (d x k) and singular values of X.

    Dense X uses LAPACK's SVD. Sparse X is never densified: with
    ``k + 1 <= min(n, d) / 4`` a truncated SVD (ARPACK, see `_truncated_svd`)
    gives the top k triplets, kept when certified by their residuals and the
    gap ``s_k - s_{k+1}``. Otherwise, or when not certified, with n <= d the
    n x n Gram matrix X X' gives the left singular vectors, V = X' U S^-1 is
    re-orthonormalised and refined by one Rayleigh-Ritz step (an SVD of the
    n x k matrix X Q); with n > d the d x d Gram matrix X' X gives V directly.
    A Dask X goes to `sparsify._dask.dask_singular_pairs` (its d x d Gram
    matrix, reduced over its chunks, or a randomized range finder).

    Parameters
    ----------
    X : ndarray, sparse matrix or dask.array.Array of shape (n, d)
        Validated data.
    k : int or None
        Number of singular vectors; None means the numerical rank of X.
        Must not exceed the rank.
    name : str
        Name of the argument, for error messages.

    Returns
    -------
    V : ndarray of shape (d, k)
        The top-k right singular vectors, as orthonormal columns.
    s : ndarray of shape (k,)
        The top-k singular values, decreasing.

    Raises
    ------
    ValueError
        k exceeds the numerical rank of X, or X is all zeros.

    See Also
    --------
    sparsify.leverage_scores : The squared row norms of V.
    sparsify.utils.rank_tolerance : The cutoff of the numerical rank.
    scipy.sparse.linalg.svds : The truncated SVD used for a sparse X.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from sparsify.utils import right_singular_vectors
    >>> X = np.random.default_rng(0).standard_normal((20, 5))
    >>> V, s = right_singular_vectors(X, k=2)
    >>> V.shape, bool(np.allclose(s, np.linalg.svd(X, compute_uv=False)[:2]))
    ((5, 2), True)
    >>> Vs, _ = right_singular_vectors(sp.csr_matrix(X), k=2)
    >>> bool(np.allclose(Vs @ Vs.T, V @ V.T))
    True
    """
    n, d = X.shape
    if is_dask(X):
        return _top(*dask_singular_pairs(X, k, name=name), k, X.shape, name)
    if sp.issparse(X) and k is not None and (k + 1) * _TRUNCATED_FRACTION <= min(n, d):
        truncated = _truncated_svd(X, k)
        if truncated is not None:
            return truncated
    if not sp.issparse(X):
        _, s, Vt = la.svd(X, full_matrices=False, lapack_driver="gesdd")
        V = Vt.T
    elif n <= d:
        gram = (X @ X.T).toarray()
        w, U = la.eigh(gram)
        w, U = w[::-1], U[:, ::-1]
        keep = w > w[0] * rank_tolerance(X.shape) if w.size else w > 0
        U, sv = U[:, keep], np.sqrt(w[keep])
        Q, _ = la.qr(np.asarray(X.T @ U) / sv, mode="economic")
        _, s, Wt = la.svd(np.asarray(X @ Q), full_matrices=False)
        V = Q @ Wt.T
    else:
        V, s = gram_singular_pairs((X.T @ X).toarray())
    return _top(V, s, k, X.shape, name)


def _top(V, s, k, shape, name):
    """The first k of the singular pairs (all of them up to the numerical rank when k is None)."""
    rank = _numerical_rank(s, shape)
    if k is None:
        k = rank
    elif k > rank:
        raise ValueError(
            f"k={k} exceeds the numerical rank of {name} ({rank}); "
            f"choose k <= {rank} or k=None for the rank."
        )
    if k == 0:
        raise ValueError(f"{name} is all zeros (rank 0); it has no singular vectors to use.")
    return np.ascontiguousarray(V[:, :k]), s[:k]
