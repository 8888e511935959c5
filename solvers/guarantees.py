r"""The papers' guarantees, measured on your data: certificates you can assert in tests.

Each ``check_*`` function solves the model on all features and on a selection
(``X R``), measures what the theorem needs, and returns a :class:`Report`:
``full`` (the quantity on all features), ``selected`` (on the selection), ``bound``
(the theorem's bound, from ``full`` and ``eps``), ``eps``, ``holds`` (whether
``selected`` meets ``bound``) and which theorem and form were used.

- :func:`check_margin`: 001 Theorems 1 and 2, ``gamma~^2 >= (1 - eps) gamma^2``
  (hard margin; on data that are not separable, the soft-margin dual objective
  ``Z~ <= Z / (1 - eps)``, which the same proof gives);
- :func:`check_radius`: 001 Theorem 2, ``B~^2 <= (1 + eps) B^2`` for the radius of
  the minimum enclosing ball;
- :func:`rlsc_bound`: 000 Theorem 1 (additive, lam = 0 and lam > 0) and Theorem 2
  (relative) for RLSC's decision values ``f(q)`` at test points q;
- :func:`check_spectral`: 000 Lemma 1, the eigenvalues of ``V'R R'V``.

A check holds only when it proves its guarantee: the theorem's premise holds at
the eps reported (the selection's measured spectral distortion ``||I - V'R R'V||_2``,
on the subspace the theorem's proof needs, is small enough for that eps), the bound
says something (eps within the theorem's range, a positive lower bound on the
margin, a finite bound), and the conclusion holds. ``Report.failures`` names each
part that fails, with the reason in words, and ``Report.explain()`` prints them.
With ``eps=None`` the eps is the smallest the measured distortion certifies, so a
report is a certificate of the theorem on this data, not a promise; a distortion
too large to certify any eps in the theorem's range fails as vacuous (a selection
of fewer features than the rank of X never passes by default). With an eps given,
the report says whether the selection delivers that accuracy.

Every solve goes through a certified estimator (:class:`solvers.SVMDual`,
:class:`solvers.RLSC`); the minimum enclosing ball is certified by its own duality
gap (:func:`enclosing_ball`). Comparisons allow for the certified accuracy of each
optimum: ``holds`` is False only when the inequality fails for every value within
the certified brackets (or, for RLSC's closed form, by more than rounding).
"""

import math
import types
import warnings
from dataclasses import dataclass, field
from numbers import Real

import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from sparsify import Selection, spectral_distortion
from sparsify.theory import _digits, _over_square, bss_features, leverage_features
from sparsify.utils import (
    check_orthonormal,
    check_X,
    column_norms,
    right_singular_vectors,
    signed_labels,
)

from ._chain import run_chain
from ._columns import centre_offset_columns
from ._planner import Step
from .backends._cvxpy_solvers import DEFAULT_BACKENDS, cvxpy_attempt
from .certificates import GAP_TOLERANCE, _certificate
from .exceptions import SolverError
from .formulations import gram
from .ridge import RLSC
from .svm import SVMDual

__all__ = [
    "Report",
    "Margin",
    "margin",
    "enclosing_ball",
    "check_margin",
    "check_radius",
    "rlsc_bound",
    "check_spectral",
    "required_features",
    "THEOREMS",
]

#: C of the soft-margin SVM when ``C=None`` and the data are not separable (the
#: value of 001's experiments, LIBSVM with C = 1).
DEFAULT_C = 1.0
# Relative rounding allowed on RLSC's closed-form decision values.
_RLSC_RTOL = 1e-8
# A test point whose component outside the training subspace is below this fraction
# of its norm lies in the subspace (000 Theorem 2).
_IN_SUBSPACE_RTOL = 1e-9


@dataclass(frozen=True, repr=False, eq=False)
class Report:
    """The outcome of one guarantee check on one selection.

    Returned by :func:`check_margin`, :func:`check_radius`, :func:`rlsc_bound` and
    :func:`check_spectral`; its ``repr`` lists every field, and ``bool(report)`` is
    ``report.holds``.

    Parameters
    ----------
    theorem : str
        The theorem checked, e.g. ``"001 Theorem 2"``.
    form : str
        Which form of it: ``"hard margin"``, ``"soft-margin dual objective (C=1)"``,
        ``"enclosing-ball radius"``, ``"additive, lam > 0"``, ...
    quantity : str
        What ``full`` and ``selected`` measure, e.g. ``"gamma^2 = 1/||w||^2"``.
    relation : str
        The inequality checked, e.g. ``"selected >= bound"`` or
        ``"|selected - full| <= bound"``.
    full : float or ndarray
        The quantity with all features.
    selected : float or ndarray
        The quantity with the selected, rescaled features ``X R``.
    bound : float or ndarray
        The theorem's bound on ``selected``, computed from ``full`` and ``eps``.
    eps : float
        The accuracy the bound uses: the one given, or the one the measured
        distortion certifies.
    distortion : float
        The measured ``||I - V'R R'V||_2`` on the subspace the theorem needs.
    failures : mapping of str to str, optional
        What failed, each with its explanation: ``"premise"`` (the selection does
        not meet the theorem's premise at ``eps``: the theorem does not apply),
        ``"vacuous"`` (the bound promises nothing: eps outside the theorem's range,
        a margin bound that is not positive, a bound that is not finite) and
        ``"conclusion"`` (``selected`` does not meet ``bound``). Empty when the
        check holds.
    details : mapping, optional
        Further numbers the bound uses (C, condition number, ...); empty by default.

    Attributes
    ----------
    holds : bool
        Whether the check proves its guarantee: the premise holds at ``eps``, the
        bound says something, and ``selected`` meets it (within the certified
        accuracy of the solves); ``failures`` is empty.

    See Also
    --------
    check_margin : 001 Theorems 1-2, the margin.
    check_radius : 001 Theorem 2, the enclosing ball.
    rlsc_bound : 000 Theorems 1-2, RLSC's decision values.
    check_spectral : 000 Lemma 1, the eigenvalues of ``V'RR'V``.

    Examples
    --------
    >>> from sparsify import bss
    >>> from sparsify.utils import right_singular_vectors
    >>> from solvers.guarantees import check_radius
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 30))
    >>> report = check_radius(X, bss(right_singular_vectors(X)[0], r=12))
    >>> report.theorem, report.relation, bool(report)
    ('001 Theorem 2', 'selected <= bound', True)
    >>> bool(report.selected <= report.bound), bool(report.bound == (1 + report.eps) * report.full)
    (True, True)
    """

    theorem: str
    form: str
    quantity: str
    relation: str
    full: object
    selected: object
    bound: object
    eps: float
    distortion: float
    failures: types.MappingProxyType = field(default_factory=lambda: types.MappingProxyType({}))
    details: types.MappingProxyType = field(default_factory=lambda: types.MappingProxyType({}))

    @property
    def holds(self):
        return not self.failures

    def __bool__(self):
        return self.holds

    def explain(self):
        """Why the check fails, in words, or that it holds.

        Returns
        -------
        str
            One line per failed part (``"the premise fails: ..."``, ``"the bound is
            vacuous: ..."``, ``"the conclusion fails: ..."``), or one line saying that
            the theorem holds at ``eps``.
        """
        if self.holds:
            return f"{self.theorem} holds: {self.relation} at eps = {self.eps:.4g}."
        return "\n".join(f"{_FAILURE_WORDS[key]}: {why}" for key, why in self.failures.items())

    def __repr__(self):
        lines = [
            f"Report({self.theorem}, {self.form}: {self.relation} "
            f"{'holds' if self.holds else 'FAILS'}",
            f"  quantity   = {self.quantity}",
            f"  full       = {_fmt(self.full)}",
            f"  selected   = {_fmt(self.selected)}",
            f"  bound      = {_fmt(self.bound)}",
            f"  eps        = {self.eps:.4g}",
            f"  distortion = {self.distortion:.4g} (measured ||I - V'RR'V||_2)",
        ]
        lines += [f"  {k:<10} = {_fmt(v)}" for k, v in self.details.items()]
        lines += [f"  {key:<10} : {why}" for key, why in self.failures.items()]
        lines.append(f"  holds      = {self.holds})")
        return "\n".join(lines)


