"""Leverage scores and leverage-score sampling (001 eq. 4 and Lemma 2; 003 Figure 1, eq. 22)."""

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval, validate_params

from ._svd import right_singular_vectors
from ._validation import check_n_select, check_X
from .sampling import SAMPLING_CONSTRAINTS, sample_features

__all__ = ["leverage_scores", "leverage_sample"]


# scikit-learn's parameter constraints (`validate_params`) of the leverage-score sampler: the
# sampling arguments and k, the number of top right singular vectors (None: the rank).
LEVERAGE_CONSTRAINTS = {
    **SAMPLING_CONSTRAINTS,
    "k": [Interval(Integral, 1, None, closed="left"), None],
}


@validate_params({"k": LEVERAGE_CONSTRAINTS["k"]}, prefer_skip_nested_validation=True)
def leverage_scores(X, k=None):
    """Leverage scores of the features: squared row norms of the top-k right singular vectors.

    With ``X = U S V'`` (n x d), feature i has score ``||V_k[i, :]||^2``; the
    scores lie in [0, 1] and sum to k. Dividing by k gives the sampling
    probabilities of 001 eq. (4) and 003 eq. (22) (SS).

    Parameters
    ----------
    X : array, sparse matrix or dask.array.Array of shape (n_samples, n_features)
        Sparse input is never densified (n <= d goes through the n x n Gram
        matrix, n > d through the d x d one). A Dask array chunked by rows
        (dense or sparse chunks) is reduced chunk by chunk: the d x d Gram
        matrix for d <= 4096, else a randomized range finder for the top k
        (k required; see docs/dask.md).
    k : int, optional
        Number of singular vectors, 1 <= k <= rank(X); None means rank(X).

    Returns
    -------
    ndarray of shape (n_features,)
        The leverage scores, in [0, 1], summing to k.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        k not None nor an int >= 1.
    ValueError
        X not a finite, non-empty 2-D array (see `sparsify.utils.check_X`), or k above
        min(n_samples, n_features) or the numerical rank of X.
    TypeError
        X not numeric, or k a bool.

    See Also
    --------
    leverage_sample : Sampling with probabilities proportional to these scores.
    sparsify.LeverageSelector : The scikit-learn transformer.
    sparsify.utils.right_singular_vectors : The V_k whose squared row norms these are.

    Examples
    --------
    >>> from sparsify import leverage_scores
    >>> X = np.random.default_rng(0).standard_normal((20, 5))
    >>> scores = leverage_scores(X, k=2)
    >>> scores.shape, round(float(scores.sum()), 6)
    ((5,), 2.0)
    >>> V = np.linalg.svd(X)[2][:2].T
    >>> bool(np.allclose(scores, np.sum(V**2, axis=1)))
    True
    """
    X = check_X(X, lazy=True)
    if k is not None:  # the bound that depends on X (check_n_select also refuses a bool)
        k = check_n_select(k, name="k", low=1, high=min(X.shape), low_inclusive=True)
    V, _ = right_singular_vectors(X, k)
    return np.einsum("ij,ij->i", V, V)


@validate_params(LEVERAGE_CONSTRAINTS, prefer_skip_nested_validation=True)
def leverage_sample(X, r, *, k=None, method="iid", random_state=None):
    """Sample r features with probabilities ``p_i = leverage_i / k`` (001 eq. 4).

    Parameters
    ----------
    X : array, sparse matrix or dask.array.Array of shape (n_samples, n_features)
        As in `leverage_scores`.
    r : int
        Number of i.i.d. trials (``method="iid"``, 001 eq. 4: rescale by
        ``1/sqrt(r p_i)``) or the bound on the expected number of kept
        features (``method="bernoulli"``, 003 Figure 1: keep with
        ``min(1, r p_i)``, rescale by ``1/sqrt(min(1, r p_i))``); r >= 1.
    k : int, optional
        Number of top right singular vectors; None means rank(X).
    method : {"iid", "bernoulli"}, default="iid"
        I.i.d. trials with replacement (001 eq. 4) or independent coin flips
        (003 Figure 1), as described for r.
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        Seed of the sampling (see `sparsify.utils.check_random_state`).

    Returns
    -------
    Selection
        The sampled features and their scales ("iid": in the order first drawn,
        a feature drawn c times once with its merged scale; "bernoulli": in index
        order).

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        r, k, method or random_state of the wrong type or out of range.
    ValueError
        As `leverage_scores`.

    See Also
    --------
    leverage_scores : The scores behind the probabilities.
    sparsify.LeverageSelector : The scikit-learn transformer.
    sparsify.theory.leverage_features : The r that 001 Lemma 2 asks for.

    Examples
    --------
    >>> from sparsify import leverage_sample
    >>> X = np.random.default_rng(0).standard_normal((20, 5))
    >>> sel = leverage_sample(X, 3, k=2, random_state=0)
    >>> sel.n_features_in, sel.n_selected <= 3
    (5, True)
    >>> sel.apply(X).shape == (20, sel.n_selected)
    True
    """
    scores = leverage_scores(X, k)
    return sample_features(scores / scores.sum(), r, method=method, random_state=random_state)
