"""CVXPY's backends on a growing set of samples, for the hinge-type losses (Vapnik's chunking).

Only the samples inside the margin (``y_i f_i < 1``) and on it carry a loss or a
multiplier; the others can be left out without changing the solution. The
formulation is solved on a subset (certified on that subset) and its multipliers are
extended by zeros; while a sample outside the subset has a margin below 1, every
such sample is added (all of them, once the subset would exceed half the data).
Then the zeros are the full problem's multipliers too, so ``alpha_``, ``support_``
and the dual objective are the full problem's, and the solution is certified on
every sample. A re-fit on the same data starts from the last subset.
"""

import numpy as np

from ._base import fingerprint, optimal, weights_or_ones
from ._chain import Outcome
from ._subsets import balanced_subset

__all__ = ["cvxpy_on_samples", "many_samples", "restricted_outcome"]

#: Working sets of samples are used with at least this many samples, more than ten
#: per feature; the first set has max(this / 2, 10 d) samples.
_WS_MIN_SAMPLES = 2000
#: Once a working set would hold more than this fraction of the samples, it holds all.
_WS_FULL_FRACTION = 0.5
#: Rounds of the loop before it gives up.
_WS_MAX_ROUNDS = 30


def many_samples(X):
    """Whether a hinge-type model is solved by CVXPY on a working set of samples."""
    n, d = X.shape
    return n >= _WS_MIN_SAMPLES and n > 10 * d


def cvxpy_on_samples(estimator, X, y, name, options):
    """CVXPY's backend ``name`` on (X, y) for ``estimator``, on a working set of samples
    when its loss is hinge-type (``estimator._SAMPLE_WORKING_SET``) and there are many
    samples; the outcome is optimal only when the answer certifies on all of X.

    The backend runs as :meth:`solvers._base.LinearModel._cvxpy_attempt` (any backend
    of the estimator's formulation); the full problem's attributes are then set from
    the multipliers of every sample (0 outside the subset) by ``_lift_samples(X, y,
    alpha)`` of the estimator's family.
    """
    if not (estimator._SAMPLE_WORKING_SET and many_samples(X)):
        outcome = estimator._cvxpy_attempt(X, y, estimator._sample_weight, name, options)
        if outcome.status == "optimal":
            estimator._certify(X, y)  # polished here, in the units the backend saw
        return outcome
    n, d = X.shape
    weights = estimator._sample_weight
    key = fingerprint(X, y, weights_or_ones(estimator._sample_weight, n))
    working = estimator._warm_state("SAMPLES", key)
    if working is None:
        working = balanced_subset(y, max(_WS_MIN_SAMPLES // 2, 10 * d))
    for _ in range(_WS_MAX_ROUNDS):
        subset = X[working], y[working]
        part = None if weights is None else weights[working]
        estimator._sample_weight = part
        try:
            outcome = estimator._cvxpy_attempt(*subset, part, name, options)
            if outcome.status == "optimal":
                outcome = restricted_outcome(estimator, *subset, "samples")
        finally:
            estimator._sample_weight = weights
        if outcome.status != "optimal":
            return outcome
        alpha = np.zeros(n)
        alpha[working] = estimator.alpha_
        estimator._lift_samples(X, y, alpha)
        margins = y * (np.asarray(X @ estimator.coef_).ravel() + estimator.intercept_)
        outside = np.ones(n, dtype=bool)
        outside[working] = False
        violators = np.flatnonzero(outside & (margins < 1.0))
        if violators.size == 0:
            # Every sample left out has margin >= 1, so its multiplier 0 is the full
            # problem's and the subset's multipliers are the rest of the full dual
            # solution. (A certified w alone is not enough: the multipliers of
            # samples inside the margin would be missing from alpha_.)
            break
        if working.size + violators.size > _WS_FULL_FRACTION * n:
            working = np.arange(n)  # most samples matter: the full problem at once
        else:
            working = np.union1d(working, violators)
    estimator._keep_warm_state("SAMPLES", key, working)
    estimator._certify(X, y)  # polished here, in the units the backend saw
    return optimal(f"on a working set of {working.size} of {n} samples")


def restricted_outcome(estimator, X, y, what):
    """Optimal when the fitted attributes of ``estimator`` certify on the working set
    (X, y) of ``what`` (polished if needed): only then does the set grow from them."""
    certificate = estimator._certify(X, y)
    if certificate.holds:
        return optimal()
    return Outcome("uncertified", f"on the working set of {what}: {certificate}")