#: How :meth:`Report.explain` words each failed part, in the order they are listed.
_FAILURE_WORDS = {
    "premise": "the premise fails",
    "vacuous": "the bound is vacuous",
    "conclusion": "the conclusion fails",
}


def _failures(**parts):
    """The failed parts of a check (a part given as None holds), in a fixed order."""
    return types.MappingProxyType(
        {key: parts[key] for key in _FAILURE_WORDS if parts.get(key) is not None}
    )


def _fmt(value):
    if isinstance(value, np.ndarray) and value.size > 1:
        shown = np.array2string(value[:6], precision=4, separator=", ")
        return f"{shown[:-1]}, ...] ({value.size} values)" if value.size > 6 else shown
    if isinstance(value, float | np.floating):
        return f"{float(value):.6g}"
    return repr(value)


@dataclass(frozen=True, repr=False, eq=False)
class Margin:
    """The SVM margin of (X, y): hard on separable data, else the soft-margin dual objective.

    Returned by :func:`margin`.

    Parameters
    ----------
    form : {"hard", "soft"}
        ``"hard"``: the data are separable and ``value`` is the geometric margin
        ``gamma = 1/||w||`` of the hard-margin SVM (001 sec. 2). ``"soft"``: ``value``
        is the optimal value Z of the dual (001 eq. 2) with box constraint ``C``.
    value : float
        The margin gamma (hard) or the dual optimum Z (soft).
    objective : float
        Z, the dual optimum (for the hard margin ``Z = ||w||^2 / 2 = 1 / (2 gamma^2)``).
    objective_bounds : tuple of float
        ``(lower, upper)``: the certified bracket of Z (the dual value at ``alpha``
        and the primal value at ``(coef, intercept)``).
    C : float
        The box constraint solved with (for the hard margin, a C above every
        multiplier, so that the soft-margin solution is the hard-margin one).
    coef : ndarray of shape (n_features,)
        The solution's w.
    intercept : float
        The solution's b.
    alpha : ndarray of shape (n_samples,)
        The dual variables a of 001 eq. (2).
    support : ndarray of int
        The indices of the support vectors (``alpha > 0``).

    See Also
    --------
    margin : Computes it.
    check_margin : 001's guarantee on the margin after feature selection.

    Examples
    --------
    Four points on a line with alternating labels are not separable: the margin is the
    soft-margin dual optimum Z, bracketed by its certificate, and ``w = X'Y a``.

    >>> from solvers.guarantees import margin
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([-1, 1, -1, 1])
    >>> m = margin(X, y)
    >>> m.form, m.C
    ('soft', 1.0)
    >>> low, high = m.objective_bounds
    >>> bool(low <= m.value <= high), bool(np.allclose(m.coef, X.T @ (y * m.alpha), atol=1e-6))
    (True, True)
    """

    form: str
    value: float
    objective: float
    objective_bounds: tuple
    C: float
    coef: np.ndarray
    intercept: float
    alpha: np.ndarray
    support: np.ndarray

    def __repr__(self):
        what = "gamma = 1/||w||" if self.form == "hard" else f"dual objective Z, C={self.C:g}"
        return (
            f"Margin(form={self.form!r}, value={self.value:.6g} ({what}), "
            f"n_support={self.support.size})"
        )


# -- input checks -----------------------------------------------------------------


def _check_labels(y, n):
    """Labels as a +-1 float array (the larger class value is +1); errors name y."""
    if y is None:
        raise ValueError("y is None; pass the labels, one per row of X.")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must have shape ({n},), one label per row of X; got {y.shape}.")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or inf; give every sample a finite label.")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"y must hold exactly two classes for an SVM margin; got {classes.size} "
            f"class(es): {classes[:10]}."
        )
    return signed_labels(y, classes)


def _check_C(C):
    if C is None:
        return None
    if isinstance(C, bool) or not isinstance(C, Real):
        raise TypeError(f"C must be a positive number or None; got {C!r}.")
    if not C > 0:
        raise ValueError(f"C must be > 0 (np.inf for the hard margin, None to choose); got C={C}.")
    return float(C)


def _check_eps(eps, *, high=None):
    if eps is None:
        return None
    if isinstance(eps, bool) or not isinstance(eps, Real):
        raise TypeError(f"eps must be a number or None; got {eps!r}.")
    if not (eps >= 0 and math.isfinite(eps)) or (high is not None and eps > high):
        within = f"[0, {high}]" if high is not None else "[0, inf)"
        raise ValueError(
            f"eps must lie in {within}, or be None to use the measured distortion; got {eps}."
        )
    return float(eps)


def _check_selection(selection, d):
    if not isinstance(selection, Selection):
        raise TypeError(
            f"selection must be a sparsify.Selection; got {type(selection).__name__}. "
            "Selectors give one as .selection_."
        )
    if selection.n_selected == 0:
        raise ValueError("selection is empty; select at least one feature.")
    if selection.n_features_in != d:
        raise ValueError(
            f"selection is over {selection.n_features_in} features but X has {d}; pass "
            "the selection computed on data with the same columns."
        )
    return selection


def _distortion(X, selection):
    """``||I - V'R R'V||_2`` with V the right singular vectors of X, and rank(X) (V's columns)."""
    V, _ = right_singular_vectors(X)
    return _subspace_distortion(V, selection), V.shape[1]


def _subspace_distortion(V, selection):
    """``||I - V'R R'V||_2``, and at least 1 when ``R'V`` is rank-deficient to rounding.

    A selection that loses a direction of the span of V (fewer features than its
    dimension, or duplicate columns) makes ``V'R R'V`` singular: the distortion is
    exactly 1, but its smallest eigenvalue computes as a rounding error (+-1e-18),
    and ``1 - 1e-18`` would pass for an eps below 1 (000 Theorem 1's proof needs
    ``V'R R'V`` invertible). The rank of ``R'V`` is NumPy's (singular values above
    ``max(r, ell) eps sigma_max``), which resolves what the eigenvalues cannot.
    """
    distortion = spectral_distortion(V, selection)
    if np.linalg.matrix_rank(selection.matrix().T @ V) < V.shape[1]:
        return max(distortion, 1.0)
    return distortion


# -- the SVM margin (001) -----------------------------------------------------------


def _separating_hyperplane(X, y):
    """A (w, b) with ``y_i (x_i'w + b) >= 1`` (an LP), or None if none exists.

    The LP (least 1-norm) runs on the columns with their offsets taken off
    (:func:`solvers._columns.centre_offset_columns`, exact with the free b) and scaled
    to unit norm, and its answer is mapped back: with a Unix timestamp (1.7e9, spread
    1e3) beside unit columns HiGHS stopped with a solve error on 5 of 30 draws.
    """
    n, d = X.shape
    centred, shift = centre_offset_columns(X)
    norms = column_norms(centred)
    norms[norms == 0] = 1.0
    scaled = centred @ sp.diags(1.0 / norms) if sp.issparse(X) else centred / norms
    YX = sp.csr_matrix(scaled).multiply(y[:, None]) if sp.issparse(X) else scaled * y[:, None]
    A = sp.hstack([-sp.csr_matrix(YX), sp.csr_matrix(YX), -y[:, None]], format="csr")
    cost = np.concatenate([np.ones(2 * d), [0.0]])
    bounds = [(0, None)] * (2 * d) + [(None, None)]
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    if result.status == 2:
        return None
    if result.status != 0:
        raise SolverError(f"the separability LP (HiGHS) failed: {result.message}")
    w = (result.x[:d] - result.x[d : 2 * d]) / norms
    return w, result.x[-1] - shift @ w


