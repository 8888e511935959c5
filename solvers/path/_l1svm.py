"""The exact 1-norm SVM path (Zhu, Rosset, Hastie & Tibshirani 2003), 004 eq. 6.

The penalised problem ``sum_i s_i [1 - y_i f_i]_+ + lam ||w_P||_1`` (``f = X w + b``,
sample weights ``s_i``, 1 by default, not the bound s of the constrained form below;
unit penalty weights after `PathProblem`'s rescaling; P the penalised features, U the
unpenalised ones, which are in every model like the intercept) is a linear
program. Following Zhu et al. we trace its constrained form, min hinge loss s.t.
``||w_P||_1 <= s``, whose solution is piecewise linear in s and whose loss is
convex and piecewise linear in s. With ``D_k`` the loss slope on segment k (from
knot s_k to s_{k+1}), the penalised solution for ``-D_k > lam > -D_{k+1}`` is the
knot s_{k+1}, and the breakpoints are ``lam_k = -D_k``.

Samples are left of the elbow (L: margin y_i f_i < 1), on it (E: = 1) or right
of it (R: > 1). On a segment the active features V and E stay fixed, and the
direction (db, dw_U, dw_V) keeps every E sample on the elbow with
``d||w_P||_1 = 1``. At a generic knot (one sample has just reached the elbow, or
one feature zero) the square matrix ``B = Y_E [1, X_EU, X_EV]`` is invertible and
the next direction is the best of Zhu et al.'s candidates (sec. 3): one E sample
leaves, or one feature joins. With ``n = (0, 0, sign(w_V))`` and g the loss
gradient over L, all are scored from ``m = B^-T n``, ``p = B^-T g`` and one
product with ``X_E``. LU with partial pivoting keeps this invariant to column
scales. Elsewhere (ties, the start) the direction solves the step LP, min
directional derivative of the loss s.t. a unit increase of ``||w_P||_1``, in
HiGHS warm-started from the previous step's basis.

Samples with the same row and label are merged first into one sample of their
summed weight (the same LP; `_merge_duplicate_samples`). A sparse X stays sparse:
the elbow rows are a CSR block, the model's columns a CSC block and the step LP is
assembled sparse, so a step costs ``O(nnz + n + d)`` memory and the path stores each
breakpoint's model only (`PathRecorder`).

Each segment comes with its dual point: ``a_i = s_i`` on L, 0 on R and on E
``a_E = lam m + p`` (the LP's row duals for the step LP), which satisfies the
stationarity conditions of 004 eq. 6 at ``lam = -D``. Before a breakpoint is
recorded, the duality gap of both ends of its segment at that lam and the dual
feasibility of a (as `solvers.certificates.l1_svm_certificate` measures them)
must be within `GAP_TOLERANCE`; otherwise the path stops with a `PathWarning`.
"""

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.linalg import lu_factor, lu_solve
from scipy.sparse.linalg import splu

from sparsify.utils import column_norms, one_blas_thread

from ..certificates import GAP_TOLERANCE, l1_svm_certificate
from ..exceptions import SolverError
from ._inputs import check_path_inputs
from ._step_lp import INF, KeyedLP
from ._steps import PathEnd, PathRecorder, budget_reached, steps_to_zero

_LEFT, _ELBOW, _RIGHT = -1, 0, 1
# A rate (of a margin, a coefficient, the loss) is zero when it is below this
# fraction of the sum of the absolute values of the terms it is computed from.
_RATE_TOLERANCE = 1e-9
# A pivot of B (or a candidate's denominator) below this fraction of its column's
# size makes the system singular: a tie, left to the step LP.
_RANK_TOLERANCE = 1e-10
# A margin within this fraction of its size (|b| + sum_j |x_ij w_j|, at least 1) of 1
# is on the elbow.
_MARGIN_TOLERANCE = 1e-10
# Events within this relative distance of the first one happen together.
_EVENT_TOLERANCE = 1e-9
# Samples whose margin is within this of 1 after the start LP (whose feasibility
# tolerance is 1e-7) are put exactly on the elbow.
_START_MARGIN_TOLERANCE = 1e-6
_MAX_STALLED_STEPS = 50


