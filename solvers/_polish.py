"""Polishing a backend's answer: the exact solution once its pattern is known.

An interior-point backend returns a point near the optimum: coefficients that should
be zero are 1e-10, the others are right to about the backend's tolerance. Once the
*pattern* of the solution is read off that point (which coefficients are nonzero and
their signs; which samples are inside the margin), the optimum is the solution of a
small linear system, as on a segment of the exact path (004 sec. 2.2.1). The
estimators polish only when the backend's own point fails its certificate
(:mod:`solvers.certificates`), and keep the polished point only if its certificate
holds.

Each function takes ``sample_weight`` (``s_i > 0`` multiplying sample i's loss; the
estimators drop samples of weight 0 before solving): the systems below are then the
weighted ones (``Z'S Z``, boxes ``C s_i``), written out in each docstring.
"""

import numpy as np
import scipy.sparse as sp
from numba import njit

from sparsify.utils import column_norms

from ._memory import dense_fits

__all__ = ["hinge_intercept", "refit_on_support", "refit_svm_dual"]

# A coefficient is on the support when |coef_j| ||X_j|| exceeds this fraction of the largest.
_SUPPORT_RTOL = 1e-7
# Multipliers within this fraction of their box's bound are at the bound.
_BOUND_RTOL = 1e-6
# Patterns of support vectors tried by the 2-norm SVMs' refit (the largest drops of the
# sorted multipliers), and the margin violation below which a pattern's solution is the
# optimum (margins are relative to 1).
_PATTERNS = 3
_MARGIN_RTOL = 1e-9
# Rounds of moving the multipliers that leave their box to it, per pattern.
_BOX_ROUNDS = 5
# Rounds of the active-set iteration for the squared hinge.
_MAX_ROUNDS = 50
# Rounds of the squared hinge intercept's iteration on the samples inside the margin
# before the exact sweep over the breakpoints takes over.
_INTERCEPT_ROUNDS = 8


def hinge_intercept(offsets, y, *, squared, sample_weight=None):
    """The intercept b minimising ``sum_i s_i loss(1 - y_i (offsets_i + b))`` exactly.

    For the hinge (a convex piecewise-linear function of b) the minimiser is a
    breakpoint ``y_i - offsets_i`` where the slope changes sign; for the squared
    hinge it is the s-weighted mean of ``y_i - offsets_i`` over the samples inside
    the margin, found by iterating on that set.

    Parameters
    ----------
    offsets : ndarray of shape (n_samples,)
        ``X w`` for the fixed coefficients w.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    squared : bool
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` (default 1).

    Returns
    -------
    float
    """
    s = np.ones(y.size) if sample_weight is None else sample_weight
    offsets, y, s = (np.ascontiguousarray(a, dtype=np.float64) for a in (offsets, y, s))
    b = float(_best_intercept(offsets, y, s, bool(squared)))
    if squared:  # the mean over the samples inside, summed afresh (the sweep's running
        # sums drift by rounding; a column at 1e12 makes the last bits of b count)
        inside = y * (offsets + b) < 1.0
        if inside.any():
            b = float(np.average((y - offsets)[inside], weights=s[inside]))
    return b


@njit(cache=True)
def _best_intercept(offsets, y, s, squared):
    """:func:`hinge_intercept`'s minimiser, compiled (it runs at every gap check of the
    dual coordinate descent)."""
    targets = y - offsets  # y_i (offsets_i + b) = 1  <=>  b = y_i - offsets_i
    if squared:
        # b = the mean over the samples inside the margin at b, iterated from the mean
        # over all: where the samples inside stop changing, b is a stationary point of a
        # convex function, the minimum; the iteration may also cycle, then the sweep.
        b = np.sum(s * targets) / np.sum(s)
        for _ in range(_INTERCEPT_ROUNDS):
            total = weight = 0.0
            for i in range(y.size):
                if y[i] * (offsets[i] + b) < 1.0:
                    total += s[i] * targets[i]
                    weight += s[i]
            new = total / weight if weight > 0.0 else b
            if new == b:
                return b
            b = new
        return _squared_hinge_intercept(targets, y, s)
    # The slope just right of b is (the negatives' weight at or left of b) - (the
    # positives' weight right of b) = (the weight at or left of b) - (the positives'
    # weight): the minimiser is the smallest breakpoint whose weight at or left of it
    # reaches the positives' weight, a weighted quantile.
    positives = 0.0
    for i in range(y.size):
        if y[i] > 0:
            positives += s[i]
    return _weighted_quantile(targets, s, positives)