def _solve_svm(X, y, C):
    """SVMDual at C; returns the fitted estimator and the certified bracket of Z."""
    svm = SVMDual(C=C).fit(X, y)
    cert = svm.certificate_
    return svm, (min(cert.dual, cert.primal), max(cert.dual, cert.primal))


def margin(X, y, C=None):
    """The SVM margin: the hard margin on separable data, the soft-margin dual otherwise.

    With ``C=None``, an LP decides whether (X, y) is separable. If it is, the hard
    margin ``gamma = 1/||w||`` (001 sec. 2) is computed with :class:`SVMDual` at a
    C above every multiplier (``C = 2 ||w_0||^2`` for the LP's separating ``w_0``:
    the hard-margin optimum has ``sum_i a_i = ||w*||^2 <= ||w_0||^2``), so the
    certified soft-margin solution is the hard-margin one. If it is not, the
    soft-margin dual (001 eq. 2) is solved with ``C = DEFAULT_C`` (1.0, as in 001's
    experiments) and its optimal value Z is returned. With ``C=np.inf`` the hard
    margin is required; with a finite C the soft-margin dual at that C is used.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        Two classes (any two values; the larger is +1).
    C : float > 0, np.inf or None, default=None
        None: the hard margin if (X, y) is separable, else the soft-margin dual at C = 1;
        np.inf: the hard margin; a finite C: the soft-margin dual at that C.

    Returns
    -------
    Margin
        ``form`` says which was computed; ``value`` is gamma (hard) or Z (soft).

    Raises
    ------
    ValueError
        One class, NaN in X, C <= 0, or ``C=np.inf`` on data that are not separable.

    See Also
    --------
    check_margin : 001's guarantee on the margin after feature selection.
    solvers.SVMDual : The estimator that computes it.

    Examples
    --------
    Two points 2 apart are separated with margin 1:

    >>> from solvers.guarantees import margin
    >>> m = margin(np.array([[-1.0, 0.0], [1.0, 0.0]]), np.array([-1, 1]))
    >>> m.form, round(m.value, 6)
    ('hard', 1.0)
    """
    X = check_X(X, name="X")
    y = _check_labels(y, X.shape[0])
    C = _check_C(C)
    return _margin(X, y, C)


def _hard_margin_C(X, y):
    """A C above every multiplier of the hard-margin SVM on (X, y), or None if not separable.

    The hard-margin optimum has ``sum_i a_i = ||w*||^2 <= ||w_0||^2`` for any separating
    ``w_0`` (it is the least-norm one), so every ``a_i < 2 ||w_0||^2 + 1``.
    """
    separating = _separating_hyperplane(X, y)
    if separating is None:
        return None
    return 2.0 * float(separating[0] @ separating[0]) + 1.0


def _margin(X, y, C):
    form = "soft"
    if C is None or C == np.inf:
        hard_C = _hard_margin_C(X, y)
        if hard_C is None and C == np.inf:
            raise ValueError(
                "C=np.inf asks for the hard margin, but the data are not linearly "
                "separable; give a finite C for the soft-margin dual."
            )
        form, C = ("soft", DEFAULT_C) if hard_C is None else ("hard", hard_C)
    svm, bounds = _solve_svm(X, y, C)
    if form == "hard" and svm.alpha_.max() >= C:  # cannot happen at an exact optimum
        raise SolverError(f"the hard-margin solve put a multiplier at its bound C={C:g}.")
    objective = float(svm.objective_)
    value = float(svm.margin_) if form == "hard" else objective
    return Margin(
        form=form,
        value=value,
        objective=objective,
        objective_bounds=bounds,
        C=float(C),
        coef=svm.coef_[0],
        intercept=float(svm.intercept_[0]),
        alpha=svm.alpha_,
        support=np.asarray(svm.support_),
    )


def _selected_objective_bounds(X, y, form, C):
    """Bracket of the selected problem's dual optimum Z~; (inf, inf) when a hard margin is 0."""
    if form == "hard":
        C = _hard_margin_C(X, y)
        if C is None:
            return (np.inf, np.inf)  # not separable: margin 0, the dual is unbounded
    return _solve_svm(X, y, C)[1]


def check_margin(X, y, selection, eps=None, C=None, *, supervised=False):
    r"""Check 001's margin guarantee, ``gamma~^2 >= (1 - eps) gamma^2``, on a selection.

    001 Theorem 2 (unsupervised, ``supervised=False``): the SVM on all of (X, y)
    against the SVM on ``(X R, y)``, with the distortion measured on V, the right
    singular vectors of X (all ``rank(X)`` of them). 001 Theorem 1
    (``supervised=True``): the SVM is first solved on (X, y); then both margins are
    those of the support vectors only, ``(X_sv, y_sv)`` and ``(X_sv R, y_sv)``, and V
    is that of ``X_sv`` (the selection is meant to be computed on ``X_sv``, e.g. by
    :class:`solvers.SupportVectorSelector`).

    What eps means: the proof of Theorem 1 shows, with ``E = V'V - V'R R'V``,
    ``gamma~^2 >= (1 - ||E|| / (1 - ||E||)) gamma^2``; BSS with ``r = 36 p / eps^2``
    gives ``||E|| <= eps / 2`` and hence ``||E|| / (1 - ||E||) <= eps``. So the
    premise checked at eps is ``||E|| / (1 - ||E||) <= eps`` (the theorem does not
    apply otherwise), and the bound says something only for eps < 1 (the theorems'
    range; at eps >= 1 the lower bound on gamma~^2 is not positive). With
    ``eps=None`` the measured ``||E||`` gives ``eps = ||E|| / (1 - ||E||)``, the
    smallest eps the theorem certifies for this selection; when that is not below 1
    (``||E|| >= 1/2``, e.g. fewer features than the rank of X) the check fails as
    vacuous. It can therefore fail in three ways, each named in ``failures``:
    ``"premise"``, ``"vacuous"`` and ``"conclusion"``.

    Forms (``Report.form``): on separable data (C None or inf) the hard margin,
    ``full = gamma^2``, ``selected = gamma~^2`` (0 when X R is not separable),
    ``bound = (1 - eps) gamma^2``. Otherwise the soft-margin dual objective Z of
    001 eq. (2) at C (``C=None``: 1.0): the proof's eq. (11) holds for any C, and with
    ``||w~||^2 <= 2 Z~`` it gives ``Z >= (1 - eps) Z~``, so ``full = Z``,
    ``selected = Z~`` and ``bound = Z / (1 - eps)`` (``selected <= bound``). For
    separable data the two are the same statement, as ``gamma^2 = 1 / (2 Z)``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        Two classes.
    selection : sparsify.Selection
        Over the d features of X.
    eps : float >= 0 or None, default=None
        The accuracy to check; None: the smallest eps the measured distortion
        certifies, ``||E|| / (1 - ||E||)``.
    C : float > 0, np.inf or None, default=None
        As in :func:`margin`.
    supervised : bool, default=False
        Theorem 1 (support vectors) instead of Theorem 2 (all data).

    Returns
    -------
    Report
        ``full = gamma^2`` and ``selected = gamma~^2`` (hard margin), or ``Z`` and
        ``Z~`` (soft margin); ``bound``, ``failures`` and ``holds`` as above.

    Raises
    ------
    ValueError
        Bad X, y, selection, eps or C; the message names the argument.
    TypeError
        A selection that is not a :class:`sparsify.Selection`, or eps or C not a number.

    See Also
    --------
    solvers.testing.assert_margin_preserved : The same, as an assertion.
    margin : The margin of one data set.
    required_features : The r that 001 Theorems 1-2 ask for.

    Examples
    --------
    A BSS selection of 12 of 30 features (000 Lemma 2) on data of rank 3: the selected
    margin stays above the bound that the measured distortion certifies.

    >>> from sparsify import bss
    >>> from sparsify.utils import right_singular_vectors
    >>> from solvers.guarantees import check_margin
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 30))
    >>> y = np.where(X[:, 0] > 0, 1, -1)
    >>> report = check_margin(X, y, bss(right_singular_vectors(X)[0], r=12))
    >>> report.form, report.holds, bool(report.selected >= report.bound)
    ('hard margin', True, True)

    Two arbitrary features cannot keep a rank-3 row space: no eps < 1 is certified.

    >>> from sparsify import Selection
    >>> two = check_margin(X, y, Selection([3, 17], np.ones(2), 30))
    >>> two.holds, list(two.failures)
    (False, ['vacuous'])
    """
    X = check_X(X, name="X")
    y = _check_labels(y, X.shape[0])
    selection = _check_selection(selection, X.shape[1])
    eps = _check_eps(eps)
    C = _check_C(C)
    full = _margin(X, y, C)
    theorem = "001 Theorem 2"
    if supervised:
        theorem = "001 Theorem 1"
        X, y = X[full.support], y[full.support]
        full = _margin(X, y, full.C if full.form == "soft" else np.inf)
    distortion, rank = _distortion(X, selection)
    certified = _theorem_eps(distortion)
    if eps is None:
        eps = certified
    z_low, z_high = full.objective_bounds
    sel_low, sel_high = _selected_objective_bounds(selection.apply(X), y, full.form, full.C)
    details = {"C": full.C, "n_samples": X.shape[0], "n_selected": selection.n_selected}
    if full.form == "hard":
        value = 1.0 / (2.0 * full.objective)
        selected = 0.0 if sel_low == np.inf else 1.0 / (sel_low + sel_high)
        bound = (1.0 - eps) * value if eps < np.inf else -np.inf
        # Optimistic ends of the brackets: gamma~^2 at its largest, gamma^2 at its smallest.
        met = eps >= 1 or 1.0 / (2.0 * sel_low) >= (1.0 - eps) / (2.0 * z_high)
        form, quantity, relation = "hard margin", "gamma^2 = 1/||w||^2", "selected >= bound"
        details.pop("C")
    else:
        value = full.objective
        selected = 0.5 * (sel_low + sel_high)
        bound = value / (1.0 - eps) if eps < 1 else np.inf
        met = eps >= 1 or sel_low * (1.0 - eps) <= z_high
        form = f"soft-margin dual objective (C={full.C:g})"
        quantity, relation = "Z, the optimum of 001 eq. (2)", "selected <= bound"
    space = "the row space of the support vectors" if supervised else "the row space of X"
    failures = _failures(
        premise=_margin_premise(theorem, space, distortion, certified, eps, (rank, X.shape[1])),
        vacuous=_margin_vacuous(theorem, full.form, distortion, eps, (rank, X.shape[1])),
        conclusion=None if met else _conclusion(quantity, relation, selected, bound),
    )
    return Report(
        theorem=theorem,
        form=form,
        quantity=quantity,
        relation=relation,
        full=float(value),
        selected=float(selected),
        bound=float(bound),
        eps=float(eps),
        distortion=float(distortion),
        failures=failures,
        details=types.MappingProxyType(details),
    )


