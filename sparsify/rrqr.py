"""Feature selection by rank-revealing (column-pivoted) QR, the RRQR baseline of 000 sec. 6.2."""

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ._validation import check_n_select, check_X
from .selection import Selection

__all__ = ["rrqr"]


def rrqr(X, r):
    """Select r features (columns of X) by column-pivoted QR.

    The RRQR baseline of 000 sec. 6.2: a partial factorization
    ``X P = Q [[R_11, R_12], [0, R_22]]`` whose leading r pivots are the
    "important columns" that preserve the rank of X. We use the
    column-pivoted Householder QR of LAPACK (``geqp3``, through
    ``scipy.linalg.qr(..., pivoting=True)``; Businger-Golub pivoting), which at
    every step moves the column of largest residual norm to the front, so the
    diagonal of R is non-increasing in absolute value. The first r pivots are
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
        information).

    Returns
    -------
    selection : Selection
        ``indices`` the first r pivots in pivot order, ``scales`` all ones.

    Raises
    ------
    ValueError
        If X is not a finite, non-empty 2-D array, or r is out of range.
    TypeError
        If X is not numeric or r is not an integer.

    Notes
    -----
    Cost: one pivoted QR of the dense n x d matrix, ``O(n d min(n, d))`` time,
    in ``mode='r'`` so Q is never formed. Memory: the factorization works on a
    dense copy, ``8 n d`` bytes (plus LAPACK workspace of O(d)); for a sparse X
    this dense n x d copy is the only densified form made (e.g. 200 x 50000
    costs 80 MB). Pivoted QR has no sparse LAPACK counterpart in SciPy.
    Deterministic: the same input gives the same pivots on every run.

    References
    ----------
    000, sec. 6.2 (Rank-Revealing QR Factorization); Businger and Golub (1965).
    """
    X = check_X(X)
    d = X.shape[1]
    r = check_n_select(r, name="r", low=1, high=d, low_inclusive=True)
    A = X.toarray() if sp.issparse(X) else X
    # overwrite_a=False (the default) keeps the caller's array untouched.
    _, piv = scipy.linalg.qr(A, mode="r", pivoting=True, check_finite=False)
    indices = np.asarray(piv[:r], dtype=np.intp)
    return Selection(indices, np.ones(r), d)
