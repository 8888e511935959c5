"""What a model's answer holds beside its point: multipliers, a polish, its certificate.

Every backend returns a :class:`solvers._problem.Answer`. A primal point
``(coef, intercept)`` is completed here with the model's multipliers where the
estimator reports them (``alpha_``): the 1-norm SVM's from the LP on its margin (004
eq. 6), SVM2's and the squared hinge's from the KKT map ``a = 2 s [1 - y f]_+`` (eq.
7), the hinge SVM's ``C s_i`` inside the margin. An answer whose certificate fails is
polished (:mod:`solvers._polish`: the exact solution on the pattern the backend found)
and the polished point kept when its gap is smaller; a certified answer is never
polished again.
"""

from dataclasses import replace

import numpy as np

from .._losses import SQUARED_HINGE
from .._polish import hinge_intercept, refit_on_support, refit_svm_dual
from ..certificates import _l1_svm_margin_multipliers

__all__ = ["CHEAP_POLISH", "certified", "complete", "polish", "polish_if_cheap"]

#: The largest dense block (entries) a polish after a first-order backend may form.
CHEAP_POLISH = 1_000_000
_SVMS = ("svm", "svm_squared_hinge")


def complete(problem, coef, intercept):
    """The :class:`~solvers._problem.Answer` at ``(coef, intercept)`` with the model's
    multipliers (none for the lasso, ridge and logistic regression)."""
    from .._problem import Answer

    coef, intercept = np.asarray(coef, dtype=float), float(intercept)
    answer = Answer(coef, intercept)
    model, X, y, s = problem.model, problem.X, problem.y, problem.sample_weight
    if model == "l1_svm":
        alpha = _l1_svm_margin_multipliers(X, y, coef, intercept, problem.lam, problem.weights, s)
        if alpha is None:  # not optimal: the certificate will say so
            alpha = problem.sample_weights() * (problem.fitted(answer) * y < 1.0)
        return replace(answer, dual=alpha)
    if model == "svm2":
        return replace(answer, dual=SQUARED_HINGE.dual_point(y, problem.fitted(answer), s))
    if model in _SVMS:
        return replace(
            answer, dual=problem.C * problem.loss.dual_point(y, problem.fitted(answer), s)
        )
    return answer


def polish(problem, answer, *, column_scale=None):
    """The exact optimum on ``answer``'s pattern (None when there is none to solve for).

    The 1-norm SVM: the best intercept for its coefficients; SVM2 and the lasso: the
    stationarity on the support and signs (on the samples inside the margin for SVM2);
    the 2-norm SVMs: the KKT system on the support vectors (``column_scale``: the
    columns scaled as CVXPY saw them), else the best intercept.
    """
    X, y, s = problem.X, problem.y, problem.sample_weight
    if problem.model == "l1_svm":
        offsets = np.asarray(X @ answer.coef).ravel()
        return complete(
            problem, answer.coef, hinge_intercept(offsets, y, squared=False, sample_weight=s)
        )
    if problem.model in ("svm2", "lasso"):
        rows = {"rows": "margin"} if problem.model == "svm2" else {}
        refitted = refit_on_support(
            X, y, answer.coef, answer.intercept, problem.lam, problem.weights,
            sample_weight=s, **rows,
        )  # fmt: skip
        return None if refitted is None else complete(problem, *refitted)
    if problem.model in _SVMS:
        squared = problem.loss.name == "squared_hinge"
        refitted = refit_svm_dual(
            X, y, answer.dual, problem.C, squared=squared, sample_weight=s,
            column_scale=column_scale,
        )  # fmt: skip
        if refitted is None:
            offsets = np.asarray(X @ answer.coef).ravel()
            intercept = hinge_intercept(offsets, y, squared=squared, sample_weight=s)
            return replace(answer, intercept=intercept, value=None)
        alpha, coef, intercept = refitted
        return replace(answer, coef=np.asarray(coef, dtype=float), intercept=float(intercept),
                       dual=alpha, value=None)  # fmt: skip
    return None


def certified(problem, answer, certificate=None, *, column_scale=None):
    """``(certificate, answer)``: the answer's certificate (or the one given); when it
    fails, the polished answer if its gap is smaller."""
    if certificate is None:
        certificate = problem.certificate(answer)
    if certificate.holds:
        return certificate, answer
    polished = polish(problem, answer, column_scale=column_scale)
    if polished is None:
        return certificate, answer
    again = problem.certificate(polished)
    if again.relative_gap < certificate.relative_gap:
        return again, polished
    return certificate, answer


def polish_if_cheap(problem, answer, rows, columns, *, norms=None):
    """Polish a first-order backend's answer when that is cheap: exact where it costs
    little.

    A first-order backend stops at a relative gap of about 1e-7; the exact optimum on
    its pattern is one linear system in ``columns`` unknowns with a dense block of
    ``rows x columns`` entries. When that block has at most :data:`CHEAP_POLISH`
    entries and the system at most ``CHEAP_POLISH / 10``, it is solved and kept when it
    certifies with a smaller gap. A certified answer is kept as it is. ``norms``: the
    column norms of the problem's X, when the caller has them (the certificate's).
    Returns ``(certificate or None, answer)``: None when nothing was certified here.
    """
    small = rows * columns <= CHEAP_POLISH and columns * columns <= CHEAP_POLISH / 10
    if not small:
        return None, answer
    before = problem.certificate(answer, norms=norms)
    if before.holds:  # a certified answer is not polished again
        return before, answer
    polished = polish(problem, answer)
    if polished is None:
        return before, answer
    after = problem.certificate(polished, norms=norms)
    if after.holds and after.relative_gap < before.relative_gap:
        return after, polished
    return before, answer
