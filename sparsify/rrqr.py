"""Feature selection by rank-revealing (column-pivoted) QR, the RRQR baseline of 000 sec. 6.2."""

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval, validate_params

from ._validation import check_n_select, check_X
from .selection import Selection
from .utils import column_norms

__all__ = ["rrqr"]


@validate_params(
    {"r": [Interval(Integral, 1, None, closed="left")]}, prefer_skip_nested_validation=True
)
def rrqr(X, r):
    """Select r features (columns of X) by column-pivoted QR.

    The RRQR baseline of 000 sec. 6.2: a partial factorization
    ``X P = Q [[R_11, R_12], [0, R_22]]`` whose leading r pivots are the
    "important columns" that preserve the rank of X. The pivots are those of
    Businger-Golub column pivoting (LAPACK ``geqp3``, ``scipy.linalg.qr(...,
    pivoting=True)``): at every step the column of largest residual norm
    (its norm after projecting out the columns already picked) comes next, so
    the diagonal of R is non-increasing in absolute value. Only the r steps
    needed are run, with Gram-Schmidt (twice, for orthogonality) against the
    picked columns, on dense and sparse X alike. The first r pivots are
    returned in pivot order, each with scale 1 (RRQR picks, it does not
    rescale).

    Since X is ``n_samples x n_features``, its columns are the features; 000
    writes the same short-and-fat ``n x d`` matrix A.

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        Data, dense or CSR/CSC.
    r : int
        Number of features to keep, ``1 <= r <= n_features``. When r exceeds
        the rank of X, the pivots after the rank are chosen among residual
        columns of rounding-level norm (still deterministic, but carrying no
        information, and not the same for dense and sparse X: the rounding
        of their products differs).

    Returns
    -------
    Selection
        ``indices`` the first r pivots in pivot order, ``scales`` all ones.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        If r is not an int >= 1.
    ValueError
        If X is not a finite, non-empty 2-D array, or r > n_features.
    TypeError
        If X is not numeric or r is a bool.

    See Also
    --------
    scipy.linalg.qr : The full column-pivoted QR (``pivoting=True``), same pivots.
    sparsify.RRQRSelector : The scikit-learn transformer.
    sparsify.bss : Deterministic selection with a spectral guarantee (000 Algorithm 1).

    Notes
    -----
    Cost: r steps, each one product ``X' q`` (O(nnz(X)) for sparse X, O(n d)
    dense) and O(n r) for the projections: O(r (nnz + n r)) in all. Memory:
    the n x r orthonormal basis and O(d) norms; a sparse X is never densified
    (only the r picked columns are). Deterministic: the same input gives the
    same pivots on every run, and dense and sparse X give the same pivots up
    to the numerical rank of X.

    References
    ----------
    000, sec. 6.2 (Rank-Revealing QR Factorization); Businger and Golub (1965).

    Examples
    --------
    >>> import scipy.linalg as la
    >>> from sparsify import rrqr
    >>> X = np.random.default_rng(0).standard_normal((5, 8))
    >>> sel = rrqr(X, 3)
    >>> bool(np.array_equal(sel.indices, la.qr(X, pivoting=True)[2][:3]))
    True
    >>> sel.scales
    array([1., 1., 1.])
    """
    X = check_X(X)
    n, d = X.shape
    # the bound that depends on X (check_n_select also refuses a bool)
    r = check_n_select(r, name="r", low=1, high=d, low_inclusive=True)
    if sp.issparse(X):
        X = X.tocsc()
    residual2 = column_norms(X, squared=True)
    basis = np.zeros((n, min(r, n)))
    available = np.ones(d, dtype=bool)
    indices = np.empty(r, dtype=np.intp)
    for step in range(r):
        pivot = int(np.argmax(np.where(available, residual2, -np.inf)))
        indices[step] = pivot
        available[pivot] = False
        if step >= n:
            continue  # the basis spans R^n: every residual is zero from here on
        column = X[:, [pivot]].toarray().ravel() if sp.issparse(X) else X[:, pivot].copy()
        Q = basis[:, :step]
        for _ in range(2):
            column -= Q @ (Q.T @ column)
        norm = np.linalg.norm(column)
        if norm == 0:
            continue
        q = column / norm
        basis[:, step] = q
        residual2 = np.maximum(residual2 - np.asarray(X.T @ q).ravel() ** 2, 0.0)
    return Selection(indices, np.ones(r), d)
