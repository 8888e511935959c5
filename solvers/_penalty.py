"""The weighted L1 penalty ``lam sum_j W_j |w_j|``, defined once: weights, value, dual, lam_max.

The one convention for penalty weights, shared by formulations, estimators, paths
and certificates, as glmnet's ``penalty.factor`` and skglm's ``WeightedL1``: each
weight is ``>= 0`` or ``+inf``. A weight of 0 leaves the feature unpenalised (it is
in every model, along a path too); ``+inf`` excludes it (its coefficient is fixed at
0). NaN and negative weights are errors.

:class:`Penalty` is the penalty as an object, the weighted elastic net
``sum_j l1_j |w_j| + l2/2 ||w||^2`` (``l1_j = lam l1_ratio W_j``): the weighted L1 of the
lasso, the 1-norm SVM and SVM2 (``l2 = 0``), the 2-norm of the SVMs (``l1 = 0``,
``l2 = 1/C`` once the objective is divided by C) and of ridge regression
(``l2 = 2 lam``), and their sum for logistic regression. It gives its value, its
conjugate, the largest scaling of a dual point into the conjugate's domain, the
features whose dual constraint is an equality, and the stationarity measure: the
generic certificate (:func:`solvers.certificates.certificate`) is written with these.

The penalty's conjugate makes the dual's constraints ``|X_j'v| <= lam W_j`` (``v``
the dual point of the loss, :mod:`solvers._losses`); :func:`l1_dual_scaling` scales a
dual point into them, :func:`l1_kkt_violation` measures the stationarity
``X_j'v in lam W_j d|w_j|``, and :func:`l1_lam_max` is the smallest lam at which the
zero coefficients are optimal, from the correlations at the null model. The 2-norm
penalties (``1/2 ||w||^2`` of the SVMs, ``lam ||w||^2`` of ridge regression) need no
such machinery: their dual map is ``w = X'v``.
"""

from functools import cached_property

import numpy as np
from numba import njit

__all__ = [
    "Penalty",
    "check_penalty_weights",
    "l1_dual_scaling",
    "l1_kkt_violation",
    "l1_lam_max",
    "l1_value",
    "l2_kkt_violation",
    "elastic_net_kkt_violation",
]

# Coefficients whose |coef_j| ||X_j|| is below this fraction of the largest count as zero
# in the KKT measure.
_SUPPORT_RTOL = 1e-6
# Features whose l1_j is below this fraction of ||X_j|| ||v|| have an equality for a dual
# constraint (c_j = 0): scaling a dual point into |c_j| <= l1_j would shrink it to nothing.
FREE_RTOL = 1e-9


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
    0 at an exact optimum, whatever the column scales. An excluded feature
    (``W_j = +inf``) has none. The weighted L1 penalty's case of
    :func:`elastic_net_kkt_violation` (``l2 = 0``).
    """
    l1 = np.multiply(lam, weights, dtype=np.float64)
    return elastic_net_kkt_violation(
        np.asarray(correlations, dtype=np.float64), np.asarray(coef, dtype=np.float64),
        np.asarray(norms, dtype=np.float64), float(dual_norm), l1, 0.0,
    )  # fmt: skip


@njit(cache=True)
def elastic_net_kkt_violation(correlations, coef, norms, dual_norm, l1, l2):
    """Largest scale-free violation of ``c_j - l2 w_j in l1_j d|w_j|`` over the features
    of finite ``l1_j``: 0 at an optimum. NaN if any term is NaN.

    On the support (``|w_j| ||X_j||`` above ``_SUPPORT_RTOL`` of the largest: interior
    point backends leave round-off of 1e-10 where a coefficient is zero) the violation
    is ``|c_j - l2 w_j - l1_j sign(w_j)|``, divided by ``||X_j|| ||v|| + l2 |w_j|``; off
    it ``[|c_j| - l1_j]_+``, divided by ``||X_j|| ||v||`` (0 where the divisor is 0). Two
    passes, no temporaries (a text corpus has 10^5 features; the NumPy expression of it
    took 29 us of a 155 us logistic certificate at 2211 features).
    """
    largest = 0.0
    for j in range(coef.size):
        contribution = abs(coef[j]) * norms[j]
        if contribution > largest:
            largest = contribution
        elif contribution != contribution:
            return contribution
    threshold = _SUPPORT_RTOL * largest
    worst = 0.0
    for j in range(coef.size):
        bound = l1[j]
        if bound == np.inf:  # excluded: its coefficient is fixed at 0
            continue
        w = coef[j]
        if abs(w) * norms[j] > threshold:
            scale = norms[j] * dual_norm + l2 * abs(w)
            excess = abs(correlations[j] - l2 * w - bound * np.sign(w))
        else:
            scale = norms[j] * dual_norm
            excess = max(abs(correlations[j]) - bound, 0.0)
        if excess != excess or scale != scale or bound != bound:
            return np.nan
        if scale > 0.0 and excess > worst * scale:
            worst = excess / scale
    return worst


def l1_dual_scaling(correlations, lam, weights):
    """The largest ``t <= 1`` with ``t |X_j'v| <= lam W_j`` for every penalised feature."""
    penalised = (weights > 0) & np.isfinite(weights)
    size = np.abs(correlations[penalised])
    bound = lam * weights[penalised]
    over = size > bound
    if not np.any(over):
        return 1.0
    return float(np.min(bound[over] / size[over]))


