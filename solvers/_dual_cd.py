r"""Dual coordinate descent for the 2-norm SVM with an exact, unpenalised intercept.

The models are the 2-norm SVM of 001 eq. (2) and its squared-hinge variant, with a
cost ``c_i = C s_i > 0`` per sample (C times the sample weight; see
:func:`solvers.certificates.svm_certificate`)::

    primal  min_{w, b}  1/2 ||w||^2 + sum_i c_i loss(y_i (x_i'w + b))
    dual    max_a  1'a - 1/2 ||X'Ya||^2 - sum_i D_i a_i^2 / 2
            s.t.  y'a = 0,  0 <= a_i <= U_i

with ``loss(m) = max(0, 1 - m)`` (``D_i = 0, U_i = c_i``) or ``max(0, 1 - m)^2``
(``D_i = 1 / (2 c_i), U_i = +inf``). The primal solution is ``w = X'Ya``, and b is the
multiplier of ``y'a = 0``.

liblinear's dual coordinate descent (Hsieh, Chang, Lin, Keerthi and Sundararajan 2008,
"A dual coordinate descent method for large-scale linear SVM", Algorithm 1 in random
order with the shrinking of Algorithm 3) updates one ``a_i`` at a time in closed form
and keeps ``w = X'Ya`` up to date, so an update costs two passes over row i. It has no
equality constraint: it penalises the intercept as a constant feature. Here ``y'a = 0``
is kept by the method of multipliers (the augmented Lagrangian in the dual, a proximal
point on b in the primal)::

    max_a  1'a - 1/2 ||X'Ya||^2 - sum_i D_i a_i^2 / 2 - b y'a - rho/2 (y'a)^2

over the box, which coordinate by coordinate is liblinear's problem with the intercept
``beta = b + rho y'a``: coordinate i has the gradient
``y_i (x_i'w + beta) - 1 + D_i a_i`` (of the negated objective) and the curvature
``||x_i||^2 + D_i + rho``. After each sweep the multiplier takes its step
``b <- b + rho y'a``, which is the intercept the sweep ended with. On the corpora of
``benchmarks._text`` a step per sweep took fewer sweeps than solving the inner problem
between steps, and fewer than liblinear takes to its default tolerance with its
penalised intercept. rho is 0.15 times the mean ``||x_i||^2``: a larger one shortens
the coordinates' steps, a smaller one the multiplier's (0.05-0.5 were measured).

The stopping rule is the duality gap, as :func:`solvers.certificates.svm_certificate`
computes it. When liblinear's measure (the spread of the projected gradients over the
unshrunk samples) and the multiplier's step are both below a threshold, the dual point
is moved onto ``y'a = 0`` (the free multipliers of the heavier class scaled down, w
updated over their rows; the sweeps go on from there), the intercept set to the exact
minimiser of the primal for w (:func:`solvers._polish.hinge_intercept`, which also
restarts the multiplier there) and the primal compared with the dual: one sequential
pass over X, for ``X w``. A failed check lowers the threshold (tenfold, or less when
the gap is within 10 times the tolerance) and, from the margins it computed, brings
back the shrunk samples that the shrinking rule would no longer leave out, instead of
liblinear's full sweep. A warm start's gap is checked before any sweep: a solve started
at its own solution (or at one that still holds at the new C, as the hinge's hard
margin does) ends there, in 0 epochs; where the new box clipped no multiplier (the face
is the last solve's) and a direct face step solves that face (see below), it is taken
there, before any sweep.

A multiplier step after every sweep, rather than after an inner problem solved to a
tolerance that tends to 0, is outside the classical guarantee of the method of
multipliers (Rockafellar 1976); the gap check is what makes every answer honest, and
``converged`` is never set on anything else.

Regime: dual coordinate descent alone needs many sweeps when the dual is
ill-conditioned: more samples than features with a large C (many free multipliers on a
rank-deficient ``X X'``), or a column that dwarfs the others (``||x_i||^2`` is then one
feature's); liblinear too runs out of iterations there (on 60 Gaussian problems with n
and d in 10-300 and C in 1e-2-1e2, 15 were above a gap of 1e-7 after 1000 sweeps, one
at 1e-4 after 1e5). So the sweeps run in batches of at most ``_CHECK_EPOCHS`` between
gap checks (and of at least a gap check's work), and a *face step* may follow a check
(:func:`_face_step`): the dual minimised over the face of the free multipliers, by
projected conjugate residuals (the iterates of MINRES) and a projected search, or along
the null space of the face's Hessian when there are more free multipliers than primal
unknowns. The choice is made on measured cost (:func:`_face_pays`), counted in entries
of X read, which does not depend on the machine: the gap's decrease per entry read in
the last batch of sweeps against the last face step's (before the first, against the
work of a face step that finishes), and whether the sweeps at their rate can reach
``tol`` within the epochs left. While the face still changes, a face step's iterations
stop once one gains little and their step leaves the box, which the projected search
then cuts (the truncation of Moré and Toraldo 1991), or after ``_FACE_CG_ITERATIONS``;
a face that a batch of sweeps left as it was (the same free multipliers at two checks
in a row) is solved to the end, up to ``_FACE_CG_SETTLED`` iterations: the active-set
finish that coordinate descent lacks. Either way they stop once the face's residual is
within a tenth of the gap's target, and a face step on a face that still changes does
at most ``_FACE_BUDGET`` times the work the sweeps are expected to need to reach ``tol``
at their steady rate (the better of the last batch's and the last two's: on the Debian
hard split one batch that left the gap about where it was had made the sweeps "short
of work", and a face step of 4-7 rounds of 100 iterations cost twice the rest of the
solve). Its rounds stop there, keeping their progress, and the sweeps go on. A settled
face's step is budgeted too until one leaves the gap higher than it found it (its
conjugate residuals, cut short, left a step that the sweeps then undo); from then on
settled faces are solved to the end. On the whole Debian corpus at C = 100 (63 539
documents) every cut step on the settled face of 7 750 multipliers had raised the gap
(3e-5 to 4e-3) and the solve stopped at 1000 epochs at 1.5e-6; now 580 epochs to
9.5e-8 (480 with no budget on any settled face, which on 20 000 easy documents at
C = 1 took 20% longer). Then each of those 60 problems is certified
(``tests/solvers/test_issue30_dual_cd.py``).

Real text (``benchmarks.real_text``: Debian descriptions as they come, libraries
against the rest) makes the hardest faces: near-duplicate documents make the face's
Hessian ill-conditioned, exact repeats make it singular (at 20 000 documents and
C = 100, 4 021 free multipliers, 305 zero eigenvalues). Three things finish there:

- conjugate residuals rather than conjugate gradients: the gap sees the residual (the
  free samples' margin errors, weighted by their boxes), which they make smallest in
  each Krylov space; at the same 100 iterations the gap they leave was 2.5e-6 where
  conjugate gradients left 1.2e-4;
- the step put back on ``y_F'p = 0`` (and its image recomputed) after the iterations:
  along y the gradient is the intercept's, so a drift of 1e-7 off the plane had made
  the step's length 4-80 times its minimiser's;
- with the hinge, the repeated rows of one label merged into one sample of their summed
  cost (:func:`_duplicates`; the result's multipliers are split back by cost): the
  same problem, whose face is no longer singular along their differences (where the
  minimum-norm step moved the copies alike and one left the box). The squared hinge's
  face is never singular (``D > 0``), and its sweeps were slower on the merged samples
  (23 to 80 epochs at C = 1): its rows are kept as they are.

At 20 000 documents, C = 100, the solve was certified in 200-320 epochs and 4-6 face
steps (gap about 3e-9; it stopped at 1000 epochs, gap 2.7e-7, before), 0.2 times the time of
LinearSVC at its default tolerance; on the whole corpus (63 539 documents) in 420-580
epochs (1000 and a gap of 1.1e-4 before), where LinearSVC at its default tolerance
stopped at its cap of 100 000 iterations after 25 minutes, 3.5e-4 above that optimum
(``python -m benchmarks.dual_cd --debian 20000,all``). On text (more features
than samples, sparse rows of norm 1) it takes 10-100 sweeps to a relative gap of 1e-7:
on ``benchmarks._text`` at 2000 x 20000 and 20000 x 200000, C in {1, 100}, 0.3-1.1
times the time of LinearSVC at its default tolerance (``python -m benchmarks.dual_cd``).

Small faces are solved directly (:func:`_face_newton`): the face's Newton step from a
Cholesky factor of the Gram matrix of its rows ``X_F X_F' + D_F`` (gathered by columns:
one multiply-add per pair of entries that share a column; LAPACK's ``dpotrf``), the
bordered system's multiplier by its Schur complement (a scalar), the factor shifted by
1e-8 of its mean diagonal against singular faces (rows in proportion, more free
multipliers than features) and the solution refined once. It replaces the conjugate
residuals where it costs less, in the same units (a flop as 1/40 of an entry of the
sweeps, ``_DIRECT_FLOPS``, measured: 1.3-1.5 ns per entry on the small corpora below,
0.023-0.045 ns per flop of ``dpotrf`` at 100-400 rows): than the iterations they are
allowed on a settled face, than ``_DIRECT_UNSETTLED`` (8) on a face that still changes;
and where its Gram matrix holds no more entries than X (or a 256 x 256 face). A later
round of the same face step deletes the samples that left the face from its factor
(rank-one updates), and :func:`_face_pays` weighs the sweeps against the direct step's
work. Its first check may take one: the first batch's rate is measured from the gap at
the start (1 from zeros; a warm start's, as checked), but it decides a direct step only
(on text_like(2000, 20000), C = 1, that fast first rate had face steps taken that read
8.6e6 entries where the sweeps alone read 7.2e6). On the three
200-document corpora of ``benchmarks.small_corpora`` (about 160 free multipliers in
2 200-3 500 features, a direct step about 4-5 conjugate-residual iterations' work,
0.1 ms) the hinge at C = 1 was certified in 13, 14 and 12 epochs and one face step
(gap 1e-14 to 1e-13) where it took 49, 108 and 32 epochs (one face step of conjugate
residuals on net/web), 0.66-0.92 times the processor time of LinearSVC at its default
tolerance (1.40-2.11 before); at C = 100 in 12-14 epochs (17-32), 0.61-0.92 times
(1.55-1.81); the squared hinge at C = 1 in 9, 13 and 14 epochs (54, 41 and 71), 0.35,
1.16 and 0.91 times (0.46, 1.10 and 1.24), at C = 100 in 9-14 epochs (46-132), 0.62-0.96
times (1.28-1.77) (``python -m benchmarks.dual_cd --small``, one BLAS thread, medians of
5; whole fits: ``python -m benchmarks.small_corpora``). Their warm starts at C = 0.5
took 0 epochs (hinge; 1 before) and 8, 0 and 0 epochs with one face step (squared
hinge, the face step before any sweep; 18, 31 and 40 epochs before). Larger faces
keep conjugate residuals: on text_like(2000, 20000) and 20000 x 200000 (``python -m
benchmarks.dual_cd``) and on the Debian lists' hard and easy splits at 2000 documents
(``benchmarks.real_text``) and the hard one at 20 000, C = 1, the same epochs and face
steps as before, except the Debian easy split's warm start at C = 0.5 (hinge), which
its check before any sweep sent on another path: 80 epochs and 2 face steps where it
took 140 and none.

Scale: with X times s and C over s^2 the problem is the same (``w / s``, the same b,
``a / s^2``, the objective over s^2). Every threshold here is in units of the margin
(projected gradients, the spread, ``_NEGLIGIBLE``, ``_SPREAD_FLOOR``), relative to the
rows' squared norms (rho, curvatures), or to the objective (the gap, the face's
residual target over the boxes): the iterations do not depend on s, to rounding
(``tests/solvers/test_dual_cd_hard.py``: s = 1e-6 and 1e6, the same epochs); so is the
direct step's shift, relative to the face's mean diagonal.
"""