@njit(cache=True)
def _weighted_quantile(values, weights, level):
    """The smallest of ``values`` whose weight at or below it (``sum_{v_i <= v} w_i``)
    is at least ``level`` (the largest value when none is; NaN when a value is NaN).

    Quickselect (Hoare 1961) on the weights: a pivot (the median of three values drawn
    from a fixed sequence) splits the candidates into those below, equal and above, and
    the search goes on in the part where the level is reached, the weight below carried
    along: linear expected time, where a sort of 20 000 margins took 2 ms at each gap
    check of the dual coordinate descent (Debian documents, issue 32).
    """
    n = values.size
    for i in range(n):
        if values[i] != values[i]:
            return values[i]
    candidates = np.arange(n)
    first, stop = 0, n  # the candidates left: candidates[first:stop]
    below = 0.0  # weight of the values already known to lie below every candidate
    state = np.uint64(0x9E3779B97F4A7C15)
    while True:
        # The median of three draws of a xorshift sequence (fixed: the same answer on
        # every run).
        a = b = c = 0.0
        for _ in range(3):
            state ^= state << np.uint64(13)
            state ^= state >> np.uint64(7)
            state ^= state << np.uint64(17)
            pick = values[candidates[first + int(state % np.uint64(stop - first))]]
            a, b, c = b, c, pick
        pivot = max(min(a, b), min(max(a, b), c))
        # Three-way partition of the candidates: below | equal | above.
        low, middle, high = first, first, stop
        weight_low = weight_equal = 0.0
        while middle < high:
            i = candidates[middle]
            if values[i] < pivot:
                candidates[middle], candidates[low] = candidates[low], i
                weight_low += weights[i]
                low += 1
                middle += 1
            elif values[i] > pivot:
                high -= 1
                candidates[middle], candidates[high] = candidates[high], i
            else:
                weight_equal += weights[i]
                middle += 1
        if low > first and below + weight_low >= level:
            stop = low  # the quantile lies below the pivot
        elif below + weight_low + weight_equal >= level or high == stop:
            return pivot
        else:
            below += weight_low + weight_equal
            first = high


@njit(cache=True)
def _squared_hinge_intercept(targets, y, s):
    """The minimiser of ``sum_i s_i [y_i (t_i - b)]_+^2`` (``t_i = y_i - f_i``): sample i
    is inside the margin for ``b < t_i`` when ``y_i = 1``, for ``b > t_i`` when
    ``y_i = -1``. Between consecutive breakpoints the samples inside are fixed and the
    quadratic's minimiser is their s-weighted mean of t; the function is convex and
    continuously differentiable, so the minimiser is the interval's mean that lies in its
    interval (the intervals taken from the left, the sums updated at each breakpoint).
    """
    order = np.argsort(targets, kind="mergesort")
    weight = total = 0.0
    for i in range(y.size):  # left of every breakpoint: the positives are inside
        if y[i] > 0:
            weight += s[i]
            total += s[i] * targets[i]
    empty = 1e-12 * np.sum(s)  # a weight left by rounding when every sample has left
    low = -np.inf
    for k in range(order.size + 1):
        high = targets[order[k]] if k < order.size else np.inf
        if weight > empty:
            mean = total / weight
            slack = 1e-12 * (abs(mean) + 1.0)  # rounding of the sums
            if low - slack <= mean <= high + slack:
                return min(max(mean, low), high)
        elif k > 0 and (k < order.size or np.isfinite(low)):
            return low  # nobody inside: the objective is 0 on this interval
        if k < order.size:
            i = order[k]
            sign = 1.0 if y[i] > 0 else -1.0  # a positive leaves, a negative enters
            weight -= sign * s[i]
            total -= sign * s[i] * targets[i]
            low = high
    return low


