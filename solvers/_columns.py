"""Columns at extreme scales: those nearly parallel to the intercept's column of ones,
and their centring; those that dwarf the others.

Every model of the package has a free intercept, so shifting a column by its mean
changes only the intercept (``b = b_c - m'w``). A Unix timestamp, 1.7e9 with a
spread of 1e5, makes every ``X_j'v`` a sum of terms 1e4 times its value; centred, the
column keeps its digits. The estimators (`solvers._base`, `solvers.svm`) and the
exact paths (`solvers.path`) centre such columns before they solve. A column that
still dwarfs the others (:func:`dominant_columns`, :func:`large_columns`) is kept
apart or rescaled by the solvers and the certificates.
"""

import numpy as np
import scipy.sparse as sp

from sparsify.utils import column_norms

__all__ = [
    "centre_columns",
    "centre_offset_columns",
    "dominant_columns",
    "large_columns",
    "offset_columns",
]

#: A column whose mean exceeds this many standard deviations is an offset column:
#: 2 digits of its products are at stake.
OFFSET_RATIO = 100.0
#: Up to this many candidate offset columns of a CSR matrix are read by comparisons.
_FEW = 16
#: A column whose norm exceeds this many times the median nonzero column norm is large.
LARGE_RATIO = 1e3


def centre_columns(X, columns):
    """X with the given columns centred; and the means taken off (0 elsewhere).

    With a free intercept a model is unchanged when a column is shifted (b absorbs
    ``m_j w_j``), but a column such as a Unix timestamp, 1.7e9 with a spread of 1e5,
    makes every ``X_j'v`` a sum of terms 1e4 times its value: centred, it is a column
    at 1e5 whose products keep their digits. Sparse X stays sparse: only the given
    columns get entries in every row.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    columns : ndarray of int
        The columns to centre.

    Returns
    -------
    X_centred : ndarray or sparse matrix of shape (n, d)
        A new array (X itself when ``columns`` is empty).
    shift : ndarray of shape (d,)
        The column means taken off.
    """
    n, d = X.shape
    shift = np.zeros(d)
    if columns.size == 0:
        return X, shift
    shift[columns] = np.asarray(X[:, columns].mean(axis=0)).ravel()
    if not sp.issparse(X):
        return X - shift, shift
    offsets = sp.csr_matrix(
        (
            np.tile(-shift[columns], n),
            (np.repeat(np.arange(n), columns.size), np.tile(columns, n)),
        ),
        shape=(n, d),
    )
    return (X + offsets).asformat(X.format), shift


def offset_columns(X, *, norms=None, ratio=OFFSET_RATIO):
    """The columns of X whose mean exceeds ``ratio`` times their standard deviation.

    Such a column (a Unix timestamp, a constant) is nearly parallel to the
    intercept's column of ones; `centre_columns` removes the offset. ``norms``: the
    column norms of X when the caller has them (saves a pass over X).
    """
    n = X.shape[0]
    candidates = None
    if sp.issparse(X):
        # With k of its n entries nonzero, Cauchy-Schwarz gives Var >= m^2 (n / k - 1):
        # only a column with k > n ratio^2 / (1 + ratio^2) can be an offset column (every
        # entry but one in 10^4 nonzero), so text data costs one count of the columns
        # (and, when a word is in every document, one pass over those columns).
        counts = (
            np.diff(X.indptr) if X.format == "csc" else np.bincount(X.indices, minlength=X.shape[1])
        )
        candidates = np.flatnonzero(counts > n * ratio * ratio / (1.0 + ratio * ratio))
        if candidates.size == 0:
            return candidates
        if X.format == "csr" and candidates.size <= _FEW and X.has_canonical_format:
            # A few words in every document: their entries by a comparison each (a
            # column slice of CSR copies its whole structure).
            entries = [X.data[X.indices == column] for column in candidates]
            means = np.array([values.sum() for values in entries]) / n
            squares = np.array([values @ values for values in entries]) / n
        else:
            X = X[:, candidates]
            means = np.asarray(X.mean(axis=0)).ravel()
            squares = column_norms(X, squared=True) / n
    else:
        means = np.asarray(X.mean(axis=0)).ravel()
        squares = (column_norms(X, squared=True) if norms is None else norms * norms) / n
    # Var = E[x^2] - m^2 loses the spread of an offset column to rounding: such a
    # column shows as |m| > ratio sd whenever its true spread is below 1e-8 |m|, and
    # is centred either way.
    variances = np.maximum(squares - means * means, 0.0)
    offsets = np.flatnonzero(means * means > ratio * ratio * variances)
    return offsets if candidates is None else candidates[offsets]


#: A column is split off the Gram matrix XX' when its squared norm is at least this many
#: times the total squared norm of the columns smaller than it (a Unix timestamp beside
#: unit columns): its rounding in XX' would swamp their contribution.
_DOMINANCE = 1e4
#: At most this many columns are split off; with more, the Gram matrix is used whole.
_MAX_DOMINANT = 64


