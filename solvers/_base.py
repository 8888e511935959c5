"""What every CVXPY-backed estimator shares: backends, the compiled-problem cache, labels.

An estimator builds its problem with a function of :mod:`solvers.formulations`,
solves it through the fallback chain of :mod:`solvers._backends`, and keeps it as
``problem_``. Fitting again on the same data with new values of the DPP parameters
(``C``, ``lam``, ``weights``) only updates the ``cvxpy.Parameter`` values and
re-solves: CVXPY reuses its compiled problem and skips canonicalisation. Anything
else (new data, a structural hyperparameter such as ``loss``) rebuilds it.

``problem_`` holds the training data and CVXPY's compiled form, so it is not pickled
(``__getstate__`` drops it); the next ``fit`` rebuilds it.

``fit(X, y, sample_weight=None)``: a weight ``s_i >= 0`` multiplies sample i's loss
term (docs/solvers.md, "Sample weights"); the classifiers' ``class_weight`` multiplies
the weights of each class, as in scikit-learn's SVC. Samples of weight 0 are dropped
before solving (the same problem: their loss counts for nothing, their multipliers
are 0), so every solver below sees weights > 0, in ``self._sample_weight`` (None when
every weight is 1: the unweighted problem, built as without weights). The weights are
Parameter values of the formulation: a re-fit with new weights (on the same samples
of positive weight) re-solves the compiled problem.
"""

import functools
import hashlib
import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context, clone
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from sparsify.utils import signed_labels

from ._active_set import solve_active_set
from ._backends import DEFAULT_BACKENDS, solve_with_fallback
from ._columns import centre_offset_columns
from ._penalty import check_penalty_weights
from .exceptions import PathWarning, SolverError

#: Parameter constraints shared by every estimator: a backend name or a list, and options.
BACKEND_CONSTRAINTS = {"solver": [None, str, list, tuple], "solver_options": [None, dict]}
POSITIVE = Interval(Real, 0, None, closed="neither")
NONNEGATIVE = Interval(Real, 0, None, closed="left")

_ACCEPT_SPARSE = ["csr", "csc"]
#: ``class_weight`` of the classifiers, as scikit-learn's SVC takes it.
CLASS_WEIGHT_CONSTRAINTS = {"class_weight": [StrOptions({"balanced"}), dict, None]}
#: Fitted attributes with one entry per training sample (0 for a dropped sample).
_PER_SAMPLE = ("alpha_", "dual_coef_")
#: Fitted attributes of one binary problem, gathered over the K problems of a
#: one-vs-rest fit (``BinaryLinearClassifier._gather``).
_PER_PROBLEM = (
    "certificate_",
    "dual_gap_",
    "backend_",
    "solve_attempts_",
    "problem_",
    "objective_",
    "margin_",
    *_PER_SAMPLE,
    "support_",
)


def _fingerprint(*arrays):
    """A digest of the training data, to tell whether a cached problem still applies."""
    digest = hashlib.blake2b(digest_size=16)
    for a in arrays:
        parts = (a.data, a.indices, a.indptr) if sp.issparse(a) else (np.ascontiguousarray(a),)
        digest.update(repr((a.shape, getattr(a, "format", "dense"))).encode())
        for part in parts:
            digest.update(np.ascontiguousarray(part).view(np.uint8))
    return digest.hexdigest()


