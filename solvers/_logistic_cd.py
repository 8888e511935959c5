r"""Proximal Newton with coordinate descent and working sets for L1/elastic-net logistic regression.

Solves, at one lam,

.. math::

    \min_{w, b}\; \sum_i s_i \log(1 + e^{-y_i (x_i'w + b)})
        + \lambda \Big(\rho \sum_j W_j |w_j| + \frac{1 - \rho}{2} \|w\|^2\Big)

(``rho = l1_ratio``, ``s_i > 0`` the sample weights, ``W_j >= 0`` or ``+inf`` the
penalty weights, b unpenalised) by the scheme of glmnet (Friedman, Hastie & Tibshirani
2010, "Regularization paths for generalized linear models via coordinate descent",
sec. 3) and skglm's ``ProxNewton`` (Bertrand et al. 2022, "Beyond L1: faster and better
sparse models with skglm"):

1. *Outer loop.* One product ``X'Ya`` at the dual point ``a = s sigma(-y f)`` of the
   current fit (:meth:`solvers._losses.LOSSES` ``["logistic"].dual_point``), balanced,
   gives the duality gap (the stopping rule, relative to the certificate's scale,
   :func:`solvers.certificates.gap_scale`) and, unless the point needed balancing (then
   from a second product), the gradient of every feature and its distance to the
   optimality conditions, computed in place: one vector of the features' size. The
   *working set* is the support, the unpenalised features and the most violating
   others, ``max(p0, 2 |support|)`` in all (skglm's rule, as
   :mod:`solvers._coordinate_descent`), chosen by a heap of that many places.
2. *Proximal Newton steps* on the working set: the loss is replaced by its second-order
   model at the current fit (weights ``h_i = s_i p_i (1 - p_i)``, glmnet's IRLS
   weights) and the model plus the penalty is minimised by cyclic coordinate descent,
   each coordinate exactly. The intercept is kept optimal for the model at no extra
   cost: every step on ``w_j`` moves ``(w_j, b)`` by ``delta (1, -m_j)`` with ``m_j``
   the h-weighted mean of column j, which leaves ``1'(g + H z)`` (the model's
   derivative in b) at 0 once an exact intercept step has set it there (as the lasso's
   centred steps of :mod:`solvers._coordinate_descent`; word counts are nonnegative
   and frequent words nearly collinear with the constant). Every :data:`FACE_AFTER`
   passes that leave the model unsolved (duplicated or nearly collinear columns, where
   the passes crawl), a *face step* minimises the model exactly on the face of the
   current signs, by a dense solve of the reduced system ``[X_S 1]' H [X_S 1]`` and an
   active-set walk on the orthant (:func:`_face_step`, glmnet's and skglm's reduced
   Newton system); the passes go on from there. A backtracking line search
   on the objective (Armijo's rule with the model's decrease, Lee, Sun & Saunders 2014)
   takes the step. Newton steps repeat until the working set's optimality violation
   is below :data:`INNER_RATIO` of the full one.

The dual, whose value the stopping rule and :func:`solvers.certificates.certificate`
take (the generic certificate is the check of every answer; this is the backend's own
estimate of it): ``max_a sum_i s_i H(a_i / s_i) - sum_j g_j^*(X_j'Y a)`` on
``0 <= a <= s`` and ``y'a = 0``, H the binary entropy and ``g_j^*(v) =
[|v| - lam rho W_j]_+^2 / (2 lam (1 - rho))`` (for ``rho = 1`` the constraint
``|v| <= lam W_j``, an equality for ``W_j = 0``). The dual point is the KKT map
``a = s sigma(-y f)``, balanced (the heavier class scaled down) so that ``y'a = 0``,
and for ``rho = 1`` scaled into the constraints of the penalised features; what is left
of ``X_j'Ya = 0`` for unpenalised features at ``rho = 1`` is reported as the dual
infeasibility, as SVM2's coordinate descent does.

Compiled with numba (``@njit(cache=True)``, no ``parallel``, no ``fastmath``). The
column layouts and the products with columns are those of
:mod:`solvers._coordinate_descent`.
"""

import numpy as np
import scipy.sparse as sp
from numba import njit

from ._coordinate_descent import (
    FIRST_FEATURES,
    CoordinateDescentResult,
    _column_arrays,
    _column_layout,
    _span,
)
from ._losses import LOGISTIC
from .certificates import GAP_TOLERANCE, gap_scale

__all__ = ["logistic_prox_newton"]

