"""Dask arrays of documents as input to the fitted models: the one place they meet Dask.

A corpus chunked by documents (a ``dask.array.Array`` whose chunks are NumPy arrays or
SciPy sparse matrices, as the selectors take it, :mod:`sparsify._dask`) is scored
without being collected: ``decision_function``, ``predict`` and ``score`` of every
linear estimator compute ``X coef_' + intercept_`` one chunk of rows at a time, as one
task each. ``decision_function`` and ``predict`` return lazy Dask arrays (nothing runs
until ``.compute()``); ``score`` computes the predictions, a vector of n numbers, and
returns a float. ``fit`` does not take a Dask X (:func:`reject_dask_fit`): it would
collect X whole.

Dask is optional: :func:`sparsify._dask.is_dask` is False for every input while
``dask.array`` has not been imported.
"""

import numpy as np

from sparsify._dask import check_dask

from ._scores import linear_scores, scores_to_classes

__all__ = ["lazy_scores", "lazy_classes", "reject_dask_fit"]


def reject_dask_fit(estimator, X):
    """A TypeError for a Dask X in ``fit``: fitting would collect X into memory, which
    is what a Dask array is for avoiding; say what to pass instead."""
    raise TypeError(
        f"{type(estimator).__name__}.fit does not take a Dask array: it would collect X "
        f"({X.shape[0]} x {X.shape[1]}) into memory. Select features on the cluster and fit "
        "the selected columns (selector.transform(X).compute()), or pass X.compute() when "
        "it fits; a fitted model scores a Dask X lazily (decision_function, predict)."
    )


def lazy_scores(X, coef, intercept, n_features):
    """``X coef' + intercept`` of a Dask X, lazily, one task per chunk of rows.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Chunked by rows; NumPy or SciPy sparse chunks.
    coef : ndarray of shape (n_features,) or (K, n_features)
    intercept : float or ndarray of shape (K,)
    n_features : int
        The number of features the model was fitted on.

    Returns
    -------
    dask.array.Array of shape (n_samples,) (one row of coef) or (n_samples, K)

    Raises
    ------
    ValueError
        If X does not have ``n_features`` columns (or is not 2-D, or holds NaN or
        infinity: raised when the chunk is computed).
    """
    X = check_dask(X, name="X")
    if X.shape[1] != n_features:
        raise ValueError(
            f"X has {X.shape[1]} features, but the model was fitted on {n_features}."
        )
    coef = np.atleast_2d(np.asarray(coef, dtype=np.float64))
    intercept = np.asarray(intercept, dtype=np.float64)
    if coef.shape[0] == 1:
        return X.map_blocks(
            linear_scores, coef, intercept, drop_axis=1, dtype=np.float64, meta=np.empty(0)
        )
    return X.map_blocks(
        linear_scores, coef, intercept, chunks=(X.chunks[0], (coef.shape[0],)),
        dtype=np.float64, meta=np.empty((0, 0)),
    )  # fmt: skip


def lazy_classes(scores, classes):
    """The classes of lazy scores: ``classes[1]`` where a 1-D score is positive, else the
    class of the largest column (as the estimators' ``predict``)."""
    drop = {} if scores.ndim == 1 else {"drop_axis": 1}
    return scores.map_blocks(
        scores_to_classes, classes, dtype=classes.dtype, meta=np.empty(0, classes.dtype), **drop
    )
