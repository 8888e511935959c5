"""The lasso's reduction of n samples to d + 1 rows: the factor of the centred Gram matrix.

``||yc - Xc b||^2 = ||r - R_X b||^2`` for the factor ``R`` of the Gram matrix of the
centred ``[X, y]``: the weighted lasso (004 eq. 3) with n > 2 (d + 1) samples is solved
on ``2 (d + 1)`` rows (:class:`solvers.WeightedLasso`), and on a Dask X from the Gram
matrix summed over its chunks (:mod:`solvers._dask_models`). Both reach it here, so
neither module imports the other.
"""

from collections import namedtuple

import numpy as np
import scipy.sparse as sp

__all__ = ["IMPLICIT_CENTRING", "factor_of_centred_gram", "least_squares_factor"]

#: Dense data without sample weights are centred implicitly, through the Gram matrix,
#: when ``n xbar_j^2`` is at most this times ``||X_j||^2`` for every column.
IMPLICIT_CENTRING = 0.75

#: The factor of :func:`least_squares_factor`.
_LeastSquaresFactor = namedtuple("_LeastSquaresFactor", "rows targets norms x_mean y_mean")


def least_squares_factor(X, y, sample_weight=None):
    """Rows ``[R_X; -R_X] / sqrt(2)`` and targets ``[r; -r] / sqrt(2)``, R of the centred [X, y].

    ``R = sqrt(Lambda) Q'`` from the eigendecomposition ``Q Lambda Q'`` of the Gram
    matrix of the centred ``[X, y]`` (:func:`_centred_gram`), so that
    ``||yc - Xc b||^2 = ||r - R_X b||^2`` for every b; stacking the factor with its
    negative makes every column mean 0, so an intercept fitted to these rows is 0.
    With sample weights s: the s-weighted means and the Gram matrix ``[Xc, yc]'S [Xc, yc]``
    (``sum_i s_i (yc_i - xc_i'b)^2 = ||r - R_X b||^2``).

    The columns are equilibrated: the Gram matrix is divided by ``m_j m_k`` (``m_j``
    the norm of column j, 1 for a zero column or y) before the eigendecomposition,
    which gives the factor of the columns ``X_j / m_j`` (coefficients ``m_j b_j``):
    a column at 1e12 beside one at 1 does not swamp it. The norms come from the Gram
    matrix (its diagonal plus ``sum(s) xbar_j^2``), without another pass over X.

    Returns
    -------
    _LeastSquaresFactor
        ``rows`` (2 (d + 1), d), ``targets`` (2 (d + 1),), ``norms`` (d,): the column
        norms ``sqrt(sum_i s_i x_ij^2)`` (of X itself without sample weights),
        ``x_mean`` (d,) and ``y_mean``: the s-weighted means.
    """
    return factor_of_centred_gram(*_centred_gram(X, y, sample_weight))


def factor_of_centred_gram(gram, squares, x_mean, y_mean, *, floor=0.0):
    """:func:`least_squares_factor` from the Gram matrix of the centred ``[X, y]`` (rows
    scaled by ``sqrt(s_i)``), ``squares = sum_i s_i x_ij^2`` and the s-weighted means (a
    Dask X sums them over its chunks, :mod:`solvers._dask_models`); ``gram`` is modified.
    Eigenvalues below ``floor`` times the largest are taken as 0 (the rounding of a Gram
    matrix summed from chunks: X's null space, where d > n or columns repeat)."""
    norms = np.sqrt(squares)
    scales = np.append(np.where(norms > 0, norms, 1.0), 1.0)
    gram /= np.outer(scales, scales)
    values, vectors = np.linalg.eigh(gram)
    values[values <= floor * values.max(initial=0.0)] = 0.0
    R = np.sqrt(values / 2.0)[:, None] * vectors.T
    R[:, :-1][:, norms == 0] = 0.0  # a zero column, exactly (not the eigenvectors' rounding)
    return _LeastSquaresFactor(
        np.vstack((R[:, :-1], -R[:, :-1])),
        np.concatenate((R[:, -1], -R[:, -1])),
        norms,
        x_mean,
        float(y_mean),
    )


def _centred_gram(X, y, sample_weight=None):
    """The Gram matrix of the centred ``[X, y]`` (rows scaled by ``sqrt(s_i)``), and more.

    Dense X with sample weights, or whose column means are large (``n xbar_j^2 >
    0.75 ||X_j||^2``, a Unix timestamp), is centred before the product; otherwise
    the means are subtracted from the Gram matrix ``X'X`` (no copy of X), which
    loses at most 2 bits: the rounding of ``X_j'X_k`` is relative to
    ``||X_j|| ||X_k||``, at most 4 times ``||Xc_j|| ||Xc_k||`` there (y is centred
    first). Sparse X is never densified: its means are subtracted from its Gram matrix.

    Returns
    -------
    gram : ndarray of shape (d + 1, d + 1)
    squares : ndarray of shape (d,)
        ``sum_i s_i x_ij^2``.
    x_mean : ndarray of shape (d,)
    y_mean : float
        The s-weighted means.
    """
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else sample_weight
    total = s.sum()
    if sp.issparse(X):
        x_mean = np.asarray(X.T @ s).ravel() / total
        y_mean = float(s @ y) / total
        stacked = sp.hstack((X, sp.csr_matrix(y[:, None]))).tocsc()
        centre = np.append(x_mean, y_mean)
        gram = (stacked.T @ (sp.diags(s) @ stacked)).toarray()
        squares = np.diag(gram)[:-1].copy()
        gram -= total * np.outer(centre, centre)
        return gram, squares, x_mean, y_mean
    # Means as products (X.mean and np.average take longer, the latter also copies X).
    x_mean, y_mean = (s @ X) / total, float(s @ y) / total
    if sample_weight is None:
        gram_x = X.T @ X  # BLAS syrk on X itself: no copy
        squares = np.diag(gram_x).copy()
        if np.all(n * x_mean**2 <= IMPLICIT_CENTRING * squares):
            centred_y = y - y_mean
            gram = np.empty((d + 1, d + 1))
            gram[:-1, :-1] = gram_x - n * np.outer(x_mean, x_mean)
            gram[:-1, -1] = gram[-1, :-1] = X.T @ centred_y - x_mean * centred_y.sum()
            gram[-1, -1] = centred_y @ centred_y
            return gram, squares, x_mean, y_mean
    centred = np.empty((n, d + 1))
    np.subtract(X, x_mean, out=centred[:, :-1])
    np.subtract(y, y_mean, out=centred[:, -1])
    if sample_weight is not None:
        centred *= np.sqrt(s)[:, None]
    gram = centred.T @ centred
    # ||X_j||_s^2 = ||Xc_j||_s^2 + sum(s) xbar_j^2: two terms >= 0, no cancellation.
    return gram, np.diag(gram)[:-1] + total * x_mean**2, x_mean, y_mean