#: Newton steps on a working set stop when its duality gap is below this fraction of
#: the full problem's.
INNER_RATIO = 0.3
#: Newton steps on one working set at most.
NEWTON_STEPS = 50
#: Coordinate-descent passes on one quadratic model at most.
MODEL_PASSES = 200
#: The quadratic model is solved until its largest coordinate step (times the step's
#: curvature: the model's optimality violation) is below this fraction of the working
#: set's violation (the forcing term of an inexact Newton method: each step divides
#: the violation by about 1 / FORCING at least).
FORCING = 0.1
#: Coordinate-descent passes on one quadratic model between face steps
#: (:func:`_face_step`).
FACE_AFTER = 10
#: A face step only where its dense work, ``n (|S| + 1)^2 + (|S| + 1)^3`` floating-point
#: operations (the reduced system's product and solve), is at most this (about 0.1 s).
FACE_WORK = 100_000_000
#: The face's Hessian is shifted by this fraction of its largest diagonal entry
#: (duplicated columns make it singular: the step is then nearly the one of least norm).
FACE_SHIFT = 1e-10
#: Armijo's constant of the line search, and its halvings at most.
ARMIJO = 1e-4
HALVINGS = 30
#: The rounding of a sum of n terms: the line search's slack, relative to the objective.
ROUNDING = 64 * np.finfo(np.float64).eps
#: What may be left of the dual equality constraints of unpenalised features at
#: ``l1_ratio = 1`` (relative, as the certificate measures it).
INFEASIBILITY_TOLERANCE = 0.5 * GAP_TOLERANCE