import functools
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from numba import njit

from sparsify.utils import one_blas_thread

from ._polish import hinge_intercept
from ._prefetch import prefetch
from .certificates import gap_scale, hinge_null_objective

__all__ = ["DualCDResult", "dual_coordinate_descent"]

# rho of the augmented Lagrangian, relative to the mean ||x_i||^2.
_RHO_FACTOR = 0.15
# Threshold on the spread of the projected gradients (in units of the margin) and on the
# multiplier's step that triggers the first gap check; each failed check divides it by
# 10, or by as little as 2 when the gap is near the tolerance; never below the floor
# (updates smaller than _NEGLIGIBLE are skipped, so the spread stalls about there).
_FIRST_SPREAD = 0.1
_SPREAD_DECREASE = 10.0
_SPREAD_FLOOR = 1e-10
# Projected gradients at most this are not worth an update (liblinear's 1e-12).
_NEGLIGIBLE = 1e-12
# The least positive float64: a floor of the face's typical curvature.
_TINY = np.finfo(float).tiny
# Values of the next row asked for in advance (32 cache lines; see solvers._prefetch).
_PREFETCH_VALUES = 256
# Sweeps between two gap checks at most.
_CHECK_EPOCHS = 20
# A face step: line searches (each one ends at the face's minimum or at a bound, which
# then leaves the face) and, per line search, conjugate-residual iterations at most (on
# a face the last batch of sweeps left as it was: _FACE_CG_SETTLED) and the relative
# residual at which they stop.
_FACE_ROUNDS = 10
_FACE_CG_ITERATIONS = 100
_FACE_CG_SETTLED = 1000
_FACE_CG_RTOL = 1e-10
# The work of a face step before one is measured, in conjugate-residual iterations.
_FACE_PRIOR = 50
# The share of the gap's target that the face's residual may leave (see _face_cg).
_FACE_GAP_SHARE = 0.1
# Conjugate residuals stop (when their step leaves the box) once an iteration lowers
# the face's quadratic by at most this share of what they lowered it by so far.
_FACE_CG_STALL = 0.1
# A face step's work at most, relative to the work the sweeps are expected to need to
# reach tol at their rate (see _face_pays): its rounds stop there, with their progress.
# A settled face is solved to the end once a budgeted step on one raised the gap.
_FACE_BUDGET = 2.0
# Sufficient decrease of the projected search (Armijo's constant).
_ARMIJO = 1e-4
# Entries of the dense block ``[Y_F X_F, y_F]`` of a null-space projection at most.
_NULL_ENTRIES = 10_000_000
# The direct face step (see _face_newton): dense floating-point operations per unit of
# work (an entry of X read by the sweeps, 1.3-1.5 ns on the corpora of
# benchmarks.small_corpora, 0.8 ns on text_like(2000, 20000); LAPACK's Cholesky factor
# took 0.045-0.023 ns per flop at 100-400 rows, one thread), the face's Gram matrix
# entries at most (a 256 x 256 face, or as many as X stores: 8 bytes each against its
# 12), and the shift of the face's Hessian, relative to its mean diagonal entry.
_DIRECT_FLOPS = 40
_DIRECT_ENTRIES = 65_536
_DIRECT_SHIFT = 1e-8
# On a face that still changes (its step crosses bounds, more rounds follow, and the
# conjugate residuals' stall rule stops them after 3-6 iterations on text), a direct
# step replaces at most this many of their iterations: it costs 4-5 on the corpora of
# benchmarks.small_corpora, 9 on a face of 241 in text_like(2000, 20000), where the
# sweeps alone finished in as much work.
_DIRECT_UNSETTLED = 8
# Diagonal entries of a pivoted R below this fraction of the first are rank deficiency.
_RANK_RTOL = 1e-10
# Halvings of the projected search before it falls back to the step that crosses no bound.
_HALVINGS = 30
# Curvature below this fraction of the typical diagonal (times ||p||^2) is zero.
_ZERO_CURVATURE = 1e-12


@dataclass(frozen=True)
class DualCDResult:
    """What :func:`dual_coordinate_descent` returns.

    ``alpha`` is feasible (``y'alpha = 0`` to rounding, in the box), ``coef`` is
    ``X'Y alpha`` (kept up to date with it, to rounding), and ``intercept`` the exact
    best intercept for ``coef`` (or the multiplier, if its primal is lower):
    ``primal - dual`` bounds how far ``(coef, intercept)`` is from optimal. ``alpha`` and
    ``intercept`` warm-start another call.

    Parameters
    ----------
    alpha : ndarray of shape (n_samples,)
        The dual point.
    coef : ndarray of shape (n_features,)
        ``w = X'Y alpha``.
    intercept : float
        The intercept b.
    epochs : int
        Sweeps over the (unshrunk) samples.
    converged : bool
        Whether ``relative_gap <= tol``.
    primal : float
        The primal objective at ``(coef, intercept)``.
    dual : float
        The dual objective at ``alpha``.
    relative_gap : float
        ``max(primal - dual, 0) / max(|primal|, |dual|, C * hinge_null_objective)``, as
        :func:`solvers.certificates.svm_certificate` measures it.
    spread : float
        The threshold on the projected gradients that the last sweeps met; ``spread``
        of a warm start.
    face_steps : int
        Face steps taken (see the module's notes).
    representative : ndarray of shape (n_samples,) or None
        With the hinge, each sample's representative among the repeated rows of its
        label (see ``representative`` of :func:`dual_coordinate_descent`); None with the
        squared hinge.
    work : int
        Entries of X read or written (rows of the sweeps, passes of the gap checks,
        products of the face steps): the cost that decides the face steps, and a
        measure of the solve's cost that does not depend on the machine.

    See Also
    --------
    dual_coordinate_descent : The solver that returns it.
    solvers.certificates.Certificate : The same gap, from the certificate.
    """

    alpha: np.ndarray
    coef: np.ndarray
    intercept: float
    epochs: int
    converged: bool
    primal: float
    dual: float
    relative_gap: float
    spread: float
    face_steps: int = 0
    work: int = 0
    representative: np.ndarray = None