def _theorem_eps(distortion):
    """The eps of 001 Theorems 1-2 (margin and radius alike) a distortion ``||E||``
    certifies: ``||E|| / (1 - ||E||)``."""
    return distortion / (1.0 - distortion) if distortion < 1 else np.inf


#: The eps at which the failure messages count the theorems' r when the check's own eps
#: is outside (0, 1).
_HINT_EPS = 0.5
#: The k of the top-k subspace the messages suggest measuring instead (003 sec. 6).
_TOP_K = 10


def _fix_hint(theorem, rank, d, eps):
    """What to do when a selection does not certify the theorem.

    When the theorem's r (``36 rank / eps^2``, 001 Theorems 1-2) fits in the d
    features, select that many; when it does not (text: a few hundred documents and
    a few thousand words), no selection short of (nearly) every feature certifies
    the theorem, and the message says so and what can be measured instead.
    """
    eps = eps if 0 < eps < 1 else _HINT_EPS
    r = bss_features(eps, rank)
    if r <= d:
        return (
            f"select more features: BSS with r = required_features({eps:.3g}, {theorem!r}, "
            f"X=X) = {r} gives ||E|| <= eps / 2"
        )
    return _beyond_d(theorem, rank, d, eps, r)


def _beyond_d(theorem, rank, d, eps, r):
    """Why a theorem whose r exceeds d certifies nothing short of keeping every feature."""
    return (
        f"{theorem} asks for r = 36 rank / eps^2 = 36 * {rank} / {eps:.3g}^2 = {_digits(r)} "
        "features "
        f"at eps = {eps:.3g}, more than the d = {d} features of X: BSS at that r keeps "
        "every feature, and a smaller selection passes only if its distortion of all "
        f"{rank} directions of the row space happens to be small, which on text takes "
        f"most of the vocabulary. The theorem says something for d well above "
        f"36 rank / eps^2 ({_digits(_over_square(36, eps))} rank at eps = {eps:.3g}). "
        + _measure_instead()
    )


def _measure_instead():
    """What to measure when a theorem's r exceeds d: the top-k distortion (003 sec. 6)."""
    return (
        f"Measure instead the distortion of the top-{_TOP_K} right singular subspace, as "
        "003 sec. 6 does: sparsify.spectral_distortion(V, selection) with V = "
        f"sparsify.utils.right_singular_vectors(X, {_TOP_K})[0] (BSS with r > {_TOP_K} on "
        f"that V keeps it below 3 sqrt({_TOP_K} / r), 000 Lemma 2); it bounds how the "
        f"{_TOP_K} strongest directions of the data are kept, and promises nothing about "
        "the margin, the radius or the error"
    )


def _margin_premise(theorem, space, distortion, certified, eps, shape):
    """Why the margin theorem does not apply at eps (None when it does)."""
    if certified <= eps:
        return None
    return (
        f"this selection distorts {space} by ||E|| = {distortion:.3g}, and {theorem} "
        f"needs ||E|| / (1 - ||E||) <= eps = {eps:.3g}, i.e. ||E|| <= {eps / (1 + eps):.3g}; "
        f"the theorem does not apply ({_fix_hint(theorem, *shape, eps)})"
    )


def _margin_vacuous(theorem, form, distortion, eps, shape):
    """Why the margin bound promises nothing at eps (None when it promises something)."""
    if eps < 1:
        return None
    what = (
        "the lower bound (1 - eps) gamma^2 on the selected margin is not positive"
        if form == "hard"
        else "the upper bound Z / (1 - eps) on the selected dual objective is infinite"
    )
    return (
        f"at eps = {eps:.3g} {what}; {theorem} is stated for eps in (0, 1), which needs "
        f"||E|| < 1/2 (measured: {distortion:.3g}; {_fix_hint(theorem, *shape, eps)})"
    )


def _conclusion(quantity, relation, selected, bound):
    """The conclusion's failure, in words."""
    return (
        f"{relation} is false for {quantity}: selected = {_fmt(selected)}, bound = "
        f"{_fmt(bound)}, beyond the certified accuracy of the solves"
    )


# -- the minimum enclosing ball (001 Theorem 2) ------------------------------------


def _row_norms_squared(X):
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", X, X)


