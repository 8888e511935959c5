"""The homotopy for a piecewise-quadratic loss plus an L1 penalty (Rosset & Zhu 2007).

Minimise ``sum_{i in E(f)} (y_i - f_i)^2 + lam * ||beta_P||_1`` with
``f = X beta + b0`` (unit weights: `PathProblem` rescales weighted problems; the
features U of weight 0 and the intercept are unpenalised, P are the others),
where E(f) is the set of samples inside the loss:

- the lasso (004 eq. 3): E is every sample, always; this is LARS with the lasso
  modification (Efron et al. 2004, sec. 3.1);
- SVM2 (004 eq. 7): with labels y_i in {-1, +1}, ``max(0, 1 - y_i f_i)^2 =
  (y_i - f_i)^2`` when ``y_i f_i < 1``, so E = {i : y_i (y_i - f_i) > 0} and the
  path is the lasso on the rows of E, which change at the margin
  (Rosset & Zhu 2007, sec. 4, squared hinge loss).

The path starts at lam_max from the fit on ``[1, X_U]`` alone (least squares,
or the squared hinge solved by Newton's method), and lam_max is the largest
correlation ``|2 X_j' r_E|`` of a penalised feature there. Stationarity on the
active set A with signs s (0 for the unpenalised features, which are active
from the start and never leave) reads ``Z_E' (y_E - Z_E theta) = (lam / 2) [0; s]``,
``Z = [1, X_A]``, ``theta = (b0, beta_A)``. Hence ``theta`` moves by
``v = G^{-1} [0; s] / 2`` per unit decrease of lam, ``G = Z_E' Z_E``, until the
next event: an inactive correlation ``|2 X_j' r_E|`` reaches lam (j joins), an
active coefficient reaches zero (j leaves), or a residual ``y_i - f_i`` crosses
zero (i joins or leaves E). G's Cholesky factor is updated per event
(`UpdatableCholesky`), and each step makes one pass over X, for the
correlations at the breakpoint (from the residual, so that rounding does not
accumulate) and for their rates along the next segment.

Every breakpoint is checked before the path goes on: its KKT violation,
measured per feature relative to ``2 ||X_j|| (||r_E|| + ||r_E at lam_max||)``
(the size the correlation can have, as in `solvers.certificates`), must be
below `KKT_TOLERANCE`. A breakpoint that fails ends the path at the previous one,
with a `PathWarning`.

All tolerances are relative: to the current lam for events, to each column's
norm and the residual for correlations, so that scaling X, single columns, y or
the weights by any power of ten scales the path and nothing else.
"""

import itertools

import numpy as np

from ..exceptions import SolverError
from ._cholesky import UpdatableCholesky
from ._steps import PathRecorder, steps_to_zero

#: Largest KKT violation accepted at a breakpoint, relative to the size of each
#: correlation (see the module docstring).
KKT_TOLERANCE = 1e-8
# Events whose lams differ by less than this fraction of the current lam are
# simultaneous; correlations within this fraction of their size are zero.
_EVENT_TOLERANCE = 1e-11
# Relative accuracy of a correlation computed from the residual (a difference of
# y and the fit, after many steps): below it, lam is zero (`_resolution`).
_RESOLUTION = 1e-9
# Ties among more features than this are resolved greedily, not by search.
_MAX_TIE_SEARCH = 8
# Rates (relative to the rate of lam, 1) closer than this to it are equal to it.
_RATE_TOLERANCE = 1e-9
# A blocked column must cross lam by this many event tolerances to stop the path.
_STUCK_MARGIN = 100
# Consecutive zero-length steps allowed before declaring a cycle.
_MAX_STALLED_STEPS = 50
# Newton iterations allowed for the squared-hinge fit of the unpenalised features.
_MAX_NEWTON_STEPS = 100


_NO_STEPS = np.zeros(0)


def _clear(rates):
    """Rates with those within rounding of zero set to zero."""
    return np.where(rates > _RATE_TOLERANCE, rates, 0.0)