def refit_on_support(X, y, coef, intercept, lam, weights, *, rows=None, sample_weight=None):
    """Solve the weighted-lasso stationarity on the support and signs of ``coef``.

    With S the support of ``coef`` (entries whose ``|coef_j| ||X_j||`` is not
    negligible) and g their signs, the minimiser of
    ``sum_{i in E} s_i (y_i - x_{i,S}'b_S - b0)^2 + lam sum_S W_j g_j b_j`` over the rows
    E solves ``Z'S Z theta = Z'S y_E - (lam / 2) [0; W_S g]`` with ``Z = [1, X_{E,S}]``
    (S the diagonal of the sample weights, 1 by default). That is the
    lasso (E all rows, 004 eq. 3) and SVM2 (E the samples inside the margin, eq. 7,
    where the squared hinge is ``(y_i - f_i)^2``); for SVM2 the rows are updated and
    the system solved again until they no longer change.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    coef : ndarray of shape (n_features,)
    intercept : float
    lam : float
    weights : ndarray of shape (n_features,)
        Finite penalty weights.
    rows : {None, "margin"}
        None: every row (the lasso); "margin": the samples with ``y_i f_i < 1``.
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` (default 1).

    Returns
    -------
    coef, intercept : the refitted point, or None if the system is singular, or its
        dense block of n x (|S| + 1) entries would outgrow a sparse X
        (:func:`solvers._memory.dense_fits`).
    """
    norms = column_norms(X)
    contribution = np.abs(coef) * norms
    support = np.flatnonzero(contribution > _SUPPORT_RTOL * contribution.max(initial=0.0))
    if not dense_fits(X, X.shape[0] * (support.size + 1)):  # the dense block below
        return None
    signs = np.sign(coef[support])
    columns = X[:, support]
    columns = columns.toarray() if sp.issparse(columns) else np.asarray(columns)
    Z = np.column_stack((np.ones(X.shape[0]), columns))
    rhs_penalty = 0.5 * lam * np.concatenate(([0.0], weights[support] * signs))
    theta = np.concatenate(([intercept], coef[support]))
    s = np.ones(X.shape[0]) if sample_weight is None else sample_weight
    inside = None
    for _ in range(_MAX_ROUNDS if rows == "margin" else 1):
        if rows == "margin":
            now = y * (Z @ theta) < 1.0
            if inside is not None and np.array_equal(now, inside):
                break
            inside = now
        Z_rows = Z if inside is None else Z[inside]
        y_rows = y if inside is None else y[inside]
        weighted = Z_rows.T * (s if inside is None else s[inside])
        try:
            theta = np.linalg.solve(weighted @ Z_rows, weighted @ y_rows - rhs_penalty)
        except np.linalg.LinAlgError:
            return None
    refitted = np.zeros_like(coef)
    refitted[support] = theta[1:]
    return refitted, float(theta[0])


def _least_norm(system, rhs):
    """The least-norm solution of a consistent singular system (None: inconsistent)."""
    solution = np.linalg.lstsq(system, rhs, rcond=None)[0]
    residual = np.linalg.norm(system @ solution - rhs)
    if residual > 1e-9 * max(np.linalg.norm(rhs), 1.0):
        raise np.linalg.LinAlgError("inconsistent system")
    return solution


