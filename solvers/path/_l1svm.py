"""The exact 1-norm SVM path (Zhu, Rosset, Hastie & Tibshirani 2003), 004 eq. 6.

The penalised problem ``sum_i [1 - y_i f_i]_+ + lam ||w||_1`` (``f = X w + b``,
unit weights after `PathProblem`'s rescaling) is a linear program. Following
Zhu et al. we trace its constrained form, min hinge loss s.t. ``||w||_1 <= s``,
whose solution is piecewise linear in s and whose loss is convex and piecewise
linear in s. With ``D_k`` the loss slope on segment k (from knot s_k to
s_{k+1}), the penalised solution for ``-D_k > lam > -D_{k+1}`` is the knot
s_{k+1}: it is constant in lam, and the breakpoints are ``lam_k = -D_k``.

Samples are left of the elbow (L: margin y_i f_i < 1), on it (E: = 1) or right
of it (R: > 1). On a segment the active features V and E stay fixed, and the
direction (db, dw_V) keeps every E sample on the elbow with ``d||w||_1 = 1``.
At a knot where one sample has just reached the elbow, or one feature has just
reached zero, |E| = |V| + 1 and the next direction is the best of |E| + 2 (d - |V|)
candidates (Zhu et al. 2003, sec. 3): one E sample leaves the elbow, or one
feature joins V. All candidates are scored at once from the left null vector of
the small (|V| + 2) x (|V| + 1) system, whose QR factors are updated from knot to
knot (`_ElbowSystem`), and one pass over X. Elsewhere (the start, simultaneous
events, ties) the direction is the solution of the step LP, min directional
derivative of the loss subject to a unit increase of ||w||_1; a candidate whose
loss rate would break the convexity of the loss in ||w||_1 also defers to it.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.linalg import qr_delete, qr_insert
from scipy.optimize import linprog

from ..exceptions import SolverError
from ._inputs import check_path_inputs
from ._steps import PathRecorder, steps_to_zero

_LEFT, _ELBOW, _RIGHT = -1, 0, 1
# Relative tolerance for a margin rate or a coefficient rate to count as zero.
_RATE_TOLERANCE = 1e-9
# Relative size of the smallest pivot of a well-posed candidate system.
_RANK_TOLERANCE = 1e-10
_MAX_STALLED_STEPS = 50
# Samples whose margin is this close to 1 are on the elbow.
_MARGIN_TOLERANCE = 1e-10


def l1_svm_path(X, y, weights=None, *, lam_min=0.0, max_features=None, max_steps=None):
    """The whole regularization path of the 1-norm SVM (004 eq. 6).

    Minimises ``sum_i max(0, 1 - y_i (x_i' w + b)) + lam * sum_j weights_j |w_j|``
    for every lam >= lam_min, with b unpenalised, by the piecewise-linear
    algorithm of Zhu, Rosset, Hastie & Tibshirani (2003) cited in 004
    sec. 2.2.1. The problem is an LP: the solution is constant in lam between
    breakpoints and piecewise linear in ``sum_j weights_j |w_j|``;
    ``Path.at(lam)`` returns the knot that is optimal at lam (at a breakpoint,
    where a whole segment is optimal, its end with the smaller norm).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two distinct labels; the larger (in sorted order) is mapped to +1.
    weights : array-like of shape (n_features,), optional
        Positive penalty weights (default 1); ``+inf`` excludes a feature.
    lam_min : float, default 0
        Stop at this lam.
    max_features : int, optional
        Stop at the breakpoint where more than this many features are active.
    max_steps : int, optional
        Stop after this many breakpoints (default ``10 * (n_samples + n_features)``),
        with a `PathWarning` naming the lam reached.

    Returns
    -------
    Path
        With ``interpolation`` constant between breakpoints.
    """
    problem = check_path_inputs(
        X,
        y,
        weights,
        classifier=True,
        lam_min=lam_min,
        max_features=max_features,
        max_steps=max_steps,
    )
    return _HingeHomotopy(problem).run()


@dataclass
class _Direction:
    """A segment's direction per unit increase of ||w||_1."""

    loss_rate: float  # D: derivative of the hinge loss along the direction
    intercept_rate: float
    features: list  # V on this segment
    signs: np.ndarray
    coef_rates: np.ndarray  # dw_V
    elbow_exits: dict  # sample -> _LEFT or _RIGHT, samples leaving E as the segment starts


class _ElbowSystem:
    """The QR factors of Zhu et al.'s step system, updated between knots.

    Rows: ``y_i [1, x_{i,V}]`` for the elbow samples, then the norm row
    ``[0, s_V]``; columns: intercept, then the active features. Between two
    generic knots one sample or feature comes or goes, so the full QR
    factorisation is updated with Givens rotations (``scipy.linalg.qr_insert``,
    ``qr_delete``; O(k^2)) rather than recomputed; after the step LP has changed
    several at once it is recomputed.
    """

    def __init__(self, problem):
        self.problem = problem
        self.rows, self.features, self.signs = [], [], []
        self.Q = self.R = None

    def factor(self, elbow, features, signs, active_columns):
        """(elbow samples in row order, Q, R) for the current elbow and active set."""
        kept_features = [
            (j, s) for j, s in zip(self.features, self.signs, strict=True) if j in set(features)
        ]
        current = list(zip(features, signs.tolist(), strict=True))
        new_rows = sorted(set(elbow.tolist()) - set(self.rows))
        changes = len(self.features) - len(kept_features) + len(current) - len(kept_features)
        changes += len(set(self.rows) - set(elbow.tolist())) + len(new_rows)
        if self.Q is None or changes > 2 or kept_features != current[: len(kept_features)]:
            self._recompute(elbow, features, signs, active_columns)
        else:
            self._update(elbow, current, len(kept_features), new_rows, active_columns)
        return np.array(self.rows, dtype=np.intp), self.Q, self.R

    def _recompute(self, elbow, features, signs, active_columns):
        y = self.problem.y
        k = len(features)
        system = np.zeros((elbow.shape[0] + 1, k + 1))
        system[:-1, 0] = y[elbow]
        system[:-1, 1:] = y[elbow, None] * active_columns[elbow]
        system[-1, 1:] = signs
        self.Q, self.R = np.linalg.qr(system, mode="complete")
        self.rows, self.features, self.signs = elbow.tolist(), list(features), signs.tolist()

    def _update(self, elbow, current, n_kept, new_rows, active_columns):
        y, Q, R = self.problem.y, self.Q, self.R
        wanted = set(elbow.tolist())
        for position in reversed(range(len(self.rows))):
            if self.rows[position] not in wanted:
                Q, R = qr_delete(Q, R, position, which="row", check_finite=False)
                del self.rows[position]
        keep = {j for j, _ in current[:n_kept]}
        for position in reversed(range(len(self.features))):
            if self.features[position] not in keep:
                Q, R = qr_delete(Q, R, position + 1, which="col", check_finite=False)
        rows = self.rows
        for j, sign in current[n_kept:]:
            column = np.append(y[rows] * self.problem.column(j)[rows], sign)
            Q, R = qr_insert(Q, R, column, R.shape[1], which="col", check_finite=False)
        for i in new_rows:
            row = y[i] * np.concatenate(([1.0], active_columns[i]))
            Q, R = qr_insert(Q, R, row, len(self.rows), which="row", check_finite=False)
            self.rows.append(i)
        self.Q, self.R = Q, R
        self.features = [j for j, _ in current]
        self.signs = [s for _, s in current]


class _HingeHomotopy:
    def __init__(self, problem):
        self.problem = problem
        y = problem.y
        n, d = problem.X.shape
        self.w = np.zeros(d)
        # The best intercept alone: b = sign(n_+ - n_-) (any b in [-1, 1] when tied).
        self.intercept = float(np.sign(y.sum()))
        self.side = np.where(y * self.intercept == 1.0, _ELBOW, _LEFT)
        self.active = []
        self.signs = np.zeros(0)
        self.active_columns = np.zeros((n, 0))
        self.system = _ElbowSystem(problem)
        # The largest loss rate any unit step could have: rates below this
        # fraction of it are rounding noise (the loss is flat: lam = 0).
        largest_sum = float(np.max(problem.column_norms(1), initial=0.0))
        self.flat_rate = _RATE_TOLERANCE * largest_sum
        # |null' a_j| <= ||a_j|| <= ||x_j|| + 1: smaller projections are rounding noise.
        self.join_tolerance = _RANK_TOLERANCE * (problem.column_norms(2) + 1.0)

    def _margins(self):
        return self.problem.y * (self.intercept + self.active_columns @ self.w[self.active])

    def run(self):
        problem = self.problem
        recorder = PathRecorder(problem, interpolation="constant", lam_tolerance=0.0)
        stalled, loss_rate = 0, -np.inf
        for n_steps in range(problem.max_steps + 1):
            direction = self._direction(loss_rate)
            if direction is None and not recorder.lams:
                raise SolverError(
                    "l1_svm_path: the step LP at lam_max failed (HiGHS via "
                    "scipy.optimize.linprog); check X for extreme scales."
                )
            if direction is None:
                lam = recorder.lams[-1]
                recorder.record(lam, self.w, self.intercept, self.active)
                recorder.stop("the step LP failed (numerically unbounded or infeasible)", lam)
                break
            loss_rate = direction.loss_rate
            lam = -loss_rate if -loss_rate > self.flat_rate else 0.0
            if recorder.lams:  # rounding must not let the slopes decrease
                lam = min(lam, recorder.lams[-1])
            if lam <= problem.lam_min:
                recorder.record(problem.lam_min, self.w, self.intercept, self.active)
                break
            self._follow(direction)
            recorder.record(lam, self.w, self.intercept, self.active)
            if len(self.active) > problem.max_features:
                break
            if n_steps == problem.max_steps - 1:
                recorder.stop(f"max_steps={problem.max_steps} reached", lam)
                break
            step = self._step(direction)
            if step is None:
                recorder.stop("the loss decreases without an event (numerical breakdown)", lam)
                break
            norm = np.abs(self.w).sum()
            stalled = stalled + 1 if step <= _RATE_TOLERANCE * 1e-3 * (1.0 + norm) else 0
            if stalled > _MAX_STALLED_STEPS:
                recorder.stop("events cycle without ||w||_1 growing (degenerate data)", lam)
                break
        return recorder.path()

    # -- directions -------------------------------------------------------------

    def _left_labels(self):
        """-y_i on L, 0 elsewhere: the loss gradient is ``sum_i left_labels_i [1, x_i]``."""
        return np.where(self.side == _LEFT, -self.problem.y, 0.0)

    def _direction(self, previous_loss_rate):
        """The next segment's direction, or None if the step LP fails.

        Samples within rounding of the elbow join E first. A candidate whose
        loss rate is below the previous segment's contradicts the convexity of
        the loss in ||w||_1 (it can only come from rounding in a degenerate
        system), so the step LP decides instead.
        """
        off_elbow = self.side != _ELBOW
        near = off_elbow & (np.abs(self._margins() - 1.0) <= _MARGIN_TOLERANCE)
        self.side[near] = _ELBOW
        elbow = np.flatnonzero(self.side == _ELBOW)
        if elbow.shape[0] == len(self.active) + 1:
            direction = self._candidate_direction(elbow)
            tolerance = _RATE_TOLERANCE * max(1.0, abs(previous_loss_rate))
            if direction is not None and direction.loss_rate >= previous_loss_rate - tolerance:
                return direction
        return self._lp_direction(elbow)

    def _candidate_direction(self, elbow):
        """Best of Zhu et al.'s candidates at a generic knot, or None if the system is singular."""
        problem, y = self.problem, self.problem.y
        k = len(self.active)
        elbow, Q, R = self.system.factor(elbow, self.active, self.signs, self.active_columns)
        pivots = np.abs(np.diag(R))
        if pivots.min(initial=np.inf) <= _RANK_TOLERANCE * max(pivots.max(initial=0.0), 1.0):
            return None
        null = Q[:, -1]  # left null vector of the system
        if abs(null[-1]) <= _RANK_TOLERANCE:
            return None
        left_labels = self._left_labels()
        gradient = np.concatenate(([left_labels.sum()], left_labels @ self.active_columns))
        # p = pinv(system)' gradient, so the loss rate of u = pinv(system) rhs is p' rhs.
        R1 = R[: k + 1]
        p = Q[:, : k + 1] @ np.linalg.solve(R1.T, gradient)
        base = p[-1]

        # Candidate (a): elbow sample q leaves; then y_q df_q = tau.
        with np.errstate(divide="ignore"):
            taus = -null[-1] / null[:-1]
        leave_rates = base + taus * p[:-1] + np.maximum(0.0, -taus)
        leave_rates[~np.isfinite(taus)] = np.inf

        # Candidate (b): feature j joins with sign s and rate t = null[-1] / (null' a_j(s)).
        weights = np.zeros((y.shape[0], 3))
        weights[elbow, 0] = null[:-1] * y[elbow]
        weights[elbow, 1] = p[:-1] * y[elbow]
        weights[:, 2] = left_labels
        null_dot, p_dot, left_dot = problem.correlations(weights).T
        join_rates, join_t = (
            np.full((2, null_dot.shape[0]), np.inf),
            np.zeros((2, null_dot.shape[0])),
        )
        for row, sign in enumerate((1.0, -1.0)):
            # null' a_j(s); near zero, a_j(s) lies in the span of the system's
            # columns (a duplicate of an active feature, same sign): no candidate.
            projection = null_dot + null[-1] * sign
            with np.errstate(divide="ignore", invalid="ignore"):
                t = null[-1] / projection
                valid = (np.abs(projection) > self.join_tolerance) & (sign * t > 0)
                t = np.where(valid, t, 0.0)
            join_t[row] = t
            join_rates[row] = np.where(valid, base + t * (left_dot - p_dot - p[-1] * sign), np.inf)
        join_rates[:, self.active] = np.inf

        best_leave = int(np.argmin(leave_rates))
        best_join = np.unravel_index(np.argmin(join_rates), join_rates.shape)
        rhs = np.zeros(k + 2)
        rhs[-1] = 1.0
        if leave_rates[best_leave] <= join_rates[best_join]:
            tau = taus[best_leave]
            rhs[best_leave] = tau
            u = np.linalg.solve(R1, Q[:, : k + 1].T @ rhs)
            exit_side = _RIGHT if tau > 0 else _LEFT
            return _Direction(
                leave_rates[best_leave],
                u[0],
                list(self.active),
                self.signs,
                u[1:],
                {int(elbow[best_leave]): exit_side},
            )
        row, j = best_join
        sign, t = (1.0, -1.0)[row], join_t[row, j]
        rhs -= t * np.concatenate((y[elbow] * problem.column(j)[elbow], [sign]))
        u = np.linalg.solve(R1, Q[:, : k + 1].T @ rhs)
        return _Direction(
            join_rates[row, j],
            u[0],
            [*self.active, int(j)],
            np.append(self.signs, sign),
            np.append(u[1:], t),
            {},
        )

    def _lp_direction(self, elbow):
        """The step LP: min loss rate s.t. the derivative of ||w||_1 is 1; None if it fails."""
        problem, y = self.problem, self.problem.y
        d = problem.X.shape[1]
        k, m = len(self.active), elbow.shape[0]
        inactive = np.setdiff1d(np.arange(d), self.active)
        left_labels = self._left_labels()
        left_dot = problem.correlations(left_labels)
        X_elbow = problem.X[elbow]
        X_elbow = X_elbow.toarray() if sp.issparse(X_elbow) else X_elbow
        # Variables: db, dw_V (free), dw+ and dw- of the inactive features, xi_E (>= 0).
        cost = np.concatenate(
            (
                [left_labels.sum()],
                left_dot[self.active],
                left_dot[inactive],
                -left_dot[inactive],
                np.ones(m),
            )
        )
        labelled = y[elbow, None] * X_elbow
        # Elbow samples: xi_i >= -y_i df_i.
        inequalities = np.hstack(
            (
                -y[elbow, None],
                -labelled[:, self.active],
                -labelled[:, inactive],
                labelled[:, inactive],
                -np.eye(m),
            )
        )
        norm_row = np.concatenate(([0.0], self.signs, np.ones(2 * inactive.shape[0]), np.zeros(m)))
        bounds = [(None, None)] * (1 + k) + [(0, None)] * (2 * inactive.shape[0] + m)
        result = linprog(
            cost,
            A_ub=inequalities if m else None,
            b_ub=np.zeros(m) if m else None,
            A_eq=norm_row[None, :],
            b_eq=[1.0],
            bounds=bounds,
            method="highs-ds",
        )
        if result.status != 0:
            return None
        x = result.x
        intercept_rate, active_rates = x[0], x[1 : 1 + k]
        split = 1 + k + inactive.shape[0]
        inactive_rates = x[1 + k : split] - x[split : split + inactive.shape[0]]
        scale = max(1.0, np.abs(x[: split + inactive.shape[0]]).max())
        joining = np.flatnonzero(np.abs(inactive_rates) > _RATE_TOLERANCE * scale)
        features = [*self.active, *inactive[joining].tolist()]
        signs = np.concatenate((self.signs, np.sign(inactive_rates[joining])))
        coef_rates = np.concatenate((active_rates, inactive_rates[joining]))
        elbow_rates = y[elbow] * (intercept_rate + X_elbow[:, features] @ coef_rates)
        rate_scale = max(1.0, np.abs(elbow_rates).max(initial=0.0))
        exits = {
            int(i): (_RIGHT if r > 0 else _LEFT)
            for i, r in zip(elbow, elbow_rates, strict=True)
            if abs(r) > _RATE_TOLERANCE * rate_scale
        }
        loss_rate = cost[: 1 + k] @ x[: 1 + k] + left_dot[inactive] @ inactive_rates
        loss_rate += np.maximum(0.0, -elbow_rates).sum()
        return _Direction(loss_rate, intercept_rate, features, signs, coef_rates, exits)

    # -- moving -----------------------------------------------------------------

    def _follow(self, direction):
        """Adopt a direction's active set and move its leaving samples off the elbow."""
        for j in direction.features[len(self.active) :]:
            self.active_columns = np.column_stack((self.active_columns, self.problem.column(j)))
        self.active = list(direction.features)
        self.signs = np.asarray(direction.signs, dtype=np.float64)
        for i, side in direction.elbow_exits.items():
            self.side[i] = side

    def _step(self, direction):
        """Move to the next knot; return the step in ||w||_1 (None if no event bounds it)."""
        y = self.problem.y
        margin_rates = y * (direction.intercept_rate + self.active_columns @ direction.coef_rates)
        margins = self._margins()
        rate_scale = _RATE_TOLERANCE * max(1.0, np.abs(margin_rates).max(initial=0.0))
        margin_rates[np.abs(margin_rates) <= rate_scale] = 0.0
        left, right = self.side == _LEFT, self.side == _RIGHT
        sample_steps = np.full(y.shape[0], np.inf)
        sample_steps[left] = steps_to_zero(1.0 - margins[left], margin_rates[left])
        sample_steps[right] = steps_to_zero(margins[right] - 1.0, -margin_rates[right])
        coefs = self.w[self.active]
        feature_steps = steps_to_zero(self.signs * coefs, -self.signs * direction.coef_rates)
        feature_steps[coefs == 0] = np.inf
        step = min(sample_steps.min(initial=np.inf), feature_steps.min(initial=np.inf))
        if not np.isfinite(step):
            return None
        self.intercept += step * direction.intercept_rate
        self.w[self.active] = coefs + step * direction.coef_rates
        limit = step * (1.0 + 1e-9) + 1e-15
        self.side[sample_steps <= limit] = _ELBOW
        for position in sorted(np.flatnonzero(feature_steps <= limit), reverse=True):
            self.w[self.active.pop(position)] = 0.0
            self.signs = np.delete(self.signs, position)
            self.active_columns = np.delete(self.active_columns, position, axis=1)
        return step
