r"""Coordinate descent with working sets and Anderson acceleration for the L1-penalised models.

The two smooth losses with a weighted L1 penalty, at one lam,

- the weighted lasso (004 eq. 3), ``min_{w,b} sum_i s_i (y_i - x_i'w - b)^2 + lam sum_j W_j |w_j|``;
- SVM2 (004 eq. 7), ``min_{w,b} sum_i s_i [1 - y_i (x_i'w + b)]_+^2 + lam sum_j W_j |w_j|``,

(``s_i > 0`` the sample weights, ``W_j >= 0`` or ``+inf`` the penalty weights, b
unpenalised) are solved by the outer/inner scheme of celer (Massias et al. 2018) and of
skglm's ``AndersonCD`` (Bertrand et al. 2022, "Beyond L1: faster and better sparse models
with skglm"; Bertrand & Massias 2021, "Anderson acceleration of coordinate descent"):

1. *Outer loop.* One product ``X'v`` with the dual point v of the current fit gives the
   full duality gap (the stopping rule, against the certificate's scale, see
   :mod:`solvers.certificates`) and, for every feature, the distance of its gradient to
   the subdifferential of its penalty. The *working set* is the support, the
   unpenalised features and the features of largest distance (divided by
   ``sqrt(L_j)``, which makes it the root of the decrease a step on ``w_j`` would give,
   insensitive to the column's scale), ``max(p0, 2 |support|)`` penalised features in
   all (skglm's rule; ``p0 =`` :data:`FIRST_FEATURES` ``= 50`` where skglm starts
   from 10: at 0.1 lam_max on the Debian documents the support holds 14-50 features,
   and from 10 the set took 4-5 rounds to grow to it, each a pass over X).
2. *Inner loop.* Cyclic coordinate descent on the working set: the step on ``w_j`` is
   the proximal step of length ``1 / L_j`` along the coordinate's direction (the exact
   minimiser along it for the squares, a majorisation step for the squared hinge, where
   a proximal Newton step with the curvature of the samples inside the margin replaces
   it when that is sure to decrease the objective more, see :func:`_epoch`). For
   the lasso every direction is the centred column: ``(w_j, b)`` moves by
   ``delta (1, -m_j)`` (``m_j`` the column's s-weighted mean), which keeps the intercept
   optimal after every step at no extra cost; for SVM2 the columns nearly collinear
   with the constant (frequent words) are centred, the others not
   (:func:`_column_statistics`, :func:`_epoch`). Word counts are nonnegative, and on
   the raw columns, with the intercept updated once an epoch, coordinate descent needs
   tens of times more epochs on text. ``L_j`` is ``2 sum_i s_i (x_ij - m_j)^2`` (``m_j = 0``
   for a raw column). The intercept is also updated after every epoch (exactly for the
   squares, with the step ``1 / (2 sum_i s_i)`` for the squared hinge). The residual
   ``y - X w - b`` (squares) or the fitted values ``X w + b`` (squared hinge) are kept up
   to date. Every :data:`ANDERSON_K` epochs the last iterates are extrapolated
   (Anderson acceleration, its linear system regularised, see
   :func:`_anderson_weights`) and the extrapolation kept if it lowers the objective.
   The inner loop stops when the duality gap of the problem restricted to the working
   set is below :data:`INNER_RATIO` times the last full gap, or times the outer target
   once no feature outside the working set violates its dual constraint. That gap is
   evaluated after :data:`FIRST_CHECK` epochs, then at the epoch where the rate it fell
   at says it reaches its target (:func:`_epochs_ahead`, at most :data:`CHECK_EVERY`
   apart): evaluated every 10 epochs, a working set of 0.1 lam_max took 10 where 2-3
   were enough, and the last one went on to a relative gap of 1e-13.

Duals and the map between primal and dual (the certificate's, so that its check passes
on the answer): for the lasso, ``max u'y - sum_i u_i^2 / (4 s_i)`` on ``|X_j'u| <= lam W_j``
and ``1'u = 0``, at ``u = 2 s (r - mean_s(r))``; for SVM2, ``max 1'a - sum_i a_i^2 / (4 s_i)``
on ``|X_j'Ya| <= lam W_j``, ``y'a = 0``, ``a >= 0``, at ``a = 2 s [1 - y f]_+``. The point is
made feasible as :func:`solvers.certificates.lasso_certificate` and
:func:`solvers.certificates.svm2_certificate` do: the constraints ``X_j'v = 0`` of the
unpenalised (and nearly free) features, and ``1'u = 0``, by projection (an orthonormal
basis of those columns is computed once per fit); ``y'a = 0`` by scaling down the heavier
class; then the point is scaled into ``|X_j'v| <= lam W_j`` and by the best factor along
its ray.

Measured on the Debian descriptions (:mod:`benchmarks.real_text`; shared 2-core machine
at load 4-6, one BLAS thread, 2026-11-28): ``python -m benchmarks.real_text --sizes 20000
--splits hard,easy --repeats 3 --budget 60 --estimators SVM2,WeightedLasso``, first fit /
re-fit ratio to the best peer, this module before the first working set of 50, the gap's
schedule, Anderson's ridge and the compiled working set -> after (the rest of the tree
the same):

============================  =================  =================
cell (20000 documents)        before             after
============================  =================  =================
SVM2 hard, 0.1 lam_max        1.35 / 1.09        1.41 / 1.24
SVM2 hard, 0.01 lam_max       1.87 / 1.35        1.39 / 1.54
WeightedLasso hard, 0.1       1.16 / 1.24        1.00 / 1.15
WeightedLasso hard, 0.01      1.79 / 1.01        1.46 / 0.83
SVM2 easy, 0.1 lam_max        1.57 / 1.84        1.13 / 1.51
SVM2 easy, 0.01 lam_max       1.52 / 1.36        1.20 / 1.35
WeightedLasso easy, 0.1       1.07 / 0.94        1.13 / 0.98
WeightedLasso easy, 0.01      1.55 / 1.59        1.06 / 1.37
============================  =================  =================

Wall-clock ratios of fits of 10-300 ms on a loaded machine move by 0.2-0.3 from run to
run, and at 2000 documents (fits of 2-4 ms) the scheduler's time slices decide them. In
processor time (whole estimator fits, ours and the benchmark's peer at its tolerance
alternating in one process, medians of 5 pairs at 20000 documents, 11 at 2000), first
fit / re-fit, before -> after:

============================  ==========================  ==========================
cell                          2000 documents              20000 documents
============================  ==========================  ==========================
SVM2 hard, 0.1 lam_max        1.55 / 1.48 -> 1.52 / 1.29  1.15 / 0.78 -> 1.03 / 0.74
SVM2 easy, 0.1 lam_max        1.89 / 1.58 -> 1.39 / 1.52  1.43 / 1.23 -> 0.95 / 1.01
SVM2 easy, 0.01 lam_max       1.71 / 1.21 -> 1.32 / 1.14  1.47 / 1.29 -> 1.07 / 1.20
WeightedLasso hard, 0.1       1.24 / 1.00 -> 1.12 / 0.90  1.26 / 1.34 -> 1.06 / 1.15
WeightedLasso easy, 0.1       1.35 / 0.85 -> 1.08 / 0.76  0.92 / 0.90 -> 0.97 / 0.83
WeightedLasso hard, 0.01      1.00 / 0.68 -> 0.75 / 0.70  0.87 / 0.81 -> 0.68 / 0.68
============================  ==========================  ==========================

(SVM2 easy at 0.1 lam_max, 2000 documents: 3.81 -> 2.83 ms against liblinear's 2.0 ms;
the kernel 2.36 -> 1.4 ms, of which the epochs 0.6 ms; the rest of the fit is the
estimator's validation, plan and certificate.)

No column equilibration is needed: each coordinate step is invariant to the scale of its
column. Compiled with numba (``@njit(cache=True)``, no ``parallel``, no ``fastmath``).
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numba import njit

from sparsify._validation import canonical

from ._polish import hinge_intercept
from .certificates import (
    GAP_TOLERANCE,
    _nearly_free,
    gap_scale,
    hinge_null_objective,
    squares_null_objective,
)

__all__ = ["LOSSES", "CoordinateDescentResult", "l1_coordinate_descent"]

#: The losses solved here: the lasso's squares (004 eq. 3), SVM2's squared hinge (eq. 7).
LOSSES = ("squares", "squared_hinge")
#: Anderson acceleration extrapolates from the last ``ANDERSON_K + 1`` iterates, every
#: ``ANDERSON_K`` epochs.
ANDERSON_K = 5
#: The ridge of Anderson's system, relative to its largest diagonal entry
#: (:func:`_anderson_weights`).
ANDERSON_RIDGE = 1e-10
#: The working set's duality gap is first evaluated after this many epochs ...
FIRST_CHECK = 2
#: ... then at most this many epochs apart (see :func:`_epochs_ahead`).
CHECK_EVERY = 10
#: The inner loop stops at a working-set gap below this fraction of the last full gap.
INNER_RATIO = 0.3
#: The first working set holds this many penalised features (besides the support).
FIRST_FEATURES = 50
#: For SVM2, the columns whose squared cosine with the constant (metric S) is at least
#: this are centred (see :func:`_column_statistics`); the lasso centres every column.
HINGE_COUPLING = 0.1
#: The squared hinge's Newton steps take the curvature of the samples inside the margin,
#: at least this fraction of the curvature over every sample (which bounds the loss's).
CURVATURE_FLOOR = 1e-3
#: What may be left of the dual constraints of unpenalised features (SVM2; the
#: certificate's relative measure, ``Certificate.dual_infeasibility``) when ``tol`` is
#: looser: half the certificate's tolerance. The measure is the certificate's own,
#: computed the same way; with free features that separate the classes the multipliers
#: tend to 0 and it stalls near 1e-7 while the gap is already 0.
INFEASIBILITY_TOLERANCE = 0.5 * GAP_TOLERANCE
#: Rounds of alternating projection and clipping that make SVM2's dual point meet the
#: constraints of unpenalised features (as the certificate's).
PROJECTION_ROUNDS = 20


@dataclass
class CoordinateDescentResult:
    """The answer of :func:`l1_coordinate_descent`.

    Parameters
    ----------
    coef : ndarray of shape (n_features,)
        The coefficients w (0 for excluded features).
    intercept : float
        The intercept b.
    working_set : ndarray of int
        The last working set (sorted feature indices), to warm-start a fit at a nearby
        lam or other weights on the same data.
    iterations : int
        Outer iterations (working sets solved).
    epochs : int
        Coordinate-descent epochs over all working sets.
    converged : bool
        Whether the full duality gap met ``tol`` (and, for SVM2 with unpenalised
        features, what is left of their dual constraints met
        ``max(tol, INFEASIBILITY_TOLERANCE)``).
    gap : float
        The full duality gap ``primal - dual`` at the answer.
    relative_gap : float
        ``max(gap, 0) / scale`` with the certificate's scale ``max(|primal|, |dual|,
        null)`` (:class:`solvers.certificates.Certificate`).
    norms : ndarray of shape (n_features,), optional
        The column norms of X, computed on the way (a certificate's pass over X fewer).

    See Also
    --------
    l1_coordinate_descent : Returns it.
    """

    coef: np.ndarray
    intercept: float
    working_set: np.ndarray
    iterations: int
    epochs: int
    converged: bool
    gap: float
    relative_gap: float
    norms: np.ndarray = None


def l1_coordinate_descent(
    X,
    y,
    lam,
    weights,
    *,
    loss="squares",
    sample_weight=None,
    tol=1e-7,
    max_iter=50,
    max_epochs=10000,
    coef=None,
    intercept=None,
    working_set=None,
    first_features=FIRST_FEATURES,
):
    r"""Solve the weighted lasso (004 eq. 3) or SVM2 (eq. 7) by working-set coordinate descent.

    Minimises ``sum_i s_i loss_i(x_i'w + b) + lam sum_j W_j |w_j|`` with
    ``loss_i(f) = (y_i - f)^2`` (``"squares"``) or ``[1 - y_i f]_+^2``
    (``"squared_hinge"``); see the module's summary for the algorithm (celer, Massias
    et al. 2018; skglm's AndersonCD, Bertrand et al. 2022) and the dual.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Finite float64 data. A CSC matrix and a Fortran-ordered ndarray are read in
        place (the kernels walk their columns); any other layout (CSR, C order) is
        converted once, which copies it; a CSC matrix with duplicate entries is
        copied and summed.
    y : ndarray of shape (n_samples,)
        Finite targets (``"squares"``) or labels in {-1, +1} (``"squared_hinge"``).
    lam : float > 0
        The penalty lambda.
    weights : ndarray of shape (n_features,)
        Penalty weights, each >= 0 (0: unpenalised, in every working set) or +inf
        (excluded: its coefficient is 0 and it never joins a working set).
    loss : {"squares", "squared_hinge"}, default="squares"
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` multiplying sample i's loss (default 1); samples of weight 0 are
        to be dropped by the caller.
    tol : float, default=1e-7
        Target of the relative duality gap (the certificate's, whose check is 1e-6).
    max_iter : int, default=50
        Outer iterations (working sets solved); ``converged`` is False when the gap
        has not met ``tol`` after them.
    max_epochs : int, default=10000
        Epochs of coordinate descent on one working set.
    coef : ndarray of shape (n_features,), optional
        A starting point (e.g. the answer at another lam on the same data); entries of
        excluded features and of zero columns are set to 0.
    intercept : float, optional
        The starting intercept; by default the best one for ``coef`` (for zero
        coefficients when ``coef`` is None).
    working_set : array of int, optional
        A first working set (e.g. an earlier result's ``working_set``); the support of
        ``coef`` and the unpenalised features are always added.
    first_features : int, default=FIRST_FEATURES
        Penalised features of a working set besides twice the support (skglm's p0).

    Returns
    -------
    CoordinateDescentResult
        The coefficients, the intercept, the last working set, the work done and the
        duality gap at the answer (``converged`` when it met ``tol``).

    Raises
    ------
    ValueError
        If ``loss`` is not one of :data:`LOSSES`.

    See Also
    --------
    solvers.certificates.lasso_certificate, solvers.certificates.svm2_certificate :
        The certificates the answer is made to pass.
    solvers.path.lasso_path, solvers.path.svm2_path : The exact paths, the other
        backends of these models.

    Notes
    -----
    The inputs are assumed validated (as the estimators do): finite float64 X and y
    of matching shapes, y in {-1, +1} for the squared hinge, weights as
    :func:`solvers._penalty.check_penalty_weights` returns them, positive sample
    weights, lam > 0.

    Examples
    --------
    >>> import numpy as np
    >>> from solvers.certificates import lasso_certificate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 200)); y = X[:, 0] - X[:, 1] + 2.0
    >>> result = l1_coordinate_descent(X, y, 5.0, np.ones(200))
    >>> result.converged, np.flatnonzero(result.coef)[:2].tolist()
    (True, [0, 1])
    >>> lasso_certificate(X, y, result.coef, result.intercept, 5.0).holds
    True
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}; got {loss!r}.")
    squares = loss == "squares"
    X = _column_layout(X)
    data, indices, indptr, dense = _column_arrays(X)
    n, d = X.shape
    y = np.ascontiguousarray(y, dtype=np.float64)
    s = np.ones(n) if sample_weight is None else np.ascontiguousarray(sample_weight, float)
    weights = np.asarray(weights, dtype=np.float64)
    coupling = 0.0 if squares else HINGE_COUPLING
    lipschitz, centres, squared_norms = _column_statistics(
        data, indices, indptr, n, d, dense, s, coupling
    )
    weighted = data if sample_weight is None else _weighted_entries(X, data, s)
    movable = np.isfinite(weights) & (lipschitz > 0)
    thresholds = lam * weights

    coef = np.zeros(d) if coef is None else np.where(movable, coef, 0.0)
    support = np.flatnonzero(coef)
    offsets = np.zeros(n)
    _add_columns(data, indices, indptr, n, dense, support, coef, offsets)
    if intercept is None:
        intercept = _best_intercept(offsets, y, s, squares)
    state = y - offsets - intercept if squares else offsets + intercept

    free = _free_features(X, y, s, squares, lam, weights, movable, squared_norms, intercept)
    bounded = movable & (weights > 0)
    bounded[free] = False
    basis = _free_basis(X, y, s, squares, free)
    unpenalised = free[weights[free] == 0]
    unpenalised_norms = np.sqrt(squared_norms[unpenalised])
    reference = 2.0 * float(np.linalg.norm(s))
    null = squares_null_objective(y, s) if squares else hinge_null_objective(y, s, squared=True)

    feasibility = max(tol, INFEASIBILITY_TOLERANCE)
    everything = np.arange(d)
    correlations = np.zeros(d)
    dual_vector = np.zeros(n)
    duals = (bounded, basis, unpenalised, unpenalised_norms, reference, dual_vector, correlations)
    no_features = np.zeros(0, dtype=np.int64)
    working = no_features if working_set is None else np.asarray(working_set, dtype=np.int64)
    epochs = iterations = 0
    while True:
        # The fit from scratch (rounding drifts along the epochs' updates).
        support = np.flatnonzero(coef)
        offsets[:] = 0.0
        _add_columns(data, indices, indptr, n, dense, support, coef, offsets)
        state[:] = y - offsets - intercept if squares else offsets + intercept
        primal, dual, infeasibility = _duality_gap(
            data, indices, indptr, n, dense, everything, y, s, squares, coef, intercept,
            state, thresholds, *duals,
        )
        gap = primal - dual
        scale = gap_scale(primal, dual, null)
        converged = gap <= tol * scale and infeasibility <= feasibility
        if converged or iterations == max_iter:
            break
        # When no feature outside the last working set violates its constraint, the full
        # gap is that set's: it is solved to the final target instead of 0.3 of the gap.
        target = INNER_RATIO * gap
        if iterations > 0 and not _violates_outside(correlations, thresholds, bounded, working):
            target = INNER_RATIO * tol * scale
        working = _working_set(
            correlations, coef, thresholds, lipschitz, movable, free, first_features,
            working if iterations == 0 else no_features,
        )
        intercept, spent = _solve_working_set(
            data, indices, indptr, n, dense, weighted, working, y, s, squares, coef, intercept,
            state, lipschitz, centres, thresholds, target, gap, feasibility, max_epochs, *duals,
        )
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
        norms=np.sqrt(squared_norms),
    )


# -- set-up (Python) ---------------------------------------------------------------


def _column_layout(X):
    """X as CSC with canonical entries, or as a Fortran-ordered float64 ndarray.

    A float64 CSC X is checked as it is: scipy keeps the result of the check on the
    object (the estimators' validated copy has it), where a new matrix on the same
    arrays would check its entries again (0.4 ms on 20000 Debian documents).
    """
    if sp.issparse(X):
        if X.format != "csc" or X.dtype != np.float64:
            X = sp.csc_matrix(X, dtype=np.float64)
        return canonical(X)
    return np.asfortranarray(X, dtype=np.float64)


def _column_arrays(X):
    """``(data, indices, indptr, dense)`` as the kernels read columns.

    A dense X is passed as its Fortran-ordered buffer, column j at ``j n .. (j + 1) n``
    (``indices`` and ``indptr`` are then empty and unused).
    """
    if sp.issparse(X):
        return X.data, X.indices, X.indptr, False
    empty = np.zeros(0, dtype=np.int32)
    return X.ravel(order="F"), empty, empty, True


def _weighted_entries(X, data, s):
    """The entries of ``S X`` in the order of ``data`` (a copy of the size of X's entries)."""
    if sp.issparse(X):
        return data * s[X.indices]
    return np.asfortranarray(X * s[:, None]).ravel(order="F")


def _best_intercept(offsets, y, s, squares):
    """The intercept minimising the loss for the fixed ``offsets = X w``."""
    if squares:
        return float(np.average(y - offsets, weights=s))
    return hinge_intercept(offsets, y, squared=True, sample_weight=s)


def _free_features(X, y, s, squares, lam, weights, movable, squared_norms, intercept):
    """The features whose dual constraint is met by projection: the unpenalised ones and
    those whose ``lam W_j`` is negligible beside ``||X_j|| ||v||`` (the certificate's rule,
    :func:`solvers.certificates._nearly_free`, with v the dual point at the start)."""
    if squares:
        start = 2.0 * s * (y - np.average(y, weights=s))
    else:
        start = 2.0 * s * np.maximum(0.0, 1.0 - y * intercept)
    nearly_free = _nearly_free(X, lam, weights, np.linalg.norm(start), np.sqrt(squared_norms))
    return nearly_free[movable[nearly_free]]


def _free_basis(X, y, s, squares, free):
    """An orthonormal basis (rows) of the columns the dual point is projected off.

    For the lasso, ``sqrt(S) [1, X_F]`` (the certificate projects ``u`` off ``[1, X_F]``
    in the metric of ``S^-1``); for SVM2, ``Y [1, X_F]`` (plain projection), and none
    when F is empty (then ``y'a = 0`` is met by balancing the classes alone). The
    columns are scaled to unit norm before the SVD, so that their scales do not
    decide the rank. The lasso's basis without free features is ``sqrt(s) / ||sqrt(s)||``,
    written out (the SVD of that one column took 0.25 ms at 2000 samples, 0.7 ms at
    20000: a tenth of a lasso fit's kernel at 0.1 lam_max on the Debian documents).
    """
    n = X.shape[0]
    if free.size == 0:
        if not squares:
            return np.zeros((0, n))
        root = np.sqrt(s)
        return (root / np.linalg.norm(root)).reshape(1, n)
    columns = X[:, free]
    columns = columns.toarray() if sp.issparse(columns) else np.asarray(columns)
    rows = np.sqrt(s) if squares else y
    Z = rows[:, None] * np.column_stack((np.ones(n), columns))
    Z = Z / np.linalg.norm(Z, axis=0)
    U, singular, _ = np.linalg.svd(Z, full_matrices=False)
    rank = int(np.sum(singular > singular[0] * max(Z.shape) * np.finfo(float).eps))
    return np.ascontiguousarray(U[:, :rank].T)


def _working_set(correlations, coef, thresholds, lipschitz, movable, free, size, given):
    """The support, the free features and the most violating others (skglm's rule), as
    sorted indices.

    Each feature off the support scores ``(|X_j'v| - lam W_j) / sqrt(L_j)`` (positive:
    its distance to the subdifferential; negative: how far it is from violating), one
    on the support ``|X_j'v - lam W_j sign(w_j)| / sqrt(L_j)``; ``max(size, 2 |support|)``
    penalised features are kept, besides the free ones. ``given``: features to add (a
    warm start's working set; those that cannot move or are out of range are left
    out). The scores and the kept features in one compiled pass (:func:`_scores`),
    then NumPy's partition (numba's copies the scores twice and is 10 times slower
    at 200000 features): 0.08 -> 0.05 ms at 4106 features, where unions of index
    sets and boolean copies in NumPy cost more than the scores.
    """
    kept, score, extra = _scores(correlations, coef, thresholds, lipschitz, movable, free, size,
                                 given)  # fmt: skip
    if extra > 0:
        # The largest first: NumPy's selection is slow with its k-th element at the end
        # behind many equal entries (the -inf of zero columns: 6.5 against 0.3 ms at
        # 200000 features, 170000 of them -inf).
        np.negative(score, out=score)
        chosen = np.argpartition(score, extra - 1)[:extra]
        kept[chosen[score[chosen] < np.inf]] = True
    return np.flatnonzero(kept)


# -- kernels (numba) ---------------------------------------------------------------


@njit(cache=True)
def _span(indptr, n, dense, j):
    """The positions of column j's entries in ``data``."""
    if dense:
        return j * n, (j + 1) * n
    return indptr[j], indptr[j + 1]


@njit(cache=True)
def _column_statistics(data, indices, indptr, n, d, dense, s, coupling):
    """The coordinates' curvatures ``L_j``, the centres ``m_j`` of their steps and the
    squared column norms.

    A column is *centred* when its s-weighted mean ``mean_j`` is large beside its norm,
    ``sum_i s_i mean_j^2 >= coupling sum_i s_i x_ij^2`` (the squared cosine between the
    column and the constant in the metric S; ``coupling = 0`` centres every column): its
    steps are then along ``X_j - mean_j`` (see :func:`_epoch`), ``m_j = mean_j`` and
    ``L_j = 2 sum_i s_i (x_ij - mean_j)^2``; otherwise ``m_j = 0`` and
    ``L_j = 2 sum_i s_i x_ij^2``. The centred sum is ``sum_i s_i x_ij^2 - mean_j^2 sum_i
    s_i`` when the second term is at most half the first (a text column's, by far: no
    cancellation to speak of, and no second pass over the column); otherwise it is taken
    over the stored entries (the implicit zeros add ``mean_j^2`` times their weight),
    without cancellation, and a column whose centred sum is at the level of rounding (a
    constant column) gets ``L_j = 0``.
    """
    lipschitz = np.zeros(d)
    centres = np.zeros(d)
    squared_norms = np.zeros(d)
    total_weight = s.sum()
    rounding = 4.0 * (n * np.finfo(np.float64).eps) ** 2
    for j in range(d):
        start, stop = _span(indptr, n, dense, j)
        plain = weighted = weighted_sum = stored_weight = 0.0
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            plain += data[k] * data[k]
            weighted += s[i] * data[k] * data[k]
            weighted_sum += s[i] * data[k]
            stored_weight += s[i]
        squared_norms[j] = plain
        mean = weighted_sum / total_weight
        constant = total_weight * mean * mean
        if constant < coupling * weighted:
            lipschitz[j] = 2.0 * weighted
            continue
        if constant <= 0.5 * weighted:  # no cancellation to speak of
            centred = weighted - constant
        else:
            centred = mean * mean * max(total_weight - stored_weight, 0.0)
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                centred += s[i] * (data[k] - mean) ** 2
        if centred > rounding * weighted:
            lipschitz[j] = 2.0 * centred
            centres[j] = mean
    return lipschitz, centres, squared_norms


@njit(cache=True)
def _scores(correlations, coef, thresholds, lipschitz, movable, free, size, given):
    """The features :func:`_working_set` keeps whatever their scores (a mask), the
    scores of the others (``-inf``: kept already, or cannot move) and how many of
    them it adds, in one pass."""
    d = coef.size
    kept = np.zeros(d, dtype=np.bool_)
    for j in free:
        kept[j] = True
    penalised_support = 0
    for j in range(d):
        if coef[j] != 0.0:
            penalised_support += 0 if kept[j] else 1
            kept[j] = True
    for j in given:
        if 0 <= j < d and movable[j]:
            kept[j] = True
    score = np.full(d, -np.inf)
    for j in range(d):
        if kept[j] or not movable[j]:
            continue
        if coef[j] != 0.0:
            distance = abs(correlations[j] - thresholds[j] * np.sign(coef[j]))
        else:
            distance = abs(correlations[j]) - thresholds[j]
        score[j] = distance / np.sqrt(lipschitz[j])
    extra = min(max(size, 2 * penalised_support) - penalised_support, d)
    return kept, score, extra


@njit(cache=True)
def _violates_outside(correlations, thresholds, bounded, working):
    """Whether a penalised feature outside ``working`` violates its dual constraint,
    ``|X_j'v| > lam W_j``."""
    outside = bounded.copy()
    for j in working:
        outside[j] = False
    for j in range(outside.size):
        if outside[j] and abs(correlations[j]) > thresholds[j]:
            return True
    return False


@njit(cache=True)
def _add_columns(data, indices, indptr, n, dense, features, coef, out):
    """``out += X_F w_F`` over the given features."""
    for j in features:
        start, stop = _span(indptr, n, dense, j)
        value = coef[j]
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            out[i] += value * data[k]


@njit(cache=True)
def _correlate(data, indices, indptr, n, dense, features, v, out):
    """``out[j] = X_j'v`` for the given features."""
    for j in features:
        start, stop = _span(indptr, n, dense, j)
        total = 0.0
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            total += data[k] * v[i]
        out[j] = total


@njit(cache=True)
def _project_off(basis, v):
    """``v - B'B v`` for the orthonormal rows B of ``basis``."""
    for k in range(basis.shape[0]):
        row = basis[k]
        v -= (row @ v) * row


@njit(cache=True)
def _squared_hinge_dual(y, s, state, basis):
    """SVM2's dual point ``a = 2 s [1 - y f]_+`` made to meet ``y'a = 0``, ``a >= 0`` and,
    when ``basis`` has rows, ``X_F'Ya = 0`` (alternating projections and clipping, then
    the heavier class scaled down), as the certificate builds it."""
    a = 2.0 * s * np.maximum(0.0, 1.0 - y * state)
    if basis.shape[0] > 0:
        for _ in range(PROJECTION_ROUNDS):
            _project_off(basis, a)
            for i in range(a.size):
                a[i] = max(a[i], 0.0)
    positive = negative = 0.0
    for i in range(y.size):
        if y[i] > 0:
            positive += a[i]
        else:
            negative += a[i]
    if positive != negative:
        heavier = positive > negative
        factor = negative / positive if heavier else positive / negative
        for i in range(y.size):
            if (y[i] > 0) == heavier:
                a[i] *= factor
    return a


@njit(cache=True)
def _loss(y, s, squares, state):
    """``sum_i s_i r_i^2`` (state: the residual) or ``sum_i s_i [1 - y_i f_i]_+^2`` (the fit)."""
    total = 0.0
    for i in range(y.size):
        slack = state[i] if squares else max(0.0, 1.0 - y[i] * state[i])
        total += s[i] * slack * slack
    return total


@njit(cache=True)
def _penalty(values, thresholds):
    """``sum_j lam W_j |w_j|`` over the nonzero entries (an excluded feature's is 0)."""
    total = 0.0
    for q in range(values.size):
        if values[q] != 0.0:
            total += thresholds[q] * abs(values[q])
    return total


@njit(cache=True)
def _duality_gap(
    data, indices, indptr, n, dense, features, y, s, squares, coef, intercept, state,
    thresholds, bounded, basis, unpenalised, unpenalised_norms, reference, dual_vector,
    correlations,
):
    """The primal, the dual at the feasible point built from the fit, and the dual
    infeasibility, for the problem on ``features`` (the support and the free features
    must be among them).

    Leaves in ``dual_vector`` the vector v whose products ``X_j'v`` the constraints
    bound (``u`` for the lasso, ``Y a`` for SVM2, before the scaling into them) and in
    ``correlations[j]`` those products for the given features.
    """
    if squares:
        # u = 2 s (r - mean_s r), projected off [1, X_F] in the metric of S^-1.
        root = np.sqrt(s)
        dual_vector[:] = 2.0 * root * state
        _project_off(basis, dual_vector)
        dual_vector *= root
    else:
        a = _squared_hinge_dual(y, s, state, basis)
        dual_vector[:] = y * a
    _correlate(data, indices, indptr, n, dense, features, dual_vector, correlations)
    scaling = 1.0  # the largest t <= 1 with t |X_j'v| <= lam W_j
    penalty = 0.0
    inner = 0.0  # (X'u)'w, for the lasso's dual value
    for j in features:
        size = abs(correlations[j])
        if bounded[j] and size * scaling > thresholds[j]:
            scaling = thresholds[j] / size
        if coef[j] != 0.0:
            penalty += thresholds[j] * abs(coef[j])
            inner += correlations[j] * coef[j]
    primal = _loss(y, s, squares, state) + penalty
    # The dual along the ray t v, 0 <= t <= scaling: t linear - t^2 quadratic / 4.
    quadratic = 0.0
    infeasibility = 0.0
    if squares:
        # linear = u'y = u'r + (X'u)'w + b 1'u, without the cancellation of u'y.
        linear = inner
        for i in range(n):
            u = dual_vector[i]
            linear += u * (state[i] + intercept)
            quadratic += u * u / s[i]
    else:
        linear = a.sum()
        for i in range(n):
            quadratic += a[i] * a[i] / s[i]
        norm = max(np.sqrt(a @ a), reference)
        for q in range(unpenalised.size):
            size = abs(correlations[unpenalised[q]]) / (unpenalised_norms[q] * norm)
            infeasibility = max(infeasibility, size)
    t = scaling
    if quadratic > 0.0:
        t = min(max(2.0 * linear / quadratic, 0.0), scaling)
    return primal, t * linear - t * t * quadratic / 4.0, infeasibility


@njit(cache=True)
def _epoch(data, indices, indptr, n, dense, weighted, working, y, s, squares, coef, state,
           intercept, lipschitz, centres, thresholds):
    """One cyclic pass of proximal coordinate steps over the working set; returns the
    intercept.

    The step is of length ``1 / L_j``: the exact minimiser along the coordinate for the
    squares, a majorisation step for the squared hinge, whose curvature ``L_j`` counts
    every sample while only those inside the margin (``y_i f_i < 1``) have one. There,
    on a raw column, the step is the proximal Newton step with the curvature of the
    samples inside the margin (liblinear's primal coordinate descent, Yuan et al. 2010,
    "A comparison of optimization methods and software for large-scale L1-regularized
    linear classification", section 4.1.1, with its generalised second derivative),
    kept when it is sure to decrease the objective at least as much as the
    majorisation step (:func:`_keeps_newton`; the samples it brings inside the margin
    are summed as the fit is updated), else replaced by it. On the hard Debian split at
    0.01 lam_max, 30% of the samples are outside the margin and a column's curvature
    inside it is a median 0.76 of ``L_j / 2``: the last working set took 20 epochs
    where it took 80 (the intercept's Newton step, :func:`_intercept_step`, included).

    With ``q_i = r_i`` (squares) or ``y_i [1 - y_i f_i]_+`` (squared hinge), minus the
    loss's derivative in ``w_j`` is ``2 sum_i s_i x_ij q_i``. A step by ``delta`` changes
    the residual by ``-delta X_j`` or the fit by ``+delta X_j``. ``weighted`` holds the
    entries of ``S X`` (``data`` itself without sample weights), which saves reading
    ``s_i`` in the products, a tenth of an epoch's time.

    The step on a centred column (``m_j != 0``, see :func:`_column_statistics`) moves
    ``(w_j, b)`` by ``delta (1, -m_j)``: along ``X_j - m_j`` in the fitted values. Word
    counts are nonnegative: a frequent word's column is nearly collinear with the
    constant, and steps along it alone, with the intercept updated once an epoch, are
    short. Along the centred column minus the derivative is
    ``2 sum_i s_i (x_ij - m_j) q_i = 2 (X_j'S q - m_j 1'S q)``: for the squares ``1'S q`` is
    0 (the intercept is optimal before the epoch and stays so, since
    ``sum_i s_i (x_ij - m_j) = 0``), for the squared hinge it is computed (O(n), which is
    why only the columns nearly collinear with the constant are centred there). The
    constant part of the change (``offset``, added to every entry of ``state``) is
    applied once at the end, so that a step costs O(nnz(X_j)) for the squares.
    """
    offset = 0.0  # the residual or the fit is state + offset
    for j in working:
        start, stop = _span(indptr, n, dense, j)
        centre = centres[j]
        gradient = curvature = 0.0
        if squares:
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                gradient += weighted[k] * (state[i] + offset)
        else:
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                slack = max(1.0 - y[i] * (state[i] + offset), 0.0)
                gradient += weighted[k] * y[i] * slack
                curvature += weighted[k] * data[k] if slack > 0.0 else 0.0
            if centre != 0.0:
                gradient -= centre * _intercept_gradient(y, s, state, offset)
        old = coef[j]
        safe = _soft_step(old, gradient, 0.5 * lipschitz[j], thresholds[j])
        new = safe
        # The squared hinge's curvature on the samples inside the margin (a raw column).
        curvature = max(curvature, CURVATURE_FLOOR * 0.5 * lipschitz[j])
        newton = not squares and centre == 0.0 and curvature < 0.5 * lipschitz[j]
        if newton:
            new = _soft_step(old, gradient, curvature, thresholds[j])
        if new == old:
            continue
        coef[j] = new
        change = old - new if squares else new - old
        if not (newton and new != safe):
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                state[i] += change * data[k]
            offset -= change * centre
            continue
        entering = 0.0  # sum_i s_i slack_i^2 over the samples the step brings inside the margin
        for k in range(start, stop):
            i = k - start if dense else indices[k]
            state[i] += change * data[k]
            moved = y[i] * change * data[k]
            slack = 1.0 - y[i] * (state[i] + offset)
            entering += s[i] * slack * slack if (slack > 0.0) & (slack + moved <= 0.0) else 0.0
        if not _keeps_newton(gradient, curvature, 0.5 * lipschitz[j], thresholds[j], old, new,
                             safe, entering):
            coef[j] = safe
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                state[i] += (safe - new) * data[k]
    if offset != 0.0:
        state += offset
    return intercept - offset if squares else intercept + offset


@njit(cache=True)
def _intercept_gradient(y, s, fit, offset):
    """``sum_i s_i y_i [1 - y_i (f_i + offset)]_+``: minus half the squared hinge's
    derivative in the intercept."""
    total = 0.0
    for i in range(y.size):
        total += s[i] * y[i] * max(1.0 - y[i] * (fit[i] + offset), 0.0)
    return total


@njit(cache=True)
def _intercept_step(y, s, squares, state, intercept, total_weight):
    """The intercept's coordinate step: exact for the squares (``b += mean_s(r)``); for
    the squared hinge a Newton step on the samples inside the margin, kept when it
    decreases the loss at least as much as the step of length ``1 / (2 sum_i s_i)`` is
    guaranteed to (:func:`_keeps_newton`), else replaced by that step."""
    if squares:
        step = (s @ state) / total_weight
        state -= step
        return intercept + step
    gradient = inside = 0.0
    for i in range(y.size):
        slack = max(1.0 - y[i] * state[i], 0.0)
        gradient += s[i] * y[i] * slack
        inside += s[i] if slack > 0.0 else 0.0
    safe = gradient / total_weight
    inside = max(inside, CURVATURE_FLOOR * total_weight)
    step = gradient / inside
    if step == 0.0 or step == safe:
        state += safe
        return intercept + safe
    entering = 0.0
    for i in range(y.size):
        state[i] += step
        slack = 1.0 - y[i] * state[i]
        entering += s[i] * slack * slack if (slack > 0.0) & (slack + y[i] * step <= 0.0) else 0.0
    if _keeps_newton(gradient, inside, total_weight, 0.0, 0.0, step, safe, entering):
        return intercept + step
    state += safe - step
    return intercept + safe


@njit(cache=True)
def _soft_step(old, gradient, curvature, threshold):
    """The minimiser of ``-2 gradient t + curvature t^2 + threshold |old + t|`` in
    ``old + t``: the proximal step of the L1 penalty."""
    moved = old + gradient / curvature
    shrink = 0.5 * threshold / curvature
    if moved > shrink:
        return moved - shrink
    if moved < -shrink:
        return moved + shrink
    return 0.0


@njit(cache=True)
def _keeps_newton(gradient, curvature, bound, threshold, old, newton, safe, entering):
    """Whether a squared-hinge Newton step from ``old`` to ``newton`` is kept.

    Along a coordinate the loss changes by ``-2 gradient t + curvature t^2`` on the
    samples inside the margin at the start (``curvature``: their ``sum_i s_i x_i^2``),
    less on those the step takes out of it and ``entering`` more (``sum_i s_i
    slack_i^2`` after the step over the samples it brings in): an upper bound on the
    step's change of the objective. The step of length ``1 / (2 bound)`` (``bound``:
    ``sum_i s_i x_i^2`` over every sample, the loss's largest curvature) to ``safe``
    is guaranteed the change ``-2 gradient t + bound t^2``; the Newton step is kept
    when its bound is at most that, so that it decreases the objective at least as
    much as the step it replaces.
    """
    step, fallback = newton - old, safe - old
    model = step * (curvature * step - 2.0 * gradient) + entering
    model += threshold * (abs(newton) - abs(old))
    guaranteed = fallback * (bound * fallback - 2.0 * gradient)
    guaranteed += threshold * (abs(safe) - abs(old))
    return model <= guaranteed


@njit(cache=True)
def _anderson_weights(history):
    """Anderson's combination of the last K iterates (rows 1..K of ``history``).

    With ``U`` the K differences of consecutive rows, the weights ``c = z / 1'z`` with
    ``(U U' + r I) z = 1`` (Bertrand & Massias 2021), ``r`` :data:`ANDERSON_RIDGE` times
    the largest diagonal entry of ``U U'`` (the regularised nonlinear acceleration of
    Scieur, d'Aspremont & Bach 2016). Where the iterates converge linearly along one
    direction, the differences are parallel and ``U U'`` singular; the ridge then
    gives the combination that cancels that direction (Aitken's extrapolation). On the
    hard Debian split, 20000 documents, the lasso's last working set at 0.1 lam_max
    took 71 epochs unregularised (the system singular at all but the first of its
    extrapolations, the gap falling by a factor 0.88 an epoch) and 13 with it.
    Returns an empty array when ``U U'`` is 0 or not finite (then no extrapolation is
    tried).
    """
    K = history.shape[0] - 1
    differences = history[1:] - history[:-1]
    gram = differences @ differences.T
    largest = 0.0
    for k in range(K):
        largest = max(largest, gram[k, k])
    for k in range(K):
        gram[k, k] += ANDERSON_RIDGE * largest
    # Cholesky factorisation, refused when a pivot is not positive.
    lower = np.zeros((K, K))
    for k in range(K):
        for m in range(k, K):
            total = gram[m, k]
            for q in range(k):
                total -= lower[m, q] * lower[k, q]
            if m == k:
                if not total > 0.0:
                    return np.zeros(0)
                lower[k, k] = np.sqrt(total)
            else:
                lower[m, k] = total / lower[k, k]
    z = np.ones(K)
    for k in range(K):  # L x = 1
        for q in range(k):
            z[k] -= lower[k, q] * z[q]
        z[k] /= lower[k, k]
    for k in range(K - 1, -1, -1):  # L' z = x
        for q in range(k + 1, K):
            z[k] -= lower[q, k] * z[q]
        z[k] /= lower[k, k]
    total = z.sum()
    if total == 0.0:
        return np.zeros(0)
    return z / total


@njit(cache=True)
def _anderson_step(history, states, stored):
    """After an iterate and its state are stored in row ``stored`` of ``history`` and
    ``states`` (rings of ANDERSON_K + 1 rows): the next row, and once the rings are full
    the extrapolated iterate and state (:func:`_anderson_weights`; empty arrays when
    none is tried)."""
    stored += 1
    if stored < history.shape[0]:
        return stored, np.zeros(0), np.zeros(0)
    weights = _anderson_weights(history)
    if not weights.size:
        return 0, weights, weights
    return 0, weights @ history[1:], weights @ states[1:]


@njit(cache=True)
def _solve_working_set(
    data, indices, indptr, n, dense, weighted, working, y, s, squares, coef, intercept, state,
    lipschitz, centres, thresholds, target, start_gap, feasibility, max_epochs, bounded, basis,
    unpenalised, unpenalised_norms, reference, dual_vector, correlations,
):
    """Coordinate descent with Anderson acceleration on the working set, in place.

    Updates ``coef`` (on the working set) and ``state``; returns the intercept and the
    number of epochs. Stops when the working set's duality gap is at most ``target``
    (and SVM2's dual infeasibility at most ``feasibility``), or after ``max_epochs``.
    The gap is evaluated after :data:`FIRST_CHECK` epochs, then when
    :func:`_epochs_ahead` expects it at the target (``start_gap``: the full gap before
    the first epoch, the rate's first reference).
    """
    size = working.size
    total_weight = s.sum()
    local_thresholds = thresholds[working]
    history = np.empty((ANDERSON_K + 1, size + 1))
    states = np.empty((ANDERSON_K + 1, n))
    stored = 0
    epochs = 0
    check, last_epoch, last_gap = FIRST_CHECK, 0, start_gap
    # The lasso's centred steps assume an optimal intercept to start from.
    intercept = _intercept_step(y, s, squares, state, intercept, total_weight)
    while epochs < max_epochs:
        intercept = _epoch(data, indices, indptr, n, dense, weighted, working, y, s, squares,
                           coef, state, intercept, lipschitz, centres, thresholds)
        intercept = _intercept_step(y, s, squares, state, intercept, total_weight)
        epochs += 1
        history[stored, :size] = coef[working]
        history[stored, size] = intercept
        states[stored] = state
        stored, point, fit = _anderson_step(history, states, stored)
        if point.size:
            current = _loss(y, s, squares, state) + _penalty(history[-1, :size],
                                                             local_thresholds)
            extrapolated = _loss(y, s, squares, fit) + _penalty(point[:size], local_thresholds)
            if extrapolated < current:
                coef[working] = point[:size]
                intercept = point[size]
                state[:] = fit
        if epochs == check:
            primal, dual, infeasibility = _duality_gap(
                data, indices, indptr, n, dense, working, y, s, squares, coef, intercept,
                state, thresholds, bounded, basis, unpenalised, unpenalised_norms, reference,
                dual_vector, correlations,
            )
            gap = primal - dual
            if gap <= target and infeasibility <= feasibility:
                break
            check = epochs + _epochs_ahead(gap, target, last_gap, epochs - last_epoch)
            last_epoch, last_gap = epochs, gap
    return intercept, epochs


@njit(cache=True)
def _epochs_ahead(gap, target, last_gap, spent):
    """Epochs until the next evaluation of the working set's gap: those at which the
    gap, falling at the rate it fell from ``last_gap`` over the last ``spent`` epochs
    (linear convergence), reaches ``target``; between 1 and :data:`CHECK_EVERY`
    (``CHECK_EVERY`` when the gap did not fall)."""
    if not (0.0 < target < gap < last_gap):
        return CHECK_EVERY
    rate = np.log(gap / last_gap) / spent  # < 0: the log of the gap's factor per epoch
    return int(min(max(np.ceil(np.log(target / gap) / rate), 1.0), CHECK_EVERY))