def logistic_prox_newton(
    X,
    y,
    lam,
    weights,
    *,
    l1_ratio=1.0,
    sample_weight=None,
    tol=1e-8,
    max_iter=50,
    max_epochs=100000,
    coef=None,
    intercept=None,
    working_set=None,
    first_features=FIRST_FEATURES,
):
    r"""L1/elastic-net logistic regression by proximal Newton on working sets of features.

    Minimises ``sum_i s_i log(1 + exp(-y_i (x_i'w + b))) + lam (l1_ratio sum_j W_j |w_j|
    + (1 - l1_ratio)/2 ||w||^2)``; see the module's summary for the algorithm (glmnet,
    Friedman et al. 2010; skglm's ProxNewton, Bertrand et al. 2022) and the dual.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Finite float64 data; a CSC matrix or a Fortran-ordered array is read in place,
        any other layout converted once.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    lam : float > 0
    weights : ndarray of shape (n_features,)
        Penalty weights of the L1 part, each >= 0 (0: unpenalised by it) or +inf
        (excluded: coefficient 0).
    l1_ratio : float in [0, 1], default=1.0
        The share of the L1 part (1: the lasso penalty, 0: ridge).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` (default 1); samples of weight 0 are to be dropped by the caller.
    tol : float, default=1e-8
        Target of the relative duality gap (the certificate checks 1e-6).
    max_iter : int, default=50
        Outer iterations (working sets) at most.
    max_epochs : int, default=100000
        Coordinate-descent passes in all at most.
    coef : ndarray of shape (n_features,), optional
        A starting point (e.g. the answer at a nearby lam on the same data).
    intercept : float, optional
        The starting intercept; by default the best one for ``coef``.
    working_set : array of int, optional
        A first working set (an earlier result's).
    first_features : int, default=10
        Penalised features of a working set besides twice the support (skglm's p0).

    Returns
    -------
    solvers._coordinate_descent.CoordinateDescentResult
        ``iterations`` counts the working sets, ``epochs`` the coordinate-descent passes.

    Examples
    --------
    >>> from solvers._losses import LOGISTIC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((60, 30)); y = np.sign(X[:, 0] - X[:, 1] + 0.3)
    >>> result = logistic_prox_newton(X, y, 2.0, np.ones(30))
    >>> result.converged, sorted(np.flatnonzero(result.coef)[:2].tolist())
    (True, [0, 1])
    """
    X = _canonical(X)
    n, d = X.shape
    y = np.ascontiguousarray(y, dtype=np.float64)
    s = np.ones(n) if sample_weight is None else np.ascontiguousarray(sample_weight, float)
    weights = np.asarray(weights, dtype=np.float64)
    l1_ratio = float(l1_ratio)
    # Feature j's L1 strength is strength * weights[j], computed where it is read: of the
    # features' size, only the norms, the coefficients, one vector of correlations and
    # one mask are held (on a 2000 x 200000 corpus each such vector is 1.5 MiB, about
    # two thirds of X's own size).
    strength, ridge = lam * l1_ratio, lam * (1.0 - l1_ratio)
    norms = _norms(X)
    movable = np.isfinite(weights) & (norms > 0)
    if coef is None:
        coef = np.zeros(d)
    else:
        coef = np.array(coef, dtype=np.float64)
        coef[~movable] = 0.0
    if intercept is None:
        start = LOGISTIC.null_intercept(y, s) if not coef.any() else 0.0
        offsets = np.asarray(X @ coef, dtype=np.float64).ravel()
        intercept = _best_intercept(y, s, offsets, min(max(start, -30.0), 30.0))
    null = LOGISTIC.null(y, s)
    reference = float(np.linalg.norm(s))
    # The features unpenalised by the L1 part: in every working set.
    free = np.flatnonzero(movable & (weights == 0)) if strength > 0 else np.flatnonzero(movable)

    working = np.zeros(0, dtype=np.int64) if working_set is None else np.asarray(working_set)
    correlations = np.empty(d)
    iterations = epochs = 0
    while True:
        # The fit from scratch (rounding drifts along the steps' updates), and the
        # correlations of every feature with the balanced dual point: one product with X
        # (two when the point needed balancing: the gradient is the unbalanced one's).
        fitted = np.asarray(X @ coef, dtype=np.float64).ravel() + intercept
        a = _multipliers(y, s, fitted)
        up, down = _balance(y, a)
        _transpose_times(X, y * a * np.where(y > 0, up, down), correlations)
        primal, dual, infeasibility = _dual_check(
            y, s, fitted, a, up, down, coef, weights, strength, ridge, movable, norms,
            reference, correlations,
        )  # fmt: skip
        gap = primal - dual
        scale = gap_scale(primal, dual, null)
        converged = gap <= tol * scale and infeasibility <= max(tol, INFEASIBILITY_TOLERANCE)
        if converged or iterations == max_iter or epochs >= max_epochs:
            break
        if up != 1.0 or down != 1.0:
            _transpose_times(X, y * a, correlations)
        violations = _violations(correlations, coef, weights, strength, ridge, movable)
        # The working set is solved until its duality gap is INNER_RATIO of the full one;
        # when no feature outside the last one violates its optimality condition, the full
        # gap is the working set's, and it is solved to the final target.
        target = INNER_RATIO * gap
        if iterations > 0:
            violating = np.count_nonzero(violations)
            if not violating or not violating > np.count_nonzero(violations[working]):
                target = INNER_RATIO * tol * scale
        working = _working_set(
            violations, coef, norms, movable, free, first_features,
            working if iterations == 0 else None,
        )  # fmt: skip
        # The kernel reads the working set's columns, copied in its layout (CSC or
        # Fortran order): O(nnz of those columns), never a copy of X.
        local = coef[working]
        intercept, spent = _solve_working_set(
            *_columns_of(X, working), y, s, fitted, local, intercept, weights[working],
            strength, ridge, norms[working], reference, target,
            max(tol, INFEASIBILITY_TOLERANCE), max_epochs - epochs,
        )  # fmt: skip
        coef[working] = local
        epochs += spent
        iterations += 1
    return CoordinateDescentResult(
        coef=coef,
        intercept=float(intercept),
        working_set=working,
        iterations=iterations,
        epochs=epochs,
        converged=bool(converged),
        gap=float(gap),
        relative_gap=float(max(gap, 0.0) / scale),
    )


def _working_set(violations, coef, norms, movable, free, size, given):
    """The support, the features unpenalised by the L1 part and the most violating others.

    A feature's score is its distance to the optimality condition
    ``-grad_j in ridge w_j + lam rho W_j d|w_j|`` (``violations``, overwritten on the
    kept features) divided by its column's norm; the others are chosen by
    :func:`_most_violating`, without a vector of the features' size.
    """
    keep = np.union1d(np.flatnonzero(coef), free)
    if given is not None:
        given = np.asarray(given, dtype=np.int64)
        keep = np.union1d(keep, given[movable[given]])
    violations[keep] = 0.0
    support = np.count_nonzero(coef)
    chosen = _most_violating(violations, norms, movable, max(size, 2 * support) - support)
    return np.union1d(keep, chosen).astype(np.int64)


# -- kernels (numba) ---------------------------------------------------------------


