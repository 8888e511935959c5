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
# Up to this min(n, d), the truncated SVD's triplets come from LAPACK's
# eigensolver on the dense smaller Gram matrix rather than from ARPACK.
_DENSE_GRAM_MAX = 500
# A Gram matrix resolves X's singular values (and rank) when its eigenvalues span
# at most this ratio: cond(X) <= 1e4, so that squaring loses at most half of the
# digits. Otherwise (rank-deficient X, a column at 1e12 beside unit columns) its
# eigenvalues below about eps * w_max are rounding noise, and the QR of X is used.
_GRAM_CONDITION = 1e8
# Size of the dense block of rows of a sparse X that the blocked QR factors at a
# time: larger blocks spend less on re-factoring R (8192 rows of 1000 columns:
# 5.7 s against 7.5 s for 2048 on 100000 x 1000).
_QR_BLOCK_BYTES = 64 * 2**20


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
    """Top-k right singular vectors of a sparse X by a truncated SVD, certified, or None.

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
    spectrum first, and the tests compare with LAPACK's SVD. With min(n, d) <=
    _DENSE_GRAM_MAX the triplets come from LAPACK instead (`_gram_triplets`),
    and the same certificate decides.
    """
    n, d = X.shape
    if min(n, d) <= _DENSE_GRAM_MAX:
        U, s, V = _gram_triplets(X, k + 1)
    else:
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
    rounding = s[0] * rank_tolerance(X.shape)
    at_rounding_level = s[k - 1] <= rounding or gap <= rounding  # k > rank, or s_k = s_{k+1}
    if at_rounding_level or not np.linalg.norm(rho[:k]) <= _SUBSPACE_TOL * gap:
        return None
    return np.ascontiguousarray(V[:, :k]), s[:k]


def _gram_triplets(X, m):
    """The top m singular triplets (U, s, V; s decreasing) of a sparse X, by LAPACK.

    As `scipy.sparse.linalg.svds` computes them, with LAPACK's eigensolver for
    the top m eigenpairs E of the smaller dense Gram matrix (dsyevr on X X' or
    X'X) in place of ARPACK's Lanczos iteration on it: the SVD of the thin
    matrix X'E (or X E) then gives orthonormal U and V. 3-5x faster than
    ARPACK at min(n, d) = 200-500 (k = 10), slower from about 1000.
    """
    n, d = X.shape
    wide = n < d
    gram = (X @ X.T if wide else X.T @ X).toarray()
    p = gram.shape[0]
    _, E = la.eigh(gram, subset_by_index=[p - m, p - 1], driver="evr")
    other, s, Wt = la.svd(np.asarray(X.T @ E if wide else X @ E), full_matrices=False)
    rotated = E @ Wt.T
    return (rotated, s, other) if wide else (other, s, rotated)


def gram_singular_pairs(gram):
    """Right singular vectors and singular values of X from its d x d Gram matrix ``X'X``.

    The eigenvectors of ``X'X``, by decreasing eigenvalue, and the square roots
    of the eigenvalues (clipped at 0 from below).
    """
    w, V = la.eigh(gram)
    w, V = np.clip(w[::-1], 0, None), V[:, ::-1]
    return V, np.sqrt(w)


def gram_resolves(w):
    """Whether the eigenvalues w of a Gram matrix ``X'X`` resolve X's singular values.

    True when they are positive and span at most _GRAM_CONDITION: then every
    singular value ``sqrt(w_i)`` keeps at least half of its digits and X has
    full rank. Otherwise the small eigenvalues may be rounding noise (about
    eps * max(w)) or real singular values squared below it; the Gram matrix
    cannot tell them apart, and the numerical rank needs a QR of X itself.
    """
    return w.size > 0 and w.min() > 0 and w.max() <= w.min() * _GRAM_CONDITION


def _dense(block):
    """A block of rows as a dense ndarray."""
    return block.toarray() if sp.issparse(block) else np.asarray(block)


def stacked_r_factor(R, block):
    """R of the QR of the rows of R stacked over a block of rows of X (one TSQR step).

    With R from the rows before the block (``R'R = B_0'B_0``), the result's
    ``R'R`` is that of all rows so far; at most d x d.
    """
    stacked = np.vstack([_dense(R), _dense(block)])
    return la.qr(stacked, mode="r", check_finite=False)[0][: stacked.shape[1]]


def gram_or_r_singular_pairs(gram, r_factor):
    """Right singular vectors and singular values of a tall X: from its Gram matrix, or its R.

    The eigenvectors of the d x d Gram matrix ``X'X`` when its eigenvalues
    resolve X's rank (`gram_resolves`); otherwise the SVD of ``r_factor()``,
    the R of ``X = Q R`` (`blocked_r_factor` in memory, a tall-skinny QR over
    the chunks of a Dask X), computed only then.
    """
    V, s = gram_singular_pairs(gram)
    return (V, s) if gram_resolves(s**2) else r_singular_pairs(r_factor())


def r_singular_pairs(R):
    """Right singular vectors and singular values of X from the R of ``X = Q R``."""
    _, s, Wt = la.svd(R, check_finite=False)
    return np.ascontiguousarray(Wt.T), s


