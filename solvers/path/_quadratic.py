"""The homotopy for a piecewise-quadratic loss plus an L1 penalty (Rosset & Zhu 2007).

Minimise ``sum_{i in E(f)} (y_i - f_i)^2 + lam * ||beta||_1`` with
``f = X beta + b0`` (unit weights: `PathProblem` rescales weighted problems),
where E(f) is the set of samples inside the loss:

- the lasso (004 eq. 3): E is every sample, always; this is LARS with the lasso
  modification (Efron et al. 2004, sec. 3.1);
- SVM2 (004 eq. 7): with labels y_i in {-1, +1}, ``max(0, 1 - y_i f_i)^2 =
  (y_i - f_i)^2`` when ``y_i f_i < 1``, so E = {i : y_i (y_i - f_i) > 0} and the
  path is the lasso on the rows of E, which change at the margin
  (Rosset & Zhu 2007, sec. 4, squared hinge loss).

Stationarity on the active set A with signs s (intercept unpenalised) reads
``Z_E' (y_E - Z_E theta) = (lam / 2) [0; s]``, ``Z = [1, X_A]``,
``theta = (b0, beta_A)``. Hence ``theta`` moves by ``v = G^{-1} [0; s] / 2`` per
unit decrease of lam, ``G = Z_E' Z_E``, until the next event: an inactive
correlation ``|2 X_j' r_E|`` reaches lam (j joins), an active coefficient
reaches zero (j leaves), or a residual ``y_i - f_i`` crosses zero (i joins or
leaves E). G's Cholesky factor is updated per event (`UpdatableCholesky`), and
each step makes one pass over X for the correlations and their rates.
"""

import itertools

import numpy as np

from ._cholesky import UpdatableCholesky
from ._steps import PathRecorder, steps_to_zero

# Events closer than this fraction of lam_max are simultaneous.
_EVENT_TOLERANCE = 1e-11
# Ties among more features than this are resolved greedily, not by search.
_MAX_TIE_SEARCH = 8
# Rates of correlations that differ from the rate of lam by less are equal to it.
_RATE_TOLERANCE = 1e-9
# A blocked column must cross lam by this many event tolerances to stop the path.
_STUCK_MARGIN = 100
# Consecutive zero-length steps allowed before declaring a cycle.
_MAX_STALLED_STEPS = 50


_NO_STEPS = np.zeros(0)


def _clear(rates):
    """Rates with those within rounding of zero set to zero."""
    return np.where(rates > _RATE_TOLERANCE, rates, 0.0)


def quadratic_path(problem, *, margin_rows):
    """Follow the path of ``sum_E (y - f)^2 + lam ||beta||_1`` from lam_max down.

    Parameters
    ----------
    problem : PathProblem
    margin_rows : bool
        False: every sample is in the loss (the lasso). True: a sample is in
        the loss while its margin ``y_i f_i < 1`` (SVM2).

    Returns
    -------
    Path
    """
    return _QuadraticHomotopy(problem, margin_rows).run()


