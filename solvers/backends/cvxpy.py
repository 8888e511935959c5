"""Every CVXPY solver (CLARABEL, ECOS, OSQP, SCS, HIGHS, ...) on the problem's formulation.

The formulation of each model is a function of :mod:`solvers.formulations` whose DPP
Parameters carry lam, C, the penalty weights and the sample weights: it is compiled
once per data set and kept in the backend's state, so that a re-fit with new values
only sets the Parameters and re-solves. The answer is read from the solved variables
(and the multipliers from the constraints' duals). Exact transformations keep the
numbers in a range the solvers resolve:

- the L1 models (004 eq. 3, 6, 7) are solved on *equilibrated* columns (unit norms,
  weights divided by them: the same problem), on a working set of features when there
  are many more features than samples (:mod:`solvers.backends._working_sets`);
- the 2-norm SVMs (001 eq. 2): *columns that dwarf the others*
  (:func:`large_column_scale`) are solved in rescaled coordinates (``svm_primal``'s
  ``column_scale``: the dual's Gram matrix would hold entries 1e14 times the others),
  and an *extreme C* (:func:`c_plans`) as the problem with the data scaled by
  ``sqrt(C)`` and C = 1;
- the hinge-type losses are solved on a working set of samples when there are many.

:func:`solvers.backends._cvxpy_solvers.cvxpy_attempt` runs one solver with its time limit and
accuracy options.
"""

import math
from dataclasses import replace

import numpy as np
import scipy.sparse as sp
from sklearn.utils.extmath import row_norms

from sparsify.utils import column_norms

from .. import formulations
from .._chain import Outcome
from .._columns import dominant_columns, large_columns
from .._fingerprint import fingerprint
from .._problem import Answer
from ._answers import certified, polish
from ._working_sets import many_features, on_features, on_samples

__all__ = ["c_plans", "large_column_scale", "row_squares", "run"]

_L1_MODELS = ("l1_svm", "svm2", "lasso")
_SVMS = ("svm", "svm_squared_hinge")
#: ``C`` times the mean squared norm of a sample, outside this range, is extreme: the
#: backends then see the problem with ``C = 1`` and the data scaled by ``sqrt(C)``.
_C_RANGE = (1e-2, 1e4)


def run(problem, options, warm_start, *, name):
    """CVXPY's solver ``name`` on ``problem``: see the module docstring.

    ``warm_start.kept`` holds the compiled formulation of the last run and its working
    sets; the outcome's ``state`` the updated ones.
    """
    state = dict(warm_start.kept or {})

    def solve(part, column_scale=None):
        return _solve(part, name, options, state, column_scale)

    if problem.model in _L1_MODELS:
        outcome = _equilibrated(problem, solve, state)
    elif problem.model in _SVMS:
        outcome = _svm(problem, solve, state)
    else:
        outcome = solve(problem)
    outcome.state = state
    return outcome


def compiled(state):
    """The CVXPY problem a run of this backend solved last (``problem_``)."""
    found = (state or {}).get("compiled")
    return None if found is None else found[1]


def _solve(problem, name, options, state, column_scale):
    """One solve of the formulation of ``problem`` (compiled once per data set)."""
    from ._cvxpy_solvers import cvxpy_attempt  # CVXPY: imported when a CVXPY backend runs

    X, y, s = problem.X, problem.y, problem.sample_weight
    dual = _solves_dual(problem, column_scale)
    structure = (problem.model, problem.form, problem.loss.name, s is None, dual)
    scale_key = None if column_scale is None else fingerprint(column_scale)
    key = (fingerprint(X, y), structure, scale_key)
    kept = state.get("compiled")
    formulation = kept[1] if kept is not None and kept[0] == key else None
    if formulation is None:
        formulation = _build(problem, dual, column_scale)
    for parameter, value in _parameter_values(problem, dual).items():
        formulation.param_dict[parameter].value = value
    # Kept before solving: a retry with another solver on the same data reuses it.
    state["compiled"] = (key, formulation)
    outcome = cvxpy_attempt(formulation, name, options)
    if outcome.status == "optimal":
        outcome.answer = _read(problem, formulation, dual, column_scale)
    return outcome


