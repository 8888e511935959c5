r"""Optimality certificates: the duality gap of a given solution, computed from the data alone.

Each function takes the data, a candidate solution ``(coef, intercept)`` and the
hyperparameters of one model of :mod:`solvers.formulations`, builds a *feasible* point
of that model's dual from the candidate (and from a dual point, when one is given),
and returns a :class:`Certificate`: the primal objective, the dual objective, their
difference (the duality gap, an upper bound on how far the primal objective is above
the optimum) and a scale-free measure of the KKT violation. No backend and no CVXPY
are involved: the estimators call these after every solve, and users can call them
in their own tests.

Objectives are the papers' (losses summed over samples, intercepts free, penalty
weights ``W_j >= 0`` or ``+inf``; see :mod:`solvers._penalty`). Every function takes
``sample_weight`` (``s_i >= 0``, default 1), which multiplies sample i's loss term; the
duals below are written for s = 1, and the weighted ones follow by the same algebra
(each function's docstring states its weighted dual):

- ``svm`` (001 eq. 2), primal ``1/2 ||w||^2 + C sum_i [1 - y_i f_i]_+``; dual
  ``1'a - 1/2 ||X'Ya||^2`` on ``y'a = 0, 0 <= a <= C``. With the squared hinge
  ``C sum_i [1 - y_i f_i]_+^2``, the dual loses the bound ``a <= C`` and gains
  ``- ||a||^2 / (4C)``.
- ``l1_svm`` (004 eq. 6), primal ``sum_i [1 - y_i f_i]_+ + lam sum_j W_j |w_j|``;
  dual ``1'a`` on ``|X_j'Ya| <= lam W_j, y'a = 0, 0 <= a <= 1``.
- ``svm2`` (004 eq. 7), primal ``sum_i [1 - y_i f_i]_+^2 + lam sum_j W_j |w_j|``;
  dual ``1'a - ||a||^2 / 4`` on ``|X_j'Ya| <= lam W_j, y'a = 0, a >= 0``.
- ``lasso`` (004 eq. 3), primal ``||y - X b - b0||^2 + lam sum_j W_j |b_j|``; dual
  ``u'y - ||u||^2 / 4`` on ``|X_j'u| <= lam W_j, 1'u = 0``.
- ``ridge`` (002 sec. 3.4; RLSC is 000 eq. 1), primal ``||y - X b||^2 + lam ||b||^2``;
  dual ``2u'y - ||u||^2 - ||X'u||^2 / lam``, unconstrained.

with ``f = X w + b``. The maps from primal to dual are the KKT conditions:
``a_i = 2C [1 - y_i f_i]_+`` (squared hinge), ``a_i = 2 [1 - y_i f_i]_+`` (SVM2),
``u = 2 (y - X b - b0)`` (lasso), ``u = y - X b`` (ridge); for the hinge the
multipliers of the samples on the margin are not determined by the primal point and
are recovered from the given dual point or a small problem on those samples. The
dual point is then made feasible (balanced so that ``y'a = 0``, scaled into the
constraints ``|X_j'Ya| <= lam W_j``), so the gap is always a valid bound.

A constraint ``X_j'Ya = 0`` of an unpenalised feature (``W_j = 0``) is met by
projection; what is left of it is reported as ``dual_infeasibility`` and must be
below the tolerance too. So is the constraint of a feature whose bound ``lam W_j``
is negligible beside ``||X_j|| ||a||`` (scaling into it would shrink the dual point
to nothing), before the scaling.
"""

import math
from dataclasses import dataclass, replace
from itertools import chain

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog, lsq_linear

from sparsify._validation import check_real
from sparsify.utils import column_norms

from ._columns import large_columns
from ._losses import HINGE, LOSSES, SQUARED_HINGE, SQUARES
from ._penalty import (
    Penalty,
    check_penalty_weights,
    l1_dual_scaling,
    l1_kkt_violation,
    l1_value,
    l2_kkt_violation,
)
from ._products import transpose_times

__all__ = [
    "GAP_TOLERANCE",
    "Certificate",
    "certificate",
    "hinge_null_objective",
    "squares_null_objective",
    "gap_scale",
    "ZERO_SCALE",
    "svm_certificate",
    "l1_svm_certificate",
    "svm2_certificate",
    "lasso_certificate",
    "ridge_certificate",
]

#: Default tolerance on the relative duality gap ``gap / max(|primal|, |dual|)``: what
#: the fallback chain and the exact paths accept as optimal.
GAP_TOLERANCE = 1e-6

# Samples whose margin is within this (relative) distance of 1 are on the margin.
_MARGIN_TOLERANCE = 1e-7
# Wider bands tried in turn when the multipliers on the margin at _MARGIN_TOLERANCE do not
# certify a hinge SVM's answer (a first-order backend's margins are off by more).
_MARGIN_BANDS = (_MARGIN_TOLERANCE, 1e-5, 1e-3)
# HiGHS tolerances for the small LP over the samples on the margin.
_EXACT_LP = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
# Units in the last place a float64 solver's coefficient may be off by (ridge resolution).
_ROUNDING_ULPS = 4
# Semismooth Newton steps of the box-constrained projection onto the equalities.
_PROJECTION_ROUNDS = 50
# The equalities of a feasible dual point hold to this (relative, unit columns): rounding.
_FEASIBLE_RTOL = 1e-10
# The smallest normal float64, a floor of divisors.
_TINY = np.finfo(float).tiny
# The L1 models' stationarity is restored (`_l1_stationarity`) for a candidate whose
# scale-free KKT violation is at most this (stationary but for a solver's last digits),
# on systems of at most _RESTORE_FLOPS free samples times equations squared (the
# least-squares solve's flops).
_RESTORE_KKT = 1e-8
_RESTORE_FLOPS = 1e8


@dataclass(frozen=True)
class Certificate:
    """How far a candidate solution is from optimal, measured by the duality gap.

    Returned by the ``*_certificate`` functions of this module (and set as ``certificate_``
    by every estimator); ``holds`` says whether the candidate is optimal to ``tolerance``.

    Parameters
    ----------
    model : str
        Which model was certified (``"svm"``, ``"l1_svm"``, ``"svm2"``, ``"lasso"``,
        ``"ridge"``).
    primal : float
        The primal objective at the candidate (``inf`` if it gives an excluded
        feature, weight ``+inf``, a nonzero coefficient).
    dual : float
        The dual objective at the feasible dual point built from the candidate.
    gap : float
        ``primal - dual``: the optimum lies between ``dual`` and ``primal`` (weak
        duality), so ``primal`` is at most ``gap`` above it.
    relative_gap : float
        ``max(gap, 0) / scale``: the gap relative to the optimum's size, or for an
        optimum of (nearly) 0, an unpenalised feature that separates the classes, to
        the rounding level of the problem's own size.
    kkt : float
        The largest violation of the stationarity conditions, each divided by the
        size its terms can have (for the L1 models ``|X_j'a - lam W_j s_j|`` over
        ``||X_j|| ||a||``): 0 at an exact optimum, insensitive to column scales.
    dual_infeasibility : float, default=0.0
        What is left of the equality constraints of unpenalised features after
        projection (relative); 0 when every weight is positive.
    tolerance : float, default=GAP_TOLERANCE
        The tolerance ``holds`` compares with.
    resolution : float, default=0.0
        The relative gap that rounding the candidate to float64 can cause by itself
        (0 unless estimated, see :func:`ridge_certificate`): a gap below it is as
        small as the answer's precision allows, and ``holds`` accepts it.
    scale : float, default=0.0
        What the gap is relative to (:func:`gap_scale`): ``max(|primal|, |dual|,
        ZERO_SCALE null)``, the optimum's own size but never below the rounding level
        of ``null``, the objective at zero coefficients with the best intercept (the
        loss of the constant model): ``C 2 min(S+, S-)`` for the 2-norm SVM,
        ``2 min(S+, S-)`` for the 1-norm SVM, ``4 S+ S- / (S+ + S-)`` for SVM2,
        ``sum_i s_i (y_i - ybar)^2`` for the lasso and ``sum_i s_i y_i^2`` for ridge
        regression (no intercept), ``S+-`` the total sample weights of the classes
        (:func:`hinge_null_objective`, :func:`squares_null_objective`). ``ZERO_SCALE
        = 64 eps / GAP_TOLERANCE`` (1.4e-8): an optimum of exactly 0 certifies with a
        gap of 64 ulps of ``null``.

    See Also
    --------
    svm_certificate : The certificate of the 2-norm SVM, 001 eq. (2).
    l1_svm_certificate : The certificate of the 1-norm SVM, 004 eq. (6).
    svm2_certificate : The certificate of SVM2, 004 eq. (7).
    lasso_certificate : The certificate of the weighted lasso, 004 eq. (3).
    ridge_certificate : The certificate of ridge regression and RLSC, 000 eq. (1).

    Examples
    --------
    The ridge solution ``(X'X + lam I)^-1 X'y`` certifies; a perturbed one does not,
    and its gap bounds how far its objective is above the optimum:

    >>> from solvers.certificates import ridge_certificate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)); y = rng.standard_normal(20)
    >>> coef = np.linalg.solve(X.T @ X + np.eye(3), X.T @ y)
    >>> certificate = ridge_certificate(X, y, coef, lam=1.0)
    >>> certificate.model, certificate.holds
    ('ridge', True)
    >>> worse = ridge_certificate(X, y, coef + 0.1, lam=1.0)
    >>> worse.holds, bool(worse.primal - worse.gap <= certificate.primal + 1e-12)
    (False, True)
    """

    model: str
    primal: float
    dual: float
    gap: float
    relative_gap: float
    kkt: float
    dual_infeasibility: float = 0.0
    tolerance: float = GAP_TOLERANCE
    resolution: float = 0.0
    scale: float = 0.0

    @property
    def holds(self):
        """True when the relative gap is within ``max(tolerance, resolution)`` and the
        dual infeasibility within ``tolerance``."""
        return bool(
            self.relative_gap <= max(self.tolerance, self.resolution)
            and self.dual_infeasibility <= self.tolerance
        )

    def __str__(self):
        verdict = "holds" if self.holds else "fails"
        text = (
            f"{self.model} certificate {verdict}: relative duality gap {self.relative_gap:.2e} "
            f"(primal {self.primal:.10g}, dual {self.dual:.10g}, tolerance {self.tolerance:.0e}), "
            f"KKT violation {self.kkt:.2e}"
        )
        if self.dual_infeasibility:
            text += f", dual infeasibility {self.dual_infeasibility:.2e}"
        if self.resolution > self.tolerance:
            text += f", float64 resolution {self.resolution:.2e}"
        return text


