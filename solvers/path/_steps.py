"""Bookkeeping shared by the homotopy loops: breakpoint recording, step sizes, stop warnings.

Within `streamed_selection` every breakpoint recorded is also scored on validation data
as it is recorded (`Path.scores`' default score): a caller that needs only the best
breakpoint (the adaptive estimators, 004 sec. 2.2.1) runs the path with
``return_path=False`` and keeps the lams and scores, not every breakpoint's model.
"""

import contextvars
import os
import sys
import warnings
from array import array
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp

from ..exceptions import PathWarning
from ._path import Path, _decisions, best_index, default_scores

_PACKAGE_DIRECTORY = os.path.dirname(os.path.abspath(__file__))
# The `StreamedSelection` the next path records into (`streamed_selection`), or None.
_SELECTION = contextvars.ContextVar("streamed_selection", default=None)


def steps_to_zero(slack, rate):
    """Step sizes at which nonnegative slacks shrinking at ``rate`` per unit step reach zero.

    Only slacks that shrink (``rate > 0``) can reach zero; the others get
    ``inf``. Slacks that rounding made slightly negative count as zero, so an
    event is triggered by the direction of motion, never by the sign of noise.
    """
    steps = np.empty(slack.shape)
    steps.fill(np.inf)
    np.divide(np.maximum(slack, 0.0), rate, out=steps, where=rate > 0)
    return steps


def budget_reached(max_steps):
    """The reason a path gives when it stops after ``max_steps`` breakpoints, as asked
    (``WeightedL1Model.lam_max`` asks for one and tells that stop from the others)."""
    return f"max_steps={max_steps} reached"


class PathEnd(Exception):  # noqa: N818 (a signal, not an error)
    """Raised inside a homotopy when the path cannot go on; the loop stops with a warning.

    Both homotopies end the same way: the step that finds the reason raises it,
    and ``run`` catches it once and calls `PathRecorder.stop` with ``reason``.
    """

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _caller_stacklevel():
    """The ``stacklevel`` for `warnings.warn` called here that names the caller of the package.

    Counts the frames from the function calling this one up to the first
    outside ``solvers/path``: whichever path function the user called, however
    deep the loop that stops, the warning points at the user's line.
    """
    frame, level = sys._getframe(1), 1
    while (
        frame.f_back is not None
        and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIRECTORY
    ):
        frame, level = frame.f_back, level + 1
    return level


class StreamedSelection:
    """The breakpoints' lams and validation scores of one path, scored as recorded.

    The scores are those of `Path.scores` with ``scoring=None`` (accuracy for the
    classifier paths, R^2 for the lasso, weighted by ``sample_weight``), computed on
    each breakpoint's model when `PathRecorder` records it; `select` is `Path.select`.
    ``X_val, y_val`` must be validated already (the estimators' ``_check_validation``).
    """

    def __init__(self, X_val, y_val, sample_weight=None):
        # CSC, so that X_val.T is the CSR that `_decisions` multiplies without a copy.
        self.X_val = X_val.tocsc() if sp.issparse(X_val) else X_val
        self.y_val = np.asarray(y_val)
        self.sample_weight = sample_weight
        self.lams, self.scores = array("d"), array("d")

    def start(self, problem):
        """Begin the path of ``problem``: no breakpoint yet."""
        self.problem = problem
        self.lams, self.scores = array("d"), array("d")  # 8 bytes a breakpoint each

    def add(self, lam, features, values, intercept):
        """Score the model of the breakpoint at lam (rescaled coefficients, as recorded)."""
        problem = self.problem
        indptr = np.array([0, features.shape[0]])
        scales = problem.feature_scales(features)  # as `PathRecorder.path` unscales
        coefs = sp.csr_matrix((values * scales, features, indptr), shape=(1, problem.X.shape[1]))
        decisions = _decisions(self.X_val, coefs, problem.uncentre([intercept], coefs))
        self.lams.append(lam)
        self.scores.append(
            float(default_scores(decisions, self.y_val, problem.classes, self.sample_weight)[0])
        )

    def discard(self):
        """Forget the last breakpoint's lam and score."""
        self.lams.pop()
        self.scores.pop()

    def select(self):
        """The best breakpoint's lam, as `Path.select`: ties to the largest lam."""
        return float(self.lams[best_index(self.scores)])


