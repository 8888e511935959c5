"""The losses of the models, each defined once: value, gradient, dual map, conjugate, null model.

Every model of the package sums a loss over the samples, each sample's term
multiplied by its weight ``s_i >= 0``, of the fitted values ``f = X w + b``:

- ``SQUARES``: ``sum_i s_i (y_i - f_i)^2`` (the lasso, 004 eq. 3; ridge regression and
  RLSC, 000 eq. 1);
- ``HINGE``: ``sum_i s_i [1 - y_i f_i]_+`` (the SVM dual, 001 eq. 2; the 1-norm SVM,
  004 eq. 6), labels in {-1, +1};
- ``SQUARED_HINGE``: ``sum_i s_i [1 - y_i f_i]_+^2`` (SVM2, 004 eq. 7; the squared-hinge
  2-norm SVM);
- ``LOGISTIC``: ``sum_i s_i log(1 + exp(-y_i f_i))`` (L1/elastic-net logistic regression,
  scikit-learn's ``LogisticRegression`` and glmnet's binomial family), labels in {-1, +1}.

Each loss gives its value, its gradient in f, the *dual map* (the dual point the
KKT conditions attach to a primal point: ``u = 2 s (y - f)`` for the squares, the
multipliers ``a_i = 2 s_i [1 - y_i f_i]_+`` of the margins for the squared hinge,
``a_i in [0, s_i]`` for the hinge), the value its conjugate contributes to the dual
objective along the ray ``t v`` of a dual point v (at ``t = 1``:
``u'y - sum_i u_i^2 / (4 s_i)``, ``1'a``,
``1'a - sum_i a_i^2 / (4 s_i)``, ``sum_i s_i H(a_i / s_i)`` with H the binary entropy
for the logistic loss, whose multipliers ``a_i = s_i sigma(-y_i f_i)`` lie in
``[0, s_i]``), the box of the dual point, and the *null model*:
the best constant ``f = b`` and its loss, the scale the certificates measure gaps
against. The certificates (:mod:`solvers.certificates`), the estimators, the
working-set solvers, Newton's method and the paths use these; the compiled
coordinate-descent kernels (:mod:`solvers._dual_cd`,
:mod:`solvers._coordinate_descent`) write the same formulas inline in numba.
"""

import numpy as np
from scipy.special import entr

__all__ = [
    "HINGE",
    "LOGISTIC",
    "LOSSES",
    "SQUARED_HINGE",
    "SQUARES",
    "Loss",
    "margin_slack",
    "weighted_squares",
]


def margin_slack(y, fitted):
    """``[1 - y_i f_i]_+``, the margin violation of every sample."""
    return np.maximum(0.0, 1.0 - y * fitted)


def _weights(s, n):
    return np.ones(n) if s is None else s


def _weighted_mean(v, s):
    """``sum_i s_i v_i / sum_i s_i``: ``np.average(v, weights=s)``'s own formula, without
    its checks of the arguments (3.5 us a call)."""
    total = s.sum()
    if total == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return np.multiply(v, s).sum() / total


def weighted_squares(s):
    """The function ``v -> sum_i v_i^2 / s_i`` over the samples with ``s_i > 0`` (v is 0
    where s is): the quadratic term of the squared losses' conjugates. Those samples are
    picked once for every v (1.1 us of each of a ray's evaluations, 4 us of a 66 us
    certificate)."""
    positive = s > 0
    kept = s[positive]

    def squares(v):
        v = v[positive]
        return float(v @ (v / kept))

    return squares


class Loss:
    """One loss: see the module docstring. ``y`` are targets or labels in {-1, +1},
    ``fitted`` the fitted values, ``s`` the sample weights (None: all 1)."""

    name = None
    #: Whether the labels are -1/+1 (a classification loss).
    labels = True
    #: Whether the conjugate's value along a ray ``t a`` is a quadratic in t.
    quadratic_conjugate = True

    def value(self, y, fitted, s=None):
        """``sum_i s_i loss(y_i, f_i)``."""
        terms = self._terms(y, fitted)
        return float(_weights(s, y.size) @ terms)

    def null(self, y, s=None, *, intercept=True):
        """The loss of the best constant model (``f = 0`` without intercept)."""
        if not intercept:
            return self.value(y, np.zeros_like(y), s)
        return self.value(y, np.full_like(y, self.null_intercept(y, s)), s)

    def __repr__(self):
        return self.name.upper()


class _Squares(Loss):
    name = "squares"
    labels = False

    def _terms(self, y, fitted):
        residual = y - fitted
        return residual * residual

    def gradient(self, y, fitted, s=None):
        """``-2 s_i (y_i - f_i)``."""
        return -2.0 * _weights(s, y.size) * (y - fitted)

    def dual_point(self, y, fitted, s=None):
        """``u = 2 s (r - mean_s(r))`` of the residual r: the KKT map, centred so that
        ``1'u = 0`` (the constraint of the free intercept)."""
        s = _weights(s, y.size)
        residual = y - fitted
        return 2.0 * s * (residual - _weighted_mean(residual, s))

    def conjugate_along(self, u, y, s=None, *, linear):
        """``t -> t u'y - sum_i t^2 u_i^2 / (4 s_i)``; ``linear``: ``u'y``, which the
        caller computes without cancellation (as ``u'r + u'f`` of the residual r)."""
        squares = weighted_squares(_weights(s, y.size))
        return lambda t: float(t * linear - squares(t * u) / 4.0)

    def null_intercept(self, y, s=None):
        """The s-weighted mean of y."""
        return float(_weighted_mean(y, _weights(s, y.size)))


