"""Working sets of samples and of features around any backend of the hinge and L1 models.

*Samples* (Vapnik's chunking), for the hinge-type losses with many samples: only the
samples inside the margin (``y_i f_i < 1``) and on it carry a loss or a multiplier,
so the problem is solved on a subset (certified on that subset), its multipliers
extended by zeros, and while a sample outside the subset has a margin below 1, every
such sample joins (all of them once the subset would exceed half the data). Then the
zeros are the full problem's multipliers too, and the answer is certified on every
sample.

*Features* (the outer loop of skglm, celer and Blitz), for the L1 models with many more
features than samples: start from the features most correlated with the residual at
the zero solution (and every unpenalised one, and the last run's set on the same
data); solve on them; extend by zeros; while a feature outside the set violates its
dual constraint ``|X_j'v| <= lam W_j``, the most violating join, as many as the set
holds.

Each loop calls ``solve(problem) -> Outcome`` on the restricted problems and keeps its
last set in the backend's state (``state["samples"]``, ``state["features"]``, with
the data's fingerprint) for a re-run on the same data.
"""

from dataclasses import replace

import numpy as np

from .._chain import Outcome
from .._fingerprint import fingerprint
from .._subsets import balanced_subset
from ._answers import certified, complete

__all__ = ["many_features", "many_samples", "on_features", "on_samples"]

#: Working sets of samples are used with at least this many samples, more than ten
#: per feature; the first set has max(this / 2, 10 d) samples.
_WS_MIN_SAMPLES = 2000
#: Once a working set of samples would hold more than this fraction of them, it holds all.
_WS_FULL_FRACTION = 0.5
#: Working sets of features are used with at least this many features and more than
#: twice as many features as samples.
_WS_MIN_FEATURES = 500
#: The first working set of features holds at least this many (n / 2 if more).
_WS_FIRST_FEATURES = 100
#: Relative excess ``|X_j'v| / (lam W_j) - 1`` above which a feature outside the
#: working set violates its dual constraint.
_WS_VIOLATION = 1e-9
#: Rounds of a working-set loop before it gives up.
WS_MAX_ROUNDS = 30
_HINGES = ("hinge", "squared_hinge")


def many_samples(X):
    """Whether a hinge-type model is solved on a working set of samples."""
    n, d = X.shape
    return n >= _WS_MIN_SAMPLES and n > 10 * d


def many_features(X):
    """Whether an L1 model is solved on a working set of features."""
    n, d = X.shape
    return d >= _WS_MIN_FEATURES and d > 2 * n


def on_samples(problem, solve, state, *, column_scale=None):
    """``solve`` on ``problem``, on a working set of samples when its loss is
    hinge-type and it has many; ``(outcome, certificate)``, the answer certified on
    every sample (polished if needed; ``column_scale``: the columns as CVXPY saw them).
    """
    if not (problem.loss.name in _HINGES and many_samples(problem.X)):
        outcome = solve(problem)
        if outcome.status != "optimal":
            return outcome, None
        certificate, outcome.answer = certified(problem, outcome.answer, column_scale=column_scale)
        return outcome, certificate
    X, y = problem.X, problem.y
    n, d = X.shape
    key = fingerprint(X, y, problem.sample_weights())
    kept = state.get("samples")
    working = kept[1] if kept is not None and kept[0] == key else None
    if working is None:
        working = balanced_subset(y, max(_WS_MIN_SAMPLES // 2, 10 * d))
    for _ in range(WS_MAX_ROUNDS):
        part = problem.restricted(rows=working)
        outcome = solve(part)
        if outcome.status != "optimal":
            return outcome, None
        certificate, found = certified(part, outcome.answer, column_scale=column_scale)
        if not certificate.holds:
            return Outcome("uncertified", f"on the working set of samples: {certificate}"), None
        alpha = np.zeros(n)
        alpha[working] = found.dual
        answer = replace(found, dual=alpha)
        margins = y * problem.fitted(answer)
        outside = np.ones(n, dtype=bool)
        outside[working] = False
        violators = np.flatnonzero(outside & (margins < 1.0))
        if violators.size == 0:
            # Every sample left out has margin >= 1, so its multiplier 0 is the full
            # problem's, and the subset's multipliers are the rest of the full dual
            # solution (a certified w alone is not enough: the multipliers of samples
            # inside the margin would be missing).
            break
        if working.size + violators.size > _WS_FULL_FRACTION * n:
            working = np.arange(n)  # most samples matter: the full problem at once
        else:
            working = np.union1d(working, violators)
    state["samples"] = (key, working)
    certificate, answer = certified(problem, answer, column_scale=column_scale)
    message = f"on a working set of {working.size} of {n} samples"
    return Outcome("optimal", message, answer), certificate


def on_features(problem, solve, state):
    """``solve`` on a growing set of features of ``problem`` (an L1 model) until no
    feature outside it violates its dual constraint; ``(outcome, certificate)``, the
    answer certified on every feature (polished if needed)."""
    X, y, weights = problem.X, problem.y, problem.weights
    n, d = X.shape
    s = problem.sample_weights()
    key = fingerprint(X, y, s)
    kept = state.get("features")
    working = kept[1] if kept is not None and kept[0] == key else None
    if working is None:
        scores = np.abs(np.asarray(X.T @ (s * (y - np.average(y, weights=s)))).ravel())
        with np.errstate(divide="ignore"):
            scores = np.where(weights > 0, scores / weights, np.inf)
        size = min(d, max(_WS_FIRST_FEATURES, n // 2))
        working = np.sort(np.argsort(-scores, kind="stable")[:size])
    working = np.union1d(working, np.flatnonzero(weights == 0))
    for _ in range(WS_MAX_ROUNDS):
        part = problem.restricted(columns=working)
        outcome, certificate = on_samples(part, solve, state)
        if outcome.status != "optimal":
            return outcome, None
        if not certificate.holds:
            return Outcome("uncertified", f"on the working set of features: {certificate}"), None
        coef = np.zeros(d)
        coef[working] = outcome.answer.coef
        if problem.model == "l1_svm":
            # The multipliers of the restricted LP are a dual point of the full one
            # (same samples): kept rather than the margin LP solved on every feature.
            answer = replace(outcome.answer, coef=coef)
            vector = y * answer.dual
        else:
            answer = complete(problem, coef, outcome.answer.intercept)
            point = problem.loss.dual_point(y, problem.fitted(answer), problem.sample_weight)
            vector = y * point if problem.loss.labels else point
        correlations = np.abs(np.asarray(X.T @ vector).ravel())
        with np.errstate(divide="ignore", invalid="ignore"):
            excess = correlations / (problem.lam * weights) - 1.0
        excess[working] = -np.inf
        violators = np.flatnonzero(excess > _WS_VIOLATION)
        if violators.size == 0:
            break
        violators = violators[np.argsort(-excess[violators], kind="stable")]
        working = np.union1d(working, violators[: max(working.size, 10)])
    state["features"] = (key, working)
    certificate, answer = certified(problem, answer)
    return Outcome(
        "optimal", f"on a working set of {working.size} of {d} features", answer
    ), certificate
