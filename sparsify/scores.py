"""Deterministic univariate feature scores: information gain, document frequency, weights.

These are the baselines of the papers' experiments: Information Gain and
Document Frequency (003 sec. 6.2, 000 sec. 6.2) and the weight-based scores of
003 eq. (23). Each returns one score per feature (column of X); a selector keeps
the features with the largest scores.

X is ``n_samples x n_features`` throughout (the library's orientation); the
papers' document-term matrix A of 003 is ``n_features x n_samples`` (features
are its rows), so "row i of A" in 003 is "column i of X" here. Dense arrays and
CSR/CSC matrices give identical results, and sparse input is never densified.
Each score is a reduction over the rows of X (`sparsify._dask.reduce_row_blocks`),
so a Dask array chunked by rows gives the same result, chunk by chunk.
"""

from functools import partial

import numpy as np
import scipy.sparse as sp
from sklearn.utils import column_or_1d
from sklearn.utils._param_validation import validate_params

from ._dask import reduce_row_blocks
from ._validation import check_X

__all__ = ["information_gain", "document_frequency", "weight_scores"]

# No hyperparameters: the data's types, checked as every public function checks its
# arguments (scikit-learn's `validate_params`); the values are checked by `check_X`.
_X = ["array-like", "sparse matrix"]


def _presence(X):
    """Indicator matrix of the nonzero entries of a validated X (sparse stays sparse).

    Explicitly stored zeros of a sparse X count as absent.
    """
    if sp.issparse(X):
        B = X != 0  # sparse boolean matrix holding only the nonzeros
        return B.astype(np.float64)
    return (X != 0).astype(np.float64)


def _hashable_labels(y, exc):
    """Labels NumPy cannot hold in a 1-D array (e.g. tuples): an object array, if hashable."""
    msg = f"y must be a 1-D array of class labels of shape (n_samples,); {exc}"
    if isinstance(y, np.ndarray) or not hasattr(y, "__len__"):
        raise ValueError(msg) from exc
    values = list(y)
    try:
        for v in values:
            hash(v)
    except TypeError:
        raise ValueError(msg) from exc
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _encode_labels(y, n_samples):
    """Validate labels and return (integer codes in [0, C), number of classes C)."""
    try:
        y = column_or_1d(y, warn=False)
    except ValueError as exc:
        y = _hashable_labels(y, exc)
    if y.shape[0] != n_samples:
        raise ValueError(
            f"y has {y.shape[0]} labels but X has {n_samples} samples; give one label per row of X."
        )
    if y.dtype.kind in "fc" and not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinity; every sample needs a class label.")
    if y.dtype.kind == "O":
        for v in y:
            if v is None or (isinstance(v, float) and not np.isfinite(v)):
                raise ValueError(
                    f"y contains the missing label {v!r}; every sample needs a class label."
                )
    try:
        _, codes = np.unique(y, return_inverse=True)
        codes = codes.reshape(-1)
    except TypeError:
        # Mixed, unorderable labels (e.g. 1 and "a"): code them by first appearance.
        lookup = {}
        try:
            codes = np.fromiter((lookup.setdefault(v, len(lookup)) for v in y), dtype=np.intp)
        except TypeError as exc:
            raise TypeError(f"y must hold hashable class labels; {exc}") from exc
    n_classes = int(codes.max()) + 1 if codes.size else 0
    if n_classes < 2:
        raise ValueError(
            f"y has {n_classes} distinct class label(s); information_gain needs at least 2 "
            "classes (with one class every feature's information gain is 0)."
        )
    return codes, n_classes


