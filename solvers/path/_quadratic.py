"""The homotopy for a piecewise-quadratic loss plus an L1 penalty (Rosset & Zhu 2007).

Minimise ``sum_{i in E(f)} (y_i - f_i)^2 + lam * ||beta_P||_1`` with
``f = X beta + b0 c`` (unit weights: `PathProblem` rescales weighted problems, and
sample weights scale the rows, with ``c = sqrt(s)`` the intercept's column, ones
without them; the
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
below `KKT_TOLERANCE`; and where the duality gap its violations allow, relative to
the objective, exceeds the estimators' tolerance (``GAP_TOLERANCE``, 1e-6; many
decades below lam_max, where the first measure no longer sees a violation of lam's
size), its certificate (`solvers.certificates`) must hold. A breakpoint that fails
ends the path at the previous one, with a `PathWarning`.

All tolerances are relative: to the current lam for events, to each column's
norm and the residual for correlations, so that scaling X, single columns, y or
the weights by any power of ten scales the path and nothing else.

Screening, with many more features than samples: only a set S of candidate
features (at first the most correlated at lam_max) is followed, so that a step
costs work on the candidates' columns alone. The others are certified at every
breakpoint by a bound: with their correlations ``c_j`` computed exactly at a
checkpoint (one pass over X, residual ``r_0`` on its rows in the loss),
``|2 X_j' r_E| <= |c_j| + 2 ||X_j|| ||r_E - r_0||`` (Cauchy-Schwarz). While the
bound stays below lam at the proposed breakpoint, no other feature can have
reached lam on the way (correlations and lam are linear on a segment); when it
does not, the exact correlations are computed there (a new checkpoint), a
feature that reached lam joins S and the step is computed again, and features
within a factor `_SCREEN_NEAR` of lam join S for the steps to come. The path is
the same as without screening.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sparsify.utils import one_blas_thread

from .._losses import SQUARED_HINGE
from ..certificates import GAP_TOLERANCE, lasso_certificate, svm2_certificate
from ..exceptions import SolverError
from ._cholesky import UpdatableCholesky
from ._steps import PathEnd, PathRecorder, budget_reached, steps_to_zero

#: Largest KKT violation accepted at a breakpoint, relative to the size of each
#: correlation (see the module docstring).
KKT_TOLERANCE = 1e-8
# The unit roundoff of float64, the rounding of a correlation (`_gap_estimate`).
_EPS = np.finfo(float).eps
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
# Steps of iterative refinement of that fit's least squares on the normal equations,
# whose condition is Z's squared: rows scaled by sqrt(s) over ten decades of sample
# weights left 3e-9 of the residual (the fit then failed its KKT check, or Newton's
# method cycled); each step gains the digits the first solve had.
_REFINEMENTS = 2
# Screening (see the module docstring) is used from this many features, when there
# are also more than twice as many features as samples.
_SCREEN_MIN_FEATURES = 2000
# The first candidates: this many features (or n, if more), the most correlated.
_SCREEN_FIRST = 100
# At a checkpoint, features whose correlation is above this fraction of lam join S.
_SCREEN_NEAR = 0.8


#: Columns of the path's buffers at the start (they double when full).
_INITIAL_COLUMNS = 62
_NO_STEPS = np.zeros(0)
_NO_FEATURES = np.zeros(0, dtype=np.intp)


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
    with one_blas_thread():  # each step is a few small dense solves and rank-one updates
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
        self.inverse_norms = np.divide(
            1.0, self.norms, out=np.zeros_like(self.norms), where=self.norms > 0
        )
        self.free_features = np.flatnonzero(self.free)
        penalised_norms = self.norms[~self.free]
        self.smallest_norm = float(np.min(penalised_norms[penalised_norms > 0], initial=np.inf))
        self.in_loss = np.ones(n, dtype=bool)
        # Z = [1, X_A], theta = (b0, beta_A), [0; s] and A, in buffers that double when
        # full: the first n_active + 1 columns or entries are the current ones. They
        # start at 64 columns, not min(n, d): an n x n buffer on a sparse corpus would
        # dwarf X (lam_max takes one step).
        capacity = min(n, d, _INITIAL_COLUMNS) + 2
        self._Z = np.empty((n, capacity), order="F")
        self._Z[:, 0] = problem.intercept_column  # ones, or sqrt(s) with sample weights
        self._theta = np.zeros(capacity)
        self._rhs = np.zeros(capacity)  # [0; s]: 0 for the intercept
        self._active = np.zeros(capacity - 1, dtype=np.intp)
        self.n_active = 0
        self.is_active = np.zeros(d, dtype=bool)
        # Features whose column is a combination of the active ones within E
        # (e.g. duplicates): not candidates until E or the active set changes.
        self.blocked = np.zeros(d, dtype=bool)
        self.held_out = np.zeros(d, dtype=bool)  # tied features kept out of one segment
        self._holding = False  # some feature is held out
        self.tie = False  # several features joined at the last breakpoint
        # Features followed between breakpoints (all, unless screening).
        self.screening = d >= _SCREEN_MIN_FEATURES and d > 2 * n
        self.candidates = np.zeros(0, dtype=np.intp) if self.screening else np.arange(d)
        self._candidate_transpose = None  # X' restricted to the candidates, when screening
        self._checked_point = None  # exact residual and correlations at a proposed breakpoint
        # Screening checkpoint: r_E there, and |c_j| (-inf for candidates and free features).
        self._check_residual, self._check_size, self._check_largest = None, None, 0.0
        self._largest_norm = float(np.max(self.norms, initial=0.0))
        self._y_norm = math.sqrt(self.y @ self.y)  # ||y_E|| for the lasso (E: every sample)
        self._fit_unpenalised()
        self._twice_rows = 2.0 * self.in_loss  # 2 on the rows in the loss, 0 elsewhere
        self.fitted = self.Z @ self.theta
        self.residual = self.y - self.fitted
        self.correlations = np.zeros(d)  # 2 X' r_E at the current breakpoint
        self.residual_scale = 0.0  # ||r_E|| at lam_max, the scale of the KKT check

    # -- state ----------------------------------------------------------------

    @property
    def Z(self):  # noqa: N802 (the matrix of the module docstring)
        """``[1, X_A]``: the intercept's column and the active columns (a view)."""
        return self._Z[:, : self.n_active + 1]

    @property
    def theta(self):
        """``(b0, beta_A)`` (a view: updated in place)."""
        return self._theta[: self.n_active + 1]

    @property
    def rhs(self):
        """``[0; s]``, the right-hand side of the direction (a view)."""
        return self._rhs[: self.n_active + 1]

    @property
    def intercept(self):
        return float(self._theta[0])

    @property
    def active(self):
        """The active features, in the order of Z's columns (a view)."""
        return self._active[: self.n_active]

    @property
    def active_coefs(self):
        return self._theta[1 : self.n_active + 1]

    @property
    def signs(self):
        return self._rhs[1 : self.n_active + 1]

    def _factorise(self, features):
        """Start G's factor afresh on the rows in the loss with ``[1, X_features]``.

        Features whose column is a combination of the others there are left out
        (blocked). Coefficients are reset to zero.
        """
        intercept = self.problem.intercept_column[self.in_loss]
        self.factor = UpdatableCholesky(np.array([[float(intercept @ intercept)]]))
        self.n_active = 0
        self._theta[:] = 0.0
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
        empty) keep every margin below one. Each least-squares solve through G's
        factor is refined (`_REFINEMENTS`).
        """
        y, free = self.y, self.problem.unpenalized
        # With sample weights y and the fit are scaled by sqrt(s_i): the labels are
        # y / sqrt(s), the margins y f / s (PathProblem).
        root = self.problem.intercept_column
        s = root * root
        fitted, theta = np.zeros(y.shape[0]), None
        for _ in range(_MAX_NEWTON_STEPS):
            self._factorise(free)
            rows = self.in_loss
            Z = self.Z
            Z_E, y_E = (Z[rows], y[rows]) if self.margin_rows else (Z, y)
            target = self.factor.solve(Z_E.T @ y_E)
            for _ in range(_REFINEMENTS):
                target += self.factor.solve(Z_E.T @ (y_E - Z_E @ target))
            goal = Z @ target
            if theta is None or not self.margin_rows:
                t = 1.0
            else:  # the least-squares fit on E is a descent direction of the squared hinge
                t, current = 1.0, SQUARED_HINGE.value(y / root, fitted / root, s)
                while (
                    t > np.finfo(float).eps
                    and SQUARED_HINGE.value(y / root, (fitted + t * (goal - fitted)) / root, s)
                    >= current
                ):
                    t *= 0.5
            fitted = fitted + t * (goal - fitted)
            theta = target if t == 1.0 else None
            # A sample the fit puts on the margin (to rounding) stays in the loss, where
            # its residual is 0: both sides are optimal, and leaving would free a
            # column that only it touches (any coefficient past the margin is
            # optimal), so that Newton's method would cycle.
            in_loss = y * fitted < s * (1.0 + _EVENT_TOLERANCE) if self.margin_rows else rows
            if t == 1.0 and np.array_equal(in_loss, rows):
                break
            self.in_loss = in_loss
        else:
            theta = self._separating_fit(free)
            if theta is None:
                raise SolverError(
                    f"the squared-hinge fit of the unpenalised features did not settle in "
                    f"{_MAX_NEWTON_STEPS} Newton steps"
                )
        self.theta[:] = theta

    def _separating_fit(self, free):
        """``(b0, beta_U)`` with every margin at least 1 (the squared hinge 0, its
        optimum), by HiGHS, or None when there is none. Newton's method cycles there:
        the samples below the margin become fewer than ``[1, X_U]``'s columns, a
        column is blocked and its coefficient dropped, and the samples come back.
        With every sample out of the loss, lam_max is 0."""
        from scipy.optimize import linprog

        self.in_loss[:] = True
        self._factorise(free)
        if self.n_active != len(free):  # [1, X_U] is rank-deficient on all the samples
            return None
        Z, y = self.Z, self.y
        s = self.problem.intercept_column**2
        result = linprog(
            np.zeros(Z.shape[1]), A_ub=-(y[:, None] * Z), b_ub=-s, bounds=(None, None),
            method="highs",
        )  # fmt: skip
        if result.status != 0:
            return None
        theta = result.x
        self.in_loss = y * (Z @ theta) < s * (1.0 + _EVENT_TOLERANCE)
        return theta

    # -- events ---------------------------------------------------------------

    def _add_feature(self, j, sign):
        column = self.problem.column(j)
        masked = column * self.in_loss if self.margin_rows else column
        if not self.factor.append(self.Z.T @ masked, masked @ column):
            self.blocked[j] = True
            return
        k = self.n_active + 1  # the new column's index in Z
        if k == self._Z.shape[1]:
            self._grow()
        self._Z[:, k] = column
        self._theta[k] = 0.0
        self._rhs[k] = sign
        self._active[k - 1] = j
        self.n_active = k
        self.is_active[j] = True

    def _grow(self):
        """Double the buffers of Z, theta, [0; s] and A."""
        capacity = 2 * self._Z.shape[1]
        Z = np.empty((self._Z.shape[0], capacity), order="F")
        Z[:, : self._Z.shape[1]] = self._Z
        self._Z = Z
        self._theta, self._rhs = np.resize(self._theta, capacity), np.resize(self._rhs, capacity)
        self._active = np.resize(self._active, capacity - 1)

    def _remove_feature(self, position):
        k = self.n_active  # the removed column's index in Z is position + 1 <= k
        j = self._active[position]
        self.is_active[j] = False
        self._active[position : k - 1] = self._active[position + 1 : k]
        for buffer in (self._theta, self._rhs):
            buffer[position + 1 : k] = buffer[position + 2 : k + 1]
        self._Z[:, position + 1 : k] = self._Z[:, position + 2 : k + 1]
        self.n_active = k - 1
        self.factor.remove(position + 1)
        self.blocked[:] = False  # the active span changed: blocked columns may fit now

    def _move_row(self, i, joins):
        """Add (joins=True) or remove sample i from E; False if G became singular."""
        row = self.Z[i]
        self.in_loss[i] = joins
        self._twice_rows[i] = 2.0 if joins else 0.0
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
        if self.screening:
            self._set_checkpoint(self.residual, self.correlations)
            first = max(_SCREEN_FIRST, self.y.shape[0])
            self._set_candidates(np.argsort(-np.abs(correlations), kind="stable")[:first])
        recorder = PathRecorder(problem, interpolation="linear", lam_tolerance=_EVENT_TOLERANCE)
        if self.residual_scale <= _RESOLUTION * np.linalg.norm(self.y[self.in_loss]):
            # [1, X_U] fits y exactly (a constant target): every coefficient is 0 for
            # every lam, and the residual is rounding that no check can measure.
            recorder.record(0.0, self.active, self.active_coefs, self.intercept)
            return recorder.path()
        if self._kkt_violation(lam_max) > KKT_TOLERANCE:
            raise SolverError("the fit of the intercept and the unpenalised features failed")
        lam = lam_max
        if lam_max > 0:
            joining = np.flatnonzero(np.abs(correlations) >= lam_max * (1 - _EVENT_TOLERANCE))
            self.tie = joining.size > 1
            for j in joining:
                self._add_feature(j, np.sign(correlations[j]))
        recorder.record(lam, self.active, self.active_coefs, self.intercept)
        try:
            self._follow(recorder, lam)
        except PathEnd as end:
            recorder.stop(end.reason, recorder.lams[-1])
        return recorder.path()

    def _follow(self, recorder, lam):
        """Record breakpoints from lam down to lam_min; `PathEnd` if the path cannot go on."""
        problem = self.problem
        stalled, n_steps = 0, 1
        while lam > problem.lam_min and self.n_active <= problem.max_features:
            if n_steps >= problem.max_steps:
                self._check_last(recorder)
                raise PathEnd(budget_reached(problem.max_steps))
            direction = self._direction()
            rates = self._measure(direction)
            failure = self._failure(lam)
            if failure:
                # The breakpoint before it was certified at the previous step.
                raise PathEnd(self._uncertified(recorder, lam, failure))
            lam, step, not_unique = self._step(lam, direction, rates)
            n_steps += 1
            recorder.record(lam, self.active, self.active_coefs, self.intercept)
            if not_unique:
                self._check_last(recorder)
                raise PathEnd(f"{not_unique}; the solution is not unique below this lam")
            stalled = stalled + 1 if step <= _EVENT_TOLERANCE * (lam + step) else 0
            if stalled > _MAX_STALLED_STEPS:
                self._check_last(recorder)
                raise PathEnd("events cycle without lam decreasing (degenerate data)")
        self._check_last(recorder)

    def _check_last(self, recorder):
        """Check the last breakpoint recorded (the loop checks each one before leaving it)."""
        self._measure()
        failure = self._failure(recorder.lams[-1])
        if failure:
            raise PathEnd(self._uncertified(recorder, recorder.lams[-1], failure))

    def _failure(self, lam):
        """Why the current point is not certified at lam (None when it is).

        Its KKT violation relative to each correlation's size must be below
        `KKT_TOLERANCE`; where the duality gap that its violations allow
        (`_gap_bound`) exceeds the estimators' tolerance, the point is certified as an
        estimator's answer is (`_certificate`)."""
        violation = self._kkt_violation(lam)
        if violation > KKT_TOLERANCE:
            return f"KKT violation {violation:.2e} > {KKT_TOLERANCE:.0e}"
        # The gap of the largest violation the measure above allows (each at most
        # violation 2 ||X_j|| (||r_E|| + ||r_0||)) first: no pass over the features when
        # that is small, as on every path but many decades below lam_max.
        rows = self.in_loss if self.margin_rows else slice(None)
        residual = self.residual[rows]
        squares = float(residual @ residual)
        size = 2.0 * (math.sqrt(squares) + self.residual_scale) * self._largest_norm
        if (
            self._gap_bound(lam, violation * size, squares) > GAP_TOLERANCE
            and self._gap_estimate(lam) > GAP_TOLERANCE
        ):
            certificate = self._certificate(lam)
            if not certificate.holds:
                return str(certificate)
        return None

    def _certificate(self, lam):
        """The certificate of the current point at lam (:mod:`solvers.certificates`), on
        the path's columns (divided by the penalty weights, offset columns centred) with
        the rows and targets unscaled (the sample weights passed as such)."""
        problem = self.problem
        X, y, s = problem.X, self.y, problem.sample_weight
        if problem.row_scale is not None:
            inverse = 1.0 / problem.row_scale
            X = sp.diags(inverse) @ X if sp.issparse(X) else inverse[:, None] * X
            y = np.sign(y) if self.margin_rows else inverse * y  # labels stay +-1
        coef = np.zeros(X.shape[1])
        coef[self.active] = self.active_coefs
        weights = np.where(self.free, 0.0, 1.0)
        check = svm2_certificate if self.margin_rows else lasso_certificate
        return check(X, y, coef, self.intercept, lam, weights, sample_weight=s)

    def _uncertified(self, recorder, lam, failure):
        """Drop the breakpoint at lam, which failed its check, and say why the path ends."""
        recorder.discard()
        return (
            f"the solution at lam={lam:.6g} fails its optimality check ({failure}; "
            "ill-conditioned active set)"
        )

    def _measure(self, direction=None):
        """Exact residual and correlations at the current point; the candidates' rates too.

        One pass over X gives ``2 X' r_E`` and, when ``direction`` is given, the
        rates ``2 X' (Z v)_E``, how fast the correlations change per unit decrease
        of lam. When screening (and ``direction`` is given), both are computed for
        the candidates alone (`_measure_candidates`).
        """
        Z = self.Z
        self.fitted = Z @ self.theta
        self.residual = self.y - self.fitted
        if direction is not None:
            self.fitted_rate = Z @ direction
            if self.screening:
                return self._measure_candidates()
        # Two matrix-vector products: faster than one product with two columns.
        self.correlations = self.problem.correlations(self._twice_in_loss(self.residual))
        if direction is None:
            return None
        return self.problem.correlations(self._twice_in_loss(self.fitted_rate))

    def _twice_in_loss(self, vector):
        """``2 v`` on the rows in the loss, 0 on the others."""
        return vector * self._twice_rows if self.margin_rows else 2.0 * vector

    def _measure_candidates(self):
        """The candidates' exact correlations ``2 X_S' r_E`` (stored) and rates (returned)."""
        transpose = self._candidate_transpose
        residual = self._twice_in_loss(self.residual)
        self.correlations[self.candidates] = np.asarray(transpose @ residual)
        return np.asarray(transpose @ self._twice_in_loss(self.fitted_rate))

    def _set_candidates(self, features):
        """Follow ``features`` too (screening)."""
        self.candidates = np.union1d(self.candidates, features).astype(np.intp)
        self._candidate_transpose = self.problem.transposed_rows(self.candidates)
        self._followed = np.union1d(self.candidates, self.free_features)
        self._check_size[features] = -np.inf
        self._check_largest = np.max(self._check_size, initial=0.0)

    def _set_checkpoint(self, residual, correlations):
        """Exact correlations at a point, the base of the bound on the features not followed."""
        self._check_residual = residual * self.in_loss if self.margin_rows else residual.copy()
        self._check_size = np.abs(correlations)
        self._check_size[self.candidates] = -np.inf
        self._check_size[self.free_features] = -np.inf
        self._check_largest = np.max(self._check_size, initial=0.0)

    def _outside_violators(self, lam, step, direction):
        """Features not followed that reach lam by the proposed breakpoint, and those near it.

        Bounds the correlations of the features outside the candidates at the
        point ``step`` below lam (see the module docstring); where the bound does
        not keep them below ``lam - step``, computes them exactly there (a new
        checkpoint, kept for the next breakpoint's check) and returns those that
        reach it, and those above `_SCREEN_NEAR` of it.
        """
        new_lam = lam - step
        residual = self.y - self.Z @ (self.theta + step * direction)
        in_loss = residual * self.in_loss if self.margin_rows else residual
        distance = 2.0 * np.linalg.norm(in_loss - self._check_residual)
        threshold = new_lam * (1.0 - _EVENT_TOLERANCE)
        # The bound of the largest correlation plus that of the largest column first.
        if self._check_largest + distance * self._largest_norm < threshold:
            return _NO_FEATURES, _NO_FEATURES
        if np.max(self._check_size + distance * self.norms) < threshold:
            return _NO_FEATURES, _NO_FEATURES
        correlations = self.problem.correlations(2.0 * in_loss)
        self._checked_point = (residual, correlations)
        self._set_checkpoint(residual, correlations)
        size = self._check_size
        return np.flatnonzero(size >= threshold), np.flatnonzero(size >= _SCREEN_NEAR * new_lam)

    def _violations(self, lam):
        """Each followed feature's violation of stationarity (absolute: ``2 X_j' r_E`` is
        ``lam sign(beta_j)`` where ``beta_j != 0``, within ``[-lam, lam]`` where ``beta_j =
        0``, 0 for unpenalised features), their inverse norms and norms, and the
        positions of the unpenalised features among them."""
        active, coefs = self.active, self.active_coefs
        penalised = (coefs != 0) & ~self.free[active]
        if self.screening:
            # The features not followed are below lam by the bound that
            # `_outside_violators` checked at this breakpoint; the others are measured.
            features = self._followed  # the active features are among them
            c, inverse_norms = self.correlations[features], self.inverse_norms[features]
            norms = self.norms[features]
            moving = np.searchsorted(features, active[penalised])
            free = np.searchsorted(features, self.free_features)
        else:
            c, inverse_norms, norms = self.correlations, self.inverse_norms, self.norms
            moving, free = active[penalised], self.free_features
        violation = np.abs(c)
        violation -= lam
        np.maximum(violation, 0.0, out=violation)
        # Nonzero and unpenalised coefficients: the correlation is exactly its target.
        violation[moving] = np.abs(c[moving] - lam * np.sign(coefs[penalised]))
        if free.size:
            violation[free] = np.abs(c[free])
        return violation, inverse_norms, norms, free

    def _kkt_violation(self, lam):
        """The largest violation of stationarity at the current point, relative to its scale.

        Each of `_violations`, and the intercept's ``2 c' r_E`` (c its column), divided by
        ``2 ||X_j|| (||r_E|| + ||r_0||)``.
        """
        violation, inverse_norms, _, _ = self._violations(lam)
        rows = self.in_loss if self.margin_rows else slice(None)
        residual, column = self.residual[rows], self.problem.intercept_column[rows]
        size = 2.0 * (math.sqrt(residual @ residual) + self.residual_scale)
        if size == 0:
            return 0.0
        violation *= inverse_norms
        intercept = 2.0 * abs(column @ residual) / (math.sqrt(column @ column) * size)
        return max(float(violation.max(initial=0.0)) / size, intercept)

    def _gap_estimate(self, lam):
        """`_gap_bound` of the penalised features' largest violation beyond the rounding
        of their correlations ``2 X_j'(y - f)_E``, ``eps sqrt(|E|) 2 ||X_j|| (||y_E|| +
        ||f_E||)``."""
        violation, _, norms, free = self._violations(lam)
        rows = self.in_loss if self.margin_rows else slice(None)
        y_E, f_E, residual = self.y[rows], self.fitted[rows], self.residual[rows]
        rounding = _EPS * math.sqrt(y_E.size) * 2.0 * (math.sqrt(y_E @ y_E) + math.sqrt(f_E @ f_E))
        violation -= rounding * norms
        violation[free] = 0.0
        return self._gap_bound(lam, float(violation.max(initial=0.0)), float(residual @ residual))

    def _gap_bound(self, lam, largest, squares):
        """The relative duality gap at the current point that a largest violation
        ``largest`` of the penalised features' stationarity allows.

        With the dual point ``a = 2 r_E`` (the KKT map) scaled by ``t = lam / max_j |c_j|``
        into the dual's box, the gap of ``||r_E||^2 + lam ||beta||_1`` is
        ``sum_j |beta_j| (lam - s_j c_j)`` at t = 1, at most ``||beta||_1 largest``, and
        the scaling loses ``(1 - t) 2 r_E'f_E + (1 - t)^2 ||r_E||^2`` of the dual value,
        ``2 r_E'f_E`` being ``lam ||beta||_1`` at the optimum. The KKT violation relative to
        each correlation's size (`_kkt_violation`) does not bound it: many decades below
        lam_max, with columns and sample weights over ten decades, correlations of active
        features drifted from lam to 5e7 lam within 1e-12 of their size, and the path's
        last point was 2.3% above the optimum. 0 at lam = 0 (no penalty, no box).
        """
        if lam <= 0:
            return 0.0
        active, coefs = self.active, self.active_coefs
        norm = float(np.abs(coefs[~self.free[active]]).sum())
        primal = squares + lam * norm
        if primal <= 0:
            return 0.0
        excess = largest / lam
        return (2.0 * norm * largest + excess * excess * squares) / primal

    def _direction(self):
        """``d(b0, beta_A) / d(-lam) = G^{-1} [0; s] / 2``, consistent for features joining at zero.

        A feature that has just joined (coefficient 0) must move with the sign
        of its correlation. After ties (several joining at once) some may not;
        then the joining subset is chosen so that the others' correlations stay
        within lam (`_resolve_tie`), the lasso modification of Efron et al.
        (2004, sec. 3.1) applied to simultaneous joins.
        """
        direction = 0.5 * self.factor.solve(self.rhs)
        if not self.tie:  # a lone join moves with its sign (the LARS sign property)
            return direction
        self.tie = False
        joining = np.flatnonzero((self.active_coefs == 0) & (self.signs != 0))
        if np.all(self.signs[joining] * direction[1:][joining] >= 0):
            return direction
        left_out = sorted(self._resolve_tie(joining), reverse=True)
        # On the boundary but not joining: no candidate again until the next event.
        self.held_out[self.active[left_out]] = True
        self._holding = True
        for position in left_out:
            self._remove_feature(position)
        return 0.5 * self.factor.solve(self.rhs)

    def _resolve_tie(self, joining):
        """Positions (in the active list) of the tied features that must not join.

        Searches the subsets S of the tied features, largest first, for one
        whose direction moves every feature of S with its sign and keeps every
        other tied feature's correlation within lam (``s_j a_j >= 1``): the
        small linear complementarity problem of a tie. Falls back to dropping
        the feature moving most against its sign.
        """
        Z = self.Z * self.in_loss[:, None]
        gram = Z.T @ Z
        rhs = self.rhs
        settled = [0] + [p + 1 for p in range(self.n_active) if p not in set(joining)]
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
        if self.margin_rows:
            rows = self.in_loss
            size = np.linalg.norm(self.y[rows]) + np.linalg.norm(self.fitted[rows])
        else:
            size = self._y_norm + math.sqrt(self.fitted @ self.fitted)
        return _RESOLUTION * 2.0 * self.smallest_norm * size

    def _step(self, lam, direction, rates):
        """Move to the next event below lam and apply it.

        When screening, a proposed step that a feature outside the candidates
        would cut short is proposed again with that feature followed.

        Returns the new lam, the step, and why the solution is not unique below the
        new lam (None if it is).
        """
        event = self._next_event(lam, direction, rates)
        near = _NO_FEATURES
        while self.screening:
            violators, near = self._outside_violators(lam, event.step, direction)
            if violators.size == 0:
                break
            self._set_candidates(violators)
            rates = self._measure_candidates()
            event = self._next_event(lam, direction, rates)
        outcome = self._apply(lam, direction, rates, event)
        if near.size:
            self._set_candidates(near)
        return outcome

    def _on_candidates(self, values):
        """``values`` restricted to the candidates (``values`` itself when all are followed)."""
        return values[self.candidates] if self.screening else values

    def _next_event(self, lam, direction, rates):
        """The step to the next event below lam, and what happens there."""
        problem, on_candidates = self.problem, self._on_candidates
        tolerance = _EVENT_TOLERANCE * lam
        end = problem.lam_min + max(tolerance, self._resolution())
        correlations = on_candidates(self.correlations)
        # Slacks that reach zero at an event, each shrinking at a constant rate: the
        # upper ones lam - c (rates 1 - a) in row 0, the lower ones lam + c in row 1.
        slacks, slack_rates = np.empty((2, rates.shape[0])), np.empty((2, rates.shape[0]))
        np.subtract(lam, correlations, out=slacks[0])
        np.add(lam, correlations, out=slacks[1])
        np.subtract(1.0, rates, out=slack_rates[0])
        np.add(1.0, rates, out=slack_rates[1])
        join_steps = steps_to_zero(slacks, slack_rates).min(axis=0)
        # A blocked column whose correlation clearly moves out of [-lam, lam]
        # would have to join but cannot (a duplicate's stays on the boundary).
        blocked_candidates = on_candidates(self.blocked)
        excluded = on_candidates(self.is_active) | blocked_candidates
        if self.free_features.size:
            excluded |= on_candidates(self.free)
        if self._holding:
            excluded |= on_candidates(self.held_out)
        blocked, stuck_steps = _NO_FEATURES, _NO_STEPS
        rows_in_loss = np.count_nonzero(self.in_loss) if self.margin_rows else self.y.shape[0]
        if self.factor.size >= rows_in_loss:
            # Z_E spans every vector on E, so every column is a combination of the
            # active ones: its correlation is lam times a constant of size <= 1 on
            # the segment (its KKT condition holds now), so none can join or cross.
            join_steps[:] = np.inf
        elif blocked_candidates.any():
            at = np.flatnonzero(blocked_candidates & ~on_candidates(self.free))
            blocked = self.candidates[at]
            stuck_steps = np.minimum(
                steps_to_zero(slacks[0, at], _clear(slack_rates[0, at])),
                steps_to_zero(slacks[1, at], _clear(slack_rates[1, at])),
            )
        join_steps[excluded] = np.inf
        beta_active, signs = self.active_coefs, self.signs
        leave_steps = steps_to_zero(signs * beta_active, -signs * direction[1:])
        leave_steps[(beta_active == 0) | (signs == 0)] = np.inf
        step = min(
            lam - problem.lam_min,
            join_steps.min(initial=np.inf),
            leave_steps.min(initial=np.inf),
        )
        row_steps = _NO_STEPS
        if self.margin_rows:
            # r_i = y_i - f_i shrinks by fitted_rate per step; i is in the loss iff y_i r_i > 0.
            side = np.where(self.in_loss, self.y, -self.y)
            row_steps = steps_to_zero(side * self.residual, side * self.fitted_rate)
            step = min(step, row_steps.min(initial=np.inf))
        # A blocked column only stops the path if it crosses clearly before the
        # next event and clearly above lam_min (not through rounding near the end).
        stuck = _NO_FEATURES
        if blocked.size:
            margin = _STUCK_MARGIN * tolerance
            crossing = (stuck_steps < step - margin) & (lam - stuck_steps > end + margin)
            stuck = blocked[crossing]
            if stuck.size:
                step = stuck_steps[crossing].min()
        step = max(step, 0.0)
        reaches_end = lam - step <= end
        if reaches_end:
            step = lam - problem.lam_min
        limit = step + tolerance
        join_at = (join_steps <= limit).nonzero()[0]
        return _Event(
            step=step,
            reaches_end=reaches_end,
            stuck=stuck,
            leaving=(leave_steps <= limit).nonzero()[0],
            moving_rows=(row_steps <= limit).nonzero()[0],
            joining=self.candidates[join_at] if self.screening else join_at,
            join_at=join_at,
        )

    def _apply(self, lam, direction, rates, event):
        """Move ``event.step`` below lam and apply the event; see `_step`.

        Only theta moves here: the residual and the correlations at the new
        point are recomputed exactly (`_measure`) before anything reads them,
        and the joining features' correlations, for their signs, are moved
        along the segment.
        """
        step = event.step
        theta = self.theta
        theta += step * direction
        if self._checked_point is not None:  # the exact values, computed by the check
            self.residual, self.correlations = self._checked_point
            self._checked_point = None
            joining_correlations = self.correlations[event.joining]
        else:
            joining_correlations = self.correlations[event.joining] - step * rates[event.join_at]
        if event.reaches_end:
            return self.problem.lam_min, step, None
        lam -= step
        if event.stuck.size:
            return (
                lam,
                step,
                (
                    f"feature {event.stuck[0]} must become active but its column is a "
                    "combination of the active ones on the samples in the loss"
                ),
            )
        for position in event.leaving[::-1]:
            self._remove_feature(position)
        if event.moving_rows.size:
            in_loss = self.in_loss.copy()
            for i in event.moving_rows:
                if not self._move_row(i, joins=not in_loss[i]):
                    return (
                        lam,
                        step,
                        (
                            f"sample {i} leaves the loss and the Gram matrix of the samples "
                            "in the loss becomes singular"
                        ),
                    )
            # Unpenalised columns left out may fit the new rows.
            for j in np.flatnonzero(self.free & ~self.is_active):
                self._add_feature(j, 0.0)
        if self._holding:
            self.held_out[:] = False
            self._holding = False
        joining = event.joining
        # Joins together with other events: check the signs of the next direction.
        self.tie = joining.size > 1 or (
            joining.size == 1 and event.leaving.size + event.moving_rows.size > 0
        )
        for at in (-np.abs(joining_correlations)).argsort():
            self._add_feature(joining[at], np.sign(joining_correlations[at]))
        return lam, step, None


@dataclass(frozen=True, slots=True)
class _Event:
    """The next breakpoint: its distance below lam and the changes it brings."""

    step: float
    reaches_end: bool  # lam_min (or the numerical end) comes first
    stuck: np.ndarray  # blocked features that would have to join (the path stops)
    leaving: np.ndarray  # positions in the active list of the features leaving
    moving_rows: np.ndarray  # samples entering or leaving the loss
    joining: np.ndarray  # features joining
    join_at: np.ndarray  # their positions among the candidates