#: What an optimum of 0 is measured against: the null objective (the objective at zero
#: coefficients) times this, so that a gap at float64's rounding of the problem's own
#: size (64 ulps of ``null``) meets the tolerance (``GAP_TOLERANCE``) and nothing larger
#: does on that account: an unpenalised feature that separates the classes leaves a
#: primal of 1e-16 and a dual of 0.
ZERO_SCALE = 64 * np.finfo(float).eps / GAP_TOLERANCE


def gap_scale(primal, dual, null):
    """What a duality gap is relative to: ``max(|primal|, |dual|, ZERO_SCALE null)``.

    The optimum's own size, so that a certified gap is small beside the optimum (an
    answer 1e4 times the optimum of an SVM at C = 1e9 is not certified because the null
    objective, 2.8e10 there, dwarfs both), and never below the rounding level of the
    problem's null objective (:func:`hinge_null_objective`,
    :func:`squares_null_objective`), so that an optimum of exactly 0 certifies.

    Parameters
    ----------
    primal, dual : float
        The primal value at the candidate and the dual value at its dual point.
    null : float
        The objective at zero coefficients with the best intercept.

    Returns
    -------
    float
        ``Certificate.scale``; ``relative_gap = max(primal - dual, 0) / scale``.

    See Also
    --------
    Certificate : Its ``scale`` and ``relative_gap`` fields.

    Examples
    --------
    An optimum of 0.32 beside a constant model's loss of 2.8e10 (an SVM at C = 1e9):
    the gap is relative to 400, the rounding floor, not to 2.8e10.

    >>> from solvers.certificates import ZERO_SCALE, gap_scale
    >>> round(gap_scale(0.320771, 0.320769, 2.8e10))
    398
    >>> bool(gap_scale(1e-16, 0.0, 10.0) == 10.0 * ZERO_SCALE)
    True
    """
    return max(abs(primal), abs(dual), ZERO_SCALE * float(null), _TINY)


def _certificate(model, primal, dual, kkt, infeasibility, tolerance, resolution=0.0, *, null):
    """The Certificate of a primal and a dual value; ``null`` is the problem's scale.

    ``null``: the objective at zero coefficients with the best intercept
    (:func:`hinge_null_objective`, :func:`squares_null_objective`).
    """
    gap = primal - dual
    scale = gap_scale(primal, dual, null)
    relative = max(gap, 0.0) / scale if math.isfinite(gap) else np.inf
    return Certificate(
        model=model,
        primal=float(primal),
        dual=float(dual),
        gap=float(gap),
        relative_gap=float(relative),
        kkt=float(kkt),
        dual_infeasibility=float(infeasibility),
        tolerance=float(tolerance),
        resolution=float(resolution) / scale,
        scale=float(scale),
    )


def hinge_null_objective(y, sample_weight=None, *, squared=False):
    """The loss at zero coefficients with the best intercept: a hinge model's scale.

    With ``S+`` and ``S-`` the total sample weights of the classes, the hinge's
    ``min_b S+ [1 - b]_+ + S- [1 + b]_+`` is ``2 min(S+, S-)`` (at ``b = +-1``), the
    squared hinge's ``4 S+ S- / (S+ + S-)`` (at ``b = (S+ - S-) / (S+ + S-)``). The
    certificates of the 1-norm SVM (004 eq. 6) and SVM2 (eq. 7) measure their gap
    against it, the 2-norm SVM's (001 eq. 2) against C times it.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` (default 1).
    squared : bool, default=False
        The squared hinge instead of the hinge.

    Returns
    -------
    float
        The smallest loss of a constant model ``f = b``.

    See Also
    --------
    squares_null_objective : The same for the squared loss.
    Certificate : Its ``scale`` field.

    Examples
    --------
    Three positives and one negative: ``b = 1`` leaves one hinge of 2, and the
    squared hinge's best ``b = 1/2`` gives ``3/4 + 9/4 = 3``.

    >>> from solvers.certificates import hinge_null_objective
    >>> y = np.array([1.0, 1.0, 1.0, -1.0])
    >>> hinge_null_objective(y), hinge_null_objective(y, squared=True)
    (2.0, 3.0)
    """
    return (SQUARED_HINGE if squared else HINGE).null(y, sample_weight)


def squares_null_objective(y, sample_weight=None, *, intercept=True):
    """``sum_i s_i (y_i - ybar)^2``: the squared loss of the best constant model.

    The scale of the lasso's certificate (004 eq. 3; scikit-learn's Lasso measures
    its gap against the same ``||y - ybar||^2``), and without intercept
    (``ybar = 0``) of ridge regression's.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        The targets.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` (default 1); ``ybar`` is the s-weighted mean.
    intercept : bool, default=True
        Whether the model has an intercept (else ``ybar = 0``).

    Returns
    -------
    float
        The smallest loss of a constant model.

    See Also
    --------
    hinge_null_objective : The same for the hinge losses.
    Certificate : Its ``scale`` field.

    Examples
    --------
    >>> from solvers.certificates import squares_null_objective
    >>> y = np.array([1.0, 2.0, 3.0])
    >>> squares_null_objective(y), squares_null_objective(y, intercept=False)
    (2.0, 14.0)
    """
    return SQUARES.null(y, sample_weight, intercept=intercept)


# -- inputs -----------------------------------------------------------------------


def _prepare(X, y, coef, intercept, *, labels):
    if not sp.issparse(X):
        X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D of shape (n_samples, n_features); got shape {X.shape}.")
    n, d = X.shape
    y = np.asarray(y, dtype=np.float64).ravel()
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), one entry per row of X; got {y.shape}.")
    if labels and not (np.abs(y) == 1.0).all():
        raise ValueError("y must hold the labels -1 and +1 (map two classes to them first).")
    coef = np.asarray(coef, dtype=np.float64).ravel()
    _check_candidate(coef, intercept, d)
    return X, y, coef, float(intercept)


def _check_candidate(coef, intercept, n_features):
    """Raise a ValueError unless ``coef`` (a float array) has one entry per feature and
    ``coef`` and ``intercept`` are finite: the check of a candidate, a backend's too."""
    if coef.shape != (n_features,):
        raise ValueError(
            f"coef must have shape ({n_features},), one per feature of X; got {coef.shape}."
        )
    if not (np.isfinite(coef).all() and np.isfinite(intercept)):
        raise ValueError("coef and intercept must be finite.")


def _optional_sample_weights(sample_weight, n):
    """None, or ``sample_weight`` checked as :func:`_sample_weights` does."""
    return None if sample_weight is None else _sample_weights(sample_weight, n)


def _sample_weights(sample_weight, n):
    """``sample_weight`` as n finite values >= 0, not all 0 (all ones when None)."""
    if sample_weight is None:
        return np.ones(n)
    check_real(sample_weight, "sample_weight")
    s = np.asarray(sample_weight, dtype=np.float64)
    if s.shape != (n,):
        raise ValueError(
            f"sample_weight must have shape ({n},), one per row of X; got shape {s.shape}."
        )
    if not np.all(np.isfinite(s)) or np.any(s < 0):
        raise ValueError("sample_weight must hold finite numbers >= 0 (no NaN, inf or < 0).")
    if not np.any(s > 0):
        raise ValueError("sample_weight must not be all 0: at least one sample must count.")
    return s


def _correlations(X, v):
    """``X'v`` as a flat array (:func:`solvers._products.transpose_times`)."""
    return transpose_times(X, v)


def _fitted(X, coef, intercept):
    return np.asarray(X @ coef).ravel() + intercept


def _balance(a, y):
    """Scale down the heavier class so that ``y'a = 0`` (keeps ``0 <= a <= upper``), in
    place; returns ``a``."""
    up, down = y > 0, y < 0
    positive, negative = a[up].sum(), a[down].sum()
    if positive > negative:
        np.multiply(a, negative / positive, out=a, where=up)
    elif negative > positive:
        np.multiply(a, positive / negative, out=a, where=down)
    return a


def _nearly_free(X, lam, weights, dual_norm, norms=None):
    """Features whose bound ``lam W_j`` is 0 or negligible beside ``||X_j|| ||a||``
    (:meth:`solvers._penalty.Penalty.equalities`); ``norms``: the column norms of X,
    when the caller has them."""
    norms = column_norms(X) if norms is None else norms
    return Penalty.elastic_net(lam, weights).equalities(norms, dual_norm)


def _given_norms(X, norms):
    """The column norms of X: ``norms`` when the caller has them (shape checked), else computed."""
    if norms is None:
        return column_norms(X)
    norms = np.asarray(norms, dtype=np.float64)
    if norms.shape != (X.shape[1],):
        raise ValueError(
            f"norms must have shape ({X.shape[1]},), one per feature of X; got {norms.shape}."
        )
    return norms