def dual_coordinate_descent(
    X,
    y,
    costs,
    *,
    loss="hinge",
    tol=1e-7,
    max_epochs=1000,
    alpha=None,
    intercept=None,
    spread=None,
    representative=None,
    random_state=0,
):
    """Solve the 2-norm SVM (001 eq. 2, hinge or squared hinge) by dual coordinate descent.

    ``min_{w,b} 1/2 ||w||^2 + sum_i c_i loss(y_i (x_i'w + b))`` through its dual
    ``max_a 1'a - 1/2 ||X'Ya||^2 [- sum_i a_i^2 / (4 c_i)]`` on ``y'a = 0`` and
    ``0 <= a_i <= c_i`` (hinge) or ``a_i >= 0`` (squared hinge), ``w = X'Ya``:
    liblinear's coordinate descent with shrinking (Hsieh et al. 2008, Algorithms 1 and
    3), with the method of multipliers on ``y'a = 0`` for an exact, unpenalised
    intercept, stopped by the duality gap (see the module's notes).

    The input is assumed validated (the estimator layer's job): finite float64 values,
    y of -1.0 and +1.0 with both classes present, costs > 0 (drop the samples of
    weight 0 first).

    Parameters
    ----------
    X : scipy.sparse.csr_matrix or ndarray of shape (n_samples, n_features)
        CSR without duplicate entries (its arrays are read in place, unsorted indices
        are fine), or a C-contiguous array (else copied).
    y : ndarray of shape (n_samples,)
        Labels in {-1.0, +1.0}.
    costs : ndarray of shape (n_samples,)
        ``c_i = C s_i > 0``.
    loss : {"hinge", "squared_hinge"}, default="hinge"
    tol : float, default=1e-7
        Stop when the relative duality gap is at most this.
    max_epochs : int, default=1000
        Sweeps allowed; when they run out the result has ``converged=False`` unless its
        gap is within ``tol``.
    alpha : ndarray of shape (n_samples,), optional
        A warm start (e.g. the solution at another C on the same data), clipped into
        the box. Default: zeros.
    intercept : float, optional
        The warm start's intercept (the first multiplier). Default: 0.
    spread : float, optional
        The first threshold on the spread of the projected gradients (in units of the
        margin) at which the gap is checked. Default: 0.1. A warm start passes the last
        result's ``spread``, where that one converged: nearby problems converge about
        there, and the checks at each tenfold step down to it are saved.
    representative : ndarray of shape (n_samples,), optional
        The hinge's merge of repeated rows (``DualCDResult.representative``) of a
        previous call on the same rows and labels: the search is saved. Ignored with
        the squared hinge.
    random_state : int, default=0
        Seed of the order of the sweeps.

    Returns
    -------
    DualCDResult
        ``alpha``, ``coef``, ``intercept``, ``epochs``, ``converged`` and the gap.

    See Also
    --------
    solvers.certificates.svm_certificate : The certificate the result passes.
    sklearn.svm.LinearSVC : The liblinear solver, whose intercept is penalised.

    Examples
    --------
    Two classes on a line, 2 apart: the maximum-margin separator ``w = 1, b = -2``.

    >>> from solvers._dual_cd import dual_coordinate_descent
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> result = dual_coordinate_descent(X, y, np.ones(4), tol=1e-12)
    >>> result.converged, np.round(result.coef, 6), round(result.intercept, 6)
    (True, array([1.]), -2.0)
    """
    n, d = X.shape
    squared = loss == "squared_hinge"
    if sp.issparse(X):
        # Column indices are >= 0: read as unsigned, numba skips its test for negatives.
        rows = (X.data, X.indices.view(np.dtype(f"u{X.indices.itemsize}")), X.indptr)
    else:
        rows = (X.reshape(-1), np.empty(0, dtype=np.uint32), np.arange(n + 1) * d)
    # With the hinge, repeated rows of one label are one sample of their summed cost
    # (see the module's notes; the squared hinge's face is never singular).
    if squared:
        representative = np.arange(n)
    elif representative is None:
        representative = _duplicates(rows, rows[0].view(np.uint64), y)
    kept = np.flatnonzero(representative == np.arange(n))
    merged = kept.size < n
    sample_costs = costs
    if merged:
        costs = np.bincount(representative, weights=costs, minlength=n)
        if alpha is not None:
            alpha = np.bincount(representative, weights=np.clip(alpha, 0.0, None), minlength=n)
    coordinates = _coordinates(rows, costs, squared)
    upper = coordinates[1]
    # A warm start that the new box does not clip keeps the last solve's face.
    kept_face = alpha is None or not np.any(alpha > upper)
    alpha = np.zeros(n) if alpha is None else np.clip(alpha, 0.0, upper)
    b = 0.0 if intercept is None else float(intercept)
    null = hinge_null_objective(y, costs, squared=squared)
    w = _transpose_times(rows, y, alpha, d)
    order = kept.copy()  # shuffled in place
    kept = kept if merged else slice(None)  # the samples the best intercept weighs
    active = order.size
    thresholds = np.array([np.inf, -np.inf])  # liblinear's PGmax_old, PGmin_old
    state = np.array([_first_state(random_state)], dtype=np.uint64)
    spread = _FIRST_SPREAD if spread is None else float(spread)
    epochs = face_steps = total_work = 0
    # The gap at the start: from zeros (w = 0, b = 0) the primal is sum_i c_i and the dual
    # 0, a relative gap of 1; a warm start's is checked before any sweep (it may be within
    # tol already). The first batch's rate from it is the sweeps' fast start: it may
    # only decide a face step that is direct at once (see _face_pays).
    warm = alpha.any() or b != 0.0
    relative_gap = np.inf if warm else 1.0
    from_start = True
    lengths = np.diff(rows[2])
    # A gap check's work: X w, and the best intercept's selection (counted as a sort).
    check_work = int(rows[2][-1]) + n * max(int(np.log2(n)), 1)
    # The gap's decrease (log) per unit of work of the last face step with the sweeps
    # after it, measured at the check after those sweeps (``pending`` until then).
    face_rate = pending = None
    # The free multipliers at the last check: a face that a batch of sweeps left as it
    # was is solved to the end (see _face_step).
    last_free = None
    # Whether a step on a settled face left the gap higher than it found it.
    settled_raised = False
    # The gap at the last check (a real one, also after a face step) and the batch of
    # sweeps before it, (gap at the check before, that batch's work): the window of the
    # last two batches (see _face_pays).
    last_gap, window = np.inf, None
    # The entries of each column among the rows of the face ``counted`` (sparse X): the
    # direct step's cost at each check (see _direct_cost), updated by the rows that moved.
    sparse = rows[1].size > 0
    counted = counts = None

    def check(b):
        _balance(rows, y, upper, alpha, w)
        margins, primal, dual = _objectives(rows, y, costs, squared, alpha, w, b)
        best = hinge_intercept(margins[kept], y[kept], squared=squared,
                               sample_weight=costs[kept])  # fmt: skip
        slack = np.maximum(0.0, 1.0 - y * (margins + best))
        refined = 0.5 * (w @ w) + costs @ (slack * slack if squared else slack)
        if refined < primal:
            b, primal = best, refined
        return b, margins, primal, dual, max(primal - dual, 0.0) / gap_scale(primal, dual, null)

    while True:
        budget = 0 if warm else min(max_epochs - epochs, _CHECK_EPOCHS)
        b, sweeps, active, work = _sweeps(
            rows, y, coordinates, alpha, w, b, spread, budget, check_work,
            order, active, thresholds, state,
        )  # fmt: skip
        epochs += sweeps
        total_work += work + check_work
        previous_gap = relative_gap
        b, margins, primal, dual, relative_gap = check(b)
        if pending is not None:
            before, spent = pending
            face_rate = np.log(before / max(relative_gap, tol)) / (spent + work + check_work)
            pending = None
        if relative_gap <= tol or epochs >= max_epochs:
            break
        free = (alpha > 0.0) & (alpha < upper)
        settled = last_free is not None and np.array_equal(free, last_free)
        last_free = free
        # The work of a face step that finishes: conjugate residuals' iterations, or a
        # direct step where _face_step would take one (on a face that still changes, in
        # place of at most _DIRECT_UNSETTLED of them).
        face_pass = int(lengths[free].sum())
        per_iteration = 2 * face_pass + 3 * d
        prior = _FACE_PRIOR * per_iteration
        count = int(np.count_nonzero(free))
        allowed = _direct_allowance(
            _FACE_CG_SETTLED if settled else _DIRECT_UNSETTLED, count, per_iteration
        )
        direct = np.inf
        if _factor_within(count, allowed) and _direct_fits(count, rows):
            if sparse and counted is None:
                counted, counts = free, np.zeros(d, dtype=np.int32)
                changed = np.flatnonzero(free)
                _count_columns(rows, changed, 1, counts)
                total_work += d
            elif sparse:  # the columns' counts moved by the rows that entered or left F
                changed = np.flatnonzero(free != counted)
                _count_columns(rows, changed, 1, counts)  # entered: +1, left: -1 below
                _count_columns(rows, changed[counted[changed]], -2, counts)
                counted = free
            total_work += int(lengths[changed].sum()) if sparse else 0
            direct = _direct_cost(rows, np.flatnonzero(free), face_pass, d, counts)[0]
            direct = direct if direct <= allowed else np.inf
            prior = min(prior, direct)
        unsettled = direct <= _DIRECT_UNSETTLED * per_iteration  # a direct step at once
        if warm:
            # A warm start's face, where the new box left it as it was and a direct step
            # solves it, is solved before any sweep (the face of the last C is often
            # this C's); else the sweeps begin.
            warm = False
            if not (kept_face and unsettled):
                continue
            pays, short, expected = True, False, np.inf
        else:
            if from_start and not unsettled:
                previous_gap = np.inf  # no face step on the rate of the fast start
            from_start = False
            spare = (max_epochs - epochs) / max(sweeps, 1) * (work + check_work)
            # The rate of face steps on a face that still changed says little of one
            # that finishes a settled face: that one is judged as the first is.
            batch = work + check_work
            two = None if window is None else (window[0], window[1] + batch)
            window, last_gap = (last_gap, batch), relative_gap
            pays, short, expected = _face_pays(previous_gap, relative_gap, batch, tol,
                                     None if settled else face_rate, prior, spare, two)  # fmt: skip
        if pays:
            # Slow progress: minimise over the face of the free multipliers exactly,
            # then sweep again over every sample (the pattern has changed).
            target = _FACE_GAP_SHARE * tol * gap_scale(primal, dual, null)
            # Conjugate gradients cut short where the box would cut their step (cheap,
            # while the face still changes), unless the sweeps left cannot finish.
            # A face the sweeps left as it was is solved to the end (within the budget
            # until a budgeted step on such a face raised the gap: see the notes).
            stall = 0.0 if short or settled else _FACE_CG_STALL
            iterations = _FACE_CG_SETTLED if settled else _FACE_CG_ITERATIONS
            budget = np.inf if settled and settled_raised else _FACE_BUDGET * float(expected)
            before = relative_gap
            b, face_work = _face_step(X, rows, y, coordinates, alpha, w, b, target, stall,
                                      iterations, budget)  # fmt: skip
            last_free = None
            total_work += face_work + check_work
            pending = (relative_gap, face_work + check_work)
            face_steps += 1
            b, margins, primal, dual, relative_gap = check(b)
            if relative_gap <= tol:
                break
            settled_raised = settled_raised or (settled and relative_gap > before)
            last_gap, window = relative_gap, None
            active = order.size
            thresholds[:] = (np.inf, -np.inf)
            if not short:
                # The first sweeps over every sample may raise the gap the face step
                # left: their rate is measured from the next check on.
                relative_gap = np.inf
            continue
        decrease = min(max(tol / relative_gap, 1.0 / _SPREAD_DECREASE), 0.5)
        spread = max(spread * decrease, _SPREAD_FLOOR)
        active = _reactivate(y, coordinates, alpha, b, margins, order, thresholds)
    if merged:  # each repeated row's share of its sample's multiplier, by cost
        alpha = alpha[representative] * (sample_costs / costs[representative])
    return DualCDResult(
        alpha=alpha.copy(),
        coef=w.copy(),
        intercept=float(b),
        epochs=int(epochs),
        converged=bool(relative_gap <= tol),
        primal=float(primal),
        dual=float(dual),
        relative_gap=float(relative_gap),
        spread=float(spread),
        face_steps=int(face_steps),
        work=int(total_work),
        representative=None if squared else representative,
    )


