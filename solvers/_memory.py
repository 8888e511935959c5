"""The memory rule for sparse X: dense work arrays no larger than the data.

A sparse X is never densified, and every estimator's peak memory on a sparse X is
``O(nnz + n + d)`` (docs/architecture.md, "Conventions"). The dense arrays the
methods would like to form (a Gram matrix, the columns of a support, a factor) are
formed from a sparse X only when they hold at most :data:`SPARSE_DENSE_FACTOR` (2)
times ``nnz + n + d`` entries, or at most :data:`SMALL_DENSE` (a small problem's);
otherwise the method works with products with X and
X' (LSMR, conjugate gradients, coordinate descent). A dense X already holds ``n d``
entries, and the dense methods stay within a few copies of it.
"""

import scipy.sparse as sp

__all__ = ["SMALL_DENSE", "SPARSE_DENSE_FACTOR", "dense_fits"]

#: A dense array formed from a sparse X holds at most this many times ``nnz + n + d``
#: entries (float64): about the size of X's values and indices together, and enough
#: for a sparse X that is nearly full (every row of a 2500 x 8 X densified, and its
#: 9 x 9 system, is 1.003 (nnz + n + d)).
SPARSE_DENSE_FACTOR = 2.0
#: A dense array of at most this many entries (1 MiB) may always be formed: the Gram
#: matrix of a TechTC-sized task (200 documents) or of a 300-document sample (Newton's
#: method in tests/solvers/test_planner.py) costs less than the iterations that would
#: avoid it, and its memory is a constant.
SMALL_DENSE = 2**17


def dense_fits(X, entries):
    """Whether a dense work array of ``entries`` float64 may be formed for X.

    Always for a dense X; for a sparse X when ``entries <= max(SMALL_DENSE,
    SPARSE_DENSE_FACTOR (nnz + n + d))``.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    entries : int
        The entries of the dense array.

    Returns
    -------
    bool
    """
    if not sp.issparse(X):
        return True
    n, d = X.shape
    return entries <= max(SMALL_DENSE, SPARSE_DENSE_FACTOR * (X.nnz + n + d))