def l1_svm_path(
    X,
    y,
    weights=None,
    *,
    sample_weight=None,
    lam_min=0.0,
    max_features=None,
    max_steps=None,
    return_path=True,
):
    """The whole regularization path of the 1-norm SVM (004 eq. 6).

    Minimises ``sum_i max(0, 1 - y_i (x_i' w + b)) + lam * sum_j weights_j |w_j|``
    for every lam >= lam_min, with b unpenalised, by the piecewise-linear
    algorithm of Zhu, Rosset, Hastie & Tibshirani (2003) cited in 004
    sec. 2.2.1. The problem is an LP: the solution is constant in lam between
    breakpoints and piecewise linear in ``sum_j weights_j |w_j|``;
    ``Path.at(lam)`` returns the knot that is optimal at lam (at a breakpoint,
    where a whole segment is optimal, its end with the smaller norm).

    Every breakpoint is certified: the duality gap of the solutions at both ends
    of its segment, with the segment's dual point, is within
    `solvers.certificates.GAP_TOLERANCE`. All tolerances are relative to the
    data, so multiplying X (or a column and its weight, or all weights) by a
    constant rescales lams and coefficients and leaves the path otherwise unchanged.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data, one sample per row; not modified (a sparse X is copied).
    y : array-like of shape (n_samples,)
        Two distinct labels; the larger (in sorted order) is mapped to +1.
    weights : array-like of shape (n_features,), optional
        Penalty weights, each >= 0 or +inf (default 1). A feature of weight 0 is
        unpenalised: it is in every model from lam_max on (the start is then the
        minimum hinge loss over the intercept and those features) and is not
        part of the norm along which the path is piecewise linear; ``+inf``
        excludes a feature.
    sample_weight : array-like of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's hinge loss (default 1), as in the
        estimators' ``fit``: the cost of its slack in the LP, the bound of its dual
        variable (``0 <= a_i <= s_i``); a sample of weight 0 counts for nothing.
    lam_min : float, default=0.0
        Stop at this lam.
    max_features : int, optional
        Stop at the breakpoint where more than this many penalised features are active.
    max_steps : int, optional
        Stop after this many breakpoints (default ``10 * (n_samples + n_features)``),
        with a `PathWarning` naming the lam reached.
    return_path : bool, default=True
        False keeps only the last two breakpoints (as scikit-learn's
        ``lars_path(return_path=False)``): ``Path.at`` is exact between them, and
        memory no longer grows with the number of breakpoints times n_features
        (the estimators' ``solver="homotopy"`` uses it).

    Returns
    -------
    Path
        With ``interpolation`` constant between breakpoints.

    Raises
    ------
    SolverError
        If the LP at lam_max cannot be solved.
    ValueError
        Bad X, y (not two classes), weights or stopping criteria; the message names
        the argument.

    Warns
    -----
    PathWarning
        When the path stops before lam_min (max_steps reached, or a segment whose
        certificate fails); the message names the lam reached.

    See Also
    --------
    Path : What is returned: ``at``, ``scores``, ``select``, ``plot``.
    solvers.formulations.l1_svm : The same LP at one lam, in CVXPY.
    solvers.L1SVMCV : The lam chosen by cross-validation on these paths.
    solvers.certificates.l1_svm_certificate : The duality gap of a solution.

    Examples
    --------
    The solution at any lam has a zero duality gap, and above ``lams[0]`` no
    feature is used:

    >>> from solvers.certificates import l1_svm_certificate
    >>> from solvers.path import l1_svm_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = np.where(X[:, 0] + 0.5 * rng.standard_normal(30) > 0, 1, -1)
    >>> path = l1_svm_path(X, y)
    >>> coef, intercept = path.at(2.0)
    >>> l1_svm_certificate(X, y, coef, intercept, lam=2.0).holds
    True
    >>> bool(np.all(path.at(path.lams[0])[0] == 0))
    True
    """
    problem = check_path_inputs(
        X,
        y,
        weights,
        classifier=True,
        lam_min=lam_min,
        max_features=max_features,
        max_steps=max_steps,
        return_path=return_path,
        sample_weight=sample_weight,
        scale_rows=False,
    )
    mean_weight = problem.weights_or_ones.mean()
    problem = _merge_duplicate_samples(problem)  # the CSC of check_path_inputs is freed
    with one_blas_thread():  # each step is a few small dense solves
        return _HingeHomotopy(problem, mean_weight).run()


def _merge_duplicate_samples(problem):
    """The problem with samples of the same row and label merged into one.

    Their hinge losses are the same function of (b, w), so ``s_1 [1 - y f]_+ + s_2
    [1 - y f]_+ = (s_1 + s_2) [1 - y f]_+``: one sample of the summed weight is the
    same LP. Duplicates would otherwise sit on the elbow together wherever one
    does, and every such knot would need the step LP (Spambase has 391 duplicated
    e-mails).

    For a sparse X the problem returned holds X as CSR, the one copy of X the homotopy
    keeps (`_ScaledData`).
    """
    X, y = problem.X, problem.y
    rows = X.tocsr() if sp.issparse(X) else X  # CSC -> CSR: canonical, sorted indices
    if sp.issparse(X):
        keys = (
            (label, rows.indices[start:end].tobytes(), rows.data[start:end].tobytes())
            for label, start, end in zip(y, rows.indptr[:-1], rows.indptr[1:], strict=True)
        )
    else:
        keys = ((label, row.tobytes()) for label, row in zip(y, X, strict=True))
    groups = {}
    group = np.fromiter((groups.setdefault(key, len(groups)) for key in keys), np.intp, y.shape[0])
    if len(groups) == y.shape[0]:
        return replace(problem, X=rows)
    first = np.unique(group, return_index=True)[1]  # groups are numbered in order of rows
    return replace(
        problem,
        X=rows[first],
        y=y[first],
        sample_weight=np.bincount(group, weights=problem.weights_or_ones),
    )


@dataclass
class _Direction:
    """A segment's direction per unit increase of ||w_P||_1, and its dual point."""

    loss_rate: float  # D: derivative of the hinge loss along the direction
    intercept_rate: float
    features: list  # V on this segment (penalised features)
    signs: np.ndarray
    rates: np.ndarray  # (dw_U, dw_V)
    elbow_exits: dict  # sample -> _LEFT or _RIGHT, samples leaving E as the segment starts
    dual: np.ndarray  # the segment's dual point a (s on L, a_E on E, 0 on R), in [0, s]
    infeasibility: float  # of the dual point, relative (see `_dual_point`)