class Penalty:
    """The weighted elastic net ``g(w) = sum_j l1_j |w_j| + l2/2 ||w||^2``, defined once.

    ``l1_j >= 0`` or ``+inf`` (0: no L1 term; ``+inf``: the feature is excluded, its
    coefficient fixed at 0), ``l2 >= 0``. The models of the package:

    - the lasso (004 eq. 3), the 1-norm SVM (eq. 6) and SVM2 (eq. 7): ``l1 = lam W``,
      ``l2 = 0``;
    - the 2-norm SVMs (001 eq. 2), divided by C: ``l1 = 0``, ``l2 = 1/C``;
    - logistic regression: ``l1 = lam l1_ratio W``, ``l2 = lam (1 - l1_ratio)``.

    Its conjugate, summed over the features, is ``g*(c) = sum_j g_j*(c_j)`` with
    ``g_j*(c) = [|c| - l1_j]_+^2 / (2 l2)`` when ``l2 > 0`` (0 for an excluded feature)
    and, when ``l2 = 0``, 0 on ``|c| <= l1_j`` and ``+inf`` outside: the dual
    constraints of the L1 models, an equality ``c_j = 0`` for an unpenalised feature.

    Parameters
    ----------
    l1 : ndarray of shape (n_features,)
        The L1 strength of each feature, ``>= 0`` or ``+inf``.
    l2 : float, default=0.0
        The strength of the (unweighted) squared 2-norm, ``>= 0``.
    """

    def __init__(self, l1, l2=0.0):
        self.l1 = np.asarray(l1, dtype=np.float64)
        self.l2 = float(l2)
        #: No L1 term and no excluded feature: the squared 2-norm alone (the 2-norm SVMs,
        #: ridge), whose value, conjugate and KKT conditions need no feature-sized
        #: temporaries but the correlations' own.
        self.l2_only = self.l2 > 0 and not self.l1.any()

    @classmethod
    def elastic_net(cls, lam, weights, l1_ratio=1.0):
        """``lam (l1_ratio sum_j W_j |w_j| + (1 - l1_ratio)/2 ||w||^2)``; an excluded
        feature (``W_j = +inf``) stays excluded at any l1_ratio."""
        strength = lam * l1_ratio
        if strength > 0:  # +inf stays +inf
            l1 = np.multiply(weights, strength, dtype=np.float64)
        elif np.isinf(weights).any():
            l1 = np.where(np.isinf(weights), np.inf, 0.0)
        else:  # no L1 term: a read-only view of zeros, no memory
            l1 = np.broadcast_to(0.0, np.shape(weights))
        return cls(l1, lam * (1.0 - l1_ratio))

    @classmethod
    def squared_norm(cls, l2, n_features):
        """``l2/2 ||w||^2`` alone (the 2-norm SVMs), ``l1`` a read-only view of zeros.

        Built on an empty ``l1`` (``l2_only`` is then ``l2 > 0``, as for zeros), which
        skips the constructor's scan of the zeros (2.8 us of a 55 us certificate, 200 x 2990).
        """
        penalty = cls(np.zeros(0), l2)
        penalty.l1 = np.broadcast_to(0.0, (n_features,))
        return penalty

    @property
    def quadratic_conjugate(self):
        """Whether ``g*(t c)`` is a quadratic in t: no 2-norm term (0 on the domain), or
        no L1 term (``t^2 ||c||^2 / (2 l2)``)."""
        return self.l2 == 0 or self.l2_only or not np.any(np.isfinite(self.l1) & (self.l1 > 0))

    @cached_property
    def excluded(self):
        """Mask of the features whose coefficient is fixed at 0 (computed once: the value,
        the equalities and the conjugate each read it)."""
        return np.isinf(self.l1)

    def value(self, coef):
        """``g(coef)``; ``inf`` when an excluded feature has a nonzero coefficient."""
        if self.l2_only:
            return 0.5 * self.l2 * float(coef @ coef)
        if np.any(coef[self.excluded] != 0):
            return np.inf
        support = np.flatnonzero(coef)  # a zero coefficient adds nothing (no 0 * inf)
        kept = coef[support]
        return float(self.l1[support] @ np.abs(kept) + 0.5 * self.l2 * (kept @ kept))

    def conjugate_along(self, correlations):
        """The function ``t -> g*(t c)``, for the t that keep ``t c`` inside the domain
        (the L1 models' constraints met): what does not depend on t computed once."""
        if self.l2 == 0:
            return lambda t: 0.0
        if self.l2_only:  # t^2 ||c||^2 / (2 l2), without forming t c
            squares = float(correlations @ correlations)
            return lambda t: t * t * squares / (2.0 * self.l2)
        bound = np.where(self.excluded, np.inf, self.l1)

        def conjugate(t):
            excess = np.maximum(np.abs(correlations if t == 1.0 else t * correlations) - bound, 0)
            return float(excess @ excess) / (2.0 * self.l2)

        return conjugate

    def equalities(self, norms, dual_norm):
        """Features whose dual constraint is met as ``c_j = 0``: with ``l2 = 0``, those
        whose ``l1_j`` is 0 or below ``FREE_RTOL ||X_j|| ||v||`` (``norms`` the column
        norms, ``dual_norm`` the dual point's norm); none when ``l2 > 0``."""
        if self.l2 > 0:
            return np.zeros(0, dtype=np.intp)
        finite = ~self.excluded
        return np.flatnonzero(finite & (self.l1 <= FREE_RTOL * norms * dual_norm))

    def dual_scaling(self, correlations, equalities=()):
        """The largest ``t <= 1`` with ``t |c_j| <= l1_j`` for the features whose dual
        constraint is an inequality (1 when ``l2 > 0``: the conjugate is finite)."""
        if self.l2 > 0:
            return 1.0
        size = np.abs(correlations)
        over = size > self.l1  # never for an excluded feature (l1 = +inf)
        over[np.asarray(equalities, dtype=np.intp)] = False
        return float(np.min(self.l1[over] / size[over], initial=1.0))

    def kkt_violation(self, correlations, coef, norms, dual_norm):
        """Largest scale-free violation of ``c_j - l2 w_j in l1_j d|w_j|`` over the
        features kept, each divided by ``||X_j|| ||v|| + l2 |w_j|``: 0 at an optimum.

        One compiled pass or two, with no feature-sized temporaries (a text corpus has
        10^5 features): :func:`l2_kkt_violation` for the 2-norm alone (``|c_j - l2
        w_j|`` everywhere), else :func:`elastic_net_kkt_violation`.
        """
        correlations = np.asarray(correlations, dtype=np.float64)
        coef, norms = np.asarray(coef, dtype=np.float64), np.asarray(norms, dtype=np.float64)
        if self.l2_only:
            return l2_kkt_violation(correlations, coef, norms, float(dual_norm), self.l2, self.l2)
        l1 = np.ascontiguousarray(self.l1, dtype=np.float64)
        return elastic_net_kkt_violation(correlations, coef, norms, float(dual_norm), l1,
                                         float(self.l2))  # fmt: skip


@njit(cache=True)
def l2_kkt_violation(correlations, coef, norms, dual_norm, l2, shift):
    """``max_j |c_j - shift w_j| / (||X_j|| ||v|| + l2 |w_j|)`` (0 where that scale is 0),
    in one pass without temporaries: the 2-norm penalty's KKT violation (``shift = l2``;
    ridge regression's certificate passes its gradient, ``shift = 0``). NaN if any term
    is NaN."""
    worst = 0.0
    for j in range(coef.size):
        scale = norms[j] * dual_norm + l2 * abs(coef[j])
        if scale > 0.0:
            excess = abs(correlations[j] - shift * coef[j])
            if excess > worst * scale:  # a division only where the maximum may change
                worst = excess / scale
            elif excess != excess:
                return excess
        elif scale != scale:
            return scale
    return worst