# -- the generic certificate --------------------------------------------------------


def certificate(
    X,
    y,
    coef,
    intercept=0.0,
    *,
    loss,
    lam,
    weights=None,
    l1_ratio=1.0,
    sample_weight=None,
    fit_intercept=True,
    dual_point=None,
    tolerance=GAP_TOLERANCE,
):
    r"""Certify ``(coef, intercept)`` for any loss with the weighted elastic-net penalty.

    The primal is ``P(w, b) = sum_i s_i loss(y_i, x_i'w + b) + lam (l1_ratio sum_j W_j
    |w_j| + (1 - l1_ratio)/2 ||w||^2)``, the Fenchel dual ``D(v) = -sum_i s_i
    loss_i*(-v_i / s_i) - g*(X'v)`` on ``1'v = 0`` (the free intercept), with ``g*`` the
    penalty's conjugate (:class:`solvers._penalty.Penalty`). The dual point is built so
    that it is feasible *before* its value is taken, which makes the certificate sound
    by construction: weak duality ``D(v) <= min P <= P(w, b)`` holds for every
    candidate, up to float64 rounding, and a gap of 0 can only mean an optimum.

    1. ``v`` is the loss's dual map at the candidate (``2 s (y - f)`` for the squares,
       ``y a`` with the multipliers ``a`` of the classification losses; or
       ``dual_point``);
    2. it is moved, as little as possible, so that the equalities hold: ``1'v = 0``
       for the intercept and ``X_j'v = 0`` for the features with no L1 bound to scale
       into (``W_j = 0`` without a 2-norm term) while it stays in the loss
       conjugate's domain (``0 <= a_i <= s_i`` for the hinge and the logistic loss):
       a projection in the metric of ``S^-1`` for the squares, a box-constrained
       projection (semismooth Newton on the equalities' multipliers) for the
       classification losses;
    3. it is scaled into ``|X_j'v| <= lam l1_ratio W_j`` (the L1 models), and the best
       multiple ``t v``, ``0 <= t <= t_max``, is kept (the dual is concave along the ray).

    If step 2 cannot meet the equalities to rounding, the dual point is 0 (a dual
    value of 0, always valid: every loss is >= 0), so only an optimum of 0 certifies.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.
    y : ndarray of shape (n_samples,)
        The targets, or the labels -1 and +1 for a classification loss.
    coef : ndarray of shape (n_features,)
        The candidate's w.
    intercept : float, default=0.0
        The candidate's b (0 when ``fit_intercept`` is False).
    loss : str or Loss
        ``"squares"``, ``"hinge"``, ``"squared_hinge"`` or ``"logistic"``
        (:mod:`solvers._losses`).
    lam : float > 0
        The penalty's strength.
    weights : ndarray of shape (n_features,), optional
        Penalty weights of the L1 term, each >= 0 or +inf (default 1).
    l1_ratio : float in [0, 1], default=1.0
        The L1 share of the penalty (1: weighted L1; 0: the squared 2-norm only).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's loss (default 1).
    fit_intercept : bool, default=True
        Whether the model has a free intercept (the dual constraint ``1'v = 0``).
    dual_point : ndarray of shape (n_samples,), optional
        A dual point to start from instead of the dual map (``a`` for the
        classification losses, ``v`` for the squares), e.g. a backend's multipliers.
    tolerance : float, default=GAP_TOLERANCE
        Tolerance of ``Certificate.holds`` on the relative gap.

    Returns
    -------
    Certificate
        ``model`` is ``"<loss>"`` followed by the penalty, e.g. ``"logistic_l1"``.

    Raises
    ------
    ValueError
        If the shapes disagree, coef or intercept is not finite, lam not a finite number
        > 0, l1_ratio not in [0, 1], the labels not -1/+1 for a classification loss,
        weights not numbers >= 0 or +inf, or sample_weight not finite numbers >= 0, not
        all 0.

    See Also
    --------
    svm2_certificate, l1_svm_certificate, lasso_certificate, svm_certificate : This
        certificate on the papers' models, with their own dual points.

    Examples
    --------
    L2 logistic regression: scikit-learn's ``LogisticRegression(C=1/lam)`` (its default
    2-norm penalty ``1/2 ||w||^2``, so ``l1_ratio=0``) at a tight tolerance certifies; a
    point 1% off does not.

    >>> from sklearn.linear_model import LogisticRegression
    >>> from solvers.certificates import certificate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((60, 5)); y = np.sign(X[:, 0] + rng.standard_normal(60))
    >>> fit = LogisticRegression(C=0.5, tol=1e-12, max_iter=10000).fit(X, y)
    >>> good = certificate(X, y, fit.coef_[0], fit.intercept_[0], loss="logistic", lam=2.0,
    ...                    l1_ratio=0.0, tolerance=1e-8)
    >>> bad = certificate(X, y, 1.01 * fit.coef_[0], fit.intercept_[0], loss="logistic",
    ...                   lam=2.0, l1_ratio=0.0, tolerance=1e-8)
    >>> good.holds, bad.holds, bool(bad.dual <= good.primal + 1e-9)
    (True, False, True)
    """
    loss = LOSSES[loss] if isinstance(loss, str) else loss
    X, y, coef, intercept = _prepare(X, y, coef, intercept, labels=loss.labels)
    weights = check_penalty_weights(weights, X.shape[1])
    _check_lam(lam)
    if not 0.0 <= l1_ratio <= 1.0:
        raise ValueError(f"l1_ratio must be in [0, 1]; got l1_ratio={l1_ratio}.")
    s = _sample_weights(sample_weight, X.shape[0])
    if not fit_intercept:
        intercept = 0.0
    penalty = Penalty.elastic_net(lam, weights, l1_ratio)
    points = [] if dual_point is None else [np.asarray(dual_point, dtype=np.float64).ravel()]
    return _certify(
        _model_name(loss, l1_ratio), X, y, coef, intercept, loss, penalty, s, fit_intercept,
        tolerance, points,
    )  # fmt: skip


def _model_name(loss, l1_ratio):
    """``Certificate.model`` of the generic certificate: the loss, then the penalty."""
    kind = "l1" if l1_ratio == 1.0 else ("l2" if l1_ratio == 0.0 else "elastic_net")
    return f"{loss.name}_{kind}"


def _certify(
    model, X, y, coef, intercept, loss, penalty, s, fit_intercept, tolerance, points,
    *, factor=1.0, norms=None,
):  # fmt: skip
    """The generic certificate of ``factor (sum_i s_i loss_i + penalty(w))``.

    ``points``: dual points to try (arrays, or callables computing one; an iterable,
    read one point at a time), best first; the loss's dual map at the candidate is
    tried next, then, when the candidate's KKT violation there is at most
    :data:`_RESTORE_KKT`, that map with the L1 constraints restored
    (:func:`_l1_stationarity`). The first that certifies is kept, else the one of
    largest dual value.
    ``factor`` scales every value (the 2-norm SVM is C times the problem with
    ``l2 = 1/C``).
    """
    fitted = _fitted(X, coef, intercept)
    primal = loss.value(y, fitted, s) + penalty.value(coef)
    null = loss.null(y, s, intercept=fit_intercept)
    norms = column_norms(X) if norms is None else norms
    best, found, mapped = None, None, []

    def dual_map():
        mapped.append(loss.dual_point(y, fitted, s))
        return mapped[0]

    def restored():  # for a candidate stationary but for rounding (found: the map's)
        if found.kkt > _RESTORE_KKT:
            return None
        return _l1_stationarity(X, y, coef, fit_intercept, loss, penalty, s, mapped[0], norms)

    for point in chain(points, [dual_map, restored]):
        point = point() if callable(point) else point
        if point is None:
            continue
        dual, kkt, infeasibility = _dual_value(
            X, y, coef, intercept, fitted, loss, penalty, s, fit_intercept, point, norms
        )
        found = _certificate(
            model, factor * primal, factor * dual, kkt, infeasibility, tolerance,
            null=factor * null,
        )  # fmt: skip
        if best is None or found.dual > best.dual:
            best = found
        if best.holds:
            break
    return best


def _dual_value(X, y, coef, intercept, fitted, loss, penalty, s, fit_intercept, point, norms):
    """The dual value at ``point`` made feasible (steps 2-3 of :func:`certificate`);
    also the KKT violation at the feasible point (before its scaling) and the
    equalities' leftover."""
    direction = y if loss.labels else np.ones_like(y)
    equalities = penalty.equalities(norms, float(np.linalg.norm(point)))
    if equalities.size:
        columns = X[:, equalities]
        columns = columns.toarray() if sp.issparse(columns) else np.asarray(columns)
    else:  # no column slice of X (a copy of its structure) for none
        columns = np.zeros((X.shape[0], 0))
    if loss.labels:
        point, infeasibility = _feasible_multipliers(
            point, y, columns, loss.box(s), fit_intercept
        )
    else:
        point, infeasibility = _feasible_residuals(point, columns, s, fit_intercept)
    correlations = _correlations(X, direction * point)
    kkt = penalty.kkt_violation(correlations, coef, norms, float(np.linalg.norm(point)))
    t_max = penalty.dual_scaling(correlations, equalities)
    if loss.labels:
        along = loss.conjugate_along(point, y, s)
    else:  # u'y as u'r + u'f, u'f = (X'u)'w + b 1'u: no cancellation when f is close to y
        linear = point @ (y - fitted) + correlations @ coef + intercept * point.sum()
        along = loss.conjugate_along(point, y, s, linear=linear)
    conjugate = penalty.conjugate_along(correlations)

    def value(t):
        return along(t) - conjugate(t)

    quadratic = loss.quadratic_conjugate and penalty.quadratic_conjugate
    return _best_on_ray(value, t_max, quadratic), kkt, infeasibility