class _Knot(NamedTuple):
    """The quantities at a knot that every candidate direction is computed from."""

    elbow: np.ndarray  # E: the samples on the elbow (margin 1)
    rows: np.ndarray  # their rows of X, dense
    left_labels: np.ndarray  # -y_i on L, 0 elsewhere (the hinge loss gradient in f)
    left_dot: np.ndarray  # X' left_labels


class _Move(NamedTuple):
    """A direction per unit increase of ||w_P||_1, before its loss rate and dual point."""

    intercept_rate: float
    features: list  # V on the segment (penalised features)
    signs: np.ndarray
    rates: np.ndarray  # (dw_U, dw_V)
    exits: dict  # sample -> _LEFT or _RIGHT, samples leaving E as the segment starts


def _record_end(recorder, lam_min, features, values, intercept):
    """Record the last knot at ``lam_min``, even within the event tolerance of the previous.

    The recorder merges a knot within ``_EVENT_TOLERANCE`` of the previous lam into it,
    keeping the earlier one (the constant path's rule for simultaneous events). For
    the end that would leave ``lams[-1]`` above lam_min, and ``Path.at(lam_min)`` out
    of range, whenever lam_min lies within 1e-9 of a breakpoint (lam_max above all).
    The solution for lam just below a breakpoint is the current knot (the end of
    the segment whose slope set it), so it is recorded at lam_min itself; only an
    equal lam merges.
    """
    tolerance, recorder.lam_tolerance = recorder.lam_tolerance, 0.0
    try:
        recorder.record(lam_min, features, values, intercept)
    finally:
        recorder.lam_tolerance = tolerance


class _ScaledData:
    """X divided by one number so that its largest entry is 1, with fast row and column access.

    Only zero and nonzero columns are treated differently: the largest entry sets
    the unit in which lam and ||w||_1 are computed, nothing else depends on scale.

    A sparse X is the CSR of `_merge_duplicate_samples`, the path's own copy
    (`check_path_inputs` copies the caller's matrix): it is divided in place and is
    the only array of X's size kept. Its rows are read at every knot (the elbow), its
    transpose (a CSC view) gives ``X'v``, and a feature's column is read once, when it
    joins the model. A dense X may be the caller's array: it is divided into a new one.
    """

    def __init__(self, X):
        if sp.issparse(X):
            X.sort_indices()
            self.scale = float(max(X.data.max(initial=0.0), -X.data.min(initial=0.0))) or 1.0
            X.data /= self.scale
            self.columns = self.rows = X
            self.entries = X.nnz
            self.transposed = X.T
        else:
            self.scale = float(np.abs(X).max(initial=0.0)) or 1.0
            self.columns = self.rows = X / self.scale
            self.entries = X.size
            self.transposed = np.ascontiguousarray(self.columns.T)

    def model_block(self, features):
        """The columns ``features``: dense for a dense X, CSC for a sparse X."""
        block = self.columns[:, features]
        return block.tocsc() if sp.issparse(block) else block

    def row_block(self, samples):
        """The rows ``samples``: dense for a dense X, CSR for a sparse X."""
        return self.rows[samples]

    def correlations(self, v):
        """``X' v``."""
        return np.asarray(self.transposed @ v).ravel()

    def column_norms(self):
        return column_norms(self.columns)