def _ball_dual(X):
    r"""The dual of the minimum enclosing ball, n variables (the Gram form).

    .. math::

        \max_{\lambda \ge 0,\, 1'\lambda = 1}\; \sum_i \lambda_i \|x_i\|^2 - \|X'\lambda\|^2

    whose value is ``B^2`` and whose solution gives the center ``c = X'lambda``. The
    quadratic term is ``quad_form`` of the n x n Gram matrix when n <= d and
    ``sum_squares(X'lambda)`` otherwise; a sparse X is never densified.
    """
    n, d = X.shape
    lam = cp.Variable(n, name="lam", nonneg=True)
    if n <= d:
        quad = cp.quad_form(lam, gram(X), assume_PSD=True)
    else:
        quad = cp.sum_squares(X.T @ lam)
    objective = _row_norms_squared(X) @ lam - quad
    return cp.Problem(cp.Maximize(objective), [cp.sum(lam) == 1])


def _ball_certificate(X, sq, lam):
    """Gap of the center ``X'lam``: ``max_i ||x_i - c||^2`` against the dual value at lam."""
    lam = np.clip(lam, 0.0, None)
    lam = lam / lam.sum()
    center = np.asarray(X.T @ lam).ravel()
    distances = sq - 2.0 * np.asarray(X @ center).ravel() + center @ center
    primal = float(distances.max())
    dual = float(lam @ sq - center @ center)
    # KKT of the dual: the weight lam puts on points inside the ball (complementary
    # slackness), relative to B^2; the gap is exactly this sum.
    kkt = float(lam @ (primal - distances)) / max(primal, np.finfo(float).tiny)
    return center, _certificate("enclosing_ball", primal, dual, kkt, 0.0, GAP_TOLERANCE, null=0.0)


def _standardised_points(X):
    """``(Z, shift, scale)`` with ``X = scale Z + shift``: the ball is translation
    invariant and scales with X, so it is solved on points centred at their mean
    (dense X; a sparse X is only scaled, never densified) with the largest distance
    from the shift 1. The backends' tolerances are absolute, and distances formed as
    ``||x||^2 - 2 x'c + ||c||^2`` cancel under an offset (raw prices, timestamps)."""
    if sp.issparse(X):
        shift = np.zeros(X.shape[1])
        Z = sp.csr_matrix(X, dtype=float, copy=True)
    else:
        shift = X.mean(axis=0)
        Z = X - shift
    scale = math.sqrt(float(_row_norms_squared(Z).max()))
    if scale > 0:
        Z = Z / scale
    return Z, shift, scale


def _enclosing_ball(X):
    """Center and the certified bracket ``(lower, upper)`` of the squared radius B^2."""
    Z, shift, scale = _standardised_points(X)
    if scale == 0 or X.shape[0] == 1:  # every point the same
        return shift + (np.asarray(X[0].todense()).ravel() if sp.issparse(X) else 0.0), (0.0, 0.0)
    center, (low, high) = _unit_ball(Z)
    return shift + scale * center, (scale**2 * low, scale**2 * high)


def _unit_ball(X):
    """:func:`_enclosing_ball` of points whose largest norm is 1."""
    sq = _row_norms_squared(X)
    problem = _ball_dual(X)
    found = {}

    def certify(outcome):
        found["center"], found["certificate"] = _ball_certificate(
            X, sq, problem.var_dict["lam"].value
        )
        return found["certificate"]

    steps = [Step(name, {}, "the QP chain") for name in DEFAULT_BACKENDS["QP"]]
    run_chain(
        steps,
        lambda step, warm: cvxpy_attempt(problem, step.backend, step.options),
        certify,
        what="minimum enclosing ball QP",
    )
    cert = found["certificate"]
    return found["center"], (max(cert.dual, 0.0), cert.primal)


def enclosing_ball(X):
    """The minimum enclosing ball of the rows of X: ``(center, radius)`` (001 sec. 2, B).

    ``B = min_c max_i ||x_i - c||``. Solved in its dual form (n variables, the Gram
    matrix when d > n; a sparse X is never densified), whose solution lam gives
    ``center = X'lam``, a convex combination of the points at maximal distance. The
    answer is certified in NumPy: ``max_i ||x_i - center||^2`` (an upper bound on
    B^2) and the dual value at lam (a lower bound) agree to a relative 1e-6, which
    is also the KKT condition that lam weighs only points on the sphere.

    The ball moves with the points and scales with them, and so does the answer: the
    dual is solved on the points centred at their mean and scaled to a largest
    distance of 1 (a sparse X is scaled only), so that an offset such as raw prices
    or timestamps (1e5, 1e9) or a scale of 1e-12 or 1e12 changes nothing; identical
    points give radius 0.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The points, one per row.

    Returns
    -------
    center : ndarray of shape (d,)
        The centre c of the ball.
    radius : float
        Its radius B, ``max_i ||x_i - center||``.

    Raises
    ------
    SolverError
        When no backend gives a certified answer.

    See Also
    --------
    check_radius : 001 Theorem 2's guarantee on B after feature selection.
    solvers.formulations.enclosing_ball : The primal SOCP, as a CVXPY problem.

    Examples
    --------
    The points (0, 0), (2, 0) and (1, 1/2) lie in the circle of radius 1 about (1, 0),
    and no smaller ball holds the first two:

    >>> from solvers.guarantees import enclosing_ball
    >>> center, radius = enclosing_ball(np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.5]]))
    >>> np.round(center, 6).tolist(), round(radius, 6)
    ([1.0, 0.0], 1.0)
    """
    X = check_X(X, name="X")
    center, (_, upper) = _enclosing_ball(X)
    return center, math.sqrt(upper)


def check_radius(X, selection, eps=None):
    r"""Check 001 Theorem 2's radius guarantee, ``B~^2 <= (1 + eps) B^2``, on a selection.

    B is the radius of the minimum enclosing ball of the rows of X, B~ that of the
    rows of ``X R``. The proof (001 supplementary Theorem 3) uses only the distortion
    on the row space of X: in the dual ``B^2 = max_lam sum_i lam_i ||x_i - X'lam||^2``
    every ``x_i - X'lam`` lies in the span of V (the right singular vectors of X), so
    ``||R'(x_i - X'lam)||^2 <= (1 + ||E||) ||x_i - X'lam||^2``. Hence the premise
    checked at eps is the distortion itself, ``||E|| <= eps`` (the theorem does not
    apply otherwise), and the theorem is stated for eps in (0, 1): at eps >= 1 the
    check fails as vacuous (a distortion of 1 or more means the selection loses a
    direction of the row space). With ``eps=None`` the eps is 001 Theorem 2's, the
    same as :func:`check_margin`'s: ``||E|| / (1 - ||E||)``, the smallest eps at
    which the whole theorem (margin and radius) holds for this selection, so that a
    selection that keeps the radius only because dropping features shrinks the ball
    does not pass by default. BSS with ``r = 36 rank / eps^2`` gives
    ``||E|| <= eps / 2``. The check fails in three ways, named in ``failures``:
    ``"premise"``, ``"vacuous"`` and ``"conclusion"``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The points, one per row.
    selection : sparsify.Selection
        Over the d features of X.
    eps : float >= 0 or None, default=None
        The accuracy to check; None: 001 Theorem 2's eps for the measured
        distortion, ``||E|| / (1 - ||E||)``.

    Returns
    -------
    Report
        ``full = B^2``, ``selected = B~^2``, ``bound = (1 + eps) B^2``; ``failures``
        and ``holds`` as above.

    Raises
    ------
    ValueError
        Bad X, selection or eps; the message names the argument.
    TypeError
        A selection that is not a :class:`sparsify.Selection`, or eps not a number.

    See Also
    --------
    solvers.testing.assert_radius_preserved : The same, as an assertion.
    enclosing_ball : The ball of one data set.

    Examples
    --------
    Keeping the two features that carry the points (the third is 0) changes nothing:

    >>> from sparsify import Selection
    >>> from solvers.guarantees import check_radius
    >>> X = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.5, 0.0]])
    >>> first_two = Selection(np.array([0, 1]), np.ones(2), n_features_in=3)
    >>> report = check_radius(X, first_two)
    >>> report.holds, round(report.full, 6), round(report.selected, 6), round(report.eps, 6)
    (True, 1.0, 1.0, 0.0)

    The first feature alone loses a direction of the points' row space: at eps = 0.5
    the theorem does not apply, although the ball shrinks.

    >>> first = check_radius(X, Selection(np.array([0]), np.ones(1), n_features_in=3), eps=0.5)
    >>> first.holds, list(first.failures), bool(first.selected <= first.bound)
    (False, ['premise'], True)
    """
    X = check_X(X, name="X")
    selection = _check_selection(selection, X.shape[1])
    eps = _check_eps(eps)
    distortion, rank = _distortion(X, selection)
    if eps is None:
        eps = _theorem_eps(distortion)
    _, (low, high) = _enclosing_ball(X)
    _, (sel_low, sel_high) = _enclosing_ball(selection.apply(X))
    full = 0.5 * (low + high)
    theorem, quantity = "001 Theorem 2", "B^2, the squared radius of the minimum enclosing ball"
    selected, bound = 0.5 * (sel_low + sel_high), (1.0 + eps) * full
    premise = vacuous = None
    if distortion > eps:
        premise = (
            f"this selection distorts the row space of X by ||E|| = {distortion:.3g} > eps "
            f"= {eps:.3g}, and {theorem}'s radius bound needs ||E|| <= eps; the theorem "
            f"does not apply ({_fix_hint(theorem, rank, X.shape[1], eps)})"
        )
    if eps >= 1:
        vacuous = (
            f"eps = {eps:.3g} is not below 1: {theorem} is stated for eps in (0, 1), and "
            f"the default eps ||E|| / (1 - ||E||) is below 1 only for ||E|| < 1/2 "
            f"(measured: {distortion:.3g}; {_fix_hint(theorem, rank, X.shape[1], eps)})"
        )
    met = sel_low <= (1.0 + eps) * high
    return Report(
        theorem=theorem,
        form="enclosing-ball radius",
        quantity=quantity,
        relation="selected <= bound",
        full=float(full),
        selected=float(selected),
        bound=float(bound),
        eps=float(eps),
        distortion=float(distortion),
        failures=_failures(
            premise=premise,
            vacuous=vacuous,
            conclusion=None if met else _conclusion(quantity, "selected <= bound", selected, bound),
        ),
        details=types.MappingProxyType(
            {"n_samples": X.shape[0], "n_selected": selection.n_selected}
        ),
    )


