"""Dask arrays as input: the one place where the selectors meet Dask.

A corpus too large for one machine arrives as a ``dask.array.Array`` of shape
(n_documents, n_words), chunked by documents (rows); its chunks may be NumPy
arrays or SciPy sparse matrices. Everything the selectors need from such an X
goes through three functions here, so the mathematics is written once:

* `check_dask` validates X lazily (each chunk is checked when it is computed);
* `reduce_row_blocks` sums (or maxes) a function of each row block, which is
  the whole computation for NumPy/SciPy input (one block) and a map-reduce over
  the chunks for Dask input: the column reductions of the scores (document
  frequency, information gain, weights), the Gram matrix and the sketch;
* `dask_singular_pairs` gives the right singular vectors of a Dask X.

Dask is optional: this module imports without it, and `is_dask` is False for
every input while ``dask.array`` has not been imported (nothing else can build
a Dask array).
"""

import sys
from functools import partial

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp

__all__ = ["is_dask", "check_dask", "reduce_row_blocks", "map_row_blocks", "dask_singular_pairs"]

# A Dask X with at most this many features gets the exact right singular vectors from its
# d x d Gram matrix (at most 128 MiB per worker); a wider one the randomized range finder.
EXACT_MAX_FEATURES = 4096
# Randomized range finder (Halko, Martinsson & Tropp 2011, Algorithm 4.4): extra columns
# of the sketch beyond k, number of power iterations, and the seed of its Gaussian test
# matrix (a fixed seed makes the result reproducible).
_OVERSAMPLING = 10
_POWER_ITERATIONS = 4
_RANGE_SEED = 0
# Partial results combined per task of the tree reductions.
_SPLIT_EVERY = 8
# Prefix of the name of a validated Dask array, so that it is not validated twice.
_CHECKED = "sparsify-checked"


def is_dask(X):
    """Whether X is a ``dask.array.Array``; False without importing Dask when it is not loaded."""
    array_module = sys.modules.get("dask.array")
    return array_module is not None and isinstance(X, array_module.Array)


def _block_matrix(block):
    """A chunk as float64: a canonical CSR/CSC matrix for sparse chunks, else an ndarray."""
    if sp.issparse(block):
        fmt = block.format if block.format in ("csr", "csc") else "csr"
        out = block.asformat(fmt).astype(np.float64, copy=False)
        if not out.has_canonical_format:
            out = out.copy()
            out.sum_duplicates()
        return out
    if hasattr(block, "tocsr"):  # a pydata/sparse COO chunk
        return _block_matrix(block.tocsr())
    return np.asarray(block, dtype=np.float64)


def _checked_block(block, name, block_info=None):
    """One chunk of a Dask X, converted by `_block_matrix` and checked to be finite."""
    out = _block_matrix(block)
    values = out.data if sp.issparse(out) else out
    if not np.all(np.isfinite(values)):
        first, stop = block_info[0]["array-location"][0]
        raise ValueError(
            f"{name} contains NaN or infinity (in its rows {first} to {stop - 1}); "
            "every entry must be a finite number."
        )
    return out


def check_dask(X, *, name="X", min_samples=1, min_features=1):
    """Validate a Dask X: 2-D, numeric, non-empty; finite, chunk by chunk, when computed.

    Returns a Dask array with one chunk of columns (a rechunk when X had
    several) whose chunks are float64 ndarrays or canonical CSR/CSC matrices
    (`_block_matrix`). Finiteness is checked inside each chunk's task: a NaN
    raises a ValueError naming X and the rows when the result is computed,
    without a separate pass over the data.
    """
    if X.name.startswith(_CHECKED):
        return X
    if X.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D of shape (n_samples, n_features); got a {X.ndim}-D Dask "
            f"array of shape {X.shape}."
        )
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers (int or float); got dtype {X.dtype}.")
    if any(np.isnan(size) for size in X.shape):
        X = X.compute_chunk_sizes()  # chunks of unknown size (e.g. after boolean indexing)
    n, d = X.shape
    if n < min_samples or d < min_features:
        raise ValueError(
            f"{name} is invalid: found an array of shape {X.shape}; at least {min_samples} "
            f"sample(s) and {min_features} feature(s) are required."
        )
    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    sparse_chunks = sp.issparse(X._meta) or hasattr(X._meta, "tocsr")
    meta = sp.csr_matrix((0, 0)) if sparse_chunks else np.empty((0, 0))
    return X.map_blocks(_checked_block, name, dtype=np.float64, meta=meta, token=_CHECKED)


def _aligned_blocks(a, X):
    """The blocks of an array of length n (NumPy or Dask) aligned with the row chunks of X."""
    import dask.array as da

    rows = X.chunks[0]
    a = a.rechunk((rows,) + a.shape[1:]) if is_dask(a) else da.from_array(a, (rows,) + a.shape[1:])
    return a.to_delayed().reshape(len(rows), -1)[:, 0]


def _combine(combine, parts):
    out = parts[0]
    for part in parts[1:]:
        out = combine(out, part)
    return out