class _HingeHomotopy:
    def __init__(self, problem, mean_weight):
        self.problem = problem
        self.s = problem.weights_or_ones  # each sample's hinge is weighted by s_i
        self.mean_weight = mean_weight  # of the samples before duplicates were merged
        self.data = _ScaledData(problem.X)
        n, d = problem.X.shape
        norms = self.data.column_norms()
        self.unpenalized = [int(j) for j in problem.unpenalized if norms[j] > 0]
        self.unpenalized_norms = norms[self.unpenalized]
        self.is_candidate = (norms > 0) & (problem.weights > 0)
        del norms
        self.candidates = np.flatnonzero(self.is_candidate)
        self.w = np.zeros(d)
        self.intercept = 0.0
        self.side = np.full(n, _LEFT)
        self.active, self.signs = [], np.zeros(0)
        # Columns of U then V: dense for a dense X, CSC for a sparse X.
        self.model_columns = self.data.model_block(np.zeros(0, dtype=np.intp))
        self.margins = None  # cache of `_margins`, reset when the point moves
        self.step_lp = KeyedLP()

    @property
    def model(self):
        return [*self.unpenalized, *self.active]

    def _margins(self):
        """Margins y_i f_i and their sizes |b| + sum_j |x_ij w_j| (at least 1), once per knot."""
        if self.margins is None:
            coefs = self.w[self.model]
            margins = self.problem.y * (self.intercept + self.model_columns @ coefs)
            sizes = abs(self.intercept) + abs(self.model_columns) @ np.abs(coefs)
            self.margins = margins, np.maximum(sizes, 1.0)
        return self.margins

    def run(self):
        problem = self.problem
        recorder = PathRecorder(problem, interpolation="constant", lam_tolerance=_EVENT_TOLERANCE)
        if not self._start():
            raise SolverError(
                "l1_svm_path: HiGHS could not solve the LP at lam_max (min hinge loss over "
                "the intercept and the unpenalised features)."
            )
        try:
            self._follow(recorder)
        except PathEnd as end:
            recorder.stop(end.reason, recorder.lams[-1])
        return recorder.path()

    def _follow(self, recorder):
        """Record knots from lam_max down to lam_min; `PathEnd` if the path cannot go on."""
        problem, scale = self.problem, self.data.scale
        stalled = 0
        for n_steps in range(problem.max_steps + 1):
            direction = self._direction()
            previous = recorder.lams[-1] if recorder.lams else np.inf
            if direction is None:
                lam = previous if recorder.lams else 0.0
                recorder.record(lam, *self._coefs(), self._intercept())
                raise PathEnd(
                    "no certified direction (the step LP failed or its duality "
                    "gap exceeds the tolerance)"
                )
            # Rounding must not let the slopes decrease.
            lam = min(max(-direction.loss_rate, 0.0), previous / scale)
            if lam * scale <= problem.lam_min:
                _record_end(recorder, problem.lam_min, *self._coefs(), self._intercept())
                return
            self._follow_segment(direction)
            recorder.record(lam * scale, *self._coefs(), self._intercept())
            if len(self.active) > problem.max_features:
                return
            if n_steps == problem.max_steps - 1:
                raise PathEnd(budget_reached(problem.max_steps))
            norm = np.abs(self.w[self.active]).sum()
            step = self._step(direction)
            if step is None:
                raise PathEnd("the loss decreases without an event (numerical breakdown)")
            if not self._certified(direction, lam):
                raise PathEnd(
                    "the end of the segment fails its certificate (duality gap above the tolerance)"
                )
            stalled = stalled + 1 if step <= _EVENT_TOLERANCE * norm else 0
            if stalled > _MAX_STALLED_STEPS:
                raise PathEnd("events cycle without ||w||_1 growing (degenerate data)")

    def _coefs(self):
        """The model's features and their coefficients (all others are 0)."""
        model = self.model
        return model, self.w[model] / self.data.scale

    def _intercept(self):
        return self.intercept

    # -- the start ----------------------------------------------------------------

    def _start(self):
        """Min hinge loss over (b, w_U): the solution for lam >= lam_max.

        Solved through its dual, ``max 1'a`` s.t. ``[1, X_U]' Y a = 0``,
        ``0 <= a <= s``, which has one row per unpenalised column (and the
        intercept) rather than one per sample; ``(b, w_U)`` are minus its row
        duals. The samples within the LP's tolerance of the elbow are then put on
        it exactly by the least change of ``(b, w_U)`` that solves their margin
        equations (fewer of them than unknowns where the unpenalised features
        separate the classes: the equations' minimum-norm solution alone then broke
        the other samples' margins, a hinge loss of 39.7 where the LP's was 0).
        """
        y, U = self.problem.y, self.unpenalized
        n = y.shape[0]
        self.model_columns = self.data.model_block(np.asarray(U, dtype=np.intp))
        block = y[:, None] * np.column_stack((np.ones(n), _dense(self.model_columns)))
        k = block.shape[1]
        solution = KeyedLP().solve(
            np.full(n, -1.0),
            np.zeros(n),
            self.s,
            np.zeros(k),
            np.zeros(k),
            sp.csc_matrix(block.T),
            np.arange(n),
            np.arange(k),
        )
        if solution is None:
            return False
        x = -solution[1]
        self.intercept, self.w[U] = x[0], x[1:]
        margins, sizes = self._margins()
        elbow = np.abs(margins - 1.0) <= _START_MARGIN_TOLERANCE * sizes
        if np.any(elbow):
            x += np.linalg.lstsq(block[elbow], 1.0 - block[elbow] @ x, rcond=None)[0]
            self.intercept, self.w[U] = x[0], x[1:]
            self.margins = None
            margins, sizes = self._margins()
        self.side = np.where(elbow, _ELBOW, np.where(margins < 1.0, _LEFT, _RIGHT))
        return True

    # -- directions -------------------------------------------------------------

    def _direction(self):
        """The next segment's certified direction, or None.

        Samples within rounding of the elbow join E first. A generic knot tries
        Zhu et al.'s candidates; if B is singular or the best candidate fails its
        certificate, the step LP decides.
        """
        margins, sizes = self._margins()
        near = (self.side != _ELBOW) & (np.abs(margins - 1.0) <= _MARGIN_TOLERANCE * sizes)
        self.side[near] = _ELBOW
        elbow = np.flatnonzero(self.side == _ELBOW)
        left_labels = np.where(self.side == _LEFT, -self.s * self.problem.y, 0.0)
        knot = _Knot(
            elbow, self.data.row_block(elbow), left_labels, self.data.correlations(left_labels)
        )
        if elbow.shape[0] == len(self.model) + 1:
            direction = self._candidate_direction(knot)
            if direction is not None and self._certified(direction, -direction.loss_rate):
                return direction
        direction = self._lp_direction(knot)
        if direction is not None and self._certified(direction, -direction.loss_rate):
            return direction
        return None

    def _candidate_direction(self, knot):
        """Best of Zhu et al.'s candidates at a generic knot, or None if B is singular.

        With the elbow samples E square against the model (``|E| = |model| + 1``),
        ``B = Y_E [1, X_E,model]`` is invertible and the elbow multipliers are affine
        in lam: ``a_E = lam m + p`` with ``B' m = [0; s]`` (the penalty's signs) and
        ``B' p = [1'Y_L 1; X_model' Y_L 1]`` (the left samples' gradient). The next
        segment either lets one elbow sample leave (`_leave_candidates`) or one
        feature join (`_best_join`); the candidate with the smallest loss rate
        per unit of ``||w_P||_1`` wins.
        """
        elbow, rows, left_labels, left_dot = knot
        y_elbow = self.problem.y[elbow]
        model = self.model
        factor = _ElbowFactor.of(rows, model, y_elbow, self.data.entries)
        if factor is None:
            return None
        penalty_signs = np.concatenate((np.zeros(1 + len(self.unpenalized)), self.signs))
        left_gradient = np.concatenate(([left_labels.sum()], left_dot[model]))
        slope, offset = factor.solve(np.column_stack((penalty_signs, left_gradient)), trans=1).T
        slope_dot, offset_dot = _left_product(
            np.column_stack((y_elbow * slope, y_elbow * offset)), rows
        )
        leave_rates, leave_scales = _leave_candidates(slope, offset, self.s[elbow])
        join_rate, j, sign, scale = self._best_join(slope_dot, offset_dot, left_dot)
        best_leave = int(np.argmin(leave_rates))
        if leave_rates[best_leave] <= join_rate:
            if not np.isfinite(leave_rates[best_leave]):
                return None
            scale = leave_scales[best_leave]
            rhs = np.zeros(elbow.shape[0])
            rhs[best_leave] = scale
            solution = factor.solve(rhs)
            exits = {int(elbow[best_leave]): _RIGHT if scale > 0 else _LEFT}
            move = _Move(solution[0], list(self.active), self.signs, solution[1:], exits)
            # a_q = lam m_q + p_q is 0 (leaves right) or s_q (leaves left).
            bound = self.s[elbow[best_leave]] if scale < 0 else 0.0
            lam = (bound - offset[best_leave]) / slope[best_leave]
        else:
            column = _dense_columns(rows, [j])[:, 0]
            solution = factor.solve(-scale * y_elbow * column)
            features, signs = [*self.active, j], np.append(self.signs, sign)
            move = _Move(solution[0], features, signs, np.append(solution[1:], scale), {})
            # X_j'Ya = lam s_j.
            lam = (offset_dot[j] - left_dot[j]) / (sign - slope_dot[j])
        multipliers = lam * slope + offset
        correlations = -left_dot + lam * slope_dot + offset_dot
        return self._make_direction(knot, move, multipliers, correlations)

    def _best_join(self, slope_dot, offset_dot, left_dot):
        """Feature j joins with sign s: ``B u = -t a_j`` and ``n'u + s t = 1``.

        So ``t = 1 / (s - m'a_j)``, and the loss rate is ``t (g_j - p'a_j)``. Returns
        the best candidate as ``(rate, j, s, t)``, ties to s = +1 and the first j
        (rate ``inf`` if there is none). A denominator near 0 means ``a_j(s)`` is in
        the span of B and n (a duplicate): no candidate. Five temporaries of the size of
        the joinable features (with 200 000 of them, 1.6 MB each).
        """
        joinable = self.is_candidate.copy()
        joinable[self.active] = False
        joins = np.flatnonzero(joinable)
        del joinable
        slopes = slope_dot[joins]
        gains = left_dot[joins]
        gains -= offset_dot[joins]
        sizes = np.abs(slopes)
        np.maximum(sizes, 1.0, out=sizes)
        sizes *= _RANK_TOLERANCE
        best = (np.inf, -1, 0.0, 0.0)
        for sign in (1.0, -1.0):
            signed = np.subtract(sign, slopes)
            signed *= sign  # sign * (s - m'a_j), and 1 / (s - m'a_j) = sign / signed
            valid = np.flatnonzero(signed > sizes)
            if valid.size:
                scales = sign / signed[valid]
                rates = scales * gains[valid]
                position = int(np.argmin(rates))
                if rates[position] < best[0]:
                    best = (rates[position], int(joins[valid[position]]), sign, scales[position])
        return best

    def _make_direction(self, knot, move, multipliers, correlations):
        """The `_Direction` of a `_Move` at a `_Knot` (the same for both methods).

        Its loss rate comes from the move's rates; its dual point from the elbow
        ``multipliers`` and ``correlations`` (``X'Ya`` before clipping, see `_dual_point`).
        """
        elbow, rows, left_labels, left_dot = knot
        columns = [*self.unpenalized, *move.features]
        elbow_rates = self.problem.y[elbow] * (
            move.intercept_rate + _dense_columns(rows, columns) @ move.rates
        )
        leaving_left = [
            position for position, i in enumerate(elbow) if move.exits.get(int(i)) == _LEFT
        ]
        terms = np.concatenate(
            (
                [left_labels.sum() * move.intercept_rate],
                left_dot[columns] * move.rates,
                -self.s[elbow[leaving_left]] * elbow_rates[leaving_left],
            )
        )
        loss_rate = terms.sum()
        if loss_rate >= -_RATE_TOLERANCE * np.abs(terms).sum():
            # The loss cannot decrease: the point minimises it, lam = 0.
            loss_rate = 0.0
        dual, infeasibility = self._dual_point(elbow, rows, multipliers, correlations, -loss_rate)
        return _Direction(
            loss_rate,
            move.intercept_rate,
            move.features,
            np.asarray(move.signs, dtype=np.float64),
            np.asarray(move.rates),
            move.exits,
            dual,
            infeasibility,
        )

    def _lp_direction(self, knot):
        """The step LP: min loss rate s.t. the derivative of ||w_P||_1 is 1; None if it fails.

        Variables: db and dw_U (free), dw_j = dw+_j - dw-_j for the penalised
        features (nonnegative parts; for an active feature of sign s the norm row
        holds s and -s, so dw_j is free), xi_E >= -y_i df_i (the hinge rate of
        each elbow sample). The objective is divided by its largest coefficient,
        so that HiGHS's absolute tolerances are relative to it.
        """
        elbow, rows, left_labels, left_dot = knot
        y_elbow = self.problem.y[elbow]
        m, U, P = elbow.shape[0], np.asarray(self.unpenalized, dtype=np.intp), self.candidates
        k = 1 + len(U)
        # Norm-row coefficients of dw+ and dw-: 1 and 1 if inactive, s and -s if active.
        norm_plus, norm_minus = np.ones(P.shape[0]), np.ones(P.shape[0])
        positions = np.searchsorted(P, self.active)
        norm_plus[positions], norm_minus[positions] = self.signs, -self.signs
        if sp.issparse(rows):
            labelled = (sp.diags(y_elbow) @ rows).tocsc()  # Y_E X_E, as sparse as X
        else:
            labelled = sp.csc_matrix(y_elbow[:, None] * rows)
        over_P, over_U = labelled[:, P], labelled[:, U]
        del labelled
        matrix = _csc_columns(
            m + 1,
            (sp.csc_matrix(y_elbow[:, None]), None),
            (over_U, None),
            (over_P, norm_plus),
            (-over_P, norm_minus),
            (sp.identity(m, format="csc"), None),
        )
        del over_P, over_U, norm_plus, norm_minus
        cost = np.concatenate(
            ([left_labels.sum()], left_dot[U], left_dot[P], -left_dot[P], self.s[elbow])
        )
        cost_scale = np.abs(cost).max()
        cost /= cost_scale
        n_cols = cost.shape[0]
        # Keys: b, u_j, w+_j, w-_j, xi_i (columns), e_i, the norm (rows).
        d, n = self.w.shape[0], self.problem.y.shape[0]
        col_keys = np.concatenate(([0], 1 + U, 1 + d + P, 1 + 2 * d + P, 1 + 3 * d + elbow))
        row_keys = np.append(elbow, n)
        col_lower = np.zeros(n_cols)
        col_lower[:k] = -INF
        solution = self.step_lp.solve(
            cost,
            col_lower,
            np.full(n_cols, INF),
            np.concatenate((np.zeros(m), [1.0])),
            np.concatenate((np.full(m, INF), [1.0])),
            matrix,
            col_keys,
            row_keys,
        )
        del cost, col_lower, matrix, col_keys
        if solution is None:
            return None
        x, duals = solution
        multipliers = duals[:m] * cost_scale
        coef_rates = np.zeros(self.w.shape[0])
        coef_rates[P] = x[k : k + P.shape[0]]
        coef_rates[P] -= x[k + P.shape[0] : k + 2 * P.shape[0]]
        joinable = self.is_candidate.copy()
        joinable[self.active] = False
        joining = np.flatnonzero(joinable & (np.abs(coef_rates) > _RATE_TOLERANCE))
        features = [*self.active, *joining.tolist()]
        signs = np.concatenate((self.signs, np.sign(coef_rates[joining])))
        rates = np.concatenate((x[1:k], coef_rates[features]))
        columns_used = [*U, *features]
        terms = np.column_stack((np.full(m, x[0]), _dense_columns(rows, columns_used) * rates))
        terms *= y_elbow[:, None]
        elbow_rates = terms.sum(axis=1)
        moving = np.abs(elbow_rates) > _RATE_TOLERANCE * np.abs(terms).sum(axis=1)
        exits = {
            int(i): (_RIGHT if r > 0 else _LEFT)
            for i, r in zip(elbow[moving], elbow_rates[moving], strict=True)
        }
        correlations = -left_dot + _left_product(y_elbow * multipliers, rows)
        move = _Move(x[0], features, signs, rates, exits)
        return self._make_direction(knot, move, multipliers, correlations)

    # -- certificates -----------------------------------------------------------

    def _dual_point(self, elbow, rows, multipliers, correlations, lam):
        """The dual point of 004 eq. 6 of a segment at lam, and its infeasibility.

        ``a = s`` on L, the multipliers clipped to [0, s] on E, 0 on R;
        ``correlations`` is ``X'Ya`` before clipping. The infeasibility is measured
        as in `solvers.certificates`: ``|X_j'Ya|`` for unpenalised features over
        ``||X_j|| ||a||``, and ``|y'a|`` over ``sqrt(n) ||a||`` (the constraints of the
        penalised features are met by scaling a, in `_certified`).
        """
        y = self.problem.y
        a = np.where(self.side == _LEFT, self.s, 0.0)
        a[elbow] = np.clip(multipliers, 0.0, self.s[elbow])
        clipped = a[elbow] - multipliers
        if np.any(clipped):
            correlations = correlations + _left_product(y[elbow] * clipped, rows)
        unpenalized = np.asarray(self.unpenalized, dtype=np.intp)
        excess = np.abs(correlations[unpenalized]) / self.unpenalized_norms
        size = max(np.linalg.norm(a), np.finfo(float).tiny)
        infeasibility = max(excess.max(initial=0.0), abs(y @ a) / np.sqrt(y.shape[0])) / size
        return a, infeasibility

    def _certified(self, direction, lam):
        """Whether the current point is optimal at lam, certified by a dual point.

        First the segment's own dual point, scaled into ``|X_j'Ya| <= lam`` (which
        keeps ``y'a = 0`` and the box): the duality gap ``primal - 1'a`` (004 eq. 6
        and its dual) relative to ``max(|primal|, |1'a|, 1)`` and the infeasibility left
        for unpenalised features must be within `GAP_TOLERANCE`, the tolerance of
        `solvers.certificates`. Both objectives are sums of hinge losses, which do not
        depend on the scale of X: the floor of 1 (one sample at margin 0) keeps the
        rounding of a zero loss at the end of a separable path from counting as a gap.
        When that point falls short (its multipliers on the elbow come from a nearly
        singular system; at lam = 0 no scaling can meet ``X'Ya = 0``),
        `solvers.certificates.l1_svm_certificate` decides, with the best multipliers
        for the samples on the margin (a small LP); at lam = 0 it certifies the
        minimum of the hinge loss, every feature unpenalised.
        """
        margins, _ = self._margins()
        primal = self.s @ np.maximum(0.0, 1.0 - margins) + lam * np.abs(self.w[self.active]).sum()
        dual = direction.dual
        correlations = np.abs(self.data.correlations(self.problem.y * dual))[self.candidates]
        over = correlations > lam
        scale = float(np.min(lam / correlations[over])) if np.any(over) else 1.0
        value = scale * dual.sum()
        gap = max(primal - value, 0.0) / max(abs(primal), abs(value), self.mean_weight)
        if gap <= GAP_TOLERANCE and direction.infeasibility <= GAP_TOLERANCE:
            return True
        # At lam = 0 (the end: min hinge loss) every feature is unpenalised.
        penalised = (self.problem.weights != 0) & (lam > 0)
        certificate = l1_svm_certificate(
            self.data.columns,
            self.problem.y,
            self.w,
            self.intercept,
            lam if lam > 0 else 1.0,
            np.where(penalised, 1.0, 0.0),
            sample_weight=self.problem.sample_weight,
            tolerance=GAP_TOLERANCE,
        )
        return certificate.holds

    # -- moving -----------------------------------------------------------------

    def _follow_segment(self, direction):
        """Adopt a direction's active set and move its leaving samples off the elbow."""
        joining = direction.features[len(self.active) :]
        if joining:
            self.model_columns = _append_columns(
                self.model_columns, self.data.model_block(np.asarray(joining, dtype=np.intp))
            )
        self.active = list(direction.features)
        self.signs = direction.signs
        for i, side in direction.elbow_exits.items():
            self.side[i] = side

    def _step(self, direction):
        """Move to the next knot; return the step in ||w_P||_1 (None if no event bounds it)."""
        y = self.problem.y
        terms_size = abs(direction.intercept_rate) + abs(self.model_columns) @ np.abs(
            direction.rates
        )
        margin_rates = y * (direction.intercept_rate + self.model_columns @ direction.rates)
        margin_rates[np.abs(margin_rates) <= _RATE_TOLERANCE * terms_size] = 0.0
        margins, _ = self._margins()
        left, right = self.side == _LEFT, self.side == _RIGHT
        sample_steps = np.full(y.shape[0], np.inf)
        sample_steps[left] = steps_to_zero(1.0 - margins[left], margin_rates[left])
        sample_steps[right] = steps_to_zero(margins[right] - 1.0, -margin_rates[right])
        coefs = self.w[self.active]
        active_rates = direction.rates[len(self.unpenalized) :]
        feature_steps = steps_to_zero(self.signs * coefs, -self.signs * active_rates)
        feature_steps[coefs == 0] = np.inf
        step = min(sample_steps.min(initial=np.inf), feature_steps.min(initial=np.inf))
        if not np.isfinite(step):
            return None
        self.intercept += step * direction.intercept_rate
        self.w[self.model] += step * direction.rates
        self.margins = None
        limit = step * (1.0 + _EVENT_TOLERANCE)
        self.side[sample_steps <= limit] = _ELBOW
        U = len(self.unpenalized)
        leaving = np.flatnonzero(feature_steps <= limit)
        if leaving.size:
            for position in leaving[::-1]:
                self.w[self.active.pop(position)] = 0.0
            self.signs = np.delete(self.signs, leaving)
            kept = np.delete(np.arange(self.model_columns.shape[1]), U + leaving)
            self.model_columns = self.model_columns[:, kept]
        return step