def _best_on_ray(value, t_max, quadratic):
    """``max_{0 <= t <= t_max} value(t)`` of a concave function of t (any t is a valid
    dual point, so an inexact maximiser only loosens the bound). ``quadratic``: value
    is ``L t - Q t^2``, whose maximiser ``L / (2Q)`` is read off two values.

    Otherwise the samples taken sandwich the maximum: between two samples the concave
    function lies below the chords of the neighbouring samples, extended (Kelley's
    cutting planes in one dimension, from both sides), and the search stops when that
    bound is within ``1e-11`` of the best value (relative to the largest value seen).
    The next sample is, in turn, the vertex of the parabola through the best sample and
    its neighbours (moved ``1e-6 t_max`` off the best one when closer: a pair that close
    closes the bound) and the middle of the larger side of that bracket; where the best
    sample is an end, where the bound peaks. The first samples sit at ``t_max``
    and just below it, where the maximum of a dual point near the optimum lies when its
    penalty constraints bind: there four evaluations close the bound.
    """
    if t_max <= 0:
        return value(0.0)
    if quadratic:
        end, half = value(t_max), value(0.5 * t_max)
        curvature = 2.0 * (2.0 * half - end) / t_max**2  # Q
        slope = (end + curvature * t_max**2) / t_max  # L
        best = t_max if curvature <= 0 else min(max(slope / (2.0 * curvature), 0.0), t_max)
        return max(value(best), end, value(0.0))
    rtol, evaluations, near = 1e-11, 40, 1e-6 * t_max
    ts = [0.0, t_max - 2.0 * near, t_max - near, t_max]
    fs = [value(t) for t in ts]
    while len(ts) < evaluations:
        best = max(fs)
        bound, peak = -np.inf, None
        for i in range(len(ts) - 1):
            lo, hi = ts[i], ts[i + 1]
            lines = []  # (slope, t, value): lines above the function on [lo, hi]
            if i > 0:
                lines.append(((fs[i] - fs[i - 1]) / (lo - ts[i - 1]), lo, fs[i]))
            if i + 2 < len(ts):
                lines.append(((fs[i + 2] - fs[i + 1]) / (ts[i + 2] - hi), hi, fs[i + 1]))
            candidates = [lo, hi]
            if len(lines) == 2 and lines[0][0] != lines[1][0]:
                (s0, t0, f0), (s1, t1, f1) = lines
                candidates.append(min(max((f1 - f0 + s0 * t0 - s1 * t1) / (s0 - s1), lo), hi))
            for t in candidates:
                top = min(f + slope * (t - at) for slope, at, f in lines)
                if top > bound:
                    bound, peak = top, (t, i)
        if bound - best <= rtol * max(max(abs(f) for f in fs), _TINY):
            break
        t, i = peak
        k = fs.index(best)
        if 0 < k < len(ts) - 1:
            (t0, t1, t2), (f0, f1, f2) = ts[k - 1 : k + 2], fs[k - 1 : k + 2]
            # Every other sample halves the larger side of the bracket (the parabola's
            # vertices alone may close in from one side only, as on a quartic).
            vertex = 0.5 * (t0 + t1) if t1 - t0 > t2 - t1 else 0.5 * (t1 + t2)
            numerator = (t1 - t0) ** 2 * (f1 - f2) - (t1 - t2) ** 2 * (f1 - f0)
            denominator = (t1 - t0) * (f1 - f2) - (t1 - t2) * (f1 - f0)
            if len(ts) % 2 == 0 and denominator != 0:
                vertex = t1 - 0.5 * numerator / denominator
                if abs(vertex - t1) < near:  # the side the vertex is on, else the other
                    side = 1.0 if vertex > t1 else -1.0
                    if abs(t1 + side * near - (t2 if side > 0 else t0)) < near:
                        side = -side
                    vertex = t1 + side * near
            if t0 < vertex < t2:
                t, i = vertex, (k - 1 if vertex < t1 else k)
        if not ts[i] < t < ts[i + 1]:
            t = 0.5 * (ts[i] + ts[i + 1])
        ts.insert(i + 1, t)
        fs.insert(i + 1, value(t))
    return max(fs)


def _unit_columns(M):
    norms = np.linalg.norm(M, axis=0)
    return M / np.where(norms > 0, norms, 1.0)


def _leftover(M, a):
    """Largest ``|M_k'a|`` over the unit columns of M, relative to ``||a||``."""
    if M.shape[1] == 0:
        return 0.0
    return float(np.max(np.abs(M.T @ a)) / max(np.linalg.norm(a), _TINY))


def _feasible_residuals(u, columns, s, fit_intercept):
    """``u`` projected onto ``{Z'u = 0}`` in the metric of ``S^-1`` (which keeps ``u_i =
    0`` where ``s_i = 0``), ``Z = [1, X_F]``; returns it and the equalities' leftover."""
    u = np.where(s > 0, u, 0.0)
    if not fit_intercept and columns.shape[1] == 0:
        return u, 0.0
    Z = _unit_columns(np.hstack(([np.ones((u.size, 1))] if fit_intercept else []) + [columns]))
    root = np.sqrt(s)
    scaled = np.divide(u, root, out=np.zeros_like(u), where=root > 0)
    u = u - s * (Z @ np.linalg.lstsq(root[:, None] * Z, scaled, rcond=None)[0])
    return _checked_feasible(u, Z)


def _feasible_multipliers(a, y, columns, upper, fit_intercept):
    """Multipliers in ``[0, upper]`` with ``y'a = 0`` (the intercept) and ``X_F'Ya = 0``
    (the equalities), nearest to ``a``; returns them and the equalities' leftover.

    With the intercept alone, the heavier class is scaled down (exact, and inside the
    box); with equalities, the box-constrained projection of :func:`_box_projection`,
    then the balance.
    """
    a = a.clip(0.0, upper)  # a new array (np.clip's wrapper cost 0.6 us more a call)
    if columns.shape[1] == 0:
        return (_balance(a, y) if fit_intercept else a), 0.0
    M = _unit_columns(np.hstack(([y[:, None]] if fit_intercept else []) + [y[:, None] * columns]))
    a = _box_projection(a, M, upper)
    if fit_intercept:
        a = _balance(a, y)
    return _checked_feasible(a, M)


def _checked_feasible(point, M):
    """``point`` and its leftover if the equalities hold to rounding; else the dual point
    0, feasible for every model (the only one when the equalities pin it there: as many
    unpenalised features as samples)."""
    leftover = _leftover(M, point)
    if leftover <= _FEASIBLE_RTOL:
        return point, leftover
    return np.zeros_like(point), 0.0


def _box_projection(a0, M, upper):
    """``argmin ||a - a0||`` on ``{M'a = 0, 0 <= a <= upper}``, M of few unit columns.

    The minimiser is ``a(mu) = clip(a0 - M mu, 0, upper)`` at the maximiser ``mu`` of the
    concave dual ``q(mu) = min_a 1/2 ||a - a0||^2 + mu'M'a``, whose gradient is
    ``M'a(mu)``: semismooth Newton steps (the generalised Hessian is ``-M_F'M_F`` over
    the multipliers strictly inside the box) with backtracking on q.
    """
    m = M.shape[1]
    mu = np.zeros(m)

    def at(mu):
        inner = a0 - M @ mu
        point = np.clip(inner, 0.0, upper)
        gap = point - a0
        return inner, point, 0.5 * (gap @ gap) + mu @ (M.T @ point)

    inner, a, q = at(mu)
    for _ in range(_PROJECTION_ROUNDS):
        gradient = M.T @ a
        if np.max(np.abs(gradient)) <= 0.1 * _FEASIBLE_RTOL * max(np.linalg.norm(a), 1e-300):
            break
        free = (inner > 0) & (inner < upper)
        hessian = M[free].T @ M[free]
        hessian[np.diag_indices(m)] += 1e-10 * (1.0 + np.trace(hessian) / m)
        step = np.linalg.solve(hessian, gradient)
        t = 1.0
        while True:
            trial = at(mu + t * step)
            if trial[2] >= q or t < 1e-12:
                break
            t *= 0.5
        mu = mu + t * step
        inner, a, q = trial
    return a


# -- the 2-norm SVM (001 eq. 2) ---------------------------------------------------