@validate_params({"X": _X, "y": ["array-like"]}, prefer_skip_nested_validation=True)
def information_gain(X, y):
    """Information gain of the presence/absence of each feature about the class.

    Implements eq. (24) of 003 (sec. 6.2; the IG baseline of 000 sec. 6.2),
    generalised from two classes to any number of classes::

        IG(t) = sum_{c in classes} sum_{e in {t present, t absent}}
                    P(e, c) * log( P(e, c) / (P(e) P(c)) )

    with empirical probabilities over the n rows of X, the natural logarithm
    (the result is in nats) and the convention ``0 log 0 = 0``. Feature t is
    *present* in a row when its entry is nonzero. IG(t) is the mutual
    information between the class and the indicator ``X[:, t] != 0``, so it is
    non-negative, zero for a feature independent of the class (e.g. constant
    presence) and at most the entropy of the class distribution.

    Parameters
    ----------
    X : array-like, scipy.sparse matrix or dask.array.Array of shape (n_samples, n_features)
        Data, dense or CSR/CSC. Only its pattern of nonzeros is used; a sparse X
        is never densified (the counts come from one sparse product of the
        indicator of nonzeros with the one-hot class matrix).
    y : array-like of shape (n_samples,)
        Class labels: any values ``numpy.unique`` can sort, or any hashable
        values; at least two distinct classes.

    Returns
    -------
    ndarray of shape (n_features,)
        The information gain of every feature, in nats. Values are clipped at 0
        from below to remove rounding-level negatives.

    Raises
    ------
    ValueError
        If X is not a finite, non-empty 2-D numeric array, if y does not have
        one label per row of X, contains NaN/None, or has fewer than 2 classes.
    TypeError
        If X is not numeric.

    See Also
    --------
    document_frequency : The other univariate baseline of 003 sec. 6.2.
    sparsify.InfoGainSelector : Keeps the features of largest information gain.
    sklearn.feature_selection.mutual_info_classif : Mutual information of the values.

    References
    ----------
    003, sec. 6.2, eq. (24); 000, sec. 6.2 (Information Gain).

    Examples
    --------
    A feature present in every row tells nothing about the class; one present
    exactly in the rows of one of two balanced classes tells its entropy, ln 2:

    >>> from sparsify import information_gain
    >>> X = np.array([[1, 1], [1, 0], [1, 1], [1, 0]])
    >>> ig = information_gain(X, ["a", "b", "a", "b"])
    >>> bool(np.allclose(ig, [0.0, np.log(2)]))
    True
    """
    X = check_X(X, lazy=True)
    n = X.shape[0]
    codes, n_classes = _encode_labels(y, n)
    n_tc = reduce_row_blocks(partial(_class_counts, n_classes=n_classes), X, codes)
    n_c = np.bincount(codes, minlength=n_classes).astype(np.float64)  # class sizes
    n_t = n_tc.sum(axis=1)  # rows in which t is present
    n_ac = n_c[None, :] - n_tc  # rows of class c in which t is absent
    n_a = n - n_t  # rows in which t is absent

    ig = _mi_part(n_tc, n_t, n_c, n) + _mi_part(n_ac, n_a, n_c, n)
    return np.maximum(ig, 0.0)


def _class_counts(X, codes, n_classes):
    """n_tc[t, c]: the number of rows of class c in which feature t is present (d x C).

    One sparse product of the indicator of nonzeros with the one-hot class matrix.
    """
    n = X.shape[0]
    onehot = sp.csr_matrix(
        (np.ones(n), (np.arange(n), codes)), shape=(n, n_classes), dtype=np.float64
    )
    n_tc = _presence(X).T @ onehot
    return n_tc.toarray() if sp.issparse(n_tc) else np.asarray(n_tc)


def _mi_part(n_ec, n_e, n_c, n):
    """sum_c P(e, c) log(P(e, c) / (P(e) P(c))) from counts, with 0 log 0 = 0."""
    out = np.zeros_like(n_ec)
    mask = n_ec > 0  # then n_e > 0 and n_c > 0 as well
    denom = (n_e[:, None] * n_c[None, :])[mask]
    out[mask] = (n_ec[mask] / n) * np.log(n_ec[mask] * n / denom)
    return out.sum(axis=1)