# -- RLSC (000 Theorems 1-2) ------------------------------------------------------


def _check_points(q, d):
    q = check_X(np.atleast_2d(q) if not sp.issparse(q) else q, name="q")
    if q.shape[1] != d:
        raise ValueError(
            f"q has {q.shape[1]} features but X has {d}; pass test points as rows over the "
            "same features as X."
        )
    return q.toarray() if sp.issparse(q) else q


def _check_lam(lam):
    if isinstance(lam, bool) or not isinstance(lam, Real):
        raise TypeError(f"lam must be a number >= 0; got {lam!r}.")
    if not (lam >= 0 and math.isfinite(lam)):
        raise ValueError(f"lam must be a finite number >= 0; got lam={lam}.")
    return float(lam)


def rlsc_bound(X, y, q, lam, selection, eps=None, *, relative=False):
    r"""Check 000's bounds on RLSC's decision values at test points q, for a selection.

    ``f(q) = q'X'x`` with x the RLSC solution on X (000 eq. 1-3), ``f~(q) = (R'q)'(X R)'x~``
    with x~ the solution on ``X R`` (eq. 4-5). A test point is split as
    ``q = X'alpha + q_perp`` (000 writes ``q = X alpha + U_perp beta``): alpha the
    minimum-norm coefficients of its part in the span of the training points,
    ``||beta|| = ||q_perp||`` its part outside. With kappa and sigma_max the condition
    number and largest singular value of X:

    - 000 Theorem 1, lam > 0:
      ``|f~ - f| <= 2 eps kappa ||alpha|| ||y|| + 2 eps kappa / sigma_max ||beta|| ||y||``;
    - 000 Theorem 1, lam = 0: ``|f~ - f| <= 2 eps kappa / sigma_max ||beta|| ||y||``. The
      theorem prints this term without the 2; its proof (eq. 16-17) gives the 2, which
      is needed: the quantity can reach ``eps / (1 - eps)`` times the printed bound;
    - 000 Theorem 2 (``relative=True``, lam > 0, every q in the training subspace):
      ``|f~ - f| <= 2 eps omega kappa |f|`` with the smallest omega of the theorem,
      ``omega |f| = ||(I + lam S^-2)^-1 U'alpha|| ||U'y||`` (X = U S V').

    What eps means: the proof needs ``||I - V'R R'V|| <= eps`` for V the right
    singular vectors of X (000 Lemma 2; BSS with ``r = 9 rank / eps^2``) *and*, for
    the beta term, 000 Lemma 6: ``||q_perp' R R'V|| <= eps ||q_perp||``, which BSS
    does not control (it says nothing about directions outside the span of V). With
    ``eps=None`` both are measured, and eps is the larger. The theorem assumes
    ``eps <= 1/2``; above, the beta term uses the proof's factor
    ``kappa / ((1 - eps) sigma_max)`` in place of ``2 kappa / sigma_max`` (inf for
    eps >= 1), and the alpha term holds as stated (see docs/guarantees.md). A given
    eps that is below the measured one fails the premise (the theorem does not
    apply); a measured eps of 1 or more, or a bound that is not finite, fails as
    vacuous; ``|selected - full| > bound`` fails the conclusion (``failures`` names
    each).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        Training points.
    y : array-like of shape (n,)
        Two classes (the larger is +1).
    q : array-like of shape (m, d) or (d,)
        Test points, as rows.
    lam : float >= 0
        RLSC's penalty lambda (000 eq. 1).
    selection : sparsify.Selection
        Over the d features of X.
    eps : float in [0, 1/2] or None, default=None
        The accuracy to check; None uses the measured distortion and Lemma 6's ratio.
    relative : bool, default=False
        000 Theorem 2 instead of Theorem 1.

    Returns
    -------
    Report
        ``full = f(q)``, ``selected = f~(q)`` (arrays, one per point), ``bound`` per
        point; ``holds`` when ``|selected - full| <= bound`` at every point.

    Raises
    ------
    ValueError
        Bad X, y, q, lam, selection or eps (the message names the argument), or
        ``relative=True`` with lam = 0 or a test point outside the span of X's rows.
    TypeError
        A selection that is not a :class:`sparsify.Selection`, or lam or eps not a number.

    See Also
    --------
    solvers.testing.assert_rlsc_bound : The same, as an assertion.
    solvers.RLSC : The estimator whose decision values are compared.
    solvers.formulations.rlsc : 000 eq. (1) as a CVXPY problem.

    Examples
    --------
    >>> from sparsify import bss
    >>> from sparsify.utils import right_singular_vectors
    >>> from solvers.guarantees import rlsc_bound
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 30))
    >>> y = np.where(X[:, 0] > 0, 1, -1)
    >>> report = rlsc_bound(X, y, X[:3], 1.0, bss(right_singular_vectors(X)[0], r=12))
    >>> report.theorem, report.holds, report.full.shape
    ('000 Theorem 1', True, (3,))
    >>> bool(np.all(np.abs(report.selected - report.full) <= report.bound))
    True
    """
    X = check_X(X, name="X")
    y = _check_labels(y, X.shape[0])
    selection = _check_selection(selection, X.shape[1])
    q = _check_points(q, X.shape[1])
    lam = _check_lam(lam)
    eps = _check_eps(eps, high=0.5)
    V, s = right_singular_vectors(X)
    kappa, s_max = s[0] / s[-1], s[0]
    coords = q @ V  # V'q: the part of q in the row space of X
    q_perp = q - coords @ V.T
    beta = np.linalg.norm(q_perp, axis=1)
    # Rounding leaves a part ~1e-16 ||q|| outside the span even for q = X'a: zero it.
    beta[beta <= _IN_SUBSPACE_RTOL * np.linalg.norm(q, axis=1)] = 0.0
    U = np.asarray(X @ V) / s  # X = U S V'
    alpha = np.linalg.norm(coords / s, axis=1)  # alpha = U S^-1 V'q
    y_norm = np.linalg.norm(y)
    distortion = _subspace_distortion(V, selection)
    RtV = np.zeros((X.shape[1], V.shape[1]))
    RtV[selection.indices] = V[selection.indices] * selection.scales[:, None] ** 2
    cross = np.linalg.norm(q_perp @ RtV, axis=1)  # ||q_perp' R R' V|| (000 Lemma 6)
    lemma6 = float(np.max(np.divide(cross, beta, out=np.zeros_like(cross), where=beta > 0)))
    measured = max(distortion, lemma6)
    if eps is None:
        eps = measured
    if relative:
        if lam == 0:
            raise ValueError("relative=True (000 Theorem 2) needs lam > 0; got lam=0.")
        outside = beta > 0
        if np.any(outside):
            raise ValueError(
                f"relative=True (000 Theorem 2) needs every test point in the span of the "
                f"training points; {int(outside.sum())} row(s) of q are not. Use "
                "relative=False (Theorem 1)."
            )
    if eps <= 0.5:
        beta_factor = 2.0 * eps * kappa / s_max
    elif eps < 1:
        beta_factor = eps * kappa / ((1.0 - eps) * s_max)
    else:
        beta_factor = np.inf
    beta_term = np.zeros_like(beta)
    beta_term[beta > 0] = beta_factor * beta[beta > 0] * y_norm
    details = {"lam": lam, "kappa": kappa, "sigma_max": s_max, "lemma6": lemma6}
    if relative:
        shrink = (s**2 / (s**2 + lam)) * (coords / s)  # (I + lam S^-2)^-1 U'alpha
        alpha_term = 2.0 * eps * kappa * np.linalg.norm(shrink, axis=1) * np.linalg.norm(U.T @ y)
        theorem, form = "000 Theorem 2", "relative, q in the training subspace"
    else:
        if lam > 0:
            alpha_term = 2.0 * eps * kappa * alpha * y_norm
        else:  # 0 (000 eq. 14) while V'RR'V is invertible, which eps < 1 ensures
            alpha_term = np.where(alpha > 0, 0.0 if eps < 1 else np.inf, 0.0)
        theorem, form = "000 Theorem 1", "additive, lam > 0" if lam > 0 else "additive, lam = 0"
    bound = alpha_term + beta_term
    full = RLSC(lam=lam).fit(X, y).decision_function(q)
    selected = RLSC(lam=lam).fit(selection.apply(X), y).decision_function(selection.apply(q))
    scale = np.abs(full) + kappa * (alpha + beta / s_max) * y_norm
    missed = np.abs(selected - full) > bound + _RLSC_RTOL * scale
    quantity = "f(q) = q'X'x, RLSC's decision value (000 eq. 3)"
    relation = "|selected - full| <= bound"
    premise = vacuous = conclusion = None
    if measured > eps:
        premise = (
            f"this selection distorts the row space of X by ||E|| = {distortion:.3g} and "
            f"000 Lemma 6's ratio is {lemma6:.3g}; {theorem} needs both <= eps = {eps:.3g}, "
            "so it does not apply (select more features: BSS with r = "
            "required_features(eps, '000 Theorem 1', X=X))"
        )
    if eps >= 1:  # also where the bound is inf: eps < 1 keeps every term finite
        vacuous = (
            f"the measured eps = {eps:.3g} is not below 1: {theorem} is stated for eps <= 1/2 "
            "and its proof needs eps < 1 (V'RR'V invertible); the bound is infinite at "
            f"{int(np.sum(~np.isfinite(bound)))} of {bound.size} test point(s)"
        )
    if np.any(missed):
        conclusion = (
            f"|f~(q) - f(q)| exceeds the bound at {int(missed.sum())} of {missed.size} test "
            f"point(s) (the largest excess: {float(np.max(np.abs(selected - full) - bound)):.3g})"
        )
    return Report(
        theorem=theorem,
        form=form,
        quantity=quantity,
        relation=relation,
        full=full,
        selected=selected,
        bound=bound,
        eps=float(eps),
        distortion=float(distortion),
        failures=_failures(premise=premise, vacuous=vacuous, conclusion=conclusion),
        details=types.MappingProxyType(details),
    )