class _ElbowFactor:
    """The LU factors of ``B = Y_E [1, X_E,model]`` at a generic knot.

    LAPACK's LU with partial pivoting, in place in one Fortran array of ``|E|^2``
    numbers; for a sparse X where that is more than X's nonzeros, SuperLU's
    (`scipy.sparse.linalg.splu`, COLAMD column order, partial pivoting) of the sparse
    B, whose factors stay near its nonzeros on text: the dense one took 2.3 MB, 3.5
    times the data, at 2000 x 20000 with 20 words a document (SuperLU's overhead per
    call makes it the slower one on a small B). B is singular (a tie, left to the step
    LP) when a pivot is below ``_RANK_TOLERANCE`` times the largest entry of its column.
    """

    def __init__(self, solve):
        self._solve = solve

    @classmethod
    def of(cls, rows, model, y_elbow, data_entries):
        """The factors of B for the elbow ``rows`` (labels ``y_elbow``), None if singular;
        sparse where the dense B would hold more than ``data_entries`` (X's nonzeros)."""
        m = y_elbow.shape[0]
        if sp.issparse(rows) and m * m > data_entries:
            matrix = sp.hstack((np.ones((m, 1)), rows[:, model]), format="csc")
            matrix = sp.csc_matrix(sp.diags(y_elbow) @ matrix)
            sizes = np.asarray(abs(matrix).max(axis=0).todense()).ravel()
            try:
                lu = splu(matrix, permc_spec="COLAMD")
            except RuntimeError:  # exactly singular
                return None
            column_sizes = np.empty_like(sizes)
            column_sizes[lu.perm_c] = sizes  # U's column j is B's column k, perm_c[k] = j
            if np.any(np.abs(lu.U.diagonal()) <= _RANK_TOLERANCE * column_sizes):
                return None
            return cls(lambda rhs, trans: lu.solve(rhs, trans="T" if trans else "N"))
        # One Fortran array, factorised in place: |E|^2 numbers, once.
        matrix = np.empty((m, 1 + len(model)), order="F")
        matrix[:, 0] = 1.0
        matrix[:, 1:] = _dense_columns(rows, model)
        matrix *= y_elbow[:, None]
        sizes = np.maximum(matrix.max(axis=0), -matrix.min(axis=0))
        lu, pivots = lu_factor(matrix, overwrite_a=True, check_finite=False)
        if np.any(np.abs(np.diag(lu)) <= _RANK_TOLERANCE * sizes):
            return None
        return cls(lambda rhs, trans: lu_solve((lu, pivots), rhs, trans=trans, check_finite=False))

    def solve(self, rhs, trans=0):
        """``B^-1 rhs``, or ``B^-T rhs`` with ``trans=1``."""
        return self._solve(rhs, trans)


