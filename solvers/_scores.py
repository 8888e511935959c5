"""The scores and classes of a fitted linear model, for in-memory and Dask data alike."""

import numpy as np

__all__ = ["linear_scores", "scores_to_classes"]


def linear_scores(X, coef, intercept):
    """``X coef' + intercept`` for ``coef`` of shape (K, d): (n,) when K = 1, else (n, K)."""
    scores = np.asarray(X @ np.atleast_2d(np.asarray(coef)).T) + intercept
    return scores.ravel() if scores.shape[1] == 1 else scores


def scores_to_classes(scores, classes):
    """The classes of ``linear_scores``: the sign for 1-D scores, else the largest column."""
    if scores.ndim == 1:
        return classes[(scores > 0).astype(int)]
    return classes[np.argmax(scores, axis=1)]