# -- the rows of X ------------------------------------------------------------------
# rows = (data, indices, indptr): a CSR matrix's arrays, or a dense C-contiguous X's flat
# data with empty indices and indptr[i] = i d (row i's k-th value is column k's).


@njit(cache=True)
def _dot(u, v):
    """``u'v`` in one thread, in order (no BLAS)."""
    total = 0.0
    for k in range(u.size):
        total += u[k] * v[k]
    return total


@njit(cache=True)
def _row_dot(rows, i, v):
    """``x_i'v``, summed in four interleaved parts (shorter chains of dependent adds)."""
    data, indices, indptr = rows
    start, stop = indptr[i], indptr[i + 1]
    dense = indices.size == 0
    s0 = s1 = s2 = s3 = 0.0
    k = start
    while k + 4 <= stop:
        if dense:
            j = k - start
            s0 += data[k] * v[j]
            s1 += data[k + 1] * v[j + 1]
            s2 += data[k + 2] * v[j + 2]
            s3 += data[k + 3] * v[j + 3]
        else:
            s0 += data[k] * v[indices[k]]
            s1 += data[k + 1] * v[indices[k + 1]]
            s2 += data[k + 2] * v[indices[k + 2]]
            s3 += data[k + 3] * v[indices[k + 3]]
        k += 4
    while k < stop:
        s0 += data[k] * (v[k - start] if dense else v[indices[k]])
        k += 1
    return (s0 + s1) + (s2 + s3)


@njit(cache=True)
def _row_axpy(rows, i, scale, v):
    """``v += scale x_i``."""
    data, indices, indptr = rows
    start, stop = indptr[i], indptr[i + 1]
    if indices.size == 0:
        for k in range(start, stop):
            v[k - start] += scale * data[k]
    else:
        for k in range(start, stop):
            v[indices[k]] += scale * data[k]


@njit(cache=True)
def _prefetch_row(rows, i):
    """Ask for the first cache lines of row i (see solvers._prefetch)."""
    data, indices, indptr = rows
    start = indptr[i]
    stop = min(indptr[i + 1], start + _PREFETCH_VALUES)
    for k in range(start, stop, 8):
        prefetch(data, k)
    if indices.size > 0:
        for k in range(start, stop, 16):
            prefetch(indices, k)


@njit(cache=True)
def _transpose_times(rows, y, a, n_features):
    """``X'Y a``."""
    out = np.zeros(n_features)
    for i in range(y.size):
        if a[i] != 0.0:
            _row_axpy(rows, i, y[i] * a[i], out)
    return out


@njit(cache=True)
def _same_row(rows, bits, y, i, j):
    """Whether samples i and j have the same label and the same row (bit for bit)."""
    indices, indptr = rows[1], rows[2]
    if y[i] != y[j] or indptr[i + 1] - indptr[i] != indptr[j + 1] - indptr[j]:
        return False
    shift = indptr[j] - indptr[i]
    for k in range(indptr[i], indptr[i + 1]):
        if bits[k] != bits[k + shift] or (indices.size > 0 and indices[k] != indices[k + shift]):
            return False
    return True


@njit(cache=True)
def _duplicates(rows, bits, y):
    """Each sample's representative: the first sample with its label and its row.

    Rows are hashed (FNV-1a over the label, the column indices and the values' bits),
    sorted by hash, and compared entry by entry with the first of their hash (a row
    that differs from it keeps itself). A CSR row is compared as stored: the same row
    with its entries in another order is not found.
    """
    indices, indptr = rows[1], rows[2]
    n = y.size
    prime = np.uint64(1099511628211)
    hashes = np.empty(n, dtype=np.uint64)
    for i in range(n):
        h = np.uint64(14695981039346656037) ^ np.uint64(y[i] > 0.0)
        for k in range(indptr[i], indptr[i + 1]):
            if indices.size > 0:
                h = (h ^ np.uint64(indices[k])) * prime
            h = (h ^ bits[k]) * prime
        hashes[i] = h
    order = np.argsort(hashes, kind="mergesort")
    representative = np.arange(n)
    s = 0
    while s < n:
        first = order[s]
        t = s + 1
        while t < n and hashes[order[t]] == hashes[first]:
            if _same_row(rows, bits, y, first, order[t]):
                representative[order[t]] = first
            t += 1
        s = t
    return representative


# -- the solver ---------------------------------------------------------------------
# coordinates = (D, U, curvature, rho): the diagonal of the dual's quadratic term, the
# upper bounds of the box, each coordinate's curvature ||x_i||^2 + D_i + rho, and rho.