def _leave_candidates(slope, offset, weights):
    """Elbow sample q leaves: ``B u = tau e_q`` with ``n'u = 1``, so ``tau = 1 / m_q``.

    Returns the loss rate of each candidate (``inf`` where ``m_q`` is 0: no
    candidate; leaving left adds sample q's hinge, of weight ``weights[q]``) and its
    scale tau.
    """
    with np.errstate(divide="ignore", invalid="ignore"):  # m_q = 0: no candidate
        scales = 1.0 / slope
        rates = scales * offset + weights * np.maximum(0.0, -scales)
    rates[~np.isfinite(scales) | (np.abs(slope) <= _RANK_TOLERANCE * np.abs(slope).max())] = np.inf
    return rates, scales


def _dense(block):
    return block.toarray() if sp.issparse(block) else block


def _dense_columns(block, columns):
    """``block[:, columns]`` as a dense array (block dense, or sparse: its few columns)."""
    return _dense(block[:, columns])


def _left_product(vectors, block):
    """``vectors' block`` (dense): a vector of shape (m,) or its columns (m, k) times an
    (m, n_features) block, dense or sparse."""
    return np.asarray(block.T @ vectors).T


def _append_columns(block, columns):
    """The columns of ``block`` then ``columns`` (both dense, or both CSC)."""
    if sp.issparse(block):
        return sp.hstack((block, columns), format="csc")
    return np.column_stack((block, columns))