class _Hinge(Loss):
    name = "hinge"

    def _terms(self, y, fitted):
        return margin_slack(y, fitted)

    def gradient(self, y, fitted, s=None):
        """``-s_i y_i`` inside the margin, 0 outside (a subgradient on it)."""
        return -_weights(s, y.size) * y * (y * fitted < 1.0)

    def dual_point(self, y, fitted, s=None):
        """``a_i = s_i`` inside the margin, 0 outside; on the margin the multipliers are
        not determined by the primal point (the certificate solves for them)."""
        return _weights(s, y.size) * (y * fitted < 1.0)

    def box(self, s):
        """The upper end of each multiplier: ``s_i``."""
        return s

    def conjugate_along(self, a, y, s=None):
        """``t -> 1'(t a)`` (the dual of 004 eq. 6 and 001 eq. 2 without the quadratic
        term)."""
        return lambda t: float((t * a).sum())

    def null(self, y, s=None, *, intercept=True):
        """``2 min(S+, S-)`` at ``b = +-1`` (``S+-`` the classes' total weights)."""
        s = _weights(s, y.size)
        if not intercept:
            return float(s.sum())
        return 2.0 * min(float(s[y > 0].sum()), float(s[y < 0].sum()))


class _SquaredHinge(Loss):
    name = "squared_hinge"

    def _terms(self, y, fitted):
        slack = margin_slack(y, fitted)
        return slack * slack

    def gradient(self, y, fitted, s=None):
        """``-2 s_i y_i [1 - y_i f_i]_+``."""
        return -2.0 * _weights(s, y.size) * y * margin_slack(y, fitted)

    def dual_point(self, y, fitted, s=None):
        """``a_i = 2 s_i [1 - y_i f_i]_+`` (004 eq. 7's KKT map)."""
        return 2.0 * _weights(s, y.size) * margin_slack(y, fitted)

    def box(self, s):
        """The multipliers are only bounded below (0 where ``s_i = 0``)."""
        return np.where(s > 0, np.inf, 0.0)

    def conjugate_along(self, a, y, s=None):
        """``t -> 1'(t a) - sum_i (t a_i)^2 / (4 s_i)``."""
        squares = weighted_squares(_weights(s, y.size))

        def value(t):
            scaled = t * a
            return float(scaled.sum() - squares(scaled) / 4.0)

        return value

    def null_intercept(self, y, s=None):
        """``(S+ - S-) / (S+ + S-)``, the s-weighted mean of the labels."""
        return float(_weighted_mean(y, _weights(s, y.size)))

    def null(self, y, s=None, *, intercept=True):
        """``4 S+ S- / (S+ + S-)`` at the best ``b`` (``S+-`` the classes' total weights)."""
        s = _weights(s, y.size)
        if not intercept:
            return float(s.sum())
        positive, negative = float(s[y > 0].sum()), float(s[y < 0].sum())
        total = positive + negative
        return 4.0 * positive * negative / total if total > 0 else 0.0


def _entropy(p):
    """The binary entropy ``-p log p - (1 - p) log(1 - p)`` (0 at p = 0 and p = 1), of p
    clipped into [0, 1]: SciPy's ``entr`` twice (one ufunc each, where the masked NumPy
    expression took five passes)."""
    p = np.clip(p, 0.0, 1.0)
    return entr(p) + entr(1.0 - p)


class _Logistic(Loss):
    name = "logistic"
    quadratic_conjugate = False

    def _terms(self, y, fitted):
        return np.logaddexp(0.0, -y * fitted)

    def gradient(self, y, fitted, s=None):
        """``-s_i y_i sigma(-y_i f_i)``, sigma the logistic function."""
        return -_weights(s, y.size) * y * _sigmoid(-y * fitted)

    def dual_point(self, y, fitted, s=None):
        """``a_i = s_i sigma(-y_i f_i)``, in ``(0, s_i)``: the KKT map."""
        return _weights(s, y.size) * _sigmoid(-y * fitted)

    def box(self, s):
        """The upper end of each multiplier: ``s_i``."""
        return s

    def conjugate_along(self, a, y, s=None):
        """``t -> sum_i s_i H(t a_i / s_i)``, H the binary entropy (natural logarithm);
        ``t a`` must lie in ``[0, s]`` (the conjugate's domain)."""
        s = _weights(s, y.size)
        positive = s > 0
        kept = s[positive]
        return lambda t: float(kept @ _entropy((t * a)[positive] / kept))

    def null_intercept(self, y, s=None):
        """``log(S+ / S-)``, the log-odds of the classes' total weights (infinite when one
        class has no weight)."""
        s = _weights(s, y.size)
        positive, negative = float(s[y > 0].sum()), float(s[y < 0].sum())
        with np.errstate(divide="ignore"):
            return float(np.log(positive) - np.log(negative))

    def null(self, y, s=None, *, intercept=True):
        """``(S+ + S-) H(S+ / (S+ + S-))`` at the best ``b``; ``log 2 sum_i s_i`` at f = 0."""
        s = _weights(s, y.size)
        if not intercept:
            return float(np.log(2.0) * s.sum())
        positive, negative = float(s[y > 0].sum()), float(s[y < 0].sum())
        total = positive + negative
        return float(total * _entropy(positive / total)) if total > 0 else 0.0


def _sigmoid(z):
    """``1 / (1 + exp(-z))``, without overflow."""
    return np.exp(-np.logaddexp(0.0, -z))


SQUARES = _Squares()
HINGE = _Hinge()
SQUARED_HINGE = _SquaredHinge()
LOGISTIC = _Logistic()
#: The losses by name.
LOSSES = {loss.name: loss for loss in (SQUARES, HINGE, SQUARED_HINGE, LOGISTIC)}