# -- BSS (000 Lemma 1) -------------------------------------------------------------


def check_spectral(V, selection, r=None):
    """Check 000 Lemma 1: every eigenvalue of ``V'R R'V`` lies in ``[(1 - s)^2, (1 + s)^2]``.

    ``s = sqrt(ell / r)`` for V of shape (d, ell) with orthonormal columns and r BSS
    iterations (default: the number of selected features, which is at most r, so
    the bound is then at least as wide as the lemma's).

    The lemma's premise is ``r > ell`` and at most r selected features (BSS picks
    one per iteration); the bound is vacuous when its lower end ``(1 - s)^2`` is 0
    (r = ell: it would admit a singular ``V'RR'V``); the conclusion is that every
    eigenvalue lies in the interval. ``failures`` names each part that fails.

    Parameters
    ----------
    V : array-like of shape (d, ell)
        Orthonormal columns (e.g. ``sparsify.utils.right_singular_vectors(X)[0]``).
    selection : sparsify.Selection
        Over the d rows of V.
    r : int, optional
        The r the selection was made with (the lemma needs r > ell).

    Returns
    -------
    Report
        ``full = 1`` (the eigenvalues of ``V'V``), ``selected = [min, max]``
        eigenvalue of ``V'R R'V``, ``bound = [(1 - s)^2, (1 + s)^2]``, ``eps = s``.

    Raises
    ------
    ValueError
        V without orthonormal columns, a selection over another number of features,
        or r not a positive integer.
    TypeError
        A selection that is not a :class:`sparsify.Selection`.

    See Also
    --------
    solvers.testing.assert_spectral_bound : The same, as an assertion.
    sparsify.bss : The selection Lemma 1 is about.
    sparsify.spectral_distortion : ``||I - V'R R'V||_2``.

    Examples
    --------
    With ell = 3 and r = 12, ``s = 1/2``: the eigenvalues lie in ``[1/4, 9/4]``.

    >>> from sparsify import bss
    >>> from solvers.guarantees import check_spectral
    >>> V = np.linalg.qr(np.random.default_rng(0).standard_normal((30, 3)))[0]
    >>> report = check_spectral(V, bss(V, r=12), r=12)
    >>> report.holds, report.bound.tolist()
    (True, [0.25, 2.25])
    """
    V = check_orthonormal(V)
    selection = _check_selection(selection, V.shape[0])
    ell = V.shape[1]
    r = selection.n_selected if r is None else r
    if isinstance(r, bool) or not isinstance(r, int | np.integer) or r < 1:
        raise ValueError(f"r must be a positive integer, the r of the BSS run; got r={r!r}.")
    B = V[selection.indices] * selection.scales[:, None]
    eig = np.linalg.eigvalsh(B.T @ B)
    root = math.sqrt(ell / r)
    lower, upper = (1.0 - root) ** 2, (1.0 + root) ** 2
    slack = 1e-12 * max(1.0, upper)
    premise = vacuous = conclusion = None
    if r <= ell or selection.n_selected > r:
        premise = (
            f"000 Lemma 1 needs r > ell = {ell} and at most r selected features; got r = {r} "
            f"and {selection.n_selected} selected (give the r of the BSS run, r > ell)"
        )
    if lower <= slack:
        vacuous = (
            f"with r = {r} and ell = {ell}, s = sqrt(ell / r) = {root:.3g} and the lower end "
            f"(1 - s)^2 = {lower:.3g} admits a singular V'RR'V"
        )
    if not (eig[0] >= lower - slack and eig[-1] <= upper + slack):
        conclusion = (
            f"the eigenvalues of V'RR'V span [{eig[0]:.3g}, {eig[-1]:.3g}], outside "
            f"[{lower:.3g}, {upper:.3g}]"
        )
    return Report(
        theorem="000 Lemma 1",
        form="eigenvalues of V'RR'V",
        quantity="eigenvalues of V'RR'V (min, max)",
        relation="bound[0] <= selected <= bound[1]",
        full=1.0,
        selected=np.array([eig[0], eig[-1]]),
        bound=np.array([lower, upper]),
        eps=root,
        distortion=float(max(1.0 - eig[0], eig[-1] - 1.0, 0.0)),
        failures=_failures(premise=premise, vacuous=vacuous, conclusion=conclusion),
        details=types.MappingProxyType({"ell": ell, "r": int(r)}),
    )