class CvxpyEstimator(BaseEstimator):
    """Base of the estimators: solve a formulation with a backend chain, cache it for re-solves.

    Subclasses set ``_problem_class`` ("LP", "QP" or "SOCP"), ``_dpp_params`` (names of
    the hyperparameters that only change Parameter values) and implement
    ``_build_problem(X, y)``, ``_parameter_values(X, y) -> {parameter name: value}``,
    ``_read_solution(problem, X, y)`` (set the fitted attributes from a solved
    problem) and ``_certificate(X, y)`` (a :class:`solvers.certificates.Certificate`
    of the fitted attributes, computed by NumPy from the data), and optionally
    ``_polish(X, y)``.
    """

    _problem_class = "QP"
    _dpp_params = ()
    #: The sample weights of the problem being solved, set during ``fit`` (None: all 1).
    _sample_weight = None

    def _solve(self, X, y):
        """Solve the problem for (X, y) with the backend chain; set the fitted attributes.

        Builds the problem (or reuses the compiled one when only DPP parameters
        changed), sets its parameters, and runs the chain: after each "optimal"
        attempt, ``_read_solution(problem, X, y)`` sets the fitted attributes and
        ``_certify(X, y)`` checks them; the first certified attempt wins. Sets
        ``backend_``, ``solve_attempts_``, ``certificate_``, ``dual_gap_`` and
        ``problem_`` (when a CVXPY backend solved it).
        """
        structure = {
            k: v
            for k, v in self.get_params(deep=False).items()
            if k not in self._dpp_params and k not in ("solver", "solver_options")
        }
        # Weighted or not is structure (the weights themselves are Parameter values).
        structure["weighted"] = self._weighted
        built = {}

        def problem():
            # The data's digest is an O(n d) pass: only taken when a CVXPY backend runs.
            key = (_fingerprint(X, y), repr(sorted(structure.items())))
            cached = self.__dict__.get("_problem")
            if cached is None or self.__dict__.get("_problem_key") != key:
                cached = self._build_problem(X, y)
            for name, value in self._parameter_values(X, y).items():
                cached.param_dict[name].value = value
            # Cached before solving: after a SolverError, a retry with another backend
            # on the same data reuses the compiled problem.
            self._problem, self._problem_key = cached, key
            built["problem"] = cached
            return cached

        extra = self._extra_backends(X, y)

        def certify(backend):
            if backend not in extra:  # a CVXPY backend: read its solution first
                self._read_solution(built["problem"], X, y)
            return self._certify(X, y)

        self.backend_, self.solve_attempts_ = solve_with_fallback(
            problem,
            self._chain(X),
            self.solver_options,
            self._problem_class,
            certify=certify,
            extra_backends=extra,
        )
        self.certificate_ = self.solve_attempts_[-1]["certificate"]
        self.dual_gap_ = self.certificate_.relative_gap
        if self.backend_ in extra:
            self.__dict__.pop("problem_", None)
        else:
            self.problem_ = built["problem"]

    @property
    def _weighted(self):
        """Whether the problem being solved has sample weights (other than all ones)."""
        return self._sample_weight is not None

    def _weights_or_ones(self, n):
        """The sample weights of the problem being solved (ones when unweighted)."""
        return np.ones(n) if self._sample_weight is None else self._sample_weight

    def _fit_weighted(self, X, y, sample_weight, fit):
        """``fit(X, y)`` with ``self._sample_weight`` set, the samples of weight 0 dropped.

        The per-sample attributes (``alpha_``, ``dual_coef_``) get a 0 for each dropped
        sample and ``support_`` indexes the rows of X.
        """
        n = X.shape[0]
        if sample_weight is None or np.all(sample_weight == 1.0):
            kept, self._sample_weight = None, None
        else:
            kept = np.flatnonzero(sample_weight > 0)
            if kept.size < X.shape[0]:
                X, y, sample_weight = X[kept], y[kept], sample_weight[kept]
            else:
                kept = None
            self._sample_weight = sample_weight
        try:
            fit(X, y)
        finally:
            del self._sample_weight
        if kept is None:
            return
        for name in _PER_SAMPLE:
            if name in self.__dict__:
                full = np.zeros(n)
                full[kept] = self.__dict__[name]
                setattr(self, name, full)
        if "support_" in self.__dict__:
            self.support_ = kept[self.support_]

    def _extra_backends(self, X, y):
        """Backends besides CVXPY's (name -> callable setting the fitted attributes)."""
        return {}

    def _chain(self, X):
        """The ``solver`` argument of the chain: the user's, or None for the defaults."""
        return self.solver

    def _finish_working_set(self, certificate, size):
        """Record the full problem's certificate; SolverError if it does not hold."""
        self.certificate_, self.dual_gap_ = certificate, certificate.relative_gap
        if not certificate.holds:
            raise SolverError(
                f"the working-set solve ({size}) ended without a certified optimum of the "
                f"full problem: {certificate}. Try solver='homotopy' or a larger lam.",
                self.solve_attempts_,
            )

    def _certify(self, X, y, certificate=None):
        """The certificate of the fitted attributes; polished first if the backend's fails.

        ``_certificate(X, y)`` certifies the fitted attributes (unless ``certificate``,
        theirs, is given); when it fails and the estimator has ``_polish(X, y)`` (the
        exact solution on the pattern the backend found, :mod:`solvers._polish`), the
        polished point is kept if its gap is smaller, the backend's point otherwise.
        """
        if certificate is None:
            certificate = self._certificate(X, y)
        if certificate.holds or not hasattr(self, "_polish"):
            return certificate
        saved = {k: v for k, v in self.__dict__.items() if k.endswith("_") and k[0] != "_"}
        self._polish(X, y)
        polished = self._certificate(X, y)
        if polished.relative_gap < certificate.relative_gap:
            return polished
        self.__dict__.update(saved)
        return certificate

    def _linear_response(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64, reset=False)
        return np.asarray(X @ self.coef_).ravel() + self.intercept_

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: pickling must not strip self
        for name in ("problem_", "_problem", "_problem_key"):
            state.pop(name, None)
        return state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class BinaryLinearClassifier(ClassifierMixin, CvxpyEstimator):
    """Labels: two classes mapped to -1/+1 for the solver; more classes one-vs-rest.

    Subclasses implement ``_fit_pm(X, y_pm)`` (y_pm in {-1, +1}) setting ``coef_`` (1-D)
    and ``intercept_`` (a float) of the binary problem; ``fit`` then gives them
    scikit-learn's shapes, ``coef_`` (1, n_features) and ``intercept_`` (1,).

    With K > 2 classes (when ``_one_vs_rest``), class k against the rest is a binary
    problem fitted by a clone (labels 1 for class k, 0 for the rest), as scikit-learn's
    ``LinearSVC`` and ``OneVsRestClassifier`` do: ``estimators_`` holds the K fits,
    ``coef_`` (K, n_features) and ``intercept_`` (K,) stack theirs, and each attribute of
    a binary problem is gathered over the K problems (``_gather``). ``class_weight``
    applies to the original classes: it multiplies the sample weights once, and the
    clones see those weights with ``class_weight=None``.
    """

    #: Whether more than two classes are fitted one-vs-rest (else a ValueError).
    _one_vs_rest = True

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit on X (n_samples, n_features; dense, CSR or CSC) and class labels y.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The training data.
        y : array-like of shape (n_samples,)
            Two classes, or more (one-vs-rest, see the class docstring).
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss term (default 1); an integer weight
            is the same as repeating the row, 0 the same as dropping it. Multiplied by
            ``class_weight``.

        Returns
        -------
        object
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            y holds fewer than two classes (or more than two for an estimator that is
            binary only); sample_weight has the wrong length, a negative, NaN or
            infinite entry, is all 0, or leaves a class with no positive weight.
        """
        X, y = validate_data(self, X, y, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2 or y_type not in ("binary", "multiclass"):
            raise ValueError(
                "y must hold at least two classes; "
                f"got {self.classes_.size} class(es): {self.classes_[:10]}."
            )
        if self.classes_.size > 2 and not self._one_vs_rest:
            raise ValueError(
                f"Only binary classification is supported by {type(self).__name__}: y must "
                f"hold exactly two classes; got {self.classes_.size}: {self.classes_[:10]}. "
                "Wrap it in sklearn.multiclass.OneVsRestClassifier for more."
            )
        sample_weight = _sample_weights(X, sample_weight)
        class_weight = getattr(self, "class_weight", None)
        if class_weight is not None:
            per_class = compute_sample_weight(class_weight, y)
            sample_weight = per_class if sample_weight is None else sample_weight * per_class
            _check_positive_total(sample_weight, "sample_weight times class_weight")
        if sample_weight is not None:
            for name in self.classes_:
                if not np.any(sample_weight[y == name] > 0):
                    raise ValueError(
                        f"sample_weight (times class_weight) is 0 on every sample of class "
                        f"{name!r}: every class needs a positive weight."
                    )
        if self.classes_.size == 2:
            self.__dict__.pop("estimators_", None)
            self._fit_weighted(X, signed_labels(y, self.classes_), sample_weight, self._fit_pm)
            self.coef_ = np.asarray(self.coef_, dtype=float).reshape(1, -1)
            self.intercept_ = np.asarray(self.intercept_, dtype=float).reshape(1)
        else:
            self._fit_one_vs_rest(X, y, sample_weight)
        return self

    def _fit_one_vs_rest(self, X, y, sample_weight):
        """One clone per class on (class k: 1, the rest: 0); stack and gather their fits."""
        weighted = {"class_weight": None} if "class_weight" in self.get_params() else {}
        self.estimators_ = [
            clone(self)
            .set_params(**weighted)
            .fit(X, (y == label).astype(int), sample_weight=sample_weight)
            for label in self.classes_
        ]
        self.coef_ = np.vstack([est.coef_ for est in self.estimators_])
        self.intercept_ = np.concatenate([est.intercept_ for est in self.estimators_])
        self._gather(self.estimators_)

    def _gather(self, estimators):
        """Each per-problem attribute of the K binary fits, in class order.

        Numbers (``dual_gap_``, ``objective_``, ``margin_``) become arrays of shape (K,),
        per-sample arrays (``alpha_``, ``dual_coef_``) arrays of shape (K, n_samples),
        the others (``certificate_``, ``backend_``, ``support_``, ``solve_attempts_``,
        ``problem_``) lists of length K. A property of the class (RLSC's
        ``objective_``) computes itself from the gathered attributes.
        """
        for name in _PER_PROBLEM:
            if isinstance(getattr(type(self), name, None), property):
                continue
            if not all(name in est.__dict__ for est in estimators):
                self.__dict__.pop(name, None)
                continue
            values = [est.__dict__[name] for est in estimators]
            if name in _PER_SAMPLE:
                values = np.vstack(values)
            elif all(isinstance(v, Real) for v in values):
                values = np.array(values, dtype=float)
            setattr(self, name, values)

    def decision_function(self, X):
        """``X coef_' + intercept_``: shape (n_samples,) for two classes, else (n_samples, K).

        For two classes a positive value means ``classes_[1]``; for K > 2, column k is
        the score of class k against the rest.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples to score.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The scores.
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64, reset=False)
        return linear_scores(X, self.coef_, self.intercept_)

    def predict(self, X):
        """The class of each row of X (one of ``classes_``): the sign, or the largest score.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted classes: ``classes_[1]`` where :meth:`decision_function` is
            positive (two classes), else the class of the largest score.
        """
        return scores_to_classes(self.decision_function(X), self.classes_)