def _solves_dual(problem, column_scale):
    """The 2-norm SVM's dual on the n x n Gram matrix: always for SVMDual (``form`` is
    ``"dual"``), otherwise when d > n; the primal while a column dominates."""
    if problem.model not in _SVMS:
        return False
    n, d = problem.X.shape
    return column_scale is None and (problem.form == "dual" or d > n)


def _build(problem, dual, column_scale):
    X, y, s, model = problem.X, problem.y, problem.sample_weight, problem.model
    if model == "l1_svm":
        return formulations.l1_svm(X, y, sample_weight=s)
    if model == "svm2":
        return formulations.svm2(X, y, sample_weight=s)
    if model == "lasso":
        return formulations.weighted_lasso(X, y, sample_weight=s)
    if model in _SVMS:
        loss = problem.loss.name
        if dual:
            return formulations.svm_dual(X, y, loss=loss, sample_weight=s)
        return formulations.svm_primal(X, y, loss=loss, sample_weight=s, column_scale=column_scale)
    if model == "ridge":
        if problem.form == "rlsc":
            return formulations.rlsc(X, y, sample_weight=s)
        form = "dual" if X.shape[1] > X.shape[0] else "primal"
        return formulations.ridge(X, y, form=form, sample_weight=s)
    return formulations.sparse_logistic_regression(
        X, y, problem.lam, problem.l1_ratio, problem.weights, sample_weight=s
    )


def _parameter_values(problem, dual):
    """The values of the formulation's DPP Parameters for ``problem``."""
    s, model = problem.sample_weight, problem.model
    weighted = {} if s is None else {"sample_weight": s}
    if model in _L1_MODELS:
        return {"lam_w": problem.lam * problem.weights, **weighted}
    if model in _SVMS:
        C = problem.C
        if dual and problem.loss.name == "squared_hinge":
            return {"inv_2C": 0.5 / C} if s is None else {"inv_2C_s": 0.5 / (C * s)}
        return {"C": C} if s is None else {"C_s": C * s}
    if model == "ridge":
        return {"lam": problem.ridge_lam, **weighted}
    return {
        "lam_w": problem.lam * problem.l1_ratio * problem.weights,
        "lam_l2": problem.lam * (1.0 - problem.l1_ratio),
        **weighted,
    }


def _read(problem, formulation, dual, column_scale):
    """The :class:`~solvers._problem.Answer` of a solved formulation."""
    variables, X = formulation.var_dict, problem.X
    if problem.model == "lasso":
        return Answer(
            np.asarray(variables["beta"].value, dtype=float), float(variables["beta0"].value)
        )
    if problem.model == "ridge":
        if "x" in variables:
            x = np.asarray(variables["x"].value, dtype=float)
            return Answer(np.asarray(X.T @ x).ravel(), 0.0, x)
        return Answer(np.asarray(variables["beta"].value, dtype=float), 0.0)
    if problem.model == "logistic":
        return Answer(np.asarray(variables["w"].value, dtype=float), float(variables["b"].value))
    if dual:
        return _read_dual(problem, formulation)
    if column_scale is not None:
        w = variables["v"].value / column_scale
    else:
        w = (
            variables["w"].value
            if "w" in variables
            else (variables["w_pos"].value - variables["w_neg"].value)
        )
    alpha = np.maximum(np.asarray(formulation.constraints[0].dual_value, dtype=float), 0.0)
    return Answer(np.asarray(w, dtype=float), float(variables["b"].value), alpha)


def _read_dual(problem, formulation):
    """The SVM dual's answer: ``a``, ``w = X'Y a``, b the multiplier of ``y'a = 0`` (KKT of
    the primal/dual pair), and the dual's value (the optimum: evaluating the primal at
    ``w = X'Ya`` would amplify the solver's tolerance on the margins)."""
    X, y, C, s = problem.X, problem.y, problem.C, problem.sample_weights()
    squared = problem.loss.name == "squared_hinge"
    alpha = np.clip(formulation.var_dict["alpha"].value, 0.0, np.inf if squared else C * s)
    coef = np.asarray(X.T @ (y * alpha)).ravel()
    ridge = alpha @ (alpha / s) / (4 * C) if squared else 0.0
    value = float(alpha.sum() - 0.5 * coef @ coef - ridge)
    return Answer(coef, float(formulation.constraints[0].dual_value), alpha, value)


