"""What every CVXPY-backed estimator shares: backends, the compiled-problem cache, labels.

An estimator builds its problem with a function of :mod:`solvers.formulations`,
solves it through the fallback chain of :mod:`solvers._backends`, and keeps it as
``problem_``. Fitting again on the same data with new values of the DPP parameters
(``C``, ``lam``, ``weights``) only updates the ``cvxpy.Parameter`` values and
re-solves: CVXPY reuses its compiled problem and skips canonicalisation. Anything
else (new data, a structural hyperparameter such as ``loss``) rebuilds it.

``problem_`` holds the training data and CVXPY's compiled form, so it is not pickled
(``__getstate__`` drops it); the next ``fit`` rebuilds it.
"""

import hashlib
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ._backends import solve_with_fallback

#: Parameter constraints shared by every estimator: a backend name or a list, and options.
BACKEND_CONSTRAINTS = {"solver": [None, str, list, tuple], "solver_options": [None, dict]}
POSITIVE = Interval(Real, 0, None, closed="neither")
NONNEGATIVE = Interval(Real, 0, None, closed="left")

_ACCEPT_SPARSE = ["csr", "csc"]


def _fingerprint(*arrays):
    """A digest of the training data, to tell whether a cached problem still applies."""
    digest = hashlib.blake2b(digest_size=16)
    for a in arrays:
        parts = (a.data, a.indices, a.indptr) if sp.issparse(a) else (np.ascontiguousarray(a),)
        digest.update(repr((a.shape, getattr(a, "format", "dense"))).encode())
        for part in parts:
            digest.update(np.ascontiguousarray(part).view(np.uint8))
    return digest.hexdigest()


def check_weights(weights, n_features):
    """Penalty weights: None (all ones) or a finite nonnegative array of length n_features."""
    if weights is None:
        return np.ones(n_features)
    w = np.asarray(weights, dtype=float)
    if w.shape != (n_features,):
        raise ValueError(
            f"weights must have shape ({n_features},), one per feature of X; got shape {w.shape}."
        )
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("weights must be finite and nonnegative.")
    return w


class CvxpyEstimator(BaseEstimator):
    """Base of the estimators: solve a formulation with a backend chain, cache it for re-solves.

    Subclasses set ``_problem_class`` ("LP", "QP" or "SOCP"), ``_dpp_params`` (names of
    the hyperparameters that only change Parameter values) and implement
    ``_build_problem(X, y)`` and ``_parameter_values(X, y) -> {parameter name: value}``.
    """

    _problem_class = "QP"
    _dpp_params = ()

    def _solve(self, X, y):
        """Build (or reuse) the problem for (X, y), set its parameters, solve it."""
        structure = {
            k: v
            for k, v in self.get_params(deep=False).items()
            if k not in self._dpp_params and k not in ("solver", "solver_options")
        }
        key = (_fingerprint(X, y), repr(sorted(structure.items())))
        problem = self.__dict__.get("_problem")
        if problem is None or self.__dict__.get("_problem_key") != key:
            problem = self._build_problem(X, y)
        for name, value in self._parameter_values(X, y).items():
            problem.param_dict[name].value = value
        # Cached before solving: after a SolverError, a retry with another backend on the
        # same data reuses the compiled problem. Exposed as problem_ once solved.
        self._problem, self._problem_key = problem, key
        self.backend_, self.solve_attempts_ = solve_with_fallback(
            problem, self.solver, self.solver_options, self._problem_class
        )
        self.problem_ = problem
        return problem

    def _linear_response(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64, reset=False)
        return np.asarray(X @ self.coef_).ravel() + self.intercept_

    def __getstate__(self):
        state = super().__getstate__()
        for name in ("problem_", "_problem", "_problem_key"):
            state.pop(name, None)
        return state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class BinaryLinearClassifier(ClassifierMixin, CvxpyEstimator):
    """Labels: any two values, mapped to -1/+1 for the solver and back in ``predict``.

    Subclasses implement ``_fit_pm(X, y_pm)`` (y_pm in {-1, +1}) setting ``coef_`` and
    ``intercept_``.
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on X (n_samples, n_features; dense, CSR or CSC) and two-class labels y.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        self.classes_ = np.unique(y)
        if y_type != "binary" or self.classes_.size != 2:
            raise ValueError(
                "Only binary classification is supported: y must hold exactly two classes; "
                f"got {self.classes_.size} class(es): {self.classes_[:10]}."
            )
        self._fit_pm(X, np.where(y == self.classes_[1], 1.0, -1.0))
        return self

    def decision_function(self, X):
        """``X coef_ + intercept_``; a positive value means ``classes_[1]``."""
        return self._linear_response(X)

    def predict(self, X):
        """The class of each row of X (one of ``classes_``)."""
        positive = self.decision_function(X) > 0  # checks that self is fitted
        return self.classes_[positive.astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class LinearRegressor(RegressorMixin, CvxpyEstimator):
    """Real-valued targets; subclasses implement ``_fit_xy(X, y)`` setting coef_, intercept_."""

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on X (n_samples, n_features; dense, CSR or CSC) and real targets y.

        Returns
        -------
        self
        """
        X, y = validate_data(
            self, X, y, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64, y_numeric=True
        )
        self._fit_xy(X, y)
        return self

    def predict(self, X):
        """``X coef_ + intercept_``."""
        return self._linear_response(X)


class WeightedL1Penalty:
    """Hyperparameters of the penalty ``lam sum_j weights_j |w_j|`` (004 eq. 3-7).

    Mixed into the estimators whose formulation takes the penalty as the one DPP
    Parameter ``lam_w = lam * weights`` (a re-fit with a new lam or new weights
    re-solves the compiled problem).
    """

    _parameter_constraints = {
        "lam": [POSITIVE],
        "weights": ["array-like", None],
        **BACKEND_CONSTRAINTS,
    }
    _dpp_params = ("lam", "weights")

    def __init__(self, lam=1.0, *, weights=None, solver=None, solver_options=None):
        self.lam = lam
        self.weights = weights
        self.solver = solver
        self.solver_options = solver_options

    def _penalty_weights(self, X, y):
        return check_weights(self.weights, X.shape[1])

    def _parameter_values(self, X, y):
        return {"lam_w": self.lam * self._penalty_weights(X, y)}