def blocked_r_factor(X):
    """The R of ``X = Q R`` for a tall sparse X (n >= d), d x d at most.

    Householder QR of row blocks, each stacked under the R of the rows before
    it: only _QR_BLOCK_BYTES of X's rows (at least d rows) are dense at a
    time, and Q is never formed. Backward stable, like LAPACK's QR of the dense X: ``R = U S W'``
    gives X's singular values S and right singular vectors W (X's numerical
    rank is that of `numpy.linalg.matrix_rank`).
    """
    n, d = X.shape
    X = X.tocsr()
    step = max(d, _QR_BLOCK_BYTES // (8 * d))
    R = np.zeros((0, d))
    for start in range(0, n, step):
        R = stacked_r_factor(R, X[start : start + step])
    return R


def right_singular_vectors(X, k=None, *, name="X"):
    """Return the top-k right singular vectors V (d x k) and singular values of X.

    Dense X uses LAPACK's SVD. Sparse X is never densified: with
    ``k + 1 <= min(n, d) / 4`` a truncated SVD (ARPACK, see `_truncated_svd`)
    gives the top k triplets, kept when certified by their residuals and the
    gap ``s_k - s_{k+1}``. Otherwise, or when not certified, with n <= d the
    n x n Gram matrix X X' gives the left singular vectors U, ``V = X' U S^-1``
    is re-orthonormalised and refined by one Rayleigh-Ritz step (an SVD of the
    n x r matrix X Q); with n > d the Gram matrix of X's distinct nonzero
    columns gives V directly (`_tall_distinct_singular_pairs`). A Gram matrix squares X's condition
    number, so it is used only when its eigenvalues resolve X's rank
    (`gram_resolves`: full rank, cond(X) <= 1e4). Otherwise (duplicate or
    zero columns, a column at 1e12 beside unit columns) the R of a QR of row
    blocks (`blocked_r_factor`, never all of X dense) replaces it: of X' for
    n <= d (``X = R'Q'``, so the SVD of R' gives U and S), of X for n > d (the
    SVD of R gives V). Either way the numerical rank is that of the dense
    SVD, and an all-zero column of X has an exact zero row in V.
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
    zero = _zero_columns(X)
    if sp.issparse(X) and k is not None and (k + 1) * _TRUNCATED_FRACTION <= min(n, d):
        truncated = _truncated_svd(X, k)
        if truncated is not None:
            return zero_null_rows(*truncated, zero)
    if not sp.issparse(X):
        _, s, Vt = la.svd(X, full_matrices=False, lapack_driver="gesdd")
        V = Vt.T
    elif n <= d:
        w, U = la.eigh((X @ X.T).toarray())
        if gram_resolves(w):
            U, sv = U[:, ::-1], np.sqrt(w[::-1])
        else:  # X' = Q R, so X = R'Q' and the SVD of R' gives X's U and S
            U, sv, _ = la.svd(blocked_r_factor(X.T).T, check_finite=False)
            keep = sv > sv[0] * rank_tolerance(X.shape)
            U, sv = U[:, keep], sv[keep]
        Q, _ = la.qr(np.asarray(X.T @ U) / sv, mode="economic")
        _, s, Wt = la.svd(np.asarray(X @ Q), full_matrices=False)
        V = Q @ Wt.T
    else:
        V, s = _tall_distinct_singular_pairs(X)
    return zero_null_rows(*_top(V, s, k, X.shape, name), zero)


def _distinct_columns(X):
    """Groups of identical nonzero columns of a sparse X.

    Returns
    -------
    first : ndarray of int
        The first column of each group.
    group : ndarray of int, shape (d,)
        Each column's group, -1 for the all-zero columns.
    """
    X = X.tocsc(copy=True)
    X.eliminate_zeros()
    X.sort_indices()
    groups, first = {}, []
    group = np.full(X.shape[1], -1)
    for j in range(X.shape[1]):
        rows = slice(X.indptr[j], X.indptr[j + 1])
        if rows.start < rows.stop:
            key = (X.indices[rows].tobytes(), X.data[rows].tobytes())
            group[j] = groups.setdefault(key, len(first))
            if group[j] == len(first):
                first.append(j)
    return np.array(first, dtype=np.intp), group


def _tall_distinct_singular_pairs(X):
    """Right singular vectors and singular values of a tall sparse X, duplicates merged.

    A column repeated m times, and the all-zero columns, make X rank-deficient
    and its Gram matrix singular, which would send it to the QR. Instead
    ``X = Y N`` with Y the distinct nonzero columns, each times sqrt(m), and
    N (one row per distinct column, 1/sqrt(m) on its copies) with orthonormal
    rows; so ``Y = U S W'`` gives ``X = U S (N'W)'``: X's singular values are
    Y's, and the rows of V are W's row of the group over sqrt(m), 0 for the
    zero columns. Exact, and the Gram matrix of Y resolves the rank unless
    the columns are otherwise dependent or ill-conditioned.
    """
    first, group = _distinct_columns(X)
    if first.size == 0:  # X is all zeros
        return np.zeros((X.shape[1], 0)), np.zeros(0)
    copies = np.sqrt(np.bincount(group[group >= 0]))
    Y = sp.csr_matrix(X[:, first] @ sp.diags(copies))
    W, s = gram_or_r_singular_pairs((Y.T @ Y).toarray(), lambda: blocked_r_factor(Y))
    V = np.zeros((X.shape[1], W.shape[1]))
    nonzero = group >= 0
    V[nonzero] = W[group[nonzero]] / copies[group[nonzero], None]
    return V, s


def _zero_columns(X):
    """Mask of the columns of a dense or sparse X whose entries are all zero."""
    if sp.issparse(X):
        return np.asarray(abs(X).sum(axis=0)).ravel() == 0
    return ~np.any(X, axis=0)


def zero_null_rows(V, s, zero):
    """V with the rows of X's all-zero columns set to 0, and s.

    Such a feature j has ``X e_j = 0``, so e_j is in X's null space and row j
    of V is exactly zero; an SVD leaves rounding (about 1e-16) there, which BSS
    would score as a row of its own and pick, with a scale near 1e15.
    """
    V[zero] = 0.0
    return V, s


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