def _equilibrated(problem, solve, state):
    """An L1 model on its columns scaled to unit norm, the answer mapped back.

    With ``c_j = m_j w_j`` the columns ``X_j / m_j`` have unit norm and the weights
    become ``W_j / m_j``: the problem (and its certificate) is the same. The answer is
    certified in those units (polished if needed) before it is mapped back.
    """
    norms = column_norms(problem.X)
    scales = np.where(norms > 0, norms, 1.0)
    unit = problem.with_unit_columns(scales)
    if many_features(unit.X):
        outcome, _ = on_features(unit, solve, state)
    else:
        outcome, _ = on_samples(unit, solve, state)
    if outcome.status == "optimal":
        outcome.answer = replace(outcome.answer, coef=outcome.answer.coef / scales)
    return outcome


def row_squares(X):
    """``||x_i||^2`` for every row of X (scikit-learn's ``row_norms``: one pass, no copy)."""
    return row_norms(X, squared=True)


def c_plans(squares, C, *, hinge, sample_weight=None):
    """The problems to try, in order: ``(s, C_solved)`` with the data scaled by ``sqrt(s)``.

    ``1/2 ||w'||^2 + (C/s) sum_i loss(y_i (sqrt(s) x_i'w' + b))`` is the 2-norm SVM's
    objective divided by s, with ``w = sqrt(s) w'``, the same b and multipliers
    ``a = s a'``. A moderate C (``C`` times the mean squared sample norm in
    ``_C_RANGE``) is solved as it is, so that a re-fit with a new C re-solves the
    compiled problem. An extreme C is solved with s = C: the backends see
    ``a' in [0, 1]`` and objective values of order n. For the hinge with a huge C,
    first the problem at the largest moderate C: when no multiplier reaches that
    bound (separable data, the hard margin), no sample has slack and the solution
    is the same for every larger C (the certificate at C decides). With sample weights
    s the size is that of the boxes ``C s_i``: C times the mean of ``s_i ||x_i||^2``.
    ``squares``: the squared norms of the rows the backends see.
    """
    s = np.ones(squares.size) if sample_weight is None else sample_weight
    size = C * (s @ squares) / squares.size
    if _C_RANGE[0] <= size <= _C_RANGE[1]:
        return [(1.0, C)]
    plans = [(float(C), 1.0)]
    if hinge and size > _C_RANGE[1]:
        plans.insert(0, (1.0, C * _C_RANGE[1] / size))
    return plans


def large_column_scale(norms):
    """Column scales t bringing the large columns to the typical norm, or None.

    For :func:`solvers.formulations.svm_primal`'s ``column_scale``: a column whose norm
    exceeds 1e3 times the lower median norm of the nonzero columns
    (:func:`solvers._columns.large_columns`; a column at 1e6 beside one unit column is
    one) is scaled to that median; the others keep ``t_j = 1``. None when no column is
    that large.
    """
    large, typical = large_columns(norms)
    if large.size == 0:
        return None
    scale = np.ones(norms.size)
    scale[large] = norms[large] / typical
    return scale


def _hard_margin_polish(problem, answer, certificate):
    """A hinge answer whose multipliers all lie far below their boxes, made exact.

    On separable data at a huge C (the hard margin) the multipliers are of the order of
    ``||w||^2``, not of C, and a margin off 1 by the backend's tolerance costs C times
    that shortfall: at C = 1e8 with a column of spread 300 every backend's answer
    failed its certificate. With every ``a_i`` below half its box ``C s_i`` no sample
    has slack, and the solution is that of the unweighted problem at
    ``C' = 2 max_i a_i`` (the weights only bound the multipliers). Two candidates are
    certified at C, the better kept: the polish at C'
    (:func:`solvers.backends._answers.polish`, which at C, or with weights over
    decades, would count a multiplier as free only above 1e-6 of its box), and each of
    it and the answer divided by its smallest margin m when ``m > 0``: ``(w/m, b/m)``
    meets every margin constraint, at ``1/m^2`` times ``||w||^2 / 2`` (less when the
    backend stopped with every margin above 1). The polish reads the support vectors
    off the multipliers, where an interior-point backend leaves others at 1e-4 of the
    largest: it is tried on each pattern of `_support_patterns`.
    """
    s = problem.sample_weights()
    top = float(answer.dual.max(initial=0.0))
    if top == 0.0 or np.any(answer.dual >= 0.5 * problem.C * s):
        return certificate, answer
    unweighted = replace(problem, lam=0.5 / top, sample_weight=None)
    best = (certificate, answer)
    for candidate in (answer, *_support_patterns(answer)):
        if candidate is not answer:
            candidate = polish(unweighted, candidate)
        if candidate is None:
            continue
        smallest = float(np.min((problem.y * problem.fitted(candidate))[s > 0]))
        if smallest > 0.0:
            candidate = replace(
                candidate, coef=candidate.coef / smallest,
                intercept=candidate.intercept / smallest, value=None,
            )  # fmt: skip
        again = problem.certificate(candidate)
        if again.relative_gap < best[0].relative_gap:
            best = (again, candidate)
    return best


