"""The one convention for penalty weights, shared by formulations, estimators, paths, certificates.

As glmnet's ``penalty.factor`` and skglm's ``WeightedL1``: each weight is ``>= 0`` or
``+inf``. A weight of 0 leaves the feature unpenalised (it is in every model, along a
path too); ``+inf`` excludes it (its coefficient is fixed at 0). NaN and negative
weights are errors.
"""

import numpy as np

__all__ = ["check_penalty_weights"]


def check_penalty_weights(weights, n_features, *, name="weights"):
    """Validate penalty weights: None (all ones) or ``n_features`` values, each >= 0 or +inf.

    Parameters
    ----------
    weights : array-like of shape (n_features,) or None
    n_features : int
    name : str
        The argument's name, for error messages.

    Returns
    -------
    ndarray of shape (n_features,), float64
        A new array (the caller's is never modified).

    Raises
    ------
    ValueError
        Wrong shape, NaN, negative entries, or values that are not numbers.
    """
    if weights is None:
        return np.ones(n_features)
    try:
        w = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must be an array of {n_features} numbers >= 0 or +inf."
        ) from exc
    if w.shape != (n_features,):
        raise ValueError(
            f"{name} must have shape ({n_features},), one per feature of X; got shape {w.shape}."
        )
    bad = np.flatnonzero(np.isnan(w) | (w < 0))
    if bad.size:
        raise ValueError(
            f"{name} must be >= 0 (0: unpenalised) or +inf (excluded); got "
            f"{w[bad[:5]].tolist()} at indices {bad[:5].tolist()}."
        )
    return w