def svm_certificate(
    X,
    y,
    coef,
    intercept,
    C,
    *,
    loss="hinge",
    alpha=None,
    sample_weight=None,
    tolerance=GAP_TOLERANCE,
    norms=None,
):
    """Certify ``(coef, intercept)`` for the 2-norm SVM, hinge (001 eq. 2) or squared hinge.

    With sample weights s the primal is ``1/2 ||w||^2 + C sum_i s_i loss_i``; the hinge
    dual has the box ``0 <= a_i <= C s_i``, the squared hinge dual the term
    ``- sum_i a_i^2 / (4 C s_i)`` (``a_i = 2 C s_i [1 - y_i f_i]_+``; ``a_i = 0`` where
    ``s_i = 0``).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    coef : ndarray of shape (n_features,)
        The candidate's w.
    intercept : float
        The candidate's b.
    C : float > 0
        The weight of the loss, as in :func:`solvers.formulations.svm_primal`.
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The loss of each slack.
    alpha : ndarray of shape (n_samples,), optional
        A dual point (e.g. ``SVMDual.alpha_``); for the hinge it fixes the
        multipliers of the samples on the margin.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's loss (default 1).
    tolerance : float, default=GAP_TOLERANCE
        Tolerance of ``Certificate.holds`` on the relative gap.
    norms : ndarray of shape (n_features,), optional
        The column norms of X, when the caller has them
        (:func:`sparsify.utils.column_norms`): a pass over X fewer. They only scale
        the KKT violation; the gap does not use them.

    Returns
    -------
    Certificate
        Primal ``1/2 ||w||^2 + C sum_i s_i loss_i``; dual of 001 eq. (2) (with
        ``- sum_i a_i^2 / (4C s_i)`` for the squared hinge).

    Raises
    ------
    ValueError
        If X is not 2-D, y not labels -1 and +1 of shape (n_samples,), coef not of shape
        (n_features,), coef or intercept not finite, C not > 0, or sample_weight not
        n_samples finite numbers >= 0, not all 0.

    See Also
    --------
    solvers.formulations.svm_dual : The dual problem.
    solvers.formulations.svm_primal : The primal problem.
    solvers.L2SVM : Sets ``certificate_`` with this function.

    Examples
    --------
    Two classes on a line, 2 apart: the maximum-margin separator ``w = 1, b = -2``
    with the dual point ``a = (0, 1/2, 1/2, 0)`` has primal and dual value 1/2.

    >>> from solvers.certificates import svm_certificate
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> certificate = svm_certificate(X, y, [1.0], -2.0, C=1.0, alpha=[0, 0.5, 0.5, 0])
    >>> certificate.holds, round(certificate.primal, 6), round(certificate.dual, 6)
    (True, 0.5, 0.5)
    >>> svm_certificate(X, y, [0.8], -1.6, C=1.0).holds
    False
    """
    X, y, coef, intercept = _prepare(X, y, coef, intercept, labels=True)
    if not C > 0:
        raise ValueError(f"C must be > 0; got C={C}.")
    s = _sample_weights(sample_weight, X.shape[0])
    return _svm_certificate(X, y, coef, intercept, C, LOSSES[loss], alpha, s, tolerance, norms)


def _svm_certificate(X, y, coef, intercept, C, loss, alpha, s, tolerance, norms):
    """:func:`svm_certificate` of validated data and candidate (:func:`_prepare`,
    :func:`_check_candidate`), ``loss`` a Loss and ``s`` the sample weights (ones when
    unweighted), as an estimator's problem holds them
    (:meth:`solvers._problem.Problem.certificate`): their checks took 7 of its 58 us."""
    alpha = None if alpha is None else np.asarray(alpha, dtype=np.float64).ravel()
    norms = _given_norms(X, norms)
    upper = np.where(s > 0, np.inf, 0.0) if loss is SQUARED_HINGE else C * s
    # The problem divided by C: the loss plus 1/(2C) ||w||^2; its multipliers are a / C.
    penalty = Penalty.squared_norm(1.0 / C, X.shape[1])
    points = _svm_dual_points(X, y, coef, intercept, C, loss, alpha, s, upper)
    return _certify(
        "svm", X, y, coef, intercept, loss, penalty, s, True, tolerance, points, factor=C,
        norms=norms,
    )  # fmt: skip


def _svm_dual_points(X, y, coef, intercept, C, loss, alpha, s, upper):
    """The 2-norm SVM's dual points (of the problem divided by C), best first.

    Each start (:func:`_svm_starts`) clipped into the box ``[0, upper]`` and balanced,
    then the same with the stationarity of the dominant columns restored
    (:func:`_dominant_stationarity`). A generator: :func:`_certify` stops at the first
    point that certifies, so a start after it (a bounded least squares) is never solved.
    """
    for start in _svm_starts(X, y, coef, intercept, C, loss, alpha, s, upper):
        a = _balance(start.clip(0.0, upper), y)
        yield a / C
        corrected = _dominant_stationarity(X, y, coef, a, upper)
        if corrected is not None:
            yield corrected / C


def _svm_starts(X, y, coef, intercept, C, loss, alpha, s, upper):
    """The given dual point ``alpha``, then for the hinge the multipliers on the margin in
    each band of :data:`_MARGIN_BANDS` (:func:`_hinge_multipliers`), for the squared
    hinge its KKT map ``2 C s_i [1 - y_i f_i]_+``; computed one at a time."""
    if alpha is not None:
        yield alpha
    if loss is HINGE:
        for band in _MARGIN_BANDS:
            yield _hinge_multipliers(X, y, coef, intercept, upper, band)
    else:
        yield C * loss.dual_point(y, _fitted(X, coef, intercept), s)


def _dominant_stationarity(X, y, coef, a, upper):
    """``a`` moved on its free multipliers so that ``(X'Ya)_j = w_j`` holds for the
    columns that dwarf the others (`solvers._columns.large_columns`),
    with ``y'a = 0``; None when there are no such columns or free multipliers.

    With a column at 1e12, ``(X'Ya)_j`` sums terms 1e12 times the others: a dual
    point accurate to a backend's 1e-8 misses ``w_j`` by far more than the gap
    tolerates. The least change (minimum norm, rows equilibrated) that restores those
    few equations leaves the others as they were, to rounding.
    """
    free = np.flatnonzero((a > 0) & (a < upper))
    if free.size == 0:
        return None
    dominant = large_columns(column_norms(X))[0]
    if dominant.size == 0:
        return None
    columns = X[:, dominant]
    target = coef[dominant] - _correlations(columns, y * a)
    step = _least_change(columns, y, free, target, -(y @ a))
    corrected = a.copy()
    corrected[free] = np.clip(a[free] + step, 0.0, upper[free])
    return _balance(corrected, y)


def _least_change(columns, sign, free, target, balance=None, room=None):
    """The least change d of a dual point on its ``free`` entries S with
    ``columns_S'(sign_S d) = target`` and, when ``balance`` is given, ``sign_S'd =
    balance`` (the intercept's ``1'v = 0``): of minimum norm, or of minimum
    ``sum_i d_i^2 / room_i`` (``room`` on S, > 0: the entries near a bound of their box
    move the least). The equations are few (columns of X whose stationarity is
    restored), each divided by the norm of its row: a column at 1e12 beside unit columns
    would otherwise make the system's rows nearly parallel, and the least-squares
    solution drop what the others ask."""
    rows = columns[free]
    rows = rows.toarray() if sp.issparse(rows) else np.asarray(rows)
    system = (sign[free, None] * rows).T
    if balance is not None:
        system, target = np.vstack((system, sign[free])), np.append(target, balance)
    root = 1.0 if room is None else np.sqrt(room)
    system = system * root
    row_norms = np.linalg.norm(system, axis=1)
    row_norms[row_norms == 0] = 1.0
    step = np.linalg.lstsq(system / row_norms[:, None], target / row_norms, rcond=None)[0]
    return root * step


def _l1_stationarity(X, y, coef, fit_intercept, loss, penalty, s, point, norms):
    """The dual point ``point`` of an L1 model moved on its free entries so that the dual
    constraints hold with equality on the support, ``X_j'v = l1_j sign(w_j)``, at their
    bound where the point exceeds it, and at 0 for the nearly free features
    (``Penalty.equalities``, which :func:`_dual_value` projects); None when the penalty
    has a 2-norm term, or no such constraint or free entry, or the system exceeds
    :data:`_RESTORE_FLOPS`.

    The feasible point's value is taken along the ray ``t v``, ``t <= t_max``, and
    ``t_max = min_j l1_j / |X_j'v|`` is the relative excess of the worst constraint: at a
    small lam (1e-8 lam_max) a candidate whose scale-free KKT violation is 1e-10 still
    exceeds ``l1_j`` by 0.3%, and ``t = 0.997`` loses ``(1 - t)^2`` of the loss, a
    relative gap of 1e-5 beside an objective right to ten digits. The least change
    (:func:`_least_change`) that meets those equations costs the dual value only
    ``w'(X'dv)``, of the order of the violation itself. Free entries: ``0 < a_i <
    box_i`` for the classification losses (``v = y a``), each moved in proportion to
    its room ``a_i (box_i - a_i) / box_i`` (``a_i`` for an unbounded box; the inverse
    curvature of the logistic loss's conjugate, whose multipliers of well-classified
    samples are 1e-17), and ``s_i > 0`` for the squares, in proportion to ``s_i`` (the
    metric of :func:`_feasible_residuals`).
    """
    if penalty.l2 != 0:
        return None
    direction = y if loss.labels else np.ones_like(y)
    correlations = _correlations(X, direction * point)
    bound = penalty.l1
    penalised = (bound > 0) & ~penalty.excluded
    equal = np.zeros(bound.size, dtype=bool)
    equal[penalty.equalities(norms, float(np.linalg.norm(point)))] = True
    support = penalised & (coef != 0)
    rows = np.flatnonzero(equal | support | (penalised & (np.abs(correlations) > bound)))
    if loss.labels:
        upper = loss.box(s)
        free = np.flatnonzero((point > 0) & (point < upper))
        a, box = point[free], upper[free]
        room = np.where(np.isinf(box), a, a * (box - a) / np.where(np.isinf(box), 1.0, box))
    else:
        free = np.flatnonzero(s > 0)
        room = s[free]
    if rows.size == 0 or free.size == 0 or free.size * rows.size**2 > _RESTORE_FLOPS:
        return None
    signs = np.where(support[rows], np.sign(coef[rows]), np.sign(correlations[rows]))
    target = np.where(equal[rows], 0.0, bound[rows] * signs) - correlations[rows]
    balance = -(direction @ point) if fit_intercept else None
    step = _least_change(X[:, rows], direction, free, target, balance, room)
    moved = point.copy()
    moved[free] += step
    return moved.clip(0.0, upper) if loss.labels else moved