def dominant_columns(X, *, squares=None):
    """The columns of X whose squared norms dwarf those of all smaller columns together.

    With the squared column norms sorted, ``q_1 >= q_2 >= ...``, and ``T_k`` the sum
    after ``q_k``, the dominant columns are the first k for the largest k with
    ``T_k > 0`` and ``q_k >= 1e4 T_k`` (none when there is no such k or it exceeds 64).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    squares : ndarray of shape (d,), optional
        The squared column norms of X (``column_norms(X, squared=True)``), when known.

    Returns
    -------
    ndarray of int
        Their indices, largest norm first (empty when no column dominates).
    """
    if squares is None:
        squares = column_norms(X, squared=True)
    # A dominant q_k (k <= 64) is at most the largest, its T_k at least the total less
    # the largest 65: when even that bound fails, no column dominates (no sort needed).
    largest = squares.max(initial=0.0)
    if largest < _DOMINANCE * (squares.sum() - (_MAX_DOMINANT + 1) * largest):
        return np.zeros(0, dtype=int)
    # Only the largest _MAX_DOMINANT + 1 columns can qualify: sort those alone (O(d)).
    top = min(_MAX_DOMINANT + 1, squares.size)
    candidates = np.argpartition(-squares, top - 1)[:top]
    candidates = candidates[np.argsort(-squares[candidates], kind="stable")]
    others = np.ones(squares.size, dtype=bool)
    others[candidates] = False
    ordered = squares[candidates]
    # Tails summed from the small end: no cancellation beside a column at 1e12.
    tails = np.append(np.cumsum(ordered[:0:-1])[::-1], 0.0) + squares[others].sum()
    hits = np.flatnonzero((tails > 0) & (ordered >= _DOMINANCE * tails))
    if hits.size == 0 or hits[-1] >= _MAX_DOMINANT:
        return np.zeros(0, dtype=int)
    return candidates[: hits[-1] + 1]


def large_columns(norms, *, ratio=LARGE_RATIO):
    """The columns that dwarf the others, whatever their number.

    Those whose squared norm dwarfs the sum of the smaller ones'
    (:func:`dominant_columns`: one column at 1e6 beside one
    unit column, three beside one), and those whose norm exceeds ``ratio`` times the
    typical norm, the lower median of the nonzero norms of the columns that are not
    dominant (a Unix timestamp beside 200 unit columns, whose squares it does not dwarf
    together). The median of all the norms alone, the rule before, missed a column that
    dwarfs the others when they are few: beside one unit column, a column at 1e6 is not
    1e3 times the mean of the two. The 2-norm SVMs rescale these columns for the
    backends (`solvers.svm`), their certificate restores their stationarity exactly
    (`solvers.certificates`), and ridge CG picks its system by them
    (`solvers._ridge_cg`). The median is computed only when some column may be large:
    with no dominant column, if at most ``(m - 1) // 2`` of the m nonzero norms lie
    below ``max / ratio``, the lower median is at least that and no norm exceeds
    ``ratio`` times it (counts instead of a partition: 0.18 ms at d = 200000, the
    partition 1 ms).

    Parameters
    ----------
    norms : ndarray of shape (d,)
        The column norms.
    ratio : float, default=LARGE_RATIO

    Returns
    -------
    columns : ndarray of int
        Their indices (empty when no column is that large, or every column is 0).
    typical : float
        The typical norm when some column is large (nan when none is, 0 when every
        column is 0).
    """
    top = float(norms.max(initial=0.0))
    if top == 0.0:
        return np.zeros(0, dtype=int), 0.0
    # Scaled by the largest: the rule is scale-free, and no square overflows.
    squares = norms / top
    squares *= squares
    dominant = dominant_columns(None, squares=squares)
    rest = norms
    if dominant.size:
        rest = norms.copy()
        rest[dominant] = 0.0
        top = float(rest.max())
    zeros = np.count_nonzero(rest == 0)
    middle = (rest.size - zeros - 1) // 2
    if dominant.size == 0 and np.count_nonzero(rest < top / ratio) - zeros <= middle:
        return np.zeros(0, dtype=int), np.nan
    typical = float(np.partition(rest[rest > 0], middle)[middle])
    large = np.flatnonzero(rest > ratio * typical)
    if dominant.size:
        large = np.union1d(dominant, large)
    return large, typical


def centre_offset_columns(X):
    """X with its offset columns (`offset_columns`) centred, and the shift.

    The one step every solver of the package takes first: the estimators, the 2-norm
    SVMs and the exact paths. On sparse X without offset columns it costs one count of
    the columns.

    Returns
    -------
    X_centred : ndarray or sparse matrix of shape (n, d)
        X itself when no column is an offset column.
    shift : ndarray of shape (d,)
        The column means taken off (0 elsewhere).
    """
    return centre_columns(X, offset_columns(X))