@contextmanager
def streamed_selection(X_val, y_val, sample_weight=None):
    """Score the breakpoints of the path computed inside on ``(X_val, y_val)``.

    Yields the `StreamedSelection` that the path's `PathRecorder` fills.
    """
    selection = StreamedSelection(X_val, y_val, sample_weight)
    token = _SELECTION.set(selection)
    try:
        yield selection
    finally:
        _SELECTION.reset(token)


class PathRecorder:
    """Collects breakpoints in decreasing lam and builds the `Path`.

    Breakpoints never repeat a lam. A new one within ``lam_tolerance`` times the
    previous lam (relative, so that breakpoints many decades below lam_max stay
    apart) merges with it: on a linear path the later state replaces the
    earlier (simultaneous events); on a constant path (the 1-norm SVM, where
    equal lams mean consecutive segments of the same slope) the earlier,
    smaller-norm knot is kept, as `Path` requires, and the active sets are joined.
    Within `streamed_selection`, each breakpoint kept is scored too (a replaced one's
    score is replaced; a knot joined keeps its model and so its score).
    """

    def __init__(self, problem, *, interpolation, lam_tolerance):
        self.problem = problem
        self.interpolation = interpolation
        self.lam_tolerance = lam_tolerance
        # Per breakpoint: the features of its model (sorted) and their coefficients.
        self.lams, self.features, self.values, self.intercepts, self.active_sets = (
            [], [], [], [], [],
        )  # fmt: skip
        self.n_steps = 0  # breakpoints recorded, kept or not (return_path=False)
        self.selection = _SELECTION.get()
        if self.selection is not None:
            self.selection.start(problem)

    def record(self, lam, features, values, intercept):
        """Add the breakpoint at lam: its model ``features`` (the active set) and their
        coefficients ``values`` (0 elsewhere).

        Only the model is stored, so the path's memory grows with the total size of
        its active sets, not with n_breakpoints x n_features; the sorted features are
        one array, both the active set and the coefficients' indices.
        """
        lam = max(lam, 0.0)
        features = np.asarray(features, dtype=np.intp)
        order = np.argsort(features)
        features = features[order]
        if self.lams and self.lams[-1] - lam <= self.lam_tolerance * self.lams[-1]:
            if self.interpolation == "constant":
                self.active_sets[-1] = np.union1d(self.active_sets[-1], features)
                return
            self.discard()
        if not self.lams:
            self.lam_max = lam
        self.n_steps += 1
        self.lams.append(lam)
        self.features.append(features)
        self.values.append(np.asarray(values, dtype=np.float64)[order])
        self.intercepts.append(float(intercept))
        self.active_sets.append(features)
        if self.selection is not None:
            self.selection.add(lam, features, self.values[-1], self.intercepts[-1])
        if not self.problem.return_path and len(self.lams) > 2:
            for breakpoints in self._breakpoints():
                del breakpoints[0]

    def _breakpoints(self):
        return self.lams, self.features, self.values, self.intercepts, self.active_sets

    def discard(self):
        """Forget the last breakpoint (replaced, or not certified)."""
        for breakpoints in self._breakpoints():
            breakpoints.pop()
        if self.selection is not None:
            self.selection.discard()

    def stop(self, reason, lam):
        """Warn, at the line that called the path function, that the path ends early at ``lam``."""
        warnings.warn(
            f"path stopped at lam={lam:.6g} (lam_max={self.lam_max:.6g}): {reason}. "
            "Path.at is exact down to lams[-1]; below it the path is unknown.",
            PathWarning,
            stacklevel=_caller_stacklevel(),
        )

    def path(self):
        """The `Path`: coefficients in a CSR matrix, dense on reading for a dense X."""
        problem = self.problem
        d = problem.X.shape[1]
        index_type = np.int32 if d < np.iinfo(np.int32).max else np.int64
        indptr = np.zeros(len(self.lams) + 1, dtype=index_type)
        np.cumsum([f.shape[0] for f in self.features], out=indptr[1:])
        indices = np.concatenate([np.zeros(0, dtype=index_type), *self.features], dtype=index_type)
        self.features = []  # the active sets keep the arrays
        values = np.concatenate([np.zeros(0), *self.values])
        self.values = []
        values *= problem.unscale(np.ones(d))[indices]
        coefs = sp.csr_matrix((values, indices, indptr), shape=(len(self.lams), d))
        return Path(
            self.lams,
            coefs,
            self.problem.uncentre(self.intercepts, coefs),
            self.active_sets,
            interpolation=self.interpolation,
            classes=self.problem.classes,
            n_steps=self.n_steps,
            dense_coefs=not sp.issparse(problem.X) or None,
        )
