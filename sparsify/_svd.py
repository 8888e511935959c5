"""Top right singular vectors of a data matrix, dense or sparse, without densifying sparse input."""

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp

__all__ = ["right_singular_vectors"]


def _numerical_rank(s, shape):
    """Rank as numpy.linalg.matrix_rank defines it: s_i > s_max * max(n, d) * eps."""
    if s.size == 0 or s[0] <= 0:
        return 0
    return int(np.sum(s > s[0] * max(shape) * np.finfo(np.float64).eps))


def right_singular_vectors(X, k=None, *, name="X"):
    """Return the top-k right singular vectors V (d x k) and singular values of X.

    Dense X uses LAPACK's SVD. Sparse X is never densified: with n <= d the
    n x n Gram matrix X X' gives the left singular vectors, V = X' U S^-1 is
    re-orthonormalised and refined by one Rayleigh-Ritz step (an SVD of the
    n x k matrix X Q); with n > d the d x d Gram matrix X' X gives V directly.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
        Validated data.
    k : int or None
        Number of singular vectors; None means the numerical rank of X.
        Must not exceed the rank.
    name : str
        Name of the argument, for error messages.

    Returns
    -------
    V : ndarray of shape (d, k), orthonormal columns
    s : ndarray of shape (k,), decreasing singular values
    """
    n, d = X.shape
    if not sp.issparse(X):
        _, s, Vt = la.svd(X, full_matrices=False, lapack_driver="gesdd")
        V = Vt.T
    elif n <= d:
        gram = (X @ X.T).toarray()
        w, U = la.eigh(gram)
        w, U = w[::-1], U[:, ::-1]
        keep = w > w[0] * max(n, d) * np.finfo(np.float64).eps if w.size else w > 0
        U, sv = U[:, keep], np.sqrt(w[keep])
        Q, _ = la.qr(np.asarray(X.T @ U) / sv, mode="economic")
        _, s, Wt = la.svd(np.asarray(X @ Q), full_matrices=False)
        V = Q @ Wt.T
    else:
        gram = (X.T @ X).toarray()
        w, V = la.eigh(gram)
        w, V = np.clip(w[::-1], 0, None), V[:, ::-1]
        s = np.sqrt(w)
    rank = _numerical_rank(s, X.shape)
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