def linear_scores(X, coef, intercept):
    """``X coef' + intercept`` for ``coef`` of shape (K, d): (n,) when K = 1, else (n, K)."""
    scores = np.asarray(X @ np.asarray(coef).T) + intercept
    return scores.ravel() if scores.shape[1] == 1 else scores


def scores_to_classes(scores, classes):
    """The classes of ``linear_scores``: the sign for 1-D scores, else the largest column."""
    if scores.ndim == 1:
        return classes[(scores > 0).astype(int)]
    return classes[np.argmax(scores, axis=1)]


class LinearRegressor(RegressorMixin, CvxpyEstimator):
    """Real-valued targets; subclasses implement ``_fit_xy(X, y)`` setting coef_, intercept_."""

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit on X (n_samples, n_features; dense, CSR or CSC) and real targets y.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The training data.
        y : array-like of shape (n_samples,)
            The real targets.
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's squared residual (default 1); an integer
            weight is the same as repeating the row, 0 the same as dropping it.

        Returns
        -------
        object
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            sample_weight has the wrong length, a negative, NaN or infinite entry, or
            is all 0.
        """
        X, y = validate_data(
            self, X, y, accept_sparse=_ACCEPT_SPARSE, dtype=np.float64, y_numeric=True
        )
        self._fit_weighted(X, y, _sample_weights(X, sample_weight), self._fit_xy)
        return self

    def predict(self, X):
        """``X coef_ + intercept_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted targets.
        """
        return self._linear_response(X)


def _sample_weights(X, sample_weight):
    """Validated sample weights (scikit-learn's checks), or None when not given."""
    if sample_weight is None:
        return None
    sample_weight = _check_sample_weight(
        sample_weight, X, dtype=np.float64, ensure_non_negative=True, copy=True
    )
    if not np.all(np.isfinite(sample_weight)):
        raise ValueError("sample_weight must be finite: it holds inf.")
    return sample_weight


def _check_positive_total(sample_weight, name):
    if not np.any(sample_weight > 0):
        raise ValueError(f"{name} is 0 on every sample: at least one sample must count.")


class WeightedL1Penalty:
    """The penalty ``lam sum_j W_j |w_j|`` (004 eq. 3-7): hyperparameters, weights, lam_max.

    Mixed into the estimators whose formulation takes the penalty as the one DPP
    Parameter ``lam_w = lam * weights`` (a re-fit with a new lam or new weights
    re-solves the compiled problem). Weights follow the package's convention: each
    ``>= 0`` or ``+inf``; a feature of weight ``+inf`` is left out of the problem
    (its coefficient is 0), one of weight 0 is unpenalised.

    Subclasses set ``path`` (the exact path function of :mod:`solvers.path`) and
    ``_CLOSED_FORM_ZERO`` (True when, with every weight positive, the solution for
    ``lam >= lam_max`` is ``coef = 0`` and ``intercept = mean(y)``: the lasso and
    SVM2) and ``_PATH_FIRST`` (the exact path heads the default chain, see
    ``_chain``), and implement ``_set_solution(X, y, coef, intercept)``.
    """

    _parameter_constraints = {
        "lam": [POSITIVE],
        "weights": ["array-like", None],
        **BACKEND_CONSTRAINTS,
    }
    _dpp_params = ("lam", "weights")
    _CLOSED_FORM_ZERO = False
    _PATH_FIRST = False
    #: The loss of :func:`solvers._active_set.solve_active_set` ("squares" or
    #: "squared_hinge") when the ``"ACTIVE_SET"`` backend solves this model, else None.
    _ACTIVE_SET_LOSS = None
    #: ``"ACTIVE_SET"`` heads the default chain only for lam at least this times lam_max.
    _ACTIVE_SET_MIN_RATIO = None

    def __init__(self, lam=1.0, *, weights=None, solver=None, solver_options=None):
        self.lam = lam
        self.weights = weights
        self.solver = solver
        self.solver_options = solver_options

    def _penalty_weights(self, X, y):
        """The weights of every feature of X (each >= 0 or +inf)."""
        return check_penalty_weights(self.weights, X.shape[1])

    def _fit_penalised(self, X, y):
        """Solve on the features of finite weight; the excluded ones get coefficient 0."""
        weights = self._penalty_weights(X, y)
        kept = np.flatnonzero(np.isfinite(weights))
        X_kept = X if kept.size == X.shape[1] else X[:, kept]
        coef = np.zeros(X.shape[1])
        coef[kept] = self._fit_kept(X_kept, y, weights[kept])
        self.coef_ = coef

    def _fit_kept(self, X, y, weights):
        """The coefficients of the problem on the columns of X, whose weights are finite.

        The columns are equilibrated first. Above lam_max the closed form; with many
        more features than samples and a chain that does not start with the exact
        path, a working set of features (:meth:`_solve_on_feature_working_set`);
        otherwise :meth:`_solve_all`. A subclass may reduce the problem before this
        (the lasso through the d x d Gram matrix when n > d).

        Returns
        -------
        ndarray of shape (X.shape[1],)
        """
        # Centre the offset columns (a Unix timestamp): exact with the free intercept.
        X, shift, scales = centre_offset_columns(X)
        # Equilibrate: with c_j = s_j b_j the columns X_j / s_j have unit norm and the
        # weights become W_j / s_j; the problem (and its certificate) is the same, but
        # a backend no longer sees a column at 1e12 beside one at 1 (a Unix timestamp).
        scales[scales == 0] = 1.0
        X_unit = X @ sp.diags(1.0 / scales) if sp.issparse(X) else X / scales
        self._kept_weights = weights / scales
        if not self._solve_zero(X_unit, y):
            # The exact path follows its own active set (screening the others), so it
            # needs no working set around it.
            if _many_features(X_unit) and not self._starts_with_path(X_unit):
                self._solve_on_feature_working_set(X_unit, y)
            else:
                self._solve_all(X_unit, y)
        coef = self.coef_ / scales
        self.intercept_ = float(self.intercept_ - shift @ coef)
        return coef

    def _solve_all(self, X, y):
        self._solve(X, y)

    def _solve_on_feature_working_set(self, X, y):
        """The formulation on a growing set of features until the full certificate holds.

        The outer loop of skglm, celer and Blitz: start from the features most
        correlated with the residual at the zero solution (and every unpenalised one,
        and the last fit's set on the same data); solve the formulation on them
        (certified on that restricted problem); extend the solution by zeros and
        certify it on all the features; while it fails, add the features whose dual
        constraint ``|X_j'v| <= lam W_j`` is most violated, as many as the set holds.
        """
        weights = self._kept_weights
        n, d = X.shape
        s = self._weights_or_ones(n)
        key = _fingerprint(X, y, s)
        start = self.__dict__.get("_feature_working_set")
        if start is None or start[0] != key:
            scores = np.abs(np.asarray(X.T @ (s * (y - np.average(y, weights=s)))).ravel())
            with np.errstate(divide="ignore"):
                scores = np.where(weights > 0, scores / weights, np.inf)
            size = min(d, max(_WS_FIRST_FEATURES, n // 2))
            working = np.sort(np.argsort(-scores, kind="stable")[:size])
        else:
            working = start[1]
        working = np.union1d(working, np.flatnonzero(weights == 0))
        for _ in range(_WS_MAX_ROUNDS):
            self._kept_weights = weights[working]
            self._solve(X[:, working], y)
            coef = np.zeros(d)
            coef[working] = self.coef_
            self._kept_weights = weights
            self._extend(X, y, coef, self.intercept_)
            # Features outside the set whose dual constraint |X_j'v| <= lam W_j fails
            # must join; only when none does is the full certificate worth computing.
            correlations = np.abs(np.asarray(X.T @ self._dual_vector(X, y)).ravel())
            with np.errstate(divide="ignore", invalid="ignore"):
                excess = correlations / (self.lam * weights) - 1.0
            excess[working] = -np.inf
            violators = np.flatnonzero(excess > _WS_VIOLATION)
            if violators.size == 0:
                certificate = self._certify(X, y)
                break
            violators = violators[np.argsort(-excess[violators], kind="stable")]
            working = np.union1d(working, violators[: max(working.size, 10)])
        else:
            certificate = self._certify(X, y)
        self._feature_working_set = (key, working)
        self._finish_working_set(certificate, f"{working.size} of {d} features")

    def _extend(self, X, y, coef, intercept):
        """Set the full problem's attributes from the solution of a reduced one."""
        self._set_solution(X, y, coef, intercept)

    def _parameter_values(self, X, y):
        values = {"lam_w": self.lam * self._kept_weights}
        if self._weighted:
            values["sample_weight"] = self._sample_weight
        return values

    def _solve_zero(self, X, y):
        """Set the closed-form solution when lam >= lam_max (every coefficient 0).

        Returns True when it applies (and its certificate holds). With every weight
        positive, ``coef = 0`` and ``intercept = mean_s(y)`` (the mean weighted by the
        sample weights s) is optimal exactly when
        ``lam >= max_j |2 X_j'S (y - mean_s(y))| / W_j`` (the lasso, 004 eq. 3, and
        SVM2, eq. 7, whose squared hinge is ``(y_i - f_i)^2`` at that point).
        """
        weights = self._kept_weights
        if not self._CLOSED_FORM_ZERO:
            return False
        s = self._weights_or_ones(X.shape[0])
        intercept = float(np.average(y, weights=s))
        correlations = 2.0 * np.abs(np.asarray(X.T @ (s * (y - intercept))).ravel())
        positive = weights > 0
        # lam_max when every weight is positive (an estimate of it otherwise), for _chain.
        self._zero_lam_max = float(
            np.max(correlations[positive] / weights[positive], initial=0.0)
        )
        if not positive.all() or self.lam < self._zero_lam_max:
            return False
        self._set_solution(X, y, np.zeros(X.shape[1]), intercept)
        certificate = self._certificate(X, y)
        if not certificate.holds:
            return False
        self.backend_ = "closed_form"
        self.solve_attempts_ = [
            {"backend": "closed_form", "status": "optimal", "message": "lam >= lam_max",
             "certificate": certificate}
        ]
        self.certificate_, self.dual_gap_ = certificate, certificate.relative_gap
        self.__dict__.pop("problem_", None)
        return True

    def _chain(self, X):
        """The default chain: the exact path and the CVXPY backends of the problem class.

        The exact path (``"HOMOTOPY"``) is exact and scale-free. For the lasso and
        SVM2 it comes first: their paths (Efron et al. 2004; Rosset & Zhu 2007) reach
        a lam of a tenth of lam_max 3-40x faster than Clarabel solves the QP (measured
        on 8000 x 50 and 200 x 10000 data, docs/solvers.md). For the 1-norm SVM, whose
        path needs an LP at degenerate knots, HiGHS on the LP is faster and the path
        comes last, as the resort when every CVXPY answer fails its certificate.

        The paths are unweighted: with sample weights the chain is the CVXPY
        backends', and a ``solver`` naming ``"HOMOTOPY"`` is a ValueError.
        """
        if self._weighted:
            chain = [self.solver] if isinstance(self.solver, str) else self.solver or []
            if any(name.upper() == "HOMOTOPY" for name in chain):
                raise ValueError(
                    "solver='HOMOTOPY' does not take sample_weight: the exact paths are "
                    "unweighted. Use a CVXPY backend (solver=None for the default chain)."
                )
            if self.solver is None and self._ACTIVE_SET_LOSS is not None:
                return ["ACTIVE_SET", *DEFAULT_BACKENDS[self._problem_class]]
            return self.solver
        if self.solver is not None:
            return self.solver
        backends = list(DEFAULT_BACKENDS[self._problem_class])
        if self._active_set_first(X):
            return ["ACTIVE_SET", "HOMOTOPY", *backends]
        return ["HOMOTOPY", *backends] if self._PATH_FIRST else [*backends, "HOMOTOPY"]

    def _active_set_first(self, X):
        """Whether ``"ACTIVE_SET"`` heads the default chain (unweighted).

        With many features and lam at least ``_ACTIVE_SET_MIN_RATIO`` lam_max. Below
        that FISTA's iterations grow faster than the path's breakpoints: on 200 x
        10000 and 200 x 50000 count data the working set beat the path 1.3-3x down
        to 0.1 lam_max (SVM2) and 0.01 lam_max (lasso), and lost 2-6x at a third and
        a tenth of those.
        """
        return (
            self._ACTIVE_SET_LOSS is not None
            and _many_features(X)
            and self.lam >= self._ACTIVE_SET_MIN_RATIO * self._zero_lam_max
        )

    @classmethod
    def lam_max(cls, X, y, weights=None):
        """The smallest lam at which every penalised coefficient is 0: ``lams[0]`` of ``path``.

        With every weight positive it is ``max_j |2 X_j'(y - mean(y))| / W_j`` for the
        lasso (004 eq. 3) and SVM2 (eq. 7, labels mapped to -1/+1); for the 1-norm SVM
        (eq. 6) it comes from the LP at the start of its path. Only the first
        breakpoint of the path is computed.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        weights : array-like of shape (n_features,), optional
            Each >= 0 or +inf (default 1).

        Returns
        -------
        float
        """
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PathWarning)
            return float(cls.path(X, y, weights, max_steps=1).lams[0])

    def _starts_with_path(self, X):
        """Whether the chain's first backend grows its own active set (the exact path or
        ``"ACTIVE_SET"``): then no working set of features is wrapped around it."""
        chain = self._chain(X)
        if not chain:  # None: the default chain of the CVXPY backends
            return False
        first = chain if isinstance(chain, str) else chain[0]
        return first.upper() in ("HOMOTOPY", "ACTIVE_SET")

    def _extra_backends(self, X, y):
        """``"ACTIVE_SET"`` (:mod:`solvers._active_set`, when the model has it) and
        ``"HOMOTOPY"``: the exact path of :mod:`solvers.path` run down to lam (unweighted)."""
        backends = {}
        if self._ACTIVE_SET_LOSS is not None:
            backends["ACTIVE_SET"] = functools.partial(self._run_active_set, X, y)
        if self._weighted:
            return backends

        def homotopy():
            with warnings.catch_warnings():
                warnings.simplefilter("error", PathWarning)  # a path that stops has failed
                path = self.path(X, y, self._kept_weights, lam_min=self.lam, return_path=False)
            coef, intercept = path.at(self.lam)
            self._set_solution(X, y, coef, intercept)

        backends["HOMOTOPY"] = homotopy
        return backends

    def _run_active_set(self, X, y):
        """``solve_active_set`` warm-started from the last fit on the same data (its
        working set and solution, at another lam or other weights)."""
        key = _fingerprint(X, y, self._weights_or_ones(X.shape[0]))
        start = self.__dict__.get("_active_set_start")
        warm = start[1] if start is not None and start[0] == key else {}
        result = solve_active_set(
            X,
            y,
            self.lam,
            self._kept_weights,
            loss=self._ACTIVE_SET_LOSS,
            sample_weight=self._sample_weight,
            **warm,
        )
        self._active_set_start = (
            key,
            {"working": result.working, "coef": result.coef, "intercept": result.intercept},
        )
        self._set_solution(X, y, result.coef, result.intercept)


#: Working sets of features are used when the data has at least this many features and
#: more than twice as many features as samples.
_WS_MIN_FEATURES = 500
#: The first working set holds at least this many features (n / 2 if more).
_WS_FIRST_FEATURES = 100
#: Relative excess ``|X_j'v| / (lam W_j) - 1`` above which a feature outside the
#: working set violates its dual constraint.
_WS_VIOLATION = 1e-9
#: Rounds of a working-set loop before it gives up.
_WS_MAX_ROUNDS = 30


def _many_features(X):
    n, d = X.shape
    return d >= _WS_MIN_FEATURES and d > 2 * n
