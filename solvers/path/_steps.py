"""Bookkeeping shared by the homotopy loops: breakpoint recording, step sizes, stop warnings."""

import warnings

import numpy as np

from ..exceptions import PathWarning
from ._path import Path


def steps_to_zero(slack, rate):
    """Step sizes at which nonnegative slacks shrinking at ``rate`` per unit step reach zero.

    Only slacks that shrink (``rate > 0``) can reach zero; the others get
    ``inf``. Slacks that rounding made slightly negative count as zero, so an
    event is triggered by the direction of motion, never by the sign of noise.
    """
    steps = np.full(slack.shape, np.inf)
    np.divide(np.maximum(slack, 0.0), rate, out=steps, where=rate > 0)
    return steps


class PathRecorder:
    """Collects breakpoints in decreasing lam and builds the `Path`.

    Breakpoints never repeat a lam. A new one within ``lam_tolerance`` of the
    previous lam merges with it: on a linear path the later state replaces the
    earlier (simultaneous events); on a constant path (the 1-norm SVM, where
    equal lams mean consecutive segments of the same slope) the earlier,
    smaller-norm knot is kept, as `Path` requires, and the active sets are joined.
    """

    def __init__(self, problem, *, interpolation, lam_tolerance):
        self.problem = problem
        self.interpolation = interpolation
        self.lam_tolerance = lam_tolerance
        self.lams, self.coefs, self.intercepts, self.active_sets = [], [], [], []

    def record(self, lam, coef, intercept, active):
        lam = max(lam, 0.0)
        if self.lams and self.lams[-1] - lam <= self.lam_tolerance:
            if self.interpolation == "constant":
                self.active_sets[-1] = np.union1d(self.active_sets[-1], active).astype(np.intp)
                return
            self.lams.pop(), self.coefs.pop(), self.intercepts.pop(), self.active_sets.pop()
        self.lams.append(lam)
        self.coefs.append(np.array(coef, dtype=np.float64))
        self.intercepts.append(float(intercept))
        self.active_sets.append(np.sort(np.asarray(active, dtype=np.intp)))

    def stop(self, reason, lam):
        """Warn that the path ends early at ``lam`` and why."""
        warnings.warn(
            f"path stopped at lam={lam:.6g} (lam_max={self.lams[0]:.6g}): {reason}. "
            "Path.at is exact down to lams[-1]; below it the path is unknown.",
            PathWarning,
            stacklevel=4,
        )

    def path(self):
        coefs = self.problem.unscale(np.array(self.coefs))
        return Path(
            self.lams,
            coefs,
            self.intercepts,
            self.active_sets,
            interpolation=self.interpolation,
            classes=self.problem.classes,
        )