def reduce_row_blocks(fn, X, *aligned, combine=np.add, rows=False):
    """``fn(block, *aligned_blocks)`` over the row blocks of X, combined by ``combine``.

    For NumPy or SciPy X (one block) this is ``fn(X, *aligned)``. For a Dask X
    each chunk of rows is one task, the partial results (small: a column vector,
    a Gram matrix) are combined in a tree of tasks, and the result is computed
    on the current scheduler. ``combine`` must be associative and commutative
    (``numpy.add``, ``numpy.maximum``); the order of a float sum may differ from
    the in-memory one by rounding.

    Parameters
    ----------
    fn : callable
        ``fn(block, *aligned_blocks)`` for a block of rows of X.
    X : ndarray, sparse matrix or dask.array.Array of shape (n, d)
        Validated data (`check_dask` for Dask input).
    *aligned : arrays of length n (NumPy or Dask)
        Cut into the same row blocks as X.
    combine : callable, default=numpy.add
    rows : bool, default=False
        Also pass ``rows=slice(first, stop)``, the rows of X in the block.
    """
    if not is_dask(X):
        return fn(X, *aligned, **({"rows": slice(0, X.shape[0])} if rows else {}))
    import dask

    blocks = X.to_delayed()[:, 0]
    cut = [_aligned_blocks(a, X) for a in aligned]
    starts = np.cumsum((0,) + X.chunks[0]).tolist()
    task = dask.delayed(fn, pure=True)
    parts = []
    for i, block in enumerate(blocks):
        extra = {"rows": slice(starts[i], starts[i + 1])} if rows else {}
        parts.append(task(block, *(c[i] for c in cut), **extra))
    merge = dask.delayed(partial(_combine, combine), pure=True)
    while len(parts) > 1:
        parts = [merge(parts[i : i + _SPLIT_EVERY]) for i in range(0, len(parts), _SPLIT_EVERY)]
    return dask.compute(parts[0])[0]


def map_row_blocks(fn, X, n_columns):
    """A lazy Dask array whose row blocks are ``fn(block)``, each with n_columns columns."""
    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    return X.map_blocks(fn, chunks=(X.chunks[0], (n_columns,)), dtype=np.float64, meta=X._meta)


def block_gram(block):
    """``B' B`` of a block of rows, dense (d x d)."""
    gram = block.T @ block
    return gram.toarray() if sp.issparse(gram) else np.asarray(gram)


def _times(block, Z):
    """``B Z`` of a block of rows and a dense d x m matrix, dense."""
    return np.asarray(block @ Z)


def _transpose_times(block, Q):
    """``B' Q`` of a block of rows and the matching rows of a dense n x m matrix, dense (d x m)."""
    return np.asarray(block.T @ Q)


def dask_singular_pairs(X, k, *, name="X"):
    """Right singular vectors and singular values of a validated Dask X (n x d).

    * With ``d <= EXACT_MAX_FEATURES``: all of them, exactly, from the d x d
      Gram matrix ``X'X`` (one map-reduce over the chunks; see
      `sparsify._svd.gram_singular_pairs`), as for in-memory sparse X with n > d.
      All-zero columns (absent words) are left out of it. When its eigenvalues
      do not resolve X's rank (`sparsify._svd.gram_resolves`: X rank-deficient
      or cond(X) > 1e4), a second pass reduces the R factors of the chunks'
      QRs (a tall-skinny QR), whose SVD is X's to rounding.
    * Wider X, given k: the top k by the randomized range finder with power
      iterations (Halko, Martinsson & Tropp 2011, Algorithms 4.3-4.4): ``Y = X
      Omega`` (Omega Gaussian, d x (k + 10)), then four times ``Q = qr(Y)``
      (``dask.array.linalg.tsqr``, a tall-skinny QR), ``Z = qr(X'Q)`` and ``Y =
      X Z``; the right singular vectors of ``Q'X`` approximate X's. Each step is
      one pass over the chunks, and a worker holds one chunk and its n_c x
      (k + 10) slice of Y. The error of the subspace falls as
      ``(s_{k+11} / s_k)^9`` (Halko et al., Corollary 10.10): small when X has a
      gap after s_k, as a document-term matrix's leading topics give.

    Returns
    -------
    V : ndarray of shape (d, m), orthonormal columns; m = d, or k + 10 (at most d)
    s : ndarray of shape (m,), decreasing

    Raises
    ------
    ValueError
        If X is wider than EXACT_MAX_FEATURES and k is None.
    """
    from ._svd import gram_or_r_singular_pairs, stacked_r_factor, zero_null_rows

    n, d = X.shape
    if d <= EXACT_MAX_FEATURES:
        gram = reduce_row_blocks(block_gram, X)
        zero = np.diag(gram) == 0  # X's all-zero columns: zero rows and columns of X'X
        kept = ~zero if not zero.all() else np.ones(d, dtype=bool)
        first = partial(stacked_r_factor, np.zeros((0, kept.sum())))

        def r_factor():  # a tall-skinny QR over the chunks: one more pass
            return reduce_row_blocks(first, X[:, kept], combine=stacked_r_factor)

        V = np.zeros((d, kept.sum()))
        V[kept], s = gram_or_r_singular_pairs(gram[np.ix_(kept, kept)], r_factor)
        return V, s
    if k is None:
        raise ValueError(
            f"{name} is a Dask array with {d} > {EXACT_MAX_FEATURES} features: give k, the "
            "number of singular vectors; the randomized range finder computes only the top k."
        )
    import dask.array as da

    m = min(k + _OVERSAMPLING, n, d)
    Z = np.random.default_rng(_RANGE_SEED).standard_normal((d, m))
    for _ in range(_POWER_ITERATIONS + 1):
        Y = map_row_blocks(partial(_times, Z=Z), X, m)
        Q, _ = da.linalg.tsqr(Y)
        XtQ = reduce_row_blocks(_transpose_times, X, Q)  # (Q'X)'
        Z, _ = la.qr(XtQ, mode="economic")
    # Q'X = W S Z' with Z = the right singular vectors: the SVD of the d x m matrix X'Q.
    V, s, _ = la.svd(XtQ, full_matrices=False)
    return zero_null_rows(V, s, ~XtQ.any(axis=1))  # X's zero columns give exact zero rows