def _csc_columns(n_rows, *blocks):
    """The CSC matrix of the blocks' columns side by side, each block a CSC matrix of at
    most ``n_rows`` rows and, where given, a last row (row ``n_rows - 1``) of nonzeros.

    Assembled from the blocks' arrays (scipy's hstack and vstack go through COO).
    """
    counts, indices, data = [np.zeros(1, dtype=np.int64)], [], []
    for block, last_row in blocks:
        block_counts = np.diff(block.indptr).astype(np.int64)
        if last_row is None:
            counts.append(block_counts)
            indices.append(block.indices)
            data.append(block.data)
            continue
        ends = np.cumsum(block_counts + 1) - 1  # where each column's last-row entry goes
        extended = np.ones(ends[-1] + 1 if ends.size else 0, dtype=bool)
        extended[ends] = False
        block_indices = np.full(extended.shape[0], n_rows - 1, dtype=np.int32)
        block_data = np.empty(extended.shape[0])
        block_indices[extended], block_data[extended] = block.indices, block.data
        block_data[ends] = last_row
        counts.append(block_counts + 1)
        indices.append(block_indices)
        data.append(block_data)
    indptr = np.cumsum(np.concatenate(counts))
    return sp.csc_matrix(
        (np.concatenate(data), np.concatenate(indices), indptr), shape=(n_rows, indptr.shape[0] - 1)
    )