def _hinge_multipliers(X, y, coef, intercept, upper, band=_MARGIN_TOLERANCE):
    """Dual point of a hinge loss from the primal: ``upper`` inside the margin, 0 outside.

    A sample is on the margin when its margin is within ``band`` (relative) of 1.
    ``upper`` is the box of each sample (``C s_i``). The multipliers of the samples on
    the margin solve ``X_E'Y_E a_E = w - X_L'Y_L upper_L`` and ``y_E'a_E = -y_L'upper_L``
    in the least-squares sense (the 2-norm SVM's stationarity) within the box.
    Each equation is divided by the norm of its row first: a column at 1e12 beside unit
    columns would otherwise make the system's columns nearly parallel, and the least-
    squares solution would drop what the other equations ask.
    """
    margins = y * _fitted(X, coef, intercept)
    scale = band * max(1.0, np.abs(margins).max(initial=0.0))
    inside, on = margins < 1.0 - scale, np.abs(margins - 1.0) <= scale
    a = np.where(inside, upper, 0.0)
    elbow = np.flatnonzero(on)
    if elbow.size:
        target = np.concatenate((coef - _correlations(X, y * a), [-(y @ a)]))
        rows = X[elbow]
        rows = rows.toarray() if sp.issparse(rows) else rows
        system = np.vstack(((y[elbow, None] * rows).T, y[elbow]))
        row_norms = np.linalg.norm(system, axis=1)
        row_norms[row_norms == 0] = 1.0
        # Bounded least squares: with more samples on the margin than d + 1 (a free
        # column makes it common) the system has many solutions, and the one of least
        # norm may leave the box where another does not.
        a[elbow] = lsq_linear(
            system / row_norms[:, None],
            target / row_norms,
            bounds=(0.0, upper[elbow]),
            method="bvls",
        ).x
    return a


# -- the L1-penalised models (004 eq. 3, 6, 7) -------------------------------------


def l1_svm_certificate(
    X,
    y,
    coef,
    intercept,
    lam,
    weights=None,
    *,
    alpha=None,
    sample_weight=None,
    tolerance=GAP_TOLERANCE,
):
    """Certify ``(coef, intercept)`` for the weighted 1-norm SVM (004 eq. 6), an LP.

    With sample weights s the primal is ``sum_i s_i hinge_i + lam sum_j W_j |w_j|``
    and the dual's box is ``0 <= a_i <= s_i``.

    The multipliers of the samples on the margin are taken from ``alpha`` when given
    (e.g. ``L1SVM.alpha_``); if that dual point does not certify the candidate, they
    are the solution of the small LP of the dual restricted to those samples.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    coef : ndarray of shape (n_features,)
        The candidate's w.
    intercept : float
        The candidate's b.
    lam : float > 0
        The penalty lambda.
    weights : ndarray of shape (n_features,), optional
        Penalty weights, each >= 0 or +inf (default 1).
    alpha : ndarray of shape (n_samples,), optional
        A dual point.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's hinge (default 1).
    tolerance : float, default=GAP_TOLERANCE
        Tolerance of ``Certificate.holds`` on the relative gap.

    Returns
    -------
    Certificate
        Primal ``sum_i s_i hinge_i + lam sum_j W_j |w_j|``, dual ``1'a``.

    Raises
    ------
    ValueError
        If X is not 2-D, y not labels -1 and +1 of shape (n_samples,), coef not of shape
        (n_features,), coef or intercept not finite, lam not a finite number > 0, weights
        not n_features numbers >= 0 or +inf, or sample_weight not n_samples finite numbers
        >= 0, not all 0.

    See Also
    --------
    solvers.formulations.l1_svm : The problem, as a CVXPY LP.
    solvers.L1SVM : Sets ``certificate_`` with this function.
    solvers.path.l1_svm_path : Certifies every breakpoint the same way.

    Examples
    --------
    Two classes on a line, 2 apart: with lam = 1 the optimum is ``w = 1, b = -2``, of
    value 1 (see :func:`solvers.formulations.l1_svm`).

    >>> from solvers.certificates import l1_svm_certificate
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> certificate = l1_svm_certificate(X, y, [1.0], -2.0, lam=1.0)
    >>> certificate.holds, round(certificate.primal, 6), round(certificate.dual, 6)
    (True, 1.0, 1.0)
    >>> l1_svm_certificate(X, y, [0.8], -1.6, lam=1.0).holds
    False
    """
    X, y, coef, intercept = _prepare(X, y, coef, intercept, labels=True)
    weights = check_penalty_weights(weights, X.shape[1])
    _check_lam(lam)
    s = _sample_weights(sample_weight, X.shape[0])
    points = [] if alpha is None else [np.asarray(alpha, dtype=np.float64).ravel()]
    # The given point does not certify: the multipliers on the margin from a small LP
    # (None when it is infeasible: the candidate is not optimal).
    points.append(lambda: _l1_svm_margin_multipliers(X, y, coef, intercept, lam, weights, s))
    penalty = Penalty.elastic_net(lam, weights)
    return _certify("l1_svm", X, y, coef, intercept, HINGE, penalty, s, True, tolerance, points)


def _l1_svm_margin_multipliers(X, y, coef, intercept, lam, weights, sample_weight=None):
    """The best dual point with ``a = s`` inside the margin, 0 outside: an LP on the margin.

    ``s`` is ``sample_weight`` (default 1), the upper end of each multiplier's box.
    Returns None when that LP is infeasible (the candidate is not optimal).
    """
    s = _sample_weights(sample_weight, X.shape[0])
    margins = y * _fitted(X, coef, intercept)
    scale = _MARGIN_TOLERANCE * max(1.0, np.abs(margins).max(initial=0.0))
    inside, on = margins < 1.0 - scale, np.abs(margins - 1.0) <= scale
    a = s * inside
    elbow = np.flatnonzero(on)
    if elbow.size == 0:
        return a
    base = _correlations(X, y * a)
    rows = X[elbow]
    rows = rows.toarray() if sp.issparse(rows) else rows
    block = (y[elbow, None] * rows).T  # d x |E|: X_j'Y_E a_E
    # Rows divided by ||X_j||: HiGHS's feasibility tolerance is absolute, and the
    # bounds lam W_j may span many decades.
    norms = column_norms(X)
    kept = np.isfinite(weights) & (norms > 0)
    unit = 1.0 / norms[kept]
    block, base = block[kept] * unit[:, None], base[kept] * unit
    bound = lam * weights[kept] * unit
    result = linprog(
        -np.ones(elbow.size),
        A_ub=np.vstack((block, -block)),
        b_ub=np.concatenate((bound - base, bound + base)),
        A_eq=y[elbow][None, :],
        b_eq=[-(y @ a)],
        bounds=np.column_stack((np.zeros(elbow.size), s[elbow])),
        method="highs",
        options=_EXACT_LP,
    )
    if result.status != 0:
        return None
    a[elbow] = result.x
    return a


def svm2_certificate(
    X, y, coef, intercept, lam, weights=None, *, sample_weight=None, tolerance=GAP_TOLERANCE,
    norms=None,
):  # fmt: skip
    """Certify ``(coef, intercept)`` for SVM2 (004 eq. 7): squared hinge + weighted L1.

    The dual point is ``a = 2 s_i [1 - y_i f_i]_+`` (the KKT map), made feasible and
    scaled by the best factor in ``[0, t_max]``. With sample weights s the primal is
    ``sum_i s_i hinge_i^2 + lam sum_j W_j |w_j|`` and the dual
    ``1'a - sum_i a_i^2 / (4 s_i)`` (``a_i = 0`` where ``s_i = 0``).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    coef : ndarray of shape (n_features,)
        The candidate's w.
    intercept : float
        The candidate's b.
    lam : float > 0
        The penalty lambda.
    weights : ndarray of shape (n_features,), optional
        Penalty weights, each >= 0 or +inf (default 1).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's squared hinge (default 1).
    tolerance : float, default=GAP_TOLERANCE
        Tolerance of ``Certificate.holds`` on the relative gap.
    norms : ndarray of shape (n_features,), optional
        The column norms of X, when the caller has them
        (:func:`sparsify.utils.column_norms`): a pass over X fewer. They only scale
        the KKT violation and pick the nearly free features; the gap does not use them.

    Returns
    -------
    Certificate
        Primal ``sum_i s_i hinge_i^2 + lam sum_j W_j |w_j|``, dual
        ``1'a - sum_i a_i^2 / (4 s_i)``.

    Raises
    ------
    ValueError
        If X is not 2-D, y not labels -1 and +1 of shape (n_samples,), coef not of shape
        (n_features,), coef or intercept not finite, lam not a finite number > 0, weights
        not n_features numbers >= 0 or +inf, or sample_weight not n_samples finite numbers
        >= 0, not all 0.

    See Also
    --------
    solvers.formulations.svm2 : The problem, as a CVXPY QP.
    solvers.SVM2 : Sets ``certificate_`` with this function.

    Examples
    --------
    Two classes on a line, 2 apart: with lam = 1 the optimum is ``w = 3/4, b = -3/2``, of
    value 7/8 (see :func:`solvers.formulations.svm2`).

    >>> from solvers.certificates import svm2_certificate
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> certificate = svm2_certificate(X, y, [0.75], -1.5, lam=1.0)
    >>> certificate.holds, round(certificate.primal, 6), round(certificate.dual, 6)
    (True, 0.875, 0.875)
    >>> svm2_certificate(X, y, [1.0], -2.0, lam=1.0).holds
    False
    """
    X, y, coef, intercept = _prepare(X, y, coef, intercept, labels=True)
    weights = check_penalty_weights(weights, X.shape[1])
    _check_lam(lam)
    s = _sample_weights(sample_weight, X.shape[0])
    penalty = Penalty.elastic_net(lam, weights)
    return _certify("svm2", X, y, coef, intercept, SQUARED_HINGE, penalty, s, True, tolerance, [],
                    norms=_given_norms(X, norms))  # fmt: skip