def quadratic_path(problem, *, margin_rows):
    """Follow the path of ``sum_E (y - f)^2 + lam ||beta_P||_1`` from lam_max down.

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
        n, d = problem.X.shape
        self.y = problem.y
        self.free = np.zeros(d, dtype=bool)  # unpenalised features (weight 0)
        self.free[problem.unpenalized] = True
        self.norms = problem.column_norms(2)
        penalised_norms = self.norms[~self.free]
        self.smallest_norm = float(np.min(penalised_norms[penalised_norms > 0], initial=np.inf))
        self.in_loss = np.ones(n, dtype=bool)
        # Active columns, contiguous, in a buffer that doubles when full.
        self._column_buffer = np.empty((n, min(n, d) + 1), order="F")
        self.is_active = np.zeros(d, dtype=bool)
        # Features whose column is a combination of the active ones within E
        # (e.g. duplicates): not candidates until E or the active set changes.
        self.blocked = np.zeros(d, dtype=bool)
        self.held_out = np.zeros(d, dtype=bool)  # tied features kept out of one segment
        self.tie = False  # several features joined at the last breakpoint
        self._fit_unpenalised()
        self.residual = self.y - self._fitted()
        self.correlations = np.zeros(d)  # 2 X' r_E at the current breakpoint
        self.residual_scale = 0.0  # ||r_E|| at lam_max, the scale of the KKT check

    # -- state ----------------------------------------------------------------

    def _coef(self):
        """beta as a full vector of n_features."""
        coef = np.zeros(self.is_active.shape[0])
        coef[self.active] = self.active_coefs
        return coef

    def _fitted(self):
        return self.intercept + self.active_columns @ self.active_coefs

    @property
    def active_columns(self):
        return self._column_buffer[:, : len(self.active)]

    def _factorise(self, features):
        """Start G's factor afresh on the rows in the loss with ``[1, X_features]``.

        Features whose column is a combination of the others there are left out
        (blocked). Coefficients are reset to zero.
        """
        self.factor = UpdatableCholesky(np.array([[float(np.count_nonzero(self.in_loss))]]))
        self.active, self.active_coefs, self.signs = [], np.zeros(0), np.zeros(0)
        self.is_active[:] = False
        for j in features:
            self._add_feature(j, 0.0)

    def _fit_unpenalised(self):
        """The start at lam_max: the intercept and the unpenalised features fitted alone.

        The lasso: least squares on ``[1, X_U]``. SVM2: the squared hinge on
        ``[1, X_U]`` by Newton's method (Keerthi & DeCoste 2005): least squares
        on the samples with margin below one, then a step halved until the loss
        decreases; it ends when the least-squares fit on those samples has the
        same samples below the margin, which is then the exact optimum. The
        mean label in (-1, 1) makes the first fit (the intercept alone, for U
        empty) keep every margin below one.
        """
        y, free = self.y, self.problem.unpenalized
        fitted, theta = np.zeros(y.shape[0]), None
        for _ in range(_MAX_NEWTON_STEPS):
            self._factorise(free)
            rows = self.in_loss
            Z = np.column_stack((np.ones(y.shape[0]), self.active_columns))
            target = self.factor.solve(Z[rows].T @ y[rows])
            goal = Z @ target
            if theta is None or not self.margin_rows:
                t = 1.0
            else:  # the least-squares fit on E is a descent direction of the squared hinge
                t, current = 1.0, _squared_hinge(y, fitted)
                while (
                    t > np.finfo(float).eps
                    and _squared_hinge(y, fitted + t * (goal - fitted)) >= current
                ):
                    t *= 0.5
            fitted = fitted + t * (goal - fitted)
            theta = target if t == 1.0 else None
            in_loss = y * fitted < 1.0 if self.margin_rows else rows
            if t == 1.0 and np.array_equal(in_loss, rows):
                break
            self.in_loss = in_loss
        else:
            raise SolverError(
                f"the squared-hinge fit of the unpenalised features did not settle in "
                f"{_MAX_NEWTON_STEPS} Newton steps"
            )
        self.intercept, self.active_coefs = float(theta[0]), theta[1:].copy()

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
        self._measure()
        correlations = np.where(self.free, 0.0, self.correlations)
        self.residual_scale = np.linalg.norm(self.residual[self.in_loss])
        # |2 X_j' r| <= 2 ||X_j|| ||r||: a correlation below rounding of that bound is 0.
        noise = _EVENT_TOLERANCE * 2.0 * self.norms * self.residual_scale
        correlations = np.where(np.abs(correlations) > noise, correlations, 0.0)
        lam_max = float(np.max(np.abs(correlations), initial=0.0))
        recorder = PathRecorder(problem, interpolation="linear", lam_tolerance=_EVENT_TOLERANCE)
        if self._kkt_violation(lam_max) > KKT_TOLERANCE:
            raise SolverError("the fit of the intercept and the unpenalised features failed")
        lam = lam_max
        if lam_max > 0:
            joining = np.flatnonzero(np.abs(correlations) >= lam_max * (1 - _EVENT_TOLERANCE))
            self.tie = joining.size > 1
            for j in joining:
                self._add_feature(j, np.sign(correlations[j]))
        recorder.record(lam, self._coef(), self.intercept, self.active)
        stalled, n_steps, reason, failed = 0, 1, None, False
        while lam > problem.lam_min and len(self.active) <= problem.max_features:
            if n_steps >= problem.max_steps:
                reason = f"max_steps={problem.max_steps} reached"
                break
            direction = self._direction()
            rates = self._measure(direction)
            failed = self._kkt_violation(lam) > KKT_TOLERANCE
            if failed:  # the breakpoint before it was certified at the previous step
                reason = self._uncertified(recorder, lam)
                break
            lam, step, reason = self._step(lam, direction, rates)
            n_steps += 1
            recorder.record(lam, self._coef(), self.intercept, self.active)
            if reason:
                reason += "; the solution is not unique below this lam"
                break
            stalled = stalled + 1 if step <= _EVENT_TOLERANCE * (lam + step) else 0
            if stalled > _MAX_STALLED_STEPS:
                reason = "events cycle without lam decreasing (degenerate data)"
                break
        if not failed:  # the last breakpoint, not checked yet
            self._measure()
            if self._kkt_violation(recorder.lams[-1]) > KKT_TOLERANCE:
                reason = self._uncertified(recorder, recorder.lams[-1])
        if reason:
            recorder.stop(reason, recorder.lams[-1])
        return recorder.path()

    def _uncertified(self, recorder, lam):
        """Drop the breakpoint at lam, which failed its check, and say why the path ends."""
        violation = self._kkt_violation(lam)
        recorder.discard()
        return (
            f"the solution at lam={lam:.6g} fails its optimality check (KKT violation "
            f"{violation:.2e} > {KKT_TOLERANCE:.0e}; ill-conditioned active set)"
        )

    def _measure(self, direction=None):
        """Exact residual and correlations at the current point; the correlations' rates too.

        One pass over X gives ``2 X' r_E`` and, when ``direction`` is given,
        ``2 X' (Z v)_E``, how fast the correlations change per unit decrease of lam.
        """
        self.residual = self.y - self._fitted()
        vectors = [self.residual]
        if direction is not None:
            self.fitted_rate = direction[0] + self.active_columns @ direction[1:]
            vectors.append(self.fitted_rate)
        vectors = np.column_stack(vectors)
        if self.margin_rows:
            vectors *= self.in_loss[:, None]
        both = 2.0 * self.problem.correlations(vectors)
        self.correlations = both[:, 0]
        return both[:, 1] if direction is not None else None

    def _kkt_violation(self, lam):
        """The largest violation of stationarity at the current point, relative to its scale.

        ``2 X_j' r_E`` must be ``lam sign(beta_j)`` where ``beta_j != 0``, within
        ``[-lam, lam]`` where ``beta_j = 0``, and 0 for unpenalised features and
        the intercept; each difference is divided by ``2 ||X_j|| (||r_E|| + ||r_0||)``.
        """
        coef = self._coef()
        targets = np.where(self.free, 0.0, lam * np.sign(coef))
        exact = (coef != 0) | self.free
        c = self.correlations
        violation = np.where(exact, np.abs(c - targets), np.maximum(np.abs(c) - lam, 0.0))
        residual = self.residual[self.in_loss]
        size = 2.0 * (np.linalg.norm(residual) + self.residual_scale)
        if size == 0:
            return 0.0
        scale = self.norms * size
        relative = np.divide(violation, scale, out=np.zeros_like(violation), where=scale > 0)
        intercept = 2.0 * abs(residual.sum()) / (np.sqrt(residual.shape[0]) * size)
        return float(max(relative.max(initial=0.0), intercept))

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
        joining = np.flatnonzero((self.active_coefs == 0) & (self.signs != 0))
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
                    if np.all(moves >= 0) and np.all(
                        self.signs[left_out] * rates >= 1.0 - _RATE_TOLERANCE
                    ):
                        return left_out
        v = 0.5 * self.factor.solve(rhs)
        against = self.signs[joining] * v[1:][joining]
        return [int(joining[np.argmin(against)])]

    def _resolution(self):
        """The lam below which no correlation can be told from rounding: the path's numerical end.

        A correlation ``2 X_j' r_E`` is computed to about ``2 ||X_j|| (||y_E|| + ||f_E||)``
        times `_RESOLUTION` (the residual is a difference); below that, for
        the smallest penalised column, lam is zero within rounding.
        """
        rows = self.in_loss
        size = np.linalg.norm(self.y[rows]) + np.linalg.norm((self.y - self.residual)[rows])
        return _RESOLUTION * 2.0 * self.smallest_norm * size

    def _step(self, lam, direction, rates):
        """Move to the next event below lam and apply it.

        Returns the new lam, the step, and why the path cannot go on (None if it can).
        """
        problem = self.problem
        tolerance = _EVENT_TOLERANCE * lam
        end = problem.lam_min + max(tolerance, self._resolution())
        fitted_rate = self.fitted_rate
        in_loss = self.in_loss
        correlations = self.correlations
        # Slacks that reach zero at an event, each shrinking at a constant rate.
        upper_rate, lower_rate = 1.0 - rates, 1.0 + rates
        join_steps = np.minimum(
            steps_to_zero(lam - correlations, upper_rate),
            steps_to_zero(lam + correlations, lower_rate),
        )
        # A blocked column whose correlation clearly moves out of [-lam, lam]
        # would have to join but cannot (a duplicate's stays on the boundary).
        blocked = np.flatnonzero(self.blocked & ~self.free)
        stuck_steps = _NO_STEPS
        if self.factor.size >= np.count_nonzero(in_loss):
            # Z_E spans every vector on E, so every column is a combination of the
            # active ones: its correlation is lam times a constant of size <= 1 on
            # the segment (its KKT condition holds now), so none can join or cross.
            join_steps[:] = np.inf
            blocked = blocked[:0]
        elif blocked.size:
            stuck_steps = np.minimum(
                steps_to_zero(lam - correlations[blocked], _clear(upper_rate[blocked])),
                steps_to_zero(lam + correlations[blocked], _clear(lower_rate[blocked])),
            )
        join_steps[self.is_active | self.blocked | self.held_out | self.free] = np.inf
        beta_active = self.active_coefs
        leave_steps = steps_to_zero(self.signs * beta_active, -self.signs * direction[1:])
        leave_steps[(beta_active == 0) | (self.signs == 0)] = np.inf
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
        crossing = (stuck_steps < step - margin) & (lam - stuck_steps > end + margin)
        stuck = blocked[crossing]
        if stuck.size:
            step = stuck_steps[crossing].min()
        step = max(step, 0.0)
        reaches_end = lam - step <= end
        if reaches_end:
            step = lam - problem.lam_min
        self.intercept += step * direction[0]
        self.active_coefs = beta_active + step * direction[1:]
        correlations -= step * rates
        self.residual -= step * fitted_rate
        if reaches_end:
            return problem.lam_min, step, None
        lam -= step
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
        if moving_rows.size:  # unpenalised columns left out may fit the new rows
            for j in np.flatnonzero(self.free & ~self.is_active):
                self._add_feature(j, 0.0)
        if self.held_out.any():
            self.held_out[:] = False
        joining = np.flatnonzero(join_steps <= limit)
        # Joins together with other events: check the signs of the next direction.
        self.tie = joining.size > 1 or (joining.size == 1 and leaving.size + moving_rows.size > 0)
        for j in joining[np.argsort(-np.abs(correlations[joining]))]:
            self._add_feature(j, np.sign(correlations[j]))
        return lam, step, None


def _squared_hinge(y, fitted):
    slack = np.maximum(0.0, 1.0 - y * fitted)
    return slack @ slack