class _QuadraticHomotopy:
    def __init__(self, problem, margin_rows):
        self.problem = problem
        self.margin_rows = margin_rows
        X, y = problem.X, problem.y
        n, d = X.shape
        self.y = y
        # Start: beta = 0 and the best intercept. For SVM2 with two classes the
        # mean label lies in (-1, 1), so every margin is < 1 and E is all rows.
        self.intercept = y.mean()
        self.active_coefs = np.zeros(0)  # beta_A, in the order of self.active
        self.in_loss = np.ones(n, dtype=bool)
        self.active = []  # features, in the order of G's columns 1..k
        self.signs = np.zeros(0)
        # Active columns, contiguous, in a buffer that doubles when full.
        self._column_buffer = np.empty((n, min(n, d) + 1), order="F")
        self.is_active = np.zeros(d, dtype=bool)
        # Features whose column is a combination of the active ones within E
        # (e.g. duplicates): not candidates until E or the active set changes.
        self.blocked = np.zeros(d, dtype=bool)
        self.held_out = np.zeros(d, dtype=bool)  # tied features kept out of one segment
        self.tie = False  # several features joined at the last breakpoint
        self.factor = UpdatableCholesky(np.array([[float(n)]]))
        self.residual = y - self.intercept
        self.correlations = 2.0 * problem.correlations(self.residual)  # 2 X' r_E

    def _coef(self):
        """beta as a full vector of n_features."""
        coef = np.zeros(self.is_active.shape[0])
        coef[self.active] = self.active_coefs
        return coef

    @property
    def active_columns(self):
        return self._column_buffer[:, : len(self.active)]

    # -- events ---------------------------------------------------------------

    def _add_feature(self, j, sign):
        column = self.problem.column(j)
        masked = column * self.in_loss if self.margin_rows else column
        cross = np.concatenate(([masked.sum()], self.active_columns.T @ masked))
        if not self.factor.append(cross, masked @ column):
            self.blocked[j] = True
            return
        k = len(self.active)
        if k == self._column_buffer.shape[1]:
            self._column_buffer = np.asfortranarray(
                np.hstack((self._column_buffer, np.empty_like(self._column_buffer)))
            )
        self._column_buffer[:, k] = column
        self.active.append(j)
        self.active_coefs = np.append(self.active_coefs, 0.0)
        self.is_active[j] = True
        self.signs = np.append(self.signs, sign)

    def _remove_feature(self, position):
        j = self.active.pop(position)
        self.is_active[j] = False
        self.active_coefs = np.delete(self.active_coefs, position)
        self.signs = np.delete(self.signs, position)
        k = len(self.active)
        self._column_buffer[:, position:k] = self._column_buffer[:, position + 1 : k + 1]
        self.factor.remove(position + 1)
        self.blocked[:] = False  # the active span changed: blocked columns may fit now

    def _move_row(self, i, joins):
        """Add (joins=True) or remove sample i from E; False if G became singular."""
        row = np.concatenate(([1.0], self.active_columns[i]))
        self.in_loss[i] = joins
        self.blocked[:] = False  # the span within E changed: blocked columns may fit now
        return self.factor.rank_one(row, 1.0 if joins else -1.0)

    # -- the loop -------------------------------------------------------------

    def run(self):
        problem = self.problem
        correlations = self.correlations
        lam_max = float(np.max(np.abs(correlations), initial=0.0))
        # |2 X_j' r| <= 2 ||X_j|| ||r||: a lam_max below rounding of that bound is 0.
        largest_norm = np.max(problem.column_norms(2), initial=0.0)
        noise = _EVENT_TOLERANCE * 2.0 * largest_norm * np.linalg.norm(self.residual)
        if lam_max <= noise:
            lam_max = 0.0
        tolerance = _EVENT_TOLERANCE * lam_max
        recorder = PathRecorder(problem, interpolation="linear", lam_tolerance=tolerance)
        lam = lam_max
        if lam_max > 0:
            joining = np.flatnonzero(np.abs(correlations) >= lam_max - tolerance)
            self.tie = joining.size > 1
            for j in joining:
                self._add_feature(j, np.sign(correlations[j]))
        recorder.record(lam, self._coef(), self.intercept, self.active)
        stalled, n_steps = 0, 1
        while lam > problem.lam_min and len(self.active) <= problem.max_features:
            if n_steps >= problem.max_steps:
                recorder.stop(f"max_steps={problem.max_steps} reached", lam)
                break
            lam, step, breakdown = self._step(lam, tolerance)
            n_steps += 1
            recorder.record(lam, self._coef(), self.intercept, self.active)
            if breakdown:
                recorder.stop(breakdown + "; the solution is not unique below this lam", lam)
                break
            stalled = stalled + 1 if step <= tolerance else 0
            if stalled > _MAX_STALLED_STEPS:
                recorder.stop("events cycle without lam decreasing (degenerate data)", lam)
                break
        return recorder.path()

    def _direction(self):
        """``d(b0, beta_A) / d(-lam) = G^{-1} [0; s] / 2``, consistent for features joining at zero.

        A feature that has just joined (coefficient 0) must move with the sign
        of its correlation. After ties (several joining at once) some may not;
        then the joining subset is chosen so that the others' correlations stay
        within lam (`_resolve_tie`), the lasso modification of Efron et al.
        (2004, sec. 3.1) applied to simultaneous joins.
        """
        direction = 0.5 * self.factor.solve(np.concatenate(([0.0], self.signs)))
        if not self.tie:  # a lone join moves with its sign (the LARS sign property)
            return direction
        self.tie = False
        joining = np.flatnonzero(self.active_coefs == 0)
        if np.all(self.signs[joining] * direction[1:][joining] >= 0):
            return direction
        left_out = sorted(self._resolve_tie(joining), reverse=True)
        # On the boundary but not joining: no candidate again until the next event.
        self.held_out[[self.active[p] for p in left_out]] = True
        for position in left_out:
            self._remove_feature(position)
        return 0.5 * self.factor.solve(np.concatenate(([0.0], self.signs)))

    def _resolve_tie(self, joining):
        """Positions (in the active list) of the tied features that must not join.

        Searches the subsets S of the tied features, largest first, for one
        whose direction moves every feature of S with its sign and keeps every
        other tied feature's correlation within lam (``s_j a_j >= 1``): the
        small linear complementarity problem of a tie. Falls back to dropping
        the feature moving most against its sign.
        """
        columns = self.active_columns * self.in_loss[:, None]
        Z = np.column_stack((self.in_loss.astype(float), columns))
        gram = Z.T @ Z
        rhs = np.concatenate(([0.0], self.signs))
        settled = [0] + [p + 1 for p in range(len(self.active)) if p not in set(joining)]
        if len(joining) <= _MAX_TIE_SEARCH:
            for size in range(len(joining) - 1, -1, -1):
                for subset in itertools.combinations(joining, size):
                    kept = settled + [p + 1 for p in subset]
                    try:
                        v = 0.5 * np.linalg.solve(gram[np.ix_(kept, kept)], rhs[kept])
                    except np.linalg.LinAlgError:
                        continue
                    left_out = [p for p in joining if p not in subset]
                    rates = 2.0 * gram[np.ix_([p + 1 for p in left_out], kept)] @ v
                    moves = self.signs[list(subset)] * v[len(settled) :]
                    if np.all(moves >= 0) and np.all(self.signs[left_out] * rates >= 1.0 - 1e-9):
                        return left_out
        v = 0.5 * self.factor.solve(rhs)
        against = self.signs[joining] * v[1:][joining]
        return [int(joining[np.argmin(against)])]

    def _step(self, lam, tolerance):
        """Move to the next event below lam and apply it.

        Returns the new lam, the step, and why the path cannot go on (None if it can).
        """
        problem = self.problem
        direction = self._direction()
        fitted_rate = direction[0] + self.active_columns @ direction[1:]
        in_loss = self.in_loss
        # The one pass over X: how fast each correlation 2 X_j' r_E changes.
        in_loss_rate = fitted_rate * in_loss if self.margin_rows else fitted_rate
        rates = 2.0 * problem.correlations(in_loss_rate)
        correlations = self.correlations

        # Slacks that reach zero at an event, each shrinking at a constant rate.
        upper_rate, lower_rate = 1.0 - rates, 1.0 + rates
        join_steps = np.minimum(
            steps_to_zero(lam - correlations, upper_rate),
            steps_to_zero(lam + correlations, lower_rate),
        )
        # A blocked column whose correlation clearly moves out of [-lam, lam]
        # would have to join but cannot (a duplicate's stays on the boundary).
        blocked = np.flatnonzero(self.blocked) if self.blocked.any() else np.zeros(0, np.intp)
        stuck_steps = _NO_STEPS
        if blocked.size:
            stuck_steps = np.minimum(
                steps_to_zero(lam - correlations[blocked], _clear(upper_rate[blocked])),
                steps_to_zero(lam + correlations[blocked], _clear(lower_rate[blocked])),
            )
        join_steps[self.is_active] = np.inf
        if blocked.size or self.held_out.any():
            join_steps[self.blocked | self.held_out] = np.inf
        beta_active = self.active_coefs
        leave_steps = steps_to_zero(self.signs * beta_active, -self.signs * direction[1:])
        leave_steps[beta_active == 0] = np.inf
        row_steps = _NO_STEPS
        if self.margin_rows:
            # r_i = y_i - f_i shrinks by fitted_rate per step; i is in the loss iff y_i r_i > 0.
            side = np.where(in_loss, self.y, -self.y)
            row_steps = steps_to_zero(side * self.residual, side * fitted_rate)

        step = min(
            lam - problem.lam_min,
            join_steps.min(),
            leave_steps.min(initial=np.inf),
            row_steps.min(initial=np.inf),
        )
        # A blocked column only stops the path if it crosses clearly before the
        # next event and clearly above lam_min (not through rounding near the end).
        margin = _STUCK_MARGIN * tolerance
        crossing = (stuck_steps < step - margin) & (lam - stuck_steps > problem.lam_min + margin)
        stuck = blocked[crossing]
        if stuck.size:
            step = stuck_steps[crossing].min()
        step = max(step, 0.0)
        reaches_end = lam - step <= problem.lam_min + tolerance
        if reaches_end:
            step = lam - problem.lam_min
        self.intercept += step * direction[0]
        self.active_coefs = beta_active + step * direction[1:]
        correlations -= step * rates
        if self.margin_rows:
            self.residual = self.y - self.intercept - self.active_columns @ self.active_coefs
        lam = problem.lam_min if reaches_end else lam - step
        if reaches_end:
            return lam, step, None
        limit = step + tolerance
        if stuck.size:
            return (
                lam,
                step,
                (
                    f"feature {stuck[0]} must become active but its column is a combination of "
                    "the active ones on the samples in the loss"
                ),
            )

        leaving = np.flatnonzero(leave_steps <= limit)
        moving_rows = np.flatnonzero(row_steps <= limit)
        for position in leaving[::-1]:
            self._remove_feature(position)
        for i in moving_rows:
            if not self._move_row(i, joins=not in_loss[i]):
                return (
                    lam,
                    step,
                    (
                        f"sample {i} leaves the loss and the Gram matrix of the samples in the "
                        "loss becomes singular"
                    ),
                )
        if self.held_out.any():
            self.held_out[:] = False
        joining = np.flatnonzero(join_steps <= limit)
        # Joins together with other events: check the signs of the next direction.
        self.tie = joining.size > 1 or (joining.size == 1 and leaving.size + moving_rows.size > 0)
        for j in joining[np.argsort(-np.abs(correlations[joining]))]:
            self._add_feature(j, np.sign(correlations[j]))
        return lam, step, None