def _support_sizes(values):
    """Candidate numbers of support vectors among multipliers sorted in decreasing order.

    An interior-point backend leaves the multipliers of the other samples at 1e-10 to
    1e-4 of the largest, a first-order one at 0 or near it; the support vectors'
    multipliers themselves span decades with sample weights over decades, or scale
    with ``||w||^2`` rather than with C at a hard margin. No threshold relative to C
    or to the largest separates them: the cut is where the sorted values drop the
    most, ``values[k - 1] / values[k]``, the smallest value compared with the rounding
    level ``eps * values[0]`` (every multiplier kept). The `_PATTERNS` largest drops,
    largest first.
    """
    if values.size == 0:
        return [0]
    floor = np.finfo(float).eps * values[0]
    drops = values / np.append(values[1:], floor)
    return list(np.argsort(-drops, kind="stable")[:_PATTERNS] + 1)


def refit_svm_dual(X, y, alpha, C, *, squared, sample_weight=None, column_scale=None):
    """Solve the 2-norm SVM's KKT system on the support-vector pattern of ``alpha``.

    With the boxes ``u_i = C s_i`` (s the sample weights, 1 by default), F the free
    support vectors (``0 < a_i < u_i``; for the squared hinge every ``a_i > 0``) and B
    those at their bound (hinge only), the optimum of 001 eq. (2) satisfies
    ``y_i (x_i'w + b) = 1`` on F (``= 1 - a_i / (2 u_i)`` for the squared hinge),
    ``w = X'Y a`` and ``y'a = 0``: a linear system in ``(a_F, b)`` of size ``|F| + 1``
    with the Gram matrix of F.

    B is read off ``alpha`` relative to each box (``a_i >= (1 - 1e-6) u_i``); F is not
    read off a threshold (:func:`_support_sizes`): F is the largest of the other
    multipliers, cut at each of the largest drops of their sorted values in turn, and
    the first solution whose samples outside F and B keep their margin (``y_i f_i >=
    1``) and whose samples in B have theirs (``y_i f_i <= 1``) to `_MARGIN_RTOL` is
    returned (the KKT conditions: it is the optimum), else the one that violates them
    least. A multiplier of F that the solution puts past its box joins B and the
    system is solved again (an interior point leaves those of small boxes at 1 - 1e-5
    of them). The hinge's (w, b) are divided by the smallest margin of F when it is
    short of 1 by rounding, which costs ``C s_i`` times the shortfall.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    alpha : ndarray of shape (n_samples,)
        The backend's dual point.
    C : float
    squared : bool
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` (default 1).
    column_scale : ndarray of shape (n_features,), optional
        Scales t of columns that dwarf the others (as ``svm_primal``'s): the Gram
        matrix of F is then dominated by them, and the system is solved instead with
        ``v = t w`` among its unknowns, on the columns ``Z = X / t``:
        ``v / t^2 = Z_F'Y_F a_F + Z_B'Y_B u_B`` beside the two conditions above, a
        system of size ``d + |F| + 1`` whose entries are of the scale of Z.

    Returns
    -------
    (alpha, coef, intercept), or None when no pattern's system has a solution in the
    box.
    """
    upper = C * (np.ones(alpha.size) if sample_weight is None else sample_weight)
    at_bound = np.zeros(alpha.shape, bool) if squared else alpha >= upper * (1.0 - _BOUND_RTOL)
    inner = np.flatnonzero((alpha > 0) & ~at_bound)
    order = inner[np.argsort(-alpha[inner], kind="stable")]  # candidates for F, largest first
    if column_scale is not None:
        X = X @ sp.diags(1.0 / column_scale) if sp.issparse(X) else X / column_scale
    rows = X[order]
    rows = rows.toarray() if sp.issparse(rows) else np.asarray(rows)
    labelled = y[order, None] * rows
    gram = labelled @ labelled.T if column_scale is None else None
    # The margins checked: those of samples with a box (a weight of 0 fixes a_i = 0).
    checked = upper > 0
    best = None
    for size in _support_sizes(alpha[order]):
        free, bound = np.arange(size), at_bound.copy()  # F: positions in order
        for _ in range(_BOX_ROUNDS):
            # F the first `size` (views, no copies), less those moved to their bound.
            pick = slice(0, size) if free.size == size else free
            found = _solve_face(
                X, y, order[pick], labelled[pick],
                None if gram is None else gram[pick, pick] if free.size == size
                else gram[np.ix_(free, free)],
                upper, np.flatnonzero(bound), squared=squared, column_scale=column_scale,
            )  # fmt: skip
            if found is None or squared:
                break
            leaving = found[0][order[free]] > upper[order[free]]
            if not leaving.any():
                break
            # Multipliers past their box are at it (an interior point leaves those of
            # small boxes at 1 - 1e-5 of them: no threshold relative to the box tells).
            bound[order[free[leaving]]] = True
            free = free[~leaving]
        if found is None or (not squared and np.any(found[0] > upper)):
            continue
        refitted, coef, intercept, fitted = found
        margins = y * fitted - 1.0
        outside = checked & (refitted == 0)
        violation = max(
            float(np.max(-margins[outside], initial=0.0)),
            float(np.max(margins[bound & checked], initial=0.0)),
        )
        if best is None or violation < best[0]:
            best = (violation, refitted, coef, intercept, y[order[free]] * fitted[order[free]])
        if violation <= _MARGIN_RTOL:
            break
    if best is None:
        return None
    _, refitted, coef, intercept, free_margins = best
    # The hinge's free support vectors have margin 1 to rounding, and one short of it
    # by 1e-14 costs C s_i times that: 1e-5 of a hard margin's objective at C s_i = 1e9.
    # (w, b) divided by their smallest margin m meet it, at 1/m^2 - 1 (rounding) of
    # ||w||^2 / 2.
    smallest = float(np.min(free_margins, initial=1.0))
    if not squared and 0.0 < smallest < 1.0:
        coef, intercept = coef / smallest, intercept / smallest
    return refitted, coef, intercept


