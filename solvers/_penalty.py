"""The weighted L1 penalty ``lam sum_j W_j |w_j|``, defined once: weights, value, dual, lam_max.

The one convention for penalty weights, shared by formulations, estimators, paths
and certificates, as glmnet's ``penalty.factor`` and skglm's ``WeightedL1``: each
weight is ``>= 0`` or ``+inf``. A weight of 0 leaves the feature unpenalised (it is
in every model, along a path too); ``+inf`` excludes it (its coefficient is fixed at
0). NaN and negative weights are errors.

The penalty's conjugate makes the dual's constraints ``|X_j'v| <= lam W_j`` (``v``
the dual point of the loss, :mod:`solvers._losses`); :func:`l1_dual_scaling` scales a
dual point into them, :func:`l1_kkt_violation` measures the stationarity
``X_j'v in lam W_j d|w_j|``, and :func:`l1_lam_max` is the smallest lam at which the
zero coefficients are optimal, from the correlations at the null model. The 2-norm
penalties (``1/2 ||w||^2`` of the SVMs, ``lam ||w||^2`` of ridge regression) need no
such machinery: their dual map is ``w = X'v``.
"""

import numpy as np

__all__ = [
    "check_penalty_weights",
    "l1_dual_scaling",
    "l1_kkt_violation",
    "l1_lam_max",
    "l1_value",
]

# Coefficients whose |coef_j| ||X_j|| is below this fraction of the largest count as zero
# in the KKT measure.
_SUPPORT_RTOL = 1e-6


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



def l1_value(lam, weights, coef):
    """``lam sum_j W_j |coef_j|``; inf when an excluded feature has a nonzero coefficient."""
    excluded = np.isinf(weights)
    if np.any(coef[excluded] != 0):
        return np.inf
    return lam * float(weights[~excluded] @ np.abs(coef[~excluded]))


def l1_lam_max(correlations, weights):
    """``max_j |c_j| / W_j`` over the penalised features (0 when there are none).

    With ``c = X'v`` the correlations of the null model's dual point, this is the
    smallest lam at which every penalised coefficient is 0 when every weight is
    positive (004 eq. 3 and 7: ``v = 2 S (y - mean_s(y))``).
    """
    positive = (weights > 0) & np.isfinite(weights)
    return float(np.max(np.abs(correlations[positive]) / weights[positive], initial=0.0))


def l1_kkt_violation(correlations, coef, lam, weights, norms, dual_norm):
    """Largest scale-free violation of ``X_j'a in lam W_j d|coef_j|`` over the features.

    Each feature's violation is divided by ``||X_j|| ||a||`` (``norms``, ``dual_norm``):
    0 at an exact optimum, whatever the column scales.
    """
    finite = np.isfinite(weights)
    bound = lam * np.where(finite, weights, 0.0)
    # Interior-point backends leave round-off (1e-10) where a coefficient is zero: a
    # coefficient is on the support when its column's contribution is not negligible.
    contribution = np.abs(coef) * norms
    on_support = contribution > _SUPPORT_RTOL * contribution.max(initial=0.0)
    violation = np.where(
        on_support,
        np.abs(correlations - bound * np.sign(coef)),
        np.maximum(np.abs(correlations) - bound, 0.0),
    )
    scale = norms * dual_norm
    violation = np.where(finite & (scale > 0), violation / np.where(scale > 0, scale, 1.0), 0.0)
    return float(violation.max(initial=0.0))


def l1_dual_scaling(correlations, lam, weights):
    """The largest ``t <= 1`` with ``t |X_j'v| <= lam W_j`` for every penalised feature."""
    penalised = (weights > 0) & np.isfinite(weights)
    size = np.abs(correlations[penalised])
    bound = lam * weights[penalised]
    over = size > bound
    if not np.any(over):
        return 1.0
    return float(np.min(bound[over] / size[over]))