def _support_patterns(answer, count=3):
    """The answer with its multipliers below each of the ``count`` largest jumps of their
    sorted values set to 0: the candidate sets of support vectors (a jump of 360 from
    0.71 to 2e-3 separates the six of a hard margin from a backend's residue)."""
    values = np.sort(answer.dual[answer.dual > 0])[::-1]
    jumps = values[:-1] / values[1:]
    for cut in values[np.argsort(-jumps, kind="stable")[:count]]:
        yield replace(answer, dual=np.where(answer.dual >= cut, answer.dual, 0.0), value=None)


def _svm(problem, solve, state):
    """A 2-norm SVM with the dominant columns and an extreme C scaled out.

    Each C plan (:func:`c_plans`) is solved on the data scaled by ``sqrt(s)``; its
    answer is mapped back and certified at C. The outcome says what failed, with what
    to try when columns dwarf the others.
    """
    X, C = problem.X, problem.C
    norms = column_norms(X)
    dominant = dominant_columns(X, squares=norms * norms)
    column_scale = large_column_scale(norms) if dominant.size else None
    if column_scale is None:
        seen = row_squares(X)
    elif sp.issparse(X):
        seen = row_squares(X @ sp.diags(1.0 / column_scale))
    else:
        seen = row_squares(X / column_scale)
    squared = problem.loss.name == "squared_hinge"
    plans = c_plans(seen, C, hinge=not squared, sample_weight=problem.sample_weight)
    outcome = None
    for scale, C_solved in plans:
        scaled = replace(problem, X=X if scale == 1.0 else X * math.sqrt(scale), lam=1.0 / C_solved)
        outcome, _ = on_samples(
            scaled, lambda part: solve(part, column_scale), state, column_scale=column_scale
        )
        if outcome.status != "optimal" or (scale, C_solved) == (1.0, C):
            continue
        found = outcome.answer
        boxes = C_solved * problem.sample_weights()
        if scale == 1.0 and np.any(found.dual >= (1 - 1e-6) * boxes):
            continue  # a multiplier at the smaller bound: not the solution at C
        answer = Answer(math.sqrt(scale) * found.coef, found.intercept, scale * found.dual)
        certificate, answer = certified(problem, answer)
        # Polished also where the certificate holds only by its rounding floor (a gap
        # above the tolerance times the optimum): at C = 1e8 with weights over six
        # decades the floor, 1.4e-8 of the null objective, is 70 times the optimum.
        bound = certificate.tolerance * max(abs(certificate.primal), abs(certificate.dual))
        if not squared and certificate.gap > bound:
            certificate, answer = _hard_margin_polish(problem, answer, certificate)
        if certificate.holds:
            outcome.answer = answer
            break
        outcome = Outcome(
            "uncertified",
            f"the solution of the problem scaled for C={C:g} does not certify on the "
            f"original one: {certificate}",
        )
    if outcome.status != "optimal" and column_scale is not None:
        large = np.flatnonzero(column_scale != 1.0)
        outcome.message += (
            f". X has columns whose norms dwarf the others (indices {large[:10].tolist()}): "
            "the 2-norm penalty is not invariant to column scaling, and the backends could "
            "not resolve both scales. Standardise X (e.g. sklearn.preprocessing.StandardScaler) "
            "or use loss='squared_hinge', whose Newton backend handles them."
        )
    return outcome