def _solve_face(X, y, free, labelled, gram, upper, bound, *, squared, column_scale):
    """:func:`refit_svm_dual`'s system on one pattern (F = ``free``, B = ``bound``):
    ``(alpha, coef, intercept, X coef + intercept)`` in X's columns (scaled by
    ``column_scale``, whose coefficients are returned unscaled), or None when it has no
    solution with ``alpha >= 0`` (the caller checks the upper bounds)."""
    f = free.size
    base = np.asarray(X[bound].T @ (upper[bound] * y[bound])).ravel()
    balance = -(upper[bound] @ y[bound])
    ridge = np.diag(0.5 / upper[free]) if squared else 0.0
    if column_scale is None:
        system = np.zeros((f + 1, f + 1))
        system[:-1, :-1] = gram + ridge
        system[:-1, -1] = y[free]
        system[-1, :-1] = y[free]
        rhs = np.concatenate((1.0 - labelled @ base, [balance]))
    else:  # unknowns (a_F, b, v)
        d = X.shape[1]
        system = np.zeros((f + 1 + d, f + 1 + d))
        system[:f, :f] = ridge
        system[:f, f] = y[free]
        system[:f, f + 1 :] = labelled
        system[f, :f] = y[free]
        system[f + 1 :, :f] = -labelled.T
        system[f + 1 :, f + 1 :] = np.diag(column_scale**-2.0)
        rhs = np.concatenate((np.ones(f), [balance], base))
    refitted = np.zeros(y.size)
    refitted[bound] = upper[bound]
    for solve in (np.linalg.solve, _least_norm):
        # Duplicated support vectors make the system singular: their multipliers are
        # not determined, and the least-norm solution splits them evenly.
        try:
            solution = solve(system, rhs)
        except np.linalg.LinAlgError:
            continue
        refitted[free] = solution[:f]
        if not np.any(refitted < 0):
            break
    else:
        return None
    intercept = float(solution[f])
    if column_scale is None:
        coef = np.asarray(X.T @ (y * refitted)).ravel()
        fitted = np.asarray(X @ coef).ravel() + intercept
    else:
        fitted = np.asarray(X @ solution[f + 1 :]).ravel() + intercept
        coef = solution[f + 1 :] / column_scale
    return refitted, coef, intercept, fitted