@njit(cache=True)
def _coordinates(rows, costs, squared):
    """``(D, U, curvature, rho)``; rho is _RHO_FACTOR times the mean ``||x_i||^2`` (1 if X = 0)."""
    data, _, indptr = rows
    n = costs.size
    diagonal = np.zeros(n)
    upper = np.empty(n)
    curvature = np.empty(n)
    for i in range(n):
        if costs[i] == 0.0:  # a repeated row, merged into another (box [0, 0])
            upper[i] = 0.0
        elif squared:
            diagonal[i] = 0.5 / costs[i]
            upper[i] = np.inf
        else:
            upper[i] = costs[i]
        row = data[indptr[i] : indptr[i + 1]]
        curvature[i] = _dot(row, row)
    mean_norm = curvature.sum() / max(n, 1)
    rho = _RHO_FACTOR * mean_norm if mean_norm > 0.0 else 1.0
    curvature += diagonal + rho
    return diagonal, upper, curvature, rho


@njit(cache=True)
def _left_out(a, upper, gradient, thresholds):
    """Algorithm 3's shrinking rule: ``a`` at a bound, its gradient pushing it out beyond
    the last sweep's largest projected gradients (``thresholds``)."""
    return (a == 0.0 and gradient > thresholds[0]) or (a == upper and gradient < thresholds[1])


@functools.cache
def _first_state(random_state):
    """The xorshift64* generator's first state for the seed ``random_state`` (nonzero:
    its lowest bit set), from NumPy's SeedSequence; kept per seed (10 us a call, a
    fiftieth of a 200-document fit)."""
    return int(np.random.SeedSequence(random_state).generate_state(1, np.uint64)[0] | 1)


@njit(cache=True)
def _shuffle(order, count, state):
    """Shuffle ``order[:count]`` in place (Fisher-Yates) with xorshift64* draws.

    ``state`` holds the generator's nonzero 64-bit state (Vigna 2016, "An experimental
    exploration of Marsaglia's xorshift generators, scrambled"); a draw costs a few
    instructions, an eighth of numba's Mersenne twister, which took a tenth of a sweep.
    """
    x = state[0]
    for s in range(count):
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        uniform = ((x * np.uint64(2685821657736338717)) >> np.uint64(11)) * 2.0**-53
        j = s + int(uniform * (count - s))
        order[s], order[j] = order[j], order[s]
    state[0] = x


@njit(cache=True)
def _sweeps(rows, y, coordinates, alpha, w, b, spread, max_epochs, min_work, order, active,
            thresholds, state):  # fmt: skip
    """Sweeps, each followed by the multiplier's step, until both are within ``spread``.

    A sweep updates ``alpha[order[:active]]`` in random order (Hsieh et al. 2008,
    Algorithm 3: the shrunk samples are moved behind ``active``), then
    ``b += rho y'alpha``. Stops when the projected gradients of the sweep lie within
    ``spread`` of each other and ``rho |y'alpha| <= spread`` (both in units of the
    margin) once they have read ``min_work`` entries of X, or after ``max_epochs``.
    alpha, w (``= X'Y alpha``), order, thresholds and state are updated in place.
    Returns ``(b, epochs, active, work)``, work the entries of X read or written.
    """
    diagonal, upper, curvature, rho = coordinates
    indptr = rows[2]
    y_alpha = _dot(y, alpha)
    epochs = 0
    work = 0
    while epochs < max_epochs:
        _shuffle(order, active, state)
        beta = b + rho * y_alpha
        pg_max, pg_min = -np.inf, np.inf
        s = 0
        while s < active:
            i = order[s]
            if s + 1 < active:
                _prefetch_row(rows, order[s + 1])
            a = alpha[i]
            gradient = y[i] * (_row_dot(rows, i, w) + beta) - 1.0 + diagonal[i] * a
            work += indptr[i + 1] - indptr[i]
            if _left_out(a, upper[i], gradient, thresholds):
                active -= 1
                order[s], order[active] = order[active], order[s]
                continue
            projected = gradient
            if a == 0.0:
                projected = min(gradient, 0.0)
            elif a == upper[i]:
                projected = max(gradient, 0.0)
            pg_max = max(pg_max, projected)
            pg_min = min(pg_min, projected)
            if abs(projected) > _NEGLIGIBLE:
                new = min(max(a - gradient / curvature[i], 0.0), upper[i])
                step = (new - a) * y[i]
                alpha[i] = new
                _row_axpy(rows, i, step, w)
                work += indptr[i + 1] - indptr[i]
                y_alpha += step
                beta += rho * step
            s += 1
        epochs += 1
        b += rho * y_alpha  # the multiplier's step
        thresholds[0] = pg_max if pg_max > 0.0 else np.inf
        thresholds[1] = pg_min if pg_min < 0.0 else -np.inf
        if pg_max - pg_min <= spread and rho * abs(y_alpha) <= spread and work >= min_work:
            break
    return b, epochs, active, work


@njit(cache=True)
def _balance(rows, y, upper, alpha, w):
    """Move alpha onto ``y'alpha = 0``, and ``w = X'Y alpha`` with it.

    Scales down the free multipliers (``0 < a_i < U_i``) of the heavier class, or all of
    its multipliers when the free ones weigh less than ``|y'alpha|`` (then as
    ``svm_certificate`` balances): the bounds stay as they were, and w is updated over
    the rows that moved only.
    """
    excess = _dot(y, alpha)
    heavier = 1.0 if excess > 0.0 else -1.0
    mass = 0.0
    free = 0.0
    for i in range(y.size):
        if y[i] == heavier:
            mass += alpha[i]
            if alpha[i] < upper[i]:
                free += alpha[i]
    only_free = free >= abs(excess)
    share = abs(excess) / (free if only_free else mass) if excess != 0.0 else 0.0
    for i in range(y.size):
        if y[i] == heavier and alpha[i] > 0.0 and (alpha[i] < upper[i] or not only_free):
            step = share * alpha[i]
            alpha[i] -= step
            _row_axpy(rows, i, -y[i] * step, w)


@njit(cache=True)
def _objectives(rows, y, costs, squared, alpha, w, b):
    """``(X w, primal at (w, b), dual at alpha)`` for ``w = X'Y alpha``, ``y'alpha = 0``."""
    n = y.size
    half_norm = 0.5 * _dot(w, w)
    margins = np.empty(n)
    loss = 0.0
    dual = -half_norm
    for i in range(n):
        margins[i] = _row_dot(rows, i, w)
        slack = max(0.0, 1.0 - y[i] * (margins[i] + b))
        dual += alpha[i]
        if squared:
            loss += costs[i] * slack * slack
            if alpha[i] != 0.0:
                dual -= alpha[i] * alpha[i] / (4.0 * costs[i])
        else:
            loss += costs[i] * slack
    return margins, half_norm + loss, dual


@njit(cache=True)
def _reactivate(y, coordinates, alpha, b, margins, order, thresholds):
    """Move to the front of ``order`` the samples the shrinking rule keeps; return how many.

    The gradients come from ``margins``, the ``X w`` of the last check: the check
    replaces the full sweep with which liblinear brings the shrunk samples back.
    """
    diagonal, upper, _, rho = coordinates
    beta = b + rho * _dot(y, alpha)
    active = 0
    for s in range(order.size):
        i = order[s]
        gradient = y[i] * (margins[i] + beta) - 1.0 + diagonal[i] * alpha[i]
        if not _left_out(alpha[i], upper[i], gradient, thresholds):
            order[s], order[active] = order[active], order[s]
            active += 1
    return active


def _face_pays(previous, gap, work, tol, face_rate, prior, spare, two=None):
    """Whether a face step is expected to lower the gap at less work than sweeps,
    whether the sweeps are short of work, and the work they are expected to need to
    reach ``tol`` (``(pays, short, expected)``).

    The sweeps' rate is the last batch's: ``log(previous / gap)`` per unit of ``work``
    (after the first batch, or the first after a face step, ``previous`` may be inf:
    not yet known; from zeros or a checked warm start it is the gap at the start). Their
    steady rate is the better of that one and the last two
    batches' (``two = (gap two checks back, work since)``, after a face step from its
    check on): one batch of sweeps may leave the gap where it was (or raise it) between
    two that lower it, and ``expected`` is ``log(gap / tol)`` over the steady rate.
    They are short when ``expected`` exceeds ``spare`` (what the epochs left would
    do): a face step is then taken, with its conjugate residuals run to the end (or to
    their cap, or to its budget: see _face_step). Otherwise a
    face step is taken when its rate, ``face_rate`` (the last one's, as measured), beats
    the sweeps'; before the first, when the sweeps would need more work than ``prior``
    (the work of a face step that finishes: ``_FACE_PRIOR`` conjugate-residual
    iterations, or a direct step's where one would be taken): coordinate descent's
    linear rate on an ill-conditioned dual.
    """
    if not np.isfinite(previous) or gap <= 0.0:
        return False, False, np.inf
    rate = np.log(previous / gap) / max(work, 1)
    needed = np.log(gap / tol) / rate if rate > 0.0 else np.inf
    steady = rate
    if two is not None and np.isfinite(two[0]):
        steady = max(rate, np.log(two[0] / gap) / max(two[1], 1))
    expected = np.log(gap / tol) / steady if steady > 0.0 else np.inf
    short = expected > spare
    if face_rate is None:
        return short or needed > prior, short, expected
    return short or face_rate > rate, short, expected