def lasso_certificate(
    X,
    y,
    coef,
    intercept,
    lam,
    weights=None,
    *,
    sample_weight=None,
    tolerance=GAP_TOLERANCE,
    norms=None,
):
    """Certify ``(coef, intercept)`` for the weighted lasso (004 eq. 3).

    With sample weights s the primal is ``sum_i s_i r_i^2 + lam sum_j W_j |b_j|``
    (``r = y - X b - b0``) and the dual ``max u'y - sum_i u_i^2 / (4 s_i)`` on
    ``|X_j'u| <= lam W_j, 1'u = 0`` (``u_i = 0`` where ``s_i = 0``). The dual point is
    ``u = 2 s (r - rbar)`` with ``rbar`` the s-weighted mean of r (so ``1'u = 0``),
    projected off the unpenalised columns in the metric of ``S^-1`` (which keeps
    ``u_i = 0`` where ``s_i = 0``), scaled into ``|X_j'u| <= lam W_j`` and then by the
    best factor along its ray. The dual value is computed as
    ``u'r + (X'u)'b + b0 1'u - sum_i u_i^2 / (4 s_i)`` (equal to the dual objective),
    which avoids the cancellation of ``u'y`` when the fit is close.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.
    y : ndarray of shape (n_samples,)
        The targets.
    coef : ndarray of shape (n_features,)
        The candidate's beta.
    intercept : float
        The candidate's beta0 (unpenalised).
    lam : float > 0
        The penalty lambda.
    weights : ndarray of shape (n_features,), optional
        Penalty weights, each >= 0 or +inf (default 1).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's squared residual (default 1).
    tolerance : float, default=GAP_TOLERANCE
        Tolerance of ``Certificate.holds`` on the relative gap.
    norms : ndarray of shape (n_features,), optional
        The column norms of X, when the caller has them
        (:func:`sparsify.utils.column_norms`): a pass over X fewer. They only scale
        the KKT violation and pick the nearly free features; the gap does not use them.

    Returns
    -------
    Certificate
        Primal ``sum_i s_i r_i^2 + lam sum_j W_j |b_j|``, dual as above.

    Raises
    ------
    ValueError
        If X is not 2-D, y not of shape (n_samples,), coef not of shape (n_features,),
        coef or intercept not finite, lam not a finite number > 0, weights not
        n_features numbers >= 0 or +inf, sample_weight not n_samples finite numbers
        >= 0, not all 0, or norms not of shape (n_features,).

    See Also
    --------
    solvers.formulations.weighted_lasso : The problem, as a CVXPY QP.
    solvers.WeightedLasso : Sets ``certificate_`` with this function.
    solvers.path.lasso_path : Certifies every breakpoint the same way.

    Examples
    --------
    With one feature the solution is the soft-thresholded slope: for ``y = 2 x + 1`` on
    x = 0..3 and lam = 2, ``beta = (10 - 1) / 5 = 1.8`` and ``beta0 = 4 - 1.8 * 1.5 = 1.3``;
    the residuals (-0.3, -0.1, 0.1, 0.3) and the penalty 3.6 make the value 3.8.

    >>> from solvers.certificates import lasso_certificate
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = 2 * X[:, 0] + 1
    >>> certificate = lasso_certificate(X, y, [1.8], 1.3, lam=2.0)
    >>> certificate.holds, round(certificate.primal, 6), round(certificate.dual, 6)
    (True, 3.8, 3.8)
    >>> lasso_certificate(X, y, [1.7], 1.45, lam=2.0).holds
    False
    """
    X, y, coef, intercept = _prepare(X, y, coef, intercept, labels=False)
    weights = check_penalty_weights(weights, X.shape[1])
    _check_lam(lam)
    s = _sample_weights(sample_weight, X.shape[0])
    penalty = Penalty.elastic_net(lam, weights)
    return _certify(
        "lasso", X, y, coef, intercept, SQUARES, penalty, s, True, tolerance, [],
        norms=_given_norms(X, norms),
    )  # fmt: skip


def _lasso_dual_on_ray(linear, quadratic, correlations, lam, weights):
    """The best lasso dual value along the ray ``t u``, ``0 <= t <= t_max``.

    ``linear = u'r + (X'u)'b + b0 1'u`` and ``quadratic = sum_i u_i^2 / s_i``; the dual
    along the ray is ``t linear - t^2 quadratic / 4`` and ``t_max`` the largest t with
    ``t |X_j'u| <= lam W_j`` (``correlations = X'u``).
    """
    t_max = l1_dual_scaling(correlations, lam, weights)
    t = t_max if quadratic <= 0 else min(max(2.0 * linear / quadratic, 0.0), t_max)
    return t * linear - t * t * quadratic / 4.0


def _lasso_certificate_of_sums(coef, lam, weights, sums, gram, norms, null, *, tolerance):
    """:func:`lasso_certificate` from sums over the rows (a Dask X sums them over its
    chunks, :mod:`solvers._dask_models`).

    With the residual ``r = y - X b - b0``, ``u = 2 s (r - rbar)`` (``rbar`` its
    s-weighted mean) has ``X'u = 2 (X'S r - rbar X's)``, ``||u||^2 = 4 sum_i s_i^2 (r_i -
    rbar)^2``, ``u'r = 2 sum_i s_i (r_i - rbar)^2 = sum_i u_i^2 / s_i``. The nearly free
    columns F are projected out as in :func:`lasso_certificate` (onto ``{Z'u = 0}``,
    ``Z = [1, X_F]``, in the metric of ``S^-1``): with the centred columns ``Xc_F``,
    ``u - S Xc_F c`` with ``(Xc_F'S Xc_F) c = X_F'u``, whose terms are entries of the
    centred Gram matrix. The certificate is the same for X and its columns shifted,
    ``X - 1 m'`` (the intercept absorbs m): the sums may be of either.

    Parameters
    ----------
    coef : ndarray of shape (n_features,)
    lam : float > 0
    weights : ndarray of shape (n_features,)
        Penalty weights, each >= 0 or +inf. (The intercept's term ``b0 1'u`` is 0.)
    sums : dict
        ``xsr`` (``X'S r``), ``xs`` (``X's``), ``sr``, ``srr``, ``ssr``, ``ssrr``, ``ss``,
        ``s`` (``sum_i s_i r_i``, ``s_i r_i^2``, ``s_i^2 r_i``, ``s_i^2 r_i^2``, ``s_i^2``,
        ``s_i``).
    gram : ndarray of shape (n_features, n_features)
        ``Xc'S Xc`` of the columns centred at their s-weighted means.
    norms : ndarray of shape (n_features,)
        The column norms of X.
    null : float
        ``sum_i s_i (y_i - ybar)^2``.
    tolerance : float

    Returns
    -------
    Certificate
    """
    rbar = sums["sr"] / sums["s"]
    centred_squares = max(sums["srr"] - rbar * sums["sr"], 0.0)  # sum_i s_i (r_i - rbar)^2
    correlations = 2.0 * (sums["xsr"] - rbar * sums["xs"])
    dual_norm = 2.0 * np.sqrt(max(sums["ssrr"] - 2 * rbar * sums["ssr"] + rbar**2 * sums["ss"], 0))
    primal = sums["srr"] + l1_value(lam, weights, coef)
    kkt = l1_kkt_violation(correlations, coef, lam, weights, norms, dual_norm)
    u_r, quadratic = 2.0 * centred_squares, 4.0 * centred_squares  # u'r, sum_i u_i^2 / s_i
    free = _nearly_free(None, lam, weights, dual_norm, norms)
    if free.size:
        c = np.linalg.lstsq(gram[np.ix_(free, free)], correlations[free], rcond=None)[0]
        x_mean = sums["xs"] / sums["s"]
        u_r -= c @ (sums["xsr"][free] - x_mean[free] * sums["sr"])  # c' Xc_F'S r
        quadratic += c @ gram[np.ix_(free, free)] @ c - 2.0 * (c @ correlations[free])
        correlations = correlations - gram[:, free] @ c
    linear = u_r + correlations @ coef
    dual = _lasso_dual_on_ray(linear, quadratic, correlations, lam, weights)
    return _certificate("lasso", primal, dual, kkt, 0.0, tolerance, null=null)


