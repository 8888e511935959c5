"""The fit of a model declared by its loss: one :class:`solvers._problem.Problem` value.

An estimator on :class:`ProblemModel` declares data only: ``_MODEL`` (the registry's
model) and ``_LOSS`` (a key of :data:`solvers._losses.LOSSES`), with the parameters
``lam``, ``weights`` and (optionally) ``l1_ratio`` of the weighted elastic net
(:class:`solvers._penalty.Penalty`). Its fit validates the input
(:class:`solvers._base.LinearModel`), builds the problem (the features of finite
weight, the sample weights with zeros dropped), runs the planned chain on it and sets
the fitted attributes from the certified answer (:meth:`solvers._problem.Problem.certificate`).
Nothing about the problem lives on the estimator while it is solved; the warm starts
and the compiled CVXPY problem of the last fit do (:meth:`LinearModel._warm_state`).
:class:`solvers.SparseLogisticRegression` is built on it (docs/architecture.md,
"Adding a model").
"""

import warnings

import numpy as np
import scipy.sparse as sp

from ._base import LinearModel, fingerprint, optimal, own_options, signature, weights_or_ones
from ._chain import Outcome
from ._losses import LOSSES
from ._penalty import check_penalty_weights, l1_lam_max
from ._problem import Problem
from .certificates import GAP_TOLERANCE

__all__ = ["LAM_MAX_L1_RATIO", "ProblemModel", "lam_max_estimate", "null_correlations"]

#: lam_max of a penalty whose L1 share is below this is that of this share (glmnet's
#: rule for its grid: the pure 2-norm penalty has no lam at which every coefficient is 0).
LAM_MAX_L1_RATIO = 1e-3
#: The CVXPY formulation (a function of :mod:`solvers.formulations`) of each loss.
_FORMULATIONS = {"logistic": "sparse_logistic_regression"}


class ProblemModel(LinearModel):
    """The fit through a :class:`solvers._problem.Problem`: see the module docstring."""

    def _fit_problem(self, X, y, sample_weight):
        """Build the :class:`solvers._problem.Problem` of (X, y) on the features of
        finite weight, solve it and set the fitted attributes from the answer."""
        weights = check_penalty_weights(self.weights, X.shape[1])
        finite = np.isfinite(weights)
        kept = slice(None) if finite.all() else np.flatnonzero(finite)
        if not finite.any():
            warnings.warn(
                f"every feature's weight is +inf, so {type(self).__name__} keeps no feature: "
                "its model is the constant intercept_ (coef_ all 0).",
                UserWarning,
                stacklevel=4,
            )
            zero = (X.shape[0], 1)
            columns = sp.csc_matrix(zero) if sp.issparse(X) else np.zeros(zero)
            kept_weights = np.ones(1)
        elif finite.all():
            columns, kept_weights = X, weights
        else:
            columns, kept_weights = X[:, kept], weights[kept]
        problem = Problem(
            columns, y, sample_weight, LOSSES[self._LOSS], float(self.lam), kept_weights,
            float(getattr(self, "l1_ratio", 1.0)),
        )  # fmt: skip
        coef, intercept = self._solve(problem)
        self.coef_ = np.zeros(X.shape[1])
        if finite.any():
            self.coef_[kept] = coef
        self.intercept_ = float(intercept)
        self.objective_ = problem.objective(coef, intercept)

    def _solve(self, problem):
        """Run the planned chain on ``problem``; the certified (coef, intercept)."""
        answer = {}
        lam_max = lam_max_estimate(problem)
        hardness = np.log(lam_max / problem.lam) if lam_max > 0 else 0.0
        s = weights_or_ones(problem.sample_weight, problem.y.size)
        key = signature(problem.X, problem.y, s)

        def attempt(step, warm):
            if step.backend == "PROX_NEWTON":
                return self._prox_newton(problem, step.options, warm, key, answer)
            return self._cvxpy(problem, step.backend, step.options, answer)

        def certify():
            return problem.certificate(*answer["point"])

        self._solve_planned(
            self._stats(
                problem.X, hardness, weighted=problem.sample_weight is not None,
                warm=self._has_warm_state(key),
            ),
            attempt,
            certify,
        )
        return answer["point"]

    def _prox_newton(self, problem, options, warm, key, answer):
        from ._logistic_cd import logistic_prox_newton

        result = logistic_prox_newton(
            problem.X, problem.y, problem.lam, problem.weights, l1_ratio=problem.l1_ratio,
            sample_weight=problem.sample_weight, **self._descent_start("PROX_NEWTON", key, warm),
            **own_options(options),
        )  # fmt: skip
        self._keep_descent("PROX_NEWTON", key, result)
        answer["point"] = (result.coef, result.intercept)
        record = {"iterations": result.iterations}
        if not result.converged and result.relative_gap > GAP_TOLERANCE:
            return Outcome(
                "max_iter",
                f"not converged in {result.iterations} working sets (relative duality gap "
                f"{result.relative_gap:.2e})",
                point=answer["point"],
                record=record,
            )
        message = "" if result.converged else f"not converged in {result.iterations} working sets"
        return optimal(message, iterations=result.iterations)

    def _cvxpy(self, problem, name, options, answer):
        """CVXPY's backend ``name`` on the formulation (compiled once per data set: a new
        lam, l1_ratio or weights only sets its Parameters)."""
        from . import formulations
        from ._backends import cvxpy_attempt

        s = problem.sample_weight
        key = (fingerprint(problem.X, problem.y), s is None, problem.loss.name)
        compiled = self.__dict__.get("_problem")
        if compiled is None or self.__dict__.get("_problem_key") != key:
            compiled = getattr(formulations, _FORMULATIONS[problem.loss.name])(
                problem.X, problem.y, problem.lam, problem.l1_ratio, problem.weights,
                sample_weight=s,
            )  # fmt: skip
        parameters = compiled.param_dict
        parameters["lam_w"].value = problem.lam * problem.l1_ratio * problem.weights
        parameters["lam_l2"].value = problem.lam * (1.0 - problem.l1_ratio)
        if s is not None:
            parameters["sample_weight"].value = s
        self._problem, self._problem_key = compiled, key
        outcome = cvxpy_attempt(compiled, name, options)
        if outcome.status == "optimal":
            variables = compiled.var_dict
            answer["point"] = (np.asarray(variables["w"].value), float(variables["b"].value))
            self.problem_ = compiled
        return outcome


def null_correlations(loss, X, y, s):
    """``X'v`` at the best constant model, v the loss's dual point there (``Y a`` with
    ``a = s sigma(-y b)``, b the log-odds, for the logistic loss)."""
    fitted = np.full(y.size, loss.null_intercept(y, s))
    point = loss.dual_point(y, fitted, s)
    return np.asarray(X.T @ (y * point if loss.labels else point)).ravel()


def lam_max_estimate(problem):
    """lam_max from the constant model's correlations (the planner's hardness)."""
    correlations = null_correlations(problem.loss, problem.X, problem.y, problem.sample_weight)
    return l1_lam_max(correlations, problem.weights) / max(problem.l1_ratio, LAM_MAX_L1_RATIO)