def _canonical(X):
    """X as CSR or CSC with canonical entries (a copy only when it has duplicates), or as
    a float64 ndarray in its own order."""
    if not sp.issparse(X):
        return np.asarray(X, dtype=np.float64)
    if X.format not in ("csr", "csc") or X.dtype != np.float64:
        X = sp.csr_matrix(X, dtype=np.float64)
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def _transpose_times(X, u, out):
    """``out = X'u`` in one pass over X, without a temporary of X's or the features' size."""
    if not sp.issparse(X):
        np.matmul(X.T, u, out=out)
    elif X.format == "csr":
        _csr_transpose_times(X.data, X.indices, X.indptr, u, out)
    else:
        _csc_transpose_times(X.data, X.indices, X.indptr, u, out)


@njit(cache=True)
def _csr_transpose_times(data, indices, indptr, u, out):
    out[:] = 0.0
    for i in range(indptr.size - 1):
        ui = u[i]
        for k in range(indptr[i], indptr[i + 1]):
            out[indices[k]] += data[k] * ui


@njit(cache=True)
def _csc_transpose_times(data, indices, indptr, u, out):
    for j in range(indptr.size - 1):
        total = 0.0
        for k in range(indptr[j], indptr[j + 1]):
            total += data[k] * u[indices[k]]
        out[j] = total