def ridge_certificate(
    X,
    y,
    coef,
    lam,
    *,
    dual_coef=None,
    sample_weight=None,
    tolerance=GAP_TOLERANCE,
    norms=None,
):
    """Certify ``coef`` for ridge regression without intercept (002 sec. 3.4) and RLSC.

    With sample weights s the primal is ``sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2``,
    which is the unweighted problem on the rows ``sqrt(s_i) x_i`` and targets
    ``sqrt(s_i) y_i``: it is certified on those.

    RLSC (000 eq. (1)) is ridge regression on the labels with ``coef = X'x``. Two dual
    points are tried, and the better one counts. The residual ``u = y - X b`` gives
    the gap ``||X'u - lam b||^2 / lam``, computed without cancellation. With RLSC's
    dual coefficients x (``dual_coef``; the optimum has ``x = (y - Xb*) / lam``) the
    point ``u = lam x`` gives, for ``b = X'x``, the gap ``||y - (XX' + lam I) x||^2``:
    the residual of the dual system, not divided by lam, so a small lam does not
    inflate it. The first is loose along columns of large norm: with a
    column at 1e12 and lam = 1e-3, the exact answer rounded to float64 already has a
    relative gap near 1 (the bound divides by lam where the curvature is 1e24). When
    the float64 gap fails, the residual and gradient are recomputed in extended
    precision (``numpy.longdouble``), and ``resolution`` is the gap that rounding each
    coefficient by a few units in the last place causes, ``sum_j (4 eps ||X_j||^2
    |b_j|)^2 / lam``: a gap below it is the best float64 can state. When that fails
    too, the gap is measured coordinate by coordinate against float64's rounding
    (:func:`_gap_beyond_rounding`): with a Unix timestamp column (1.7e9) and lam =
    1e-12, evaluating ``X'u`` for the exact answer rounded to float64 already leaves a
    gap 10-100 times the optimum. A gradient entry within its rounding level counts as
    zero; if what remains is within the tolerance, float64 cannot tell the candidate
    from the optimum and ``resolution`` is its relative gap. An entry beyond its
    rounding level still fails the certificate. For
    ``lam = 0`` (least squares) there is no bounded dual: ``dual`` and ``gap`` are NaN
    and ``relative_gap`` is the KKT violation ``max_j |X_j'u| / (||X_j|| ||y||)``.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.
    y : ndarray of shape (n_samples,)
        The targets (the labels -1 and +1 for RLSC).
    coef : ndarray of shape (n_features,)
        The candidate's beta (``X'x`` for RLSC's dual variables x).
    lam : float >= 0
        The penalty lambda.
    dual_coef : ndarray of shape (n_samples,), optional
        A candidate x of the dual (RLSC's ``dual_coef_``, ``beta = X'x``; 0 where
        ``s_i = 0``): a second dual point, ``lam x``.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's squared residual (default 1).
    tolerance : float, default=GAP_TOLERANCE
        Tolerance of ``Certificate.holds`` on the relative gap.
    norms : ndarray of shape (n_features,), optional
        The column norms of X (of the rows ``sqrt(s_i) x_i`` with sample weights),
        when the caller has them (:func:`sparsify.utils.column_norms`): a pass over
        X fewer.

    Returns
    -------
    Certificate
        Primal ``sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2``, dual ``primal - gap``.

    Raises
    ------
    ValueError
        If X is not 2-D, y not of shape (n_samples,), coef not of shape (n_features,) or
        not finite, dual_coef not of shape (n_samples,) or not finite, norms not of shape
        (n_features,), lam not >= 0, or sample_weight not n_samples finite numbers >= 0,
        not all 0.

    See Also
    --------
    solvers.formulations.ridge : The problem, primal or dual.
    solvers.formulations.rlsc : RLSC, 000 eq. (1).
    solvers.RidgeRegression : Sets ``certificate_`` with this function.
    solvers.RLSC : Sets ``certificate_`` with this function.

    Examples
    --------
    The closed form ``(X'X + lam I)^-1 X'y`` has a zero gap up to rounding:

    >>> from solvers.certificates import ridge_certificate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)); y = rng.standard_normal(20)
    >>> coef = np.linalg.solve(X.T @ X + 2.0 * np.eye(3), X.T @ y)
    >>> certificate = ridge_certificate(X, y, coef, lam=2.0)
    >>> certificate.holds, bool(certificate.relative_gap < 1e-12)
    (True, True)
    >>> ridge_certificate(X, y, 1.01 * coef, lam=2.0).holds
    False
    """
    X, y, coef, _ = _prepare(X, y, coef, 0.0, labels=False)
    if not lam >= 0:
        raise ValueError(f"lam must be >= 0; got lam={lam}.")
    z = None
    if dual_coef is not None:
        z = np.asarray(dual_coef, dtype=np.float64).ravel()
        if z.shape != (X.shape[0],) or not np.all(np.isfinite(z)):
            raise ValueError(
                f"dual_coef must hold {X.shape[0]} finite numbers, one per row of X."
            )
    if sample_weight is not None:
        s = _sample_weights(sample_weight, X.shape[0])
        X, y = scale_rows(X, y, s)
        if z is not None:  # x = sqrt(S) z on the scaled rows: b = X'x = (sqrt(S) X)'z
            root = np.sqrt(s)
            z = np.divide(z, root, out=np.zeros_like(z), where=root > 0)
    norms = _given_norms(X, norms)
    certificate = _ridge_gap(X, y, coef, lam, tolerance, np.float64, norms, z)
    if not certificate.holds and np.finfo(np.longdouble).eps < np.finfo(np.float64).eps:
        certificate = _ridge_gap(X, y, coef, lam, tolerance, np.longdouble, norms, z)
    if not certificate.holds and lam > 0:
        beyond = _gap_beyond_rounding(X, y, coef, lam, norms)
        if beyond <= tolerance * certificate.scale:
            certificate = replace(certificate, resolution=certificate.relative_gap)
    return certificate


def _gap_beyond_rounding(X, y, coef, lam, norms):
    """The ridge gap ``||g||^2 / lam`` with each gradient entry's rounding level taken off.

    ``g = X'(y - Xb) - lam b`` computed in float64 has, for the exact answer rounded to
    float64, entries up to ``4 eps (||X_j||^2 |b_j| + |X_j|'(|y| + |X| |b|))``: the
    coefficient's rounding and the rounding of the residual and of the product
    (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002, sec. 3.1). Returns
    ``sum_j max(|g_j| - level_j, 0)^2 / lam``.
    """
    residual = y - np.asarray(X @ coef).ravel()
    gradient = np.asarray(X.T @ residual).ravel() - lam * coef
    magnitudes = abs(X)
    fitted = np.asarray(magnitudes @ np.abs(coef)).ravel()
    evaluation = np.asarray(magnitudes.T @ (np.abs(y) + fitted)).ravel()
    level = _ROUNDING_ULPS * np.finfo(np.float64).eps * (norms**2 * np.abs(coef) + evaluation)
    beyond = np.maximum(np.abs(gradient) - level, 0.0)
    return float(beyond @ beyond / lam)


def _ridge_gap(X, y, coef, lam, tolerance, dtype, norms, z=None):
    """The ridge certificate with the residual and gradient computed in ``dtype``.

    ``norms`` (the column norms of X) only scale the KKT violation and the rounding
    resolution, for which float64 suffices. ``z``: the dual coefficients on these rows
    (the second dual point ``lam z``), or None.
    """
    if dtype is not np.float64:
        X, y, coef = X.astype(dtype), y.astype(dtype), coef.astype(dtype)
        z = None if z is None else z.astype(dtype)
    residual = y - np.asarray(X @ coef).ravel()
    primal = float(residual @ residual + lam * coef @ coef)
    gradient = np.asarray(X.T @ residual).ravel() - lam * coef
    null = SQUARES.null(y.astype(np.float64), intercept=False)
    second = None
    if z is not None and lam > 0:
        # D(lam z) = 2 lam z'y - lam^2 ||z||^2 - lam ||X'z||^2; at b = X'z the gap is the
        # dual system's squared residual, ||y - (XX' + lam I) z||^2.
        correlations = np.asarray(X.T @ z).ravel()
        second = float(lam * (2.0 * (z @ y) - lam * (z @ z) - correlations @ correlations))
    return _ridge_certificate_of_gradient(
        primal, gradient, float(np.linalg.norm(residual)), float(np.linalg.norm(y)), coef,
        lam, norms, null, tolerance=tolerance, dual=second,
    )  # fmt: skip


def _ridge_certificate_of_gradient(
    primal, gradient, residual_norm, y_norm, coef, lam, norms, null, *, tolerance, dual=None
):
    """The ridge certificate from the quantities it reads off the data (a Dask X sums them
    over its chunks, :mod:`solvers._dask_models`).

    Parameters
    ----------
    primal : float
        ``||y - Xb||^2 + lam ||b||^2`` (rows and targets scaled by ``sqrt(s_i)``).
    gradient : ndarray of shape (n_features,)
        ``X'(y - Xb) - lam b``; the dual point of the residual has the gap
        ``||gradient||^2 / lam``.
    residual_norm, y_norm : float
        ``||y - Xb||`` and ``||y||``, which scale the KKT violation.
    coef : ndarray of shape (n_features,)
    lam : float >= 0
    norms : ndarray of shape (n_features,)
        The column norms of X.
    null : float
        ``||y||^2``, the objective at b = 0.
    tolerance : float
    dual : float, optional
        The value of a second dual point, if any (the better one counts).

    Returns
    -------
    Certificate
    """
    coef = np.asarray(coef, dtype=np.float64)
    norms = np.asarray(norms, dtype=np.float64)
    # |gradient_j| / (||X_j|| max(||r||, ||y||) + lam |b_j|), in one compiled pass.
    kkt = float(l2_kkt_violation(np.asarray(gradient, dtype=np.float64), coef, norms,
                                  max(residual_norm, y_norm), lam, 0.0))  # fmt: skip
    if lam == 0:
        return Certificate("ridge", primal, np.nan, np.nan, kkt, kkt, 0.0, tolerance)
    value = primal - float(gradient @ gradient / lam)
    value = value if dual is None else max(value, dual)
    rounding = norms * norms  # ||X_j||^2 |b_j|, each to _ROUNDING_ULPS ulps
    rounding *= coef
    resolution = (_ROUNDING_ULPS * np.finfo(np.float64).eps) ** 2 * float(rounding @ rounding)
    return _certificate("ridge", primal, value, kkt, 0.0, tolerance, resolution / lam, null=null)


def scale_rows(X, y, sample_weight):
    """``(sqrt(s) x_i, sqrt(s) y_i)``: a squared loss weighted by s as an unweighted one.

    ``sum_i s_i (y_i - x_i'b)^2 = ||sqrt(S) y - sqrt(S) X b||^2``; a sparse X stays sparse.
    """
    root = np.sqrt(sample_weight)
    rows = sp.diags(root) @ X if sp.issparse(X) else root[:, None] * X
    return (rows.asformat(X.format) if sp.issparse(X) else rows), root * y


def _check_lam(lam):
    if not (np.isfinite(lam) and lam > 0):
        raise ValueError(f"lam must be a finite number > 0; got lam={lam}.")