# -- how many features -------------------------------------------------------------

#: The theorems :func:`required_features` knows, and what its ``ell`` is for each.
THEOREMS = {
    "001 Theorem 1": "p, the number of support vectors (r = 36 p / eps^2)",
    "001 Theorem 2": "rho, the rank of X (r = 36 rho / eps^2)",
    "001 Lemma 2": "the rank of X (leverage-score sampling, failure probability delta)",
    "000 Lemma 1": "ell, the columns of V (eigenvalues of V'RR'V within [1 - eps, 1 + eps])",
    "000 Lemma 2": "ell, the columns of V (||I - V'RR'V|| <= 3 sqrt(ell / r) <= eps)",
    "000 Theorem 1": "the rank of X (r = 9 rank / eps^2, 000 Lemma 2 at eps)",
    "000 Theorem 2": "the rank of X (as 000 Theorem 1)",
}


def _theorem_key(theorem):
    if not isinstance(theorem, str):
        raise TypeError(f"theorem must be a string such as '001 Theorem 1'; got {theorem!r}.")
    wanted = " ".join(theorem.replace("_", " ").replace("-", " ").split()).lower()
    for key in THEOREMS:
        if key.lower() == wanted:
            return key
    raise ValueError(f"theorem must be one of {list(THEOREMS)}; got {theorem!r}.")


def required_features(eps, theorem, ell=None, *, X=None, y=None, C=None, delta=0.01):
    """The number of features r a theorem asks for to guarantee accuracy eps.

    ======================  ==============================================  =========
    theorem                 r                                               ell
    ======================  ==============================================  =========
    ``"001 Theorem 1"``     ``ceil(36 p / eps^2)``                          p (SVs)
    ``"001 Theorem 2"``     ``ceil(36 rho / eps^2)``                        rank of X
    ``"001 Lemma 2"``       ``ceil(36 k / eps^2 ln(k / (eps^2 sqrt(delta))))``  rank
    ``"000 Lemma 1"``       ``ceil(ell / (sqrt(1 + eps) - 1)^2)``           ell
    ``"000 Lemma 2"``       ``ceil(9 ell / eps^2)``                         ell
    ``"000 Theorem 1/2"``   ``ceil(9 rank / eps^2)`` (eps <= 1/2)           rank of X
    ======================  ==============================================  =========

    001 Theorem 1's r makes BSS's distortion at most ``3 sqrt(p / r) = eps / 2``
    (000 Lemma 2), hence ``||E|| / (1 - ||E||) <= eps`` as its proof needs; 001
    Theorem 2's O(rho / eps^2) is taken with the same constant (distortion eps / 2
    gives both the margin and the radius). 000 Lemma 1's r keeps every eigenvalue of
    ``V'R R'V`` within ``[1 - eps, 1 + eps]``. Every r is at least ell + 1 (BSS
    needs r > ell).

    Parameters
    ----------
    eps : float in (0, 1)
        The accuracy to guarantee (at most 1/2 for 000 Theorems 1-2).
    theorem : str
        A key of :data:`THEOREMS` (case, spaces, '-' and '_' are ignored).
    ell : int, optional
        The count the formula uses (see the table). When None it is computed from
        X: the rank of X, or for 001 Theorem 1 the number of support vectors of the
        SVM on (X, y) at C (as in :func:`margin`).
    X : array-like or sparse matrix of shape (n, d), optional
        Data to compute ell from, when ell is None.
    y : array-like of shape (n,), optional
        Labels, to count the support vectors for 001 Theorem 1.
    C : float > 0, np.inf or None, optional
        The SVM's C for 001 Theorem 1, as in :func:`margin`.
    delta : float in (0, 1), default=0.01
        Failure probability, for 001 Lemma 2 only.

    Returns
    -------
    int
        The number of features r to select (at least ell + 1). With X given and
        r above its d features, a UserWarning says that the theorem certifies
        nothing short of every feature there, and what to measure instead (the
        distortion of the top-10 right singular subspace, as 003 sec. 6).

    Raises
    ------
    ValueError
        An unknown theorem, eps outside (0, 1) (or above 1/2 for 000 Theorems 1-2),
        ell not a positive integer, or neither ell nor X given.
    TypeError
        A theorem that is not a string.

    Warns
    -----
    UserWarning
        With X given, when r exceeds its number of features d.

    See Also
    --------
    THEOREMS : The theorems known, and what ell is for each.
    sparsify.bss : The selection with r features.
    check_margin : Whether a selection delivers the eps.

    Examples
    --------
    001 Theorem 1 with 10 support vectors and eps = 1/2 asks for ``36 * 10 / (1/4)``:

    >>> from solvers.guarantees import required_features
    >>> required_features(0.5, "001 Theorem 1", ell=10)
    1440
    """
    key = _theorem_key(theorem)
    if isinstance(eps, bool) or not isinstance(eps, Real) or not 0 < eps < 1:
        raise ValueError(f"eps must be a number in (0, 1); got eps={eps!r}.")
    if key.startswith("000 Theorem") and eps > 0.5:
        raise ValueError(f"{key} assumes eps <= 1/2; got eps={eps}.")
    if ell is None:
        if X is None:
            raise ValueError(f"give ell (for {key}: {THEOREMS[key]}) or the data X to count it.")
        X = check_X(X, name="X")
        if key == "001 Theorem 1":
            ell = int(margin(X, y, C).support.size)
        else:
            ell = right_singular_vectors(X)[0].shape[1]
    if isinstance(ell, bool) or not isinstance(ell, int | np.integer) or ell < 1:
        raise ValueError(f"ell must be a positive integer; got ell={ell!r}.")
    ell = int(ell)
    if key in ("001 Theorem 1", "001 Theorem 2"):
        r = bss_features(eps, ell)
    elif key == "001 Lemma 2":
        r = leverage_features(eps, ell, delta)
    elif key == "000 Lemma 1":  # sqrt(1 + eps) - 1 = eps / (sqrt(1 + eps) + 1): no cancellation
        r = max(_over_square(ell * (math.sqrt(1.0 + eps) + 1.0) ** 2, eps), ell + 1)
    else:
        r = max(_over_square(9 * ell, eps), ell + 1)
    if X is not None and r > X.shape[1]:
        warnings.warn(
            f"{key} asks for r = {_digits(r)} features at eps = {eps:g} (ell = {ell}), more "
            f"than the d = {X.shape[1]} features of X: the theorem certifies nothing short of "
            "keeping every feature on data of this shape (as on text, where a few hundred "
            "documents have a few thousand words); it says something for d well above r. "
            + _measure_instead()
            + ".",
            UserWarning,
            stacklevel=2,
        )
    return r