@njit(cache=True)
def _most_violating(violations, norms, movable, count):
    """The at most ``count`` movable features of largest positive ``violations[j] /
    norms[j]``, by a min-heap of ``count`` places (in no particular order)."""
    scores = np.empty(max(count, 0))
    chosen = np.empty(max(count, 0), dtype=np.int64)
    size = 0
    for j in range(violations.size):
        if count <= 0 or not (movable[j] and violations[j] > 0.0):
            continue
        score = violations[j] / norms[j]
        if size < count:  # a new leaf, sifted up
            k = size
            size += 1
            while k > 0 and scores[(k - 1) // 2] > score:
                scores[k], chosen[k] = scores[(k - 1) // 2], chosen[(k - 1) // 2]
                k = (k - 1) // 2
        elif score > scores[0]:  # the root replaced, sifted down
            k = 0
            while 2 * k + 1 < size:
                child = 2 * k + 1
                if child + 1 < size and scores[child + 1] < scores[child]:
                    child += 1
                if scores[child] >= score:
                    break
                scores[k], chosen[k] = scores[child], chosen[child]
                k = child
        else:
            continue
        scores[k], chosen[k] = score, j
    return chosen[:size]


def _columns_of(X, working):
    """``(data, indices, indptr, dense)`` of the columns ``working`` of X, as the kernel
    reads columns (CSC, or a Fortran-ordered block), copied in O(nnz(X)) time and
    O(nnz of those columns) memory."""
    if not sp.issparse(X):
        return _column_arrays(np.asfortranarray(X[:, working]))
    if X.format == "csc":
        return _column_arrays(_column_layout(X[:, working]))
    data, rows, indptr = _csr_columns(X.data, X.indices, X.indptr, working, X.shape[1])
    return data, rows, indptr, False


@njit(cache=True)
def _csr_columns(data, indices, indptr, working, d):
    """The columns ``working`` of a CSR matrix as CSC arrays (rows sorted in each)."""
    position = np.full(d, -1, dtype=np.int32)
    for q in range(working.size):
        position[working[q]] = q
    counts = np.zeros(working.size + 1, dtype=np.int64)
    for k in range(data.size):
        q = position[indices[k]]
        if q >= 0:
            counts[q + 1] += 1
    starts = np.cumsum(counts)
    out_data = np.empty(starts[-1])
    out_rows = np.empty(starts[-1], dtype=np.int32)
    fill = starts[:-1].copy()
    for i in range(indptr.size - 1):
        for k in range(indptr[i], indptr[i + 1]):
            q = position[indices[k]]
            if q >= 0:
                out_data[fill[q]] = data[k]
                out_rows[fill[q]] = i
                fill[q] += 1
    return out_data, out_rows, starts


def _norms(X):
    """The column norms, without a temporary of X's size."""
    if not sp.issparse(X):
        return np.sqrt(np.einsum("ij,ij->j", X, X))
    if X.format == "csr":
        squares = _squares_by_index(X.data, X.indices, X.shape[1])
    else:
        squares = _squares_by_column(X.data, X.indptr)
    return np.sqrt(squares, out=squares)


@njit(cache=True)
def _squares_by_index(data, indices, d):
    squares = np.zeros(d)
    for k in range(data.size):
        squares[indices[k]] += data[k] * data[k]
    return squares


@njit(cache=True)
def _squares_by_column(data, indptr):
    squares = np.zeros(indptr.size - 1)
    for j in range(indptr.size - 1):
        for k in range(indptr[j], indptr[j + 1]):
            squares[j] += data[k] * data[k]
    return squares


@njit(cache=True)
def _log1pexp(z):
    """``log(1 + exp(z))`` without overflow."""
    if z > 0.0:
        return z + np.log1p(np.exp(-z))
    return np.log1p(np.exp(z))


@njit(cache=True)
def _sigmoid(z):
    """``1 / (1 + exp(-z))`` without overflow."""
    if z >= 0.0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)


@njit(cache=True)
def _loss(y, s, fitted):
    total = 0.0
    for i in range(y.size):
        total += s[i] * _log1pexp(-y[i] * fitted[i])
    return total


@njit(cache=True)
def _loss_change(y, s, fitted, z, t, trial):
    """``sum_i s_i (log(1 + e^{u_i + d_i}) - log(1 + e^{u_i}))``, ``u = -y f``, ``d = -y t
    z``, each term as ``log1p(sigma(u) expm1(d))`` (exact to rounding of the term's
    change, not of the loss); also the sum of the terms' sizes and ``trial = f + t z``."""
    change = 0.0
    magnitude = 0.0
    for i in range(y.size):
        trial[i] = fitted[i] + t * z[i]
        u = -y[i] * fitted[i]
        d = -y[i] * t * z[i]
        ratio = _sigmoid(u) * np.expm1(min(d, 30.0))
        if d < 30.0 and ratio > -0.5:
            term = np.log1p(ratio)
        else:  # a large change: the difference of the two is exact enough
            term = _log1pexp(-y[i] * trial[i]) - _log1pexp(u)
        change += s[i] * term
        magnitude += s[i] * abs(term)
    return change, magnitude


@njit(cache=True)
def _penalty_change(coef, step, t, thresholds, ridge):
    """The penalty's change from ``coef`` to ``coef + t step``, summed from each
    coordinate's own change, and the sum of their sizes."""
    change = 0.0
    magnitude = 0.0
    for q in range(coef.size):
        old = coef[q]
        new = old + t * step[q]
        term = thresholds[q] * (abs(new) - abs(old)) + 0.5 * ridge * (new - old) * (new + old)
        change += term
        magnitude += abs(term)
    return change, magnitude


@njit(cache=True)
def _entropy(p):
    """The binary entropy (0 at 0 and 1)."""
    total = 0.0
    if p > 0.0:
        total -= p * np.log(p)
    if p < 1.0:
        total -= (1.0 - p) * np.log1p(-p)
    return total


@njit(cache=True)
def _penalty(values, weights, strength, ridge):
    """``sum_j strength W_j |v_j| + ridge / 2 v_j^2`` (over ``v_j != 0``: W_j finite there)."""
    total = 0.0
    for q in range(values.size):
        v = values[q]
        if v != 0.0:
            total += strength * weights[q] * abs(v) + 0.5 * ridge * v * v
    return total


@njit(cache=True)
def _best_intercept(y, s, offsets, start):
    """The intercept minimising the loss for fixed offsets: safeguarded Newton in one variable."""
    b = start
    for _ in range(100):
        gradient = 0.0
        curvature = 0.0
        for i in range(y.size):
            p = _sigmoid(-y[i] * (offsets[i] + b))
            gradient -= s[i] * y[i] * p
            curvature += s[i] * p * (1.0 - p)
        if curvature <= 0.0:
            break
        step = -gradient / curvature
        step = max(min(step, 10.0), -10.0)
        b += step
        if abs(step) <= 1e-15 * max(1.0, abs(b)):
            break
    return b


@njit(cache=True)
def _violations(correlations, coef, weights, strength, ridge, movable):
    """The distance of ``X_j'Ya`` (the loss's gradient, negated) to the penalty's
    subdifferential at ``coef_j``, in place of ``correlations`` (0 where j cannot move)."""
    for j in range(coef.size):
        c = correlations[j]
        if not movable[j]:
            correlations[j] = 0.0
        elif coef[j] != 0.0:
            correlations[j] = abs(ridge * coef[j] + strength * weights[j] * np.sign(coef[j]) - c)
        else:
            correlations[j] = max(abs(c) - strength * weights[j], 0.0)
    return correlations


@njit(cache=True)
def _multipliers(y, s, fitted):
    """The KKT map ``a = s sigma(-y f)``."""
    a = np.empty(y.size)
    for i in range(y.size):
        a[i] = s[i] * _sigmoid(-y[i] * fitted[i])
    return a


@njit(cache=True)
def _balance(y, a):
    """The factors ``(up, down)`` of the positive and negative classes' multipliers that
    balance them (``y'a = 0``): the heavier class scaled down, the other kept."""
    total_positive = total_negative = 0.0
    for i in range(y.size):
        if y[i] > 0:
            total_positive += a[i]
        else:
            total_negative += a[i]
    if total_positive > total_negative:
        return total_negative / total_positive, 1.0
    if total_negative > total_positive:
        return 1.0, total_positive / total_negative
    return 1.0, 1.0


@njit(cache=True)
def _dual_check(y, s, fitted, a, up, down, coef, weights, strength, ridge, movable, norms,
                reference, correlations):
    """Primal, dual and dual infeasibility at the fit, for the problem on the features of
    the arrays (all, or a working set holding the support), from the correlations
    ``X_j'Y a`` of the balanced dual point (``a`` times ``up`` on the positive class and
    ``down`` on the negative one, :func:`_balance`).

    Without a 2-norm term the point is scaled into ``|X_j'Ya| <= lam rho W_j``; a feature
    with ``W_j = 0`` then has the equality ``X_j'Ya = 0``, whose violation is reported.
    """
    primal = _loss(y, s, fitted) + _penalty(coef, weights, strength, ridge)
    scaling = 1.0
    if ridge == 0.0:
        for j in range(coef.size):
            bound = strength * weights[j]
            if movable[j] and bound > 0.0 and abs(correlations[j]) * scaling > bound:
                scaling = bound / abs(correlations[j])
    entropy = 0.0
    squared = 0.0
    for i in range(y.size):
        ai = a[i] * (up if y[i] > 0 else down) * scaling
        entropy += s[i] * _entropy(min(ai / s[i], 1.0))
        squared += ai * ai
    conjugate = 0.0
    infeasibility = 0.0
    dual_norm = max(np.sqrt(squared), 1e-300 * reference)
    for j in range(coef.size):
        if not movable[j]:
            continue
        correlation = scaling * correlations[j]
        bound = strength * weights[j]
        if ridge > 0.0:
            excess = abs(correlation) - bound
            if excess > 0.0:
                conjugate += excess * excess / (2.0 * ridge)
        elif bound == 0.0:
            infeasibility = max(infeasibility, abs(correlation) / (norms[j] * dual_norm))
    return primal, entropy - conjugate, infeasibility


@njit(cache=True)
def _columns_check(data, indices, indptr, n, dense, y, s, fitted, coef, weights, strength,
                   ridge, movable, norms, reference, gradient, balanced):
    """:func:`_dual_check` on the problem restricted to the given columns, with their
    correlations computed here (``gradient = -X_j'Ya`` and the balanced point's
    ``X_j'Ya`` left in ``gradient`` and ``balanced``)."""
    a = _multipliers(y, s, fitted)
    up, down = _balance(y, a)
    for j in range(coef.size):
        start, stop = _span(indptr, n, dense, j)
        full = part = 0.0
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            full += data[k] * y[i] * a[i]
            part += data[k] * y[i] * a[i] * (up if y[i] > 0 else down)
        gradient[j] = -full
        balanced[j] = part
    return _dual_check(y, s, fitted, a, up, down, coef, weights, strength, ridge, movable,
                       norms, reference, balanced)


@njit(cache=True)
def _solve_working_set(data, indices, indptr, dense, y, s, fitted, coef, intercept, weights,
                       strength, ridge, norms, reference, target, feasibility, max_passes):
    """Proximal Newton steps on the working set's columns (``data``, ``indices``,
    ``indptr``: CSC or Fortran order), in place on their ``coef`` and on ``fitted``.

    Returns the intercept and the coordinate-descent passes spent. Stops when the
    duality gap of the problem restricted to the working set is at most ``target`` (and
    its dual infeasibility at most ``feasibility``), when a step does not move, or after
    :data:`NEWTON_STEPS` steps. A face step (:func:`_face_step`, reading the support's
    columns once and solving a dense system of the support's size) counts as a pass.
    The objective's decrease is no stopping rule: near the
    optimum it is quadratic in the distance to it, the duality gap only linear, and on
    nearly separable data (large coefficients) the objective reaches its rounding level
    long before the gap meets the tolerance.
    """
    n = y.size
    size = coef.size
    working = np.arange(size)
    movable = np.ones(size, dtype=np.bool_)
    thresholds = strength * weights
    gradient = np.empty(size)
    balanced = np.empty(size)
    g = np.empty(n)
    h = np.empty(n)
    z = np.empty(n)
    centres = np.empty(size)
    curvature = np.empty(size)
    step = np.empty(size)
    trial = np.empty(n)
    passes = 0
    for _ in range(NEWTON_STEPS):
        primal, dual, infeasibility = _columns_check(
            data, indices, indptr, n, dense, y, s, fitted, coef, weights, strength, ridge,
            movable, norms, reference, gradient, balanced,
        )
        if primal - dual <= target and infeasibility <= feasibility:
            break
        total_h = 0.0
        total_g = 0.0
        for i in range(n):
            p = _sigmoid(-y[i] * fitted[i])
            g[i] = -s[i] * y[i] * p
            h[i] = s[i] * p * (1.0 - p)
            total_h += h[i]
            total_g += g[i]
        if total_h <= 0.0:
            break
        # The working set's largest violation and the centred curvatures.
        violation = 0.0
        for q in range(size):
            j = working[q]
            start, stop = _span(indptr, n, dense, j)
            hx = hxx = 0.0
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                hx += data[k] * h[i]
                hxx += data[k] * data[k] * h[i]
            centres[q] = hx / total_h
            plain = hxx - hx * hx / total_h
            curvature[q] = max(plain, 1e-12 * hxx, 1e-300)
            grad = gradient[j]
            if coef[j] != 0.0:
                v = abs(grad + ridge * coef[j] + thresholds[j] * np.sign(coef[j]))
            else:
                v = max(abs(grad) - thresholds[j], 0.0)
            violation = max(violation, v)
        # Coordinate descent on the model g'z + 1/2 z'Hz + penalty, z = X delta + delta_b.
        offset = -total_g / total_h  # the exact intercept step: 1'(g + H z) = 0 after it
        for i in range(n):
            z[i] = 0.0
        delta_b = offset
        for q in range(size):
            step[q] = 0.0
        model_target = FORCING * max(violation, abs(total_g))
        for _pass in range(MODEL_PASSES):
            passes += 1
            largest_step = 0.0
            for q in range(size):
                j = working[q]
                start, stop = _span(indptr, n, dense, j)
                derivative = 0.0
                for k in range(start, stop):
                    i = k - start if dense else indices[k]
                    derivative += data[k] * (g[i] + h[i] * (z[i] + offset))
                # 1'(g + H(z + offset)) = 0: the centred direction's derivative is this.
                old = coef[j] + step[q]
                lipschitz = curvature[q]
                moved = lipschitz * old - derivative
                shrink = thresholds[j]
                if moved > shrink:
                    new = (moved - shrink) / (lipschitz + ridge)
                elif moved < -shrink:
                    new = (moved + shrink) / (lipschitz + ridge)
                else:
                    new = 0.0
                change = new - old
                if change != 0.0:
                    step[q] += change
                    for k in range(start, stop):
                        i = k - start if dense else indices[k]
                        z[i] += change * data[k]
                    offset -= change * centres[q]
                    delta_b -= change * centres[q]
                    largest_step = max(largest_step, abs(change) * (lipschitz + ridge))
            if largest_step <= model_target:
                break
            if (_pass + 1) % FACE_AFTER == 0:
                # Slow passes (nearly collinear or duplicated columns): the model minimised
                # on the face of the current signs, exactly; the passes go on from there.
                offset_change = _face_step(data, indices, indptr, dense, n, coef, step, z,
                                           offset, g, h, thresholds, ridge)
                offset += offset_change
                delta_b += offset_change
                passes += 1
        for i in range(n):
            z[i] += offset
        # Armijo's rule with the model's decrease: g'z + penalty(w + d) - penalty(w).
        # The objective's change is summed from each term's own change
        # (:func:`_loss_change`, :func:`_penalty_change`), not taken as a difference of
        # two sums: near the optimum the change is far below the rounding of the sums
        # (about sqrt(n) eps times the objective), which would reject every step.
        linear = 0.0
        for i in range(n):
            linear += g[i] * z[i]
        penalty_change, _ = _penalty_change(coef, step, 1.0, thresholds, ridge)
        # At the change's rounding level the predicted decrease may come out >= 0: the
        # step (a Newton step, whose unit length is right near the optimum) is then
        # taken if the objective does not rise beyond rounding.
        predicted = min(linear + penalty_change, 0.0)
        moved = delta_b != 0.0
        for q in range(size):
            moved = moved or step[q] != 0.0
        if not moved:
            break
        t = 1.0
        accepted = False
        for _halving in range(HALVINGS):
            change, magnitude = _loss_change(y, s, fitted, z, t, trial)
            penalty_change, penalty_magnitude = _penalty_change(coef, step, t, thresholds,
                                                                ridge)
            # Armijo's rule, with the change's rounding as slack.
            slack = ROUNDING * (magnitude + penalty_magnitude)
            if change + penalty_change <= ARMIJO * t * predicted + slack:
                accepted = True
                break
            t *= 0.5
        if not accepted:
            break
        for q in range(size):
            coef[working[q]] += t * step[q]
        for i in range(n):
            fitted[i] = trial[i]
        intercept += t * delta_b
        if passes >= max_passes:
            break
    return intercept, passes


@njit(cache=True)
def _face_step(data, indices, indptr, dense, n, coef, step, z, offset, g, h, thresholds,
               ridge):
    """The quadratic model minimised over the face of the current signs, in place on
    ``step`` and ``z``; returns the intercept's change.

    On the support ``S`` of ``u = coef + step`` with signs ``sigma`` fixed, the model
    ``g'r + 1/2 r'Hr + sum_S (lam rho W_j sigma_j u_j + ridge/2 u_j^2)``, ``r = X delta +
    delta_b``, is a quadratic in ``(u_S, delta_b)``, minimised by one Newton step ``K e =
    -grad``, ``K = [X_S 1]' H [X_S 1] + ridge`` (the reduced system of glmnet's and
    skglm's working sets, solved densely, K shifted by :data:`FACE_SHIFT` of its largest
    diagonal entry: duplicated columns make it singular). The model is that quadratic
    only inside the orthant: the step is cut where a coefficient first reaches 0, that
    coefficient is fixed at 0 and the step is taken again on the smaller face, until a
    step ends inside (an active-set method on the orthant, as the lasso's homotopy,
    Osborne, Presnell & Turlach 2000). Each step lowers the model (plus the shift's
    proximal term); coordinate descent then frees or zeroes the other features.
    """
    support = 0
    for q in range(coef.size):
        if coef[q] + step[q] != 0.0:
            support += 1
    columns = support + 1
    if (n + columns) * columns * columns > FACE_WORK:
        return 0.0
    chosen = np.empty(support, dtype=np.int64)
    block = np.zeros((n, columns))
    r = np.empty(n)
    root = np.empty(n)
    for i in range(n):
        r[i] = g[i] + h[i] * (z[i] + offset)
        root[i] = np.sqrt(h[i])
        block[i, support] = root[i]
    gradient = np.zeros(columns)
    point = np.zeros(columns)  # (u_S, the intercept's change)
    c = 0
    for q in range(coef.size):
        u = coef[q] + step[q]
        if u == 0.0:
            continue
        chosen[c] = q
        point[c] = u
        start, stop = _span(indptr, n, dense, q)
        total = 0.0
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            block[i, c] = data[k] * root[i]
            total += data[k] * r[i]
        gradient[c] = total + ridge * u + thresholds[q] * np.sign(u)
        c += 1
    for i in range(n):
        gradient[support] += r[i]
    hessian = block.T @ block
    shift = 0.0
    for c in range(columns):
        shift = max(shift, hessian[c, c])
    shift *= FACE_SHIFT
    for c in range(columns):
        hessian[c, c] += shift + (ridge if c < support else 0.0)
    start_point = point.copy()
    free = np.ones(columns, dtype=np.bool_)
    for _ in range(columns):
        face = np.flatnonzero(free)
        reduced = np.empty((face.size, face.size))
        for a in range(face.size):
            for b in range(face.size):
                reduced[a, b] = hessian[face[a], face[b]]
        e = np.linalg.solve(reduced, -gradient[face])
        # The longest step <= 1 that keeps every sign (a coefficient may reach 0).
        length = 1.0
        stopper = -1
        for a in range(face.size):
            c = face[a]
            if c < support and point[c] * e[a] < 0.0 and -point[c] / e[a] < length:
                length = -point[c] / e[a]
                stopper = c
        for a in range(face.size):
            point[face[a]] += length * e[a]
        gradient += length * (hessian[:, face] @ e)
        if stopper < 0:
            break
        point[stopper] = 0.0
        free[stopper] = False
    for c in range(support):
        q = chosen[c]
        change = point[c] - start_point[c]
        step[q] += change
        start, stop = _span(indptr, n, dense, q)
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            z[i] += change * data[k]
    return point[support]