# -- the face step ------------------------------------------------------------------


def _face_step(X, rows, y, coordinates, alpha, w, b, target, stall, iterations, budget=np.inf):
    """Minimise the dual over the face of the free multipliers; return the new intercept.

    On the face ``F = {i : 0 < a_i < U_i}`` (the others fixed at their bounds) and
    ``y'a = 0`` the negated dual is the quadratic ``1/2 p'H p + g'p`` in the step p,
    with ``H = Y_F X_F X_F' Y_F + D_F`` and g its gradient ``y_i x_i'w - 1 + D_i a_i``.
    Its minimiser is found by conjugate residuals projected on ``y_F'p = 0``
    (:func:`_face_cg`), or directly from a Cholesky factor of the face's Gram matrix
    (:func:`_face_newton`) where that costs less than the iterations they are allowed
    (at most ``_DIRECT_UNSETTLED`` of them while ``stall`` is on: the face still
    changes; within what is left of ``budget``), and followed by a projected search:
    the point ``P(a + t p)``, projected onto the box and ``y'a = 0``, for the largest t in
    ``t*, t*/2, ...`` that decreases the objective enough (Armijo), so that many
    multipliers may reach their bounds at once. The gradient projection-conjugate
    gradient method of Moré and Toraldo (1991, "On the solution of large quadratic
    programming problems with bound constraints"), with coordinate descent's sweeps in
    place of its gradient projection steps; up to ``_FACE_ROUNDS`` rounds on the
    face that results. At the face's minimum the free samples sit on the margin
    (``y_i (x_i'w + b) = 1 - D_i a_i``), which fixes the intercept b, the multiplier
    of ``y'a = 0``. alpha and w are updated in place. ``target``, ``stall`` and
    ``iterations`` (at most, per round) are the conjugate residuals' stopping rules
    (:func:`_face_cg`; the residual's norm is ``target / ||U_F||``); ``budget`` bounds
    the step's work: a round starts only within it, and its iterations are cut to what
    is left (the first round runs at least one). Returns the
    intercept and the work (entries of X read or written, feature-sized vectors counted
    as passes of their length).
    """
    diagonal, upper, curvature, rho = coordinates
    typical = max(float(curvature.sum()) / curvature.size - rho, _TINY)
    change = np.empty(w.size)
    lengths = np.diff(rows[2])
    work = 0
    factor = factored = None  # the Cholesky factor of a direct round, and its face
    for rounds in range(_FACE_ROUNDS):
        if rounds > 0 and work >= budget:
            break
        free = np.flatnonzero((alpha > 0.0) & (alpha < upper))
        if free.size < 2:  # one free multiplier cannot move on y'a = 0
            break
        # A pass over the rows of F, and one over a feature-sized vector.
        face_pass, count, d = int(lengths[free].sum()), free.size, w.size
        labels, ridge, box = y[free], diagonal[free], upper[free]
        gradient = _face_gradient(rows, y, diagonal, alpha, w, free)
        work += face_pass
        b = -float(labels @ gradient) / free.size
        step = _null_direction(X, free, labels, gradient) if not ridge.any() else None
        stalled = False
        if step is not None:  # H is singular on the face: the objective is linear along step
            moved = np.zeros(w.size)
            work += count * (d + 1) * min(count, d + 1)  # the pivoted QR
        else:
            # Within the budget (a round's conjugate residuals cut to what is left of it;
            # the first round runs at least one iteration).
            per_iteration = 2 * face_pass + 3 * d
            if rounds > 0 and work + per_iteration > budget:
                break
            iterations = max(1, int(min(iterations, (budget - work) // per_iteration)))
            # The face's Newton step by a dense factorisation, where it costs less than
            # the conjugate residuals' iterations allowed. A round after a direct one has
            # a face within the last (multipliers only leave it): its factor is the last
            # one's with their rows deleted.
            allowed = _direct_allowance(
                iterations if stall == 0.0 else _DIRECT_UNSETTLED, count, per_iteration
            )
            if factor is not None:
                kept = np.isin(factored, free, assume_unique=True)
                cost = int(np.count_nonzero(~kept) * factored.size**2 / 2
                           + 6 * count**2 / _DIRECT_FLOPS + face_pass)  # fmt: skip
                within = cost <= allowed and np.count_nonzero(kept) == count
                factor = _factor_without(factor, kept) if within else None
                work += cost if within else 0
            elif _factor_within(count, allowed):
                cost, counts = _direct_cost(rows, free, face_pass, d)
                if cost <= allowed:
                    factor = _face_factor(X, rows, free, ridge, counts)
                    work += cost
                elif counts is not None:
                    work += face_pass + d
            if factor is not None:
                factored = free
                step, moved = _face_newton(rows, free, labels, gradient, factor, d)
            else:
                step, moved, iterations, stalled = _face_cg(rows, y, diagonal, free, gradient,
                                                            alpha[free], box, typical, d,
                                                            iterations, _FACE_CG_RTOL,
                                                            target / np.linalg.norm(box),
                                                            stall)  # fmt: skip
                work += iterations * per_iteration
        slope = float(gradient @ step)
        if not slope < 0.0:
            break
        bend = float(moved @ moved + (ridge * step) @ step)
        current = alpha[free]
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.where(step < 0.0, -current / step,
                            np.where(step > 0.0, (box - current) / step, np.inf))  # fmt: skip
        inside = float(room.min())
        minimum = bend > _ZERO_CURVATURE * typical * (step @ step)
        if minimum:
            t = -slope / bend
        else:  # linear along p: as far as the box lets the last multiplier go
            finite = room[np.isfinite(room)]
            t = float(finite.max()) if finite.size else np.inf
        if not np.isfinite(t) or t <= 0.0:
            break
        plane = float(labels @ current)
        halvings = 0
        while True:
            if t <= inside:  # no bound crossed: a descent step of the quadratic
                trial = current + t * step
                break
            trial = _onto_box_and_plane(current + t * step, labels, box, plane)
            decrease = _objective_change(rows, y, ridge, alpha, w, free, trial, change)
            work += face_pass + 2 * d
            if decrease <= _ARMIJO * float(gradient @ (trial - current)):
                break
            halvings += 1
            t = max(0.5 * t, inside) if halvings < _HALVINGS else inside
        _move(rows, y, alpha, w, free, trial)
        work += face_pass
        if minimum and t <= inside and t == -slope / bend and not stalled:  # the face's minimum
            gradient = _face_gradient(rows, y, diagonal, alpha, w, free)
            work += face_pass
            b = -float(labels @ gradient) / free.size
            break
    return b, work


def _null_direction(X, free, labels, gradient):
    """For the hinge, when the face has more free multipliers than the primal has
    unknowns (``|F| > d + 1``): the part of ``-g`` in the null space of the face's
    Hessian (``X_F'Y_F p = 0``, ``y_F'p = 0``), or None when it is negligible or the face
    is not over-determined.

    Along it the negated dual decreases linearly (the dual rises without bound on the
    face), so the step goes as far as the box lets it: the multipliers move to their
    bounds together instead of one conjugate-gradient solve per bound. The projection
    is a least-squares solve with ``Z = [Y_F X_F, y_F]``, ``|F| x (d + 1)`` dense: only
    when that block holds at most twice X's stored entries (and ``_NULL_ENTRIES``).
    """
    count, d = free.size, X.shape[1]
    stored = X.nnz if sp.issparse(X) else X.size
    if count <= d + 1 or count * (d + 1) > min(_NULL_ENTRIES, 2 * stored):
        return None  # not over-determined, or the dense block would dwarf X
    block = X[free]
    block = block.toarray() if sp.issparse(block) else np.asarray(block)
    Z = np.column_stack((labels[:, None] * block, labels))
    descent = -gradient
    # The range of Z from a pivoted QR (its rank from R's diagonal), on one BLAS thread:
    # many small factorisations, where threads' wake-ups cost more than the flops.
    with one_blas_thread():
        Q, R, _ = scipy.linalg.qr(Z, mode="economic", pivoting=True, check_finite=False)
        diagonal = np.abs(np.diag(R))
        rank = int(np.count_nonzero(diagonal > _RANK_RTOL * diagonal[0])) if diagonal.size else 0
        basis = Q[:, :rank]
        direction = descent - basis @ (basis.T @ descent)
    if direction @ direction <= 1e-12 * (descent @ descent):
        return None
    return direction


def _direct_cost(rows, free, face_pass, n_features, counts=None):
    """The work of a direct face step on ``free`` (:func:`_face_newton`), and the entries
    of each column among its rows (None for dense rows; given, or counted afresh);
    ``(inf, None)`` when the face's Gram matrix would hold more entries than
    ``_DIRECT_ENTRIES`` and than X stores.

    Counted in entries of X as the sweeps read them, dense floating-point operations
    over ``_DIRECT_FLOPS``: the Gram matrix (one multiply-add per pair of entries that
    share a column, ``sum_j c_j (c_j + 1) / 2``, each as an entry of the sweeps; for
    dense rows ``|F|^2 d`` flops of BLAS), the Cholesky factor (``|F|^3 / 3`` flops)
    and its two solves, and the passes over the rows of F that count, gather and map
    the step back (``X_F'Y_F p``).
    """
    count = free.size
    if not _direct_fits(count, rows):
        return np.inf, None
    factor = (count**3 / 3 + 6 * count**2) / _DIRECT_FLOPS
    if rows[1].size == 0:
        return int(face_pass + count * count * n_features / _DIRECT_FLOPS + factor), None
    if counts is None:
        counts = np.zeros(n_features, dtype=np.int32)  # a column's entries among |F| <= n rows
        _count_columns(rows, free, 1, counts)
    pairs = int(_column_pairs(counts))
    return int(3 * face_pass + 2 * n_features + pairs + factor), counts


def _direct_allowance(iterations, count, per_iteration):
    """The work a direct step on a face of ``count`` samples may cost: that of the
    conjugate-residual ``iterations`` it replaces (at most ``2 |F|``, their own cap in
    :func:`_face_cg`), ``per_iteration`` each."""
    return min(iterations, 2 * count) * per_iteration


def _factor_within(count, allowed):
    """Whether the Cholesky factor of a face of ``count`` samples alone (``|F|^3 / 3``
    flops, in the sweeps' units) costs at most ``allowed``: the test before its Gram
    matrix's cost is counted (:func:`_direct_cost`)."""
    return count**3 / 3 / _DIRECT_FLOPS <= allowed


def _direct_fits(count, rows):
    """Whether the Gram matrix of a face of ``count`` samples holds at most
    ``_DIRECT_ENTRIES`` entries or as many as X stores (``rows[0]``)."""
    return count * count <= max(_DIRECT_ENTRIES, rows[0].size)


def _face_factor(X, rows, free, ridge, counts):
    """The lower Cholesky factor (Fortran order) of the face's Gram matrix
    ``K = X_F X_F' + D_F`` shifted (see :func:`_face_newton`), and the shift; or None
    when it fails.

    K comes from the rows' columns ``counts`` (:func:`_face_gram`) or, for dense rows, by
    BLAS.
    """
    count = free.size
    if counts is None:  # dense rows
        block = np.asarray(X)[free]
        gram = block @ block.T  # symmetric: its own transpose, as _face_gram's
        gram[np.diag_indices(count)] += ridge
        gram = gram.T
    else:
        gram = _face_gram(rows, free, counts, ridge).T  # Fortran order: LAPACK's own
    diagonal = np.einsum("ii->i", gram)  # a view
    shift = _DIRECT_SHIFT * diagonal.sum() / count
    diagonal += shift
    factor, info = scipy.linalg.lapack.dpotrf(gram, lower=1, clean=0, overwrite_a=1)
    return (factor, shift) if info == 0 else None


def _face_newton(rows, free, labels, gradient, factor, n_features):
    """The face's Newton step by a dense factorisation: the minimiser p of
    ``1/2 p'H p + g'p`` on ``y_F'p = 0`` (as :func:`_face_cg` finds it iteratively) and
    ``X_F'Y_F p``, from ``factor`` (:func:`_face_factor` or :func:`_factor_without`).

    In ``q = Y_F p`` the problem is ``min 1/2 q'K q + (Y_F g)'q`` on ``1'q = 0``, with
    ``K = X_F X_F' + D_F`` (the Gram matrix of the face's rows). Its optimality
    conditions ``K q + Y_F g + lambda 1 = 0``, ``1'q = 0`` (the bordered system) give
    ``q = -(u - (1'u / 1'v) v)`` with ``K u = Y_F g`` and ``K v = 1``: two solves with
    the Cholesky factor. K is singular along rows in proportion (an exact repeat with
    the other label: ``q = e_i - e_j``) and when |F| exceeds the rank of X_F: it is
    shifted by ``_DIRECT_SHIFT`` times its mean diagonal entry, above the rounding of its
    zero eigenvalues and far below the smallest nonzero one of the faces measured
    (0.009-0.07 times the mean diagonal at the optimum of the corpora of
    ``benchmarks.small_corpora``). The shifted solution q leaves the residual
    ``shift * q``, which the gap sees (on the corpora's first face steps it left gaps of
    2e-9 to 3e-8, 100 times those at a shift of 1e-10): one step of iterative refinement
    with the same factor (Tikhonov's iterated) leaves ``shift^2 (K + shift)^-1 q``, and
    those gaps 1e-14 to 9e-14 (1e-12 to 1e-10 at a shift of 1e-6). On a face of 30
    multipliers in 8 features with a consistent system, the step's image ``X_F'Y_F p``
    was within 2.4e-8 of lstsq's at that shift (1.2e-6 at 1e-10, 4e-4 at 1e-12:
    rounding, amplified by the shift's inverse). Along a direction z of zero curvature
    the step is about ``(Y_F g)'z / shift`` long: the objective is linear along it, and
    the projected search follows it to the box (as along :func:`_null_direction`).
    """
    count = free.size
    lower, shift = factor
    sides = np.empty((count, 2), order="F")
    sides[:, 0], sides[:, 1] = labels * gradient, 1.0
    solved, _ = scipy.linalg.lapack.dpotrs(lower, sides, lower=1, overwrite_b=1)
    u, v = solved[:, 0], solved[:, 1]
    q = (u.sum() / v.sum()) * v - u
    # The shift leaves the residual shift * q: one step of iterative refinement.
    correction = scipy.linalg.lapack.dpotrs(lower, shift * q, lower=1)[0]
    q += correction - (correction.sum() / v.sum()) * v
    step = labels * q
    step -= labels * (labels @ step / count)  # y_F'p = 0 to rounding
    moved = np.empty(n_features)
    _face_image(rows, free, labels, step, moved)
    return step, moved


def _factor_without(factor, kept):
    """:func:`_face_factor`'s factor of the face's samples ``kept`` (the shift as it was)."""
    return _delete_samples(factor[0], kept), factor[1]


@njit(cache=True)
def _delete_samples(factor, kept):
    """The Cholesky factor of ``K[kept][:, kept]`` from K's lower factor L.

    Deleting sample k leaves the rows above it as they were and the block below it
    ``L33 L33' + l l'`` (l the part of L's column k below it): a rank-one update of
    L33 (plane rotations, as LINPACK's dchud: Dongarra, Bunch, Moler and Stewart 1979,
    "LINPACK Users' Guide", ch. 10), ``(m - k)^2`` operations instead of a factor's
    ``m^3 / 3``. The deletions are made in order, in place on a copy.
    """
    m = factor.shape[0]
    lower = factor.copy()
    x = np.empty(m)
    for k in range(m):
        if kept[k]:
            continue
        for i in range(k + 1, m):
            x[i] = lower[i, k]
        for j in range(k + 1, m):
            a = lower[j, j]
            r = np.sqrt(a * a + x[j] * x[j])
            c, s = r / a, x[j] / a
            lower[j, j] = r
            for i in range(j + 1, m):
                lower[i, j] = (lower[i, j] + s * x[i]) / c
                x[i] = c * x[i] - s * lower[i, j]
    rows = np.flatnonzero(kept)
    out = np.zeros((rows.size, rows.size)).T  # Fortran order
    for b in range(rows.size):
        for a in range(b, rows.size):
            out[a, b] = lower[rows[a], rows[b]]
    return out


@njit(cache=True)
def _count_columns(rows, samples, step, counts):
    """``counts[j] += step`` for each entry (i, j) of the rows of ``samples``."""
    indices, indptr = rows[1], rows[2]
    for k in range(samples.size):
        i = samples[k]
        for e in range(indptr[i], indptr[i + 1]):
            counts[indices[e]] += step


@njit(cache=True)
def _column_pairs(counts):
    """``sum_j c_j (c_j + 1) / 2``, summed in 64 bits without a temporary of the
    features' size (``counts`` are 32-bit: at d = 200 000 the int64 counts and their
    ``counts + 1`` had held 3.2 MB at every check)."""
    total = 0
    for j in range(counts.size):
        c = np.int64(counts[j])
        total += c * (c + 1) // 2
    return total


@njit(cache=True)
def _face_gram(rows, free, counts, ridge):
    """``X_F X_F' + D_F`` (``ridge`` its diagonal), its upper triangle in C order.

    The rows of F are gathered by columns (each column's positions in ``free``, in
    order), and each pair of entries of a column adds its product: ``sum_j c_j
    (c_j + 1) / 2`` multiply-adds, ``c = counts``, where a row against every row is
    ``|F|`` times the face's entries.
    """
    data, indices, indptr = rows
    n_features, count = counts.size, free.size
    starts = np.zeros(n_features + 1, dtype=np.int64)
    for j in range(n_features):
        starts[j + 1] = starts[j] + counts[j]
    fill = starts[:-1].copy()
    positions = np.empty(starts[-1], dtype=np.int64)
    values = np.empty(starts[-1])
    for k in range(count):
        i = free[k]
        for e in range(indptr[i], indptr[i + 1]):
            j = indices[e]
            positions[fill[j]] = k
            values[fill[j]] = data[e]
            fill[j] += 1
    gram = np.zeros((count, count))
    for k in range(count):
        gram[k, k] = ridge[k]
    for j in range(n_features):
        for a in range(starts[j], starts[j + 1]):
            row, value = positions[a], values[a]
            for b in range(a, starts[j + 1]):
                gram[row, positions[b]] += value * values[b]
    return gram


@njit(cache=True)
def _onto_box_and_plane(values, labels, box, target):
    """The projection of ``values`` onto ``0 <= a <= box``, ``labels'a = target``.

    It is ``clip(values - mu labels, 0, box)`` for the mu at which the constraint holds;
    ``labels'clip(...)`` decreases in mu, piecewise linearly: bisection on mu, then the
    exact mu on the final bracket's free entries.
    """
    count = values.size
    low, high = np.inf, -np.inf
    for k in range(count):
        for end in (labels[k] * values[k], labels[k] * (values[k] - box[k])):
            if np.isfinite(end):
                low, high = min(low, end), max(high, end)
    out = np.empty(count)
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle == low or middle == high:
            break
        total = 0.0
        for k in range(count):
            total += labels[k] * min(max(values[k] - middle * labels[k], 0.0), box[k])
        if total > target:
            low = middle
        else:
            high = middle
    # On [low, high] the same entries are free: mu solves the constraint exactly there.
    fixed = free_sum = 0.0
    count_free = 0
    for k in range(count):
        shifted = values[k] - high * labels[k]
        if 0.0 < shifted < box[k]:
            free_sum += labels[k] * values[k]
            count_free += 1
        else:
            fixed += labels[k] * min(max(shifted, 0.0), box[k])
    mu = high if count_free == 0 else (fixed + free_sum - target) / count_free
    mu = min(max(mu, low), high) if low <= high else mu
    for k in range(count):
        out[k] = min(max(values[k] - mu * labels[k], 0.0), box[k])
    return out


@njit(cache=True)
def _objective_change(rows, y, ridge, alpha, w, free, new, change):
    """How much the negated dual changes when ``alpha[free]`` becomes ``new``.

    ``w'dw + ||dw||^2 / 2 + sum_F D_i (a_i d_i + d_i^2 / 2) - sum_F d_i`` with
    ``d = new - alpha[free]`` and ``dw = X_F'Y_F d`` (formed in ``change``).
    """
    change[:] = 0.0
    total = 0.0
    for k in range(free.size):
        i = free[k]
        delta = new[k] - alpha[i]
        if delta != 0.0:
            _row_axpy(rows, i, y[i] * delta, change)
            total += ridge[k] * (alpha[i] * delta + 0.5 * delta * delta) - delta
    return total + _dot(w, change) + 0.5 * _dot(change, change)


@njit(cache=True)
def _face_gradient(rows, y, diagonal, alpha, w, free):
    """``y_i x_i'w - 1 + D_i a_i`` for i in ``free``."""
    out = np.empty(free.size)
    for k in range(free.size):
        i = free[k]
        out[k] = y[i] * _row_dot(rows, i, w) - 1.0 + diagonal[i] * alpha[i]
    return out


@njit(cache=True)
def _move(rows, y, alpha, w, free, new):
    """``alpha[free] = new``, and ``w = X'Y alpha`` with it."""
    for k in range(free.size):
        i = free[k]
        if new[k] != alpha[i]:
            _row_axpy(rows, i, y[i] * (new[k] - alpha[i]), w)
            alpha[i] = new[k]


@njit(cache=True)
def _outside(current, step, box):
    """Whether ``current + step`` leaves the box ``[0, box]``."""
    for k in range(current.size):
        value = current[k] + step[k]
        if value < 0.0 or value > box[k]:
            return True
    return False


@njit(cache=True)
def _face_image(rows, free, labels, vector, image):
    """``image = X_F'Y_F vector`` (a pass over the rows of F)."""
    image[:] = 0.0
    for k in range(free.size):
        if vector[k] != 0.0:
            _row_axpy(rows, free[k], labels[k] * vector[k], image)


@njit(cache=True)
def _face_product(rows, free, labels, ridge, vector, image, out):
    """``out = P (Y_F X_F image + D_F vector)``, P the projection on ``y_F'p = 0``: the
    face's Hessian times ``vector`` when ``image = X_F'Y_F vector`` (a pass over F)."""
    for k in range(free.size):
        out[k] = labels[k] * _row_dot(rows, free[k], image) + ridge[k] * vector[k]
    out -= labels * (_dot(labels, out) / free.size)


@njit(cache=True)
def _face_cg(rows, y, diagonal, free, gradient, current, box, typical, n_features, max_iter,
             rtol, enough, stall):  # fmt: skip
    """The minimiser p of ``1/2 p'H p + g'p`` on ``y_F'p = 0`` by projected conjugate
    residuals, and ``X_F'Y_F p``.

    ``H = Y_F X_F X_F' Y_F + D_F`` is applied matrix free: two passes over the rows of
    F per iteration. The conjugate residual method (Stiefel 1955; the iterates of
    MINRES, Paige and Saunders 1975, for a positive semidefinite H) makes the residual
    ``r = -P(g + Hp)`` smallest in each Krylov space, and the residual is what the
    duality gap sees: with the hinge, the free multipliers' share of the gap is at most
    ``||U_F|| ||r||`` (their margins' errors times their boxes), where conjugate
    gradients, which make the quadratic smallest, leave residuals some orders larger
    on the ill-conditioned faces of real text (near-duplicate rows). The quadratic
    decreases at every iteration too (Fong and Saunders 2012, Theorem 2.7).

    Stops at ``rtol`` of the first residual or at a residual of norm ``enough``, after
    ``max_iter`` (or twice ``|F|``) iterations, on a direction of zero curvature (a
    singular H, as with more samples than features): then the iterate so far, or that
    direction itself when it is the first (a descent direction along which the
    objective is linear, to be followed to the box), or, when ``current + p`` has left
    the box ``[0, box]``, once an iteration lowers the quadratic by at most ``stall``
    times the decrease so far (the projected search will cut the step anyway). Returns
    ``(p, X_F'Y_F p, iterations, stalled)``.
    """
    count = free.size
    labels = np.empty(count)
    ridge = np.empty(count)
    for k in range(count):
        labels[k] = y[free[k]]
        ridge[k] = diagonal[free[k]]
    residual = -gradient + labels * (_dot(labels, gradient) / count)
    step = np.zeros(count)
    moved = np.zeros(n_features)
    image = np.empty(n_features)  # X_F'Y_F residual
    product = np.empty(count)  # H residual (projected)
    _face_image(rows, free, labels, residual, image)
    _face_product(rows, free, labels, ridge, residual, image, product)
    direction = residual.copy()
    direction_image = image.copy()
    direction_product = product.copy()
    squares = _dot(residual, residual)
    first = squares
    bent = _dot(residual, product)
    total = 0.0
    iterations = 0
    stalled = False
    for _ in range(min(max_iter, 2 * count)):
        if squares <= max(rtol * rtol * first, enough * enough) or squares == 0.0:
            break
        # H is positive semidefinite: no curvature along r means H r = 0.
        if bent <= 1e-12 * typical * squares:
            if iterations == 0:
                return direction, direction_image, 1, False
            break
        iterations += 1
        length = bent / _dot(direction_product, direction_product)
        # The quadratic's decrease along the direction (its gradient there is -residual).
        gain = length * _dot(direction, residual) - 0.5 * length * length * _dot(
            direction, direction_product
        )
        step += length * direction
        moved += length * direction_image
        residual -= length * direction_product
        squares = _dot(residual, residual)
        _face_image(rows, free, labels, residual, image)
        _face_product(rows, free, labels, ridge, residual, image, product)
        previous = bent
        bent = _dot(residual, product)
        beta = bent / previous
        direction = residual + beta * direction
        direction_image = image + beta * direction_image
        direction_product = product + beta * direction_product
        total += gain
        if gain <= stall * total and _outside(current, step, box):
            stalled = True
            break
    # Back onto y_F'p = 0 and X_F'Y_F p afresh: the recurrences drift off both, and along
    # y_F the gradient is large (the intercept's), so a drift misjudges the step's length.
    if iterations > 0:
        step -= labels * (_dot(labels, step) / count)
        _face_image(rows, free, labels, step, moved)
    return step, moved, iterations, stalled