@validate_params({"X": _X}, prefer_skip_nested_validation=True)
def document_frequency(X):
    """Number of samples (documents) in which each feature is nonzero.

    The Document Frequency score of 003 sec. 6.2: "the number of training
    documents in which [a term] appears". Explicitly stored zeros of a sparse X
    do not count.

    Parameters
    ----------
    X : array-like, scipy.sparse matrix or dask.array.Array of shape (n_samples, n_features)
        Data, dense or CSR/CSC (never densified).

    Returns
    -------
    ndarray of int64, shape (n_features,)
        ``df[j] = #{i : X[i, j] != 0}``.

    Raises
    ------
    ValueError
        If X is not a finite, non-empty 2-D array.
    TypeError
        If X is not numeric.

    See Also
    --------
    information_gain : The other univariate baseline of 003 sec. 6.2.
    sparsify.DocFreqSelector : Keeps the features of largest document frequency.

    References
    ----------
    003, sec. 6.2 (Document Frequency).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from sparsify import document_frequency
    >>> X = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]])
    >>> document_frequency(X)
    array([1, 0, 2])
    >>> document_frequency(sp.csr_matrix(X)).tolist()
    [1, 0, 2]
    """
    return reduce_row_blocks(_nonzero_counts, check_X(X, lazy=True))


def _nonzero_counts(X):
    """The number of nonzeros of each column of X (int64)."""
    counts = (X != 0).sum(axis=0) if sp.issparse(X) else np.count_nonzero(X, axis=0)
    return np.asarray(counts, dtype=np.int64).reshape(-1)


@validate_params({"X": _X}, prefer_skip_nested_validation=True)
def weight_scores(X):
    """Weight-based scores: each feature's share of the squared Frobenius norm.

    Eq. (23) of 003, ``p_i = ||A_(i)||_2^2 / ||A||_F^2``, where the rows of the
    papers' A are features; with X of shape (n_samples, n_features) this is::

        p_j = ||X[:, j]||_2^2 / ||X||_F^2,

    a probability distribution over the features (non-negative, sums to 1). It
    is the sampling distribution of ``WeightSelector`` and the deterministic
    ranking of the weight-based baseline.

    Parameters
    ----------
    X : array-like, scipy.sparse matrix or dask.array.Array of shape (n_samples, n_features)
        Data, dense or CSR/CSC (never densified). Entries are rescaled by
        ``max |X|`` before squaring, so very large values do not overflow.

    Returns
    -------
    ndarray of shape (n_features,)
        The weight score of every feature; ``p.sum() == 1`` up to rounding.

    Raises
    ------
    ValueError
        If X is all zeros (no distribution exists), or not a finite, non-empty
        2-D array.
    TypeError
        If X is not numeric.

    See Also
    --------
    sparsify.WeightSelector : Samples features with these probabilities.
    sparsify.leverage_scores : The probabilities of 001 eq. (4), from the top right
        singular vectors instead of the columns.

    References
    ----------
    003, sec. 6.2, eq. (23) (Weight-based Sampling).

    Examples
    --------
    >>> from sparsify import weight_scores
    >>> p = weight_scores(np.array([[3.0, 0.0], [4.0, 1.0]]))
    >>> bool(np.allclose(p, [25 / 26, 1 / 26]))
    True
    """
    X = check_X(X, lazy=True)
    scale = float(reduce_row_blocks(_max_abs, X, combine=np.maximum))
    if scale == 0.0:
        raise ValueError(
            "X is all zeros; weight_scores (003 eq. 23) divides by ||X||_F^2 and needs "
            "at least one nonzero entry."
        )
    col_sq = reduce_row_blocks(partial(_column_squares, scale=scale), X)
    return col_sq / col_sq.sum()


def _max_abs(X):
    """The largest absolute entry of X (0 for an empty sparse X)."""
    if sp.issparse(X):
        return float(np.max(np.abs(X.data))) if X.nnz else 0.0
    return float(np.max(np.abs(X)))


def _column_squares(X, scale):
    """The squared norm of each column of ``X / scale``."""
    if sp.issparse(X):
        Xs = X.copy()
        Xs.data /= scale  # not X * (1 / scale): 1 / scale overflows for a subnormal scale
        return np.asarray(Xs.multiply(Xs).sum(axis=0), dtype=np.float64).reshape(-1)
    Xs = X / scale
    return np.einsum("ij,ij->j", Xs, Xs)
