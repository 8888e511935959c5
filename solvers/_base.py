"""What every estimator shares: the planned chain, the compiled-problem cache, labels, weights.

An estimator fits a model (:data:`solvers._registry.MODELS`) by a chain of backends:
the one named by ``solver``, or the chain the planner (:mod:`solvers._planner`)
orders by cost for this problem. :mod:`solvers._chain` runs it: the first attempt
whose answer is optimal and certified (:mod:`solvers.certificates`) wins, and
``backend_``, ``solve_attempts_`` (each attempt with the planner's reason),
``certificate_`` and ``dual_gap_`` record it.

Each backend is a function of the problem (:mod:`solvers.backends`); what it returns
to keep for its next run on the same data (its multipliers or point and working set;
for CVXPY's, the compiled formulation and its working sets) the estimator keeps
(:meth:`LinearModel._kept`) and hands back to it. A CVXPY backend solves the
problem's formulation (:mod:`solvers.formulations`), kept as ``problem_``. Fitting
again on the same data with new values of the DPP parameters (``C``, ``lam``,
``weights``) only updates the ``cvxpy.Parameter`` values and re-solves: CVXPY reuses
its compiled problem and skips canonicalisation. Anything else (new data, a
structural hyperparameter such as ``loss``) rebuilds it. ``problem_`` holds the
training data and CVXPY's compiled form, so it is not pickled (``__getstate__`` drops
it and the kept states); the next ``fit`` rebuilds it.

``fit(X, y, sample_weight=None)``: a weight ``s_i >= 0`` multiplies sample i's loss
term (docs/solvers.md, "Sample weights"); the classifiers' ``class_weight`` multiplies
the weights of each class, as in scikit-learn's SVC. Samples of weight 0 are dropped
before solving (the same problem: their loss counts for nothing, their multipliers
are 0), so every solver below sees weights > 0, handed to ``_fit_problem(X, y,
sample_weight)`` (None when every weight is 1: the unweighted problem, built as
without weights); the one base keeps nothing of the problem on the estimator. The weights are
Parameter values of the formulation: a re-fit with new weights (on the same samples
of positive weight) re-solves the compiled problem.
"""

import difflib
import warnings
from dataclasses import replace
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from sparsify._dask import is_dask
from sparsify._public_names import name_inherited
from sparsify._validation import canonical
from sparsify.utils import signed_labels

from ._chain import run_chain
from ._dask_models import lazy_classes, lazy_scores, reject_dask_fit
from ._fingerprint import signature
from ._losses import LOSSES
from ._planner import ProblemStats, plan
from ._problem import Problem
from ._registry import backend
from ._scores import linear_scores, scores_to_classes
from .backends import WarmStart
from .backends._answers import certified
from .backends.cvxpy import compiled
from .certificates import GAP_TOLERANCE
from .exceptions import SolverError

#: Parameter constraints shared by every estimator: a backend name or a list, and options.
BACKEND_CONSTRAINTS = {"solver": [None, str, list, tuple], "solver_options": [None, dict]}
#: The controls scikit-learn users know: the certificate's tolerance, an iteration cap,
#: progress and warm starts (:meth:`LinearModel._solve`).
CONTROL_CONSTRAINTS = {
    "tol": [None, Interval(Real, 0, 1, closed="neither")],
    "max_iter": [None, Interval(Integral, 1, None, closed="left")],
    "verbose": ["verbose"],
    "warm_start": ["boolean"],
}
#: The controls an estimator that fits another (the CV, hybrid and RS estimators)
#: passes to its final fit; no warm start: that fit runs once per ``fit``.
FINAL_FIT_CONTROLS = ("tol", "max_iter", "verbose")

POSITIVE = Interval(Real, 0, None, closed="neither")
NONNEGATIVE = Interval(Real, 0, None, closed="left")

_ACCEPT_SPARSE = ["csr", "csc"]
#: ``class_weight`` of the classifiers, as scikit-learn's SVC takes it.
CLASS_WEIGHT_CONSTRAINTS = {"class_weight": [StrOptions({"balanced"}), dict, None]}
#: The targets scikit-learn's ``check_classification_targets`` accepts (read here from
#: the one typing of y of a fit, :func:`_target_type`).
_CLASSIFICATION_TARGETS = (
    "binary", "multiclass", "multiclass-multioutput", "multilabel-indicator",
    "multilabel-sequences",
)  # fmt: skip
#: Fitted attributes with one entry per training sample (0 for a dropped sample).
_PER_SAMPLE = ("alpha_", "dual_coef_")
#: Fitted attributes of one binary problem, gathered over the K problems of a
#: one-vs-rest fit (``LinearModel._gather``).
_PER_PROBLEM = (
    "certificate_",
    "dual_gap_",
    "n_iter_",
    "backend_",
    "solve_attempts_",
    "problem_",
    "objective_",
    "margin_",
    *_PER_SAMPLE,
    "support_",
)


def validated(estimator, X, y="no_validation", **kwargs):
    """scikit-learn's ``validate_data`` (CSR or CSC, float64), then a sparse X in
    canonical form: the one check of X and y of every estimator.

    A CSR or CSC matrix with duplicate entries (valid in SciPy: they add up) or
    unsorted indices becomes a canonical copy (:func:`sparsify._validation.canonical`;
    the caller's matrix is never modified), so that every backend, which reads the
    stored entries, sees each entry once; the copy is in the estimator's
    ``_SPARSE_FORMAT`` when it declares one (the format its backends read).

    Returns X, or ``(X, y)`` when ``y`` is given, as ``validate_data`` does. With
    ``y_numeric=True`` (the regressors) a y that does not hold real numbers (class
    labels as text) is a ValueError naming the estimator.
    """
    kwargs = {"accept_sparse": _ACCEPT_SPARSE, "dtype": np.float64, **kwargs}
    layout = getattr(estimator, "_SPARSE_FORMAT", None)
    if isinstance(y, str) and y == "no_validation":
        return canonical(validate_data(estimator, X, **kwargs), layout=layout)
    X, y = validate_data(estimator, X, y, **kwargs)
    if kwargs.get("y_numeric") and y.dtype.kind not in "biuf":
        name = type(estimator).__name__
        raise ValueError(
            f"y must hold real numbers: {name} is a regressor; got y of dtype {y.dtype} "
            f"(first values {y[:3].tolist()}). For class labels use a classifier (L1SVM, "
            "SVM2, HybridSVM, ...); numbers stored as text convert with y.astype(float)."
        )
    return canonical(X, layout=layout), y


#: A scikit-learn argument a user may bring, by the model it would mean something for:
#: the parameter it becomes and how, in this library's scaling (docs/architecture.md,
#: "Objectives, exactly as scaled").
_SCALINGS = {
    ("alpha", "lasso"): (
        "lam",
        "lam = 2 * n_samples * alpha: scikit-learn's Lasso averages the squared residuals "
        "with a factor 1/(2 n_samples), this library sums them (004 eq. 3)",
    ),
    ("alpha", "ridge"): (
        "lam",
        "lam = alpha: scikit-learn's Ridge sums the squared residuals, as this library does",
    ),
    **{
        ("C", model): (
            "lam",
            "lam = 1 / C: scikit-learn's LinearSVC and LogisticRegression put C on the "
            "loss, this library puts lam on the penalty",
        )
        for model in ("l1_svm", "svm2", "logistic")
    },
    ("lam", "svm"): (
        "C",
        "C = 1 / lam: this SVM puts C on the hinge loss and 1/2 on ||w||^2 (001 eq. 2)",
    ),
}
#: Names of the controls in other libraries.
_CONTROL_NAMES = {
    "tolerance": "tol", "eps": "tol", "max_iterations": "max_iter", "maxiter": "max_iter",
    "n_iter": "max_iter", "verbosity": "verbose", "lambda": "lam", "lambda_": "lam",
    "lmbda": "lam", "reg": "lam",
}  # fmt: skip


def checked_new(cls, *args, **kwargs):
    """``__new__`` of the estimators: an unknown keyword argument of the constructor is a
    TypeError naming the public class, its parameters, and how a scikit-learn argument
    (``alpha``, ``C``) reads in this library's scaling.

    Python's own error names the ``__init__`` that rejects it, which may be that of a
    private base, and says nothing of what to pass instead. It runs before ``__init__``;
    ``clone`` and unpickling pass it unchanged. A class may set ``_scaling_model`` (the
    model whose scaling applies; default its ``_MODEL`` or its ``_estimator_class``'s).
    """
    if kwargs:
        valid = cls._get_param_names()
        unknown = [key for key in kwargs if key not in valid]
        if unknown:
            raise TypeError(_unknown_parameter(cls, unknown[0], valid))
    return object.__new__(cls)


def _unknown_parameter(cls, key, valid):
    """The message for ``cls(key=...)`` when ``key`` is not a parameter of ``cls``."""
    model = getattr(cls, "_scaling_model", None) or getattr(cls, "_MODEL", None)
    model = model or getattr(getattr(cls, "_estimator_class", None), "_MODEL", None)
    model = model if isinstance(model, str) else None  # a property: set _scaling_model
    message = f"{cls.__name__} got an unexpected keyword argument {key!r}"
    target, scaling = _SCALINGS.get((key, model), (None, None))
    alias = _CONTROL_NAMES.get(str(key).lower())
    close = [alias] if alias in valid else difflib.get_close_matches(str(key), valid, n=2)
    if target in valid:
        message += f": pass {target} instead, {scaling}"
    elif close:
        message += f" (did you mean {' or '.join(map(repr, close))}?)"
    return f"{message}. Its parameters: {', '.join(valid)}."


class LinearModel(BaseEstimator):
    """The one base of the estimators: fit a model by a planned chain of backends, certified.

    A public estimator lists scikit-learn's ``ClassifierMixin`` or ``RegressorMixin``
    first, which decides what ``fit`` takes and ``predict`` gives: a classifier maps two
    classes to -1/+1 for the solver (more classes one-vs-rest, unless
    ``_one_vs_rest`` is False) and has ``decision_function``; a regressor takes real
    targets. Each family of models (one private subclass: the L1 models, the 2-norm
    SVMs, ridge and RLSC, the models declared by their loss, the CV estimators) sets
    ``_MODEL`` (a key of :data:`solvers._registry.MODELS`) and implements
    ``_fit_problem(X, y, sample_weight)``: build the :class:`solvers._problem.Problem`
    of the binary or real problem with those sample weights (None for all 1), solve it
    with :meth:`_solve` (the planned chain, each backend's
    ``run(problem, options, warm_start)``) and set ``coef_`` (1-D), ``intercept_`` (a
    float) and the family's other fitted attributes from the certified answer.
    """

    _MODEL = None
    #: The sparse format a canonical copy of X is made in ("csr", "csc"; None: X's own).
    _SPARSE_FORMAT = None
    __new__ = checked_new  # an unknown argument names this class and what to pass
    #: Whether a classifier fits more than two classes one-vs-rest (else a ValueError).
    _one_vs_rest = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name_inherited(cls)  # errors name the public class, not a private base

    def _solve(self, problem, hardness, *, hint=""):
        """Plan the chain for ``problem`` (or take ``solver``), run it, and return the
        certified :class:`solvers._problem.Answer`.

        Each attempt is the registry's ``run(problem, options, warm_start)`` of its
        backend (:mod:`solvers.backends`), started from what that backend kept of its
        last run on the same data (:meth:`_kept`) and from the answer of the backend
        before it; the chain certifies each answer on ``problem`` (polished if needed,
        :func:`solvers.backends._answers.certified`). Sets ``backend_``,
        ``solve_attempts_``, ``certificate_``, ``dual_gap_`` and ``n_iter_``;
        ``problem_`` only when a CVXPY backend answered. ``hardness``: how hard the
        regularisation makes the problem, for the planner (:class:`ProblemStats`).
        """
        name = type(self).__name__
        key = signature(problem.X, problem.y, problem.sample_weights())
        stats = self._plan_stats = self._stats(problem, hardness, key)  # benchmarks read it
        steps = self._controlled(plan(stats, self.solver, self.solver_options, estimator=name))
        self.__dict__.pop("problem_", None)
        # One problem of a one-vs-rest fit says which class it is for.
        shown = f"{name} ({self._problem_label})" if "_problem_label" in vars(self) else name
        verbose = self.verbose
        if verbose:
            print(f"{shown}: planned {', '.join(step.backend for step in steps)}")
        outcomes = {}

        def attempt(step, warm):
            declared = backend(step.backend)
            start = WarmStart(self._kept(declared, key), warm)
            outcome = declared.run(problem, step.options, start)
            if outcome.state is not None:
                self._keep(declared, key, outcome.state)
            outcomes[step.backend] = outcome
            return outcome

        def certify(outcome):
            certificate, outcome.answer = certified(problem, outcome.answer)
            return certificate

        try:
            self.backend_, self.solve_attempts_, outcome = run_chain(
                steps, attempt, certify, what=f"{shown} problem", hint=hint,
                tolerance=self.tol, report=_print_attempt(shown) if verbose else None,
            )  # fmt: skip
        except SolverError as error:
            stopped = _stopped_at(error.attempts, self.max_iter)
            answer = None if stopped is None else outcomes[stopped["backend"]].answer
            if answer is None:
                raise
            return self._keep_last_answer(problem, error.attempts, stopped, answer)
        self.certificate_ = self.solve_attempts_[-1]["certificate"]
        self.dual_gap_ = self.certificate_.relative_gap
        self.n_iter_ = _iterations(self.solve_attempts_[-1])
        if backend(self.backend_).cvxpy:
            self.problem_ = compiled(outcome.state)
        return outcome.answer

    def _penalised_problem(self, X, y, sample_weight, weights, **fields):
        """``(problem, kept)``: the :class:`solvers._problem.Problem` of the weighted
        penalty on the features of finite weight (the others are excluded: their
        coefficients are 0), with the other ``fields`` of the problem; ``kept`` indexes
        those features (None when there is none: the problem is then the fit of the
        constant model on one zero column, with a UserWarning)."""
        finite = np.isfinite(weights)
        kept = slice(None) if finite.all() else np.flatnonzero(finite)
        if not finite.any():
            warnings.warn(
                f"every feature's weight is +inf, so {type(self).__name__} keeps no feature: "
                "its model is the constant intercept_ (coef_ all 0).",
                UserWarning,
                stacklevel=5,
            )
            zero = (X.shape[0], 1)
            columns = sp.csc_matrix(zero) if sp.issparse(X) else np.zeros(zero)
            kept, weights = None, np.ones(1)
        elif not finite.all():
            columns, weights = X[:, kept], weights[kept]
        else:
            columns = X
        problem = Problem(
            self._MODEL, columns, y, sample_weight, LOSSES[self._LOSS], float(self.lam),
            weights, tolerance=self._tolerance(), **fields,
        )  # fmt: skip
        return problem, kept

    def _tolerance(self):
        """The relative duality gap at which this estimator's answers are certified."""
        return GAP_TOLERANCE if self.tol is None else self.tol

    def _controlled(self, steps):
        """The steps with ``tol``, ``max_iter`` and ``verbose`` set in each backend's
        options (an option the user named in ``solver_options`` wins). A backend's
        stopping tolerance is its declared default (:mod:`solvers._registry`) scaled
        by ``tol`` over the certificate's default tolerance."""
        tol, max_iter, verbose = self._tolerance(), self.max_iter, self.verbose
        controlled = []
        for step in steps:
            if step.skip:  # not installed: not run
                controlled.append(step)
                continue
            declared, options = backend(step.backend), dict(step.options)
            if max_iter is not None and declared.iterations:
                options.setdefault(declared.iterations, max_iter)
            if declared.tolerance:  # the declared default at the default tol
                default = declared.options[declared.tolerance].default
                options.setdefault(declared.tolerance, tol * default / GAP_TOLERANCE)
            if verbose >= 2 and declared.cvxpy:
                options.setdefault("verbose", True)
            controlled.append(replace(step, options=options))
        return controlled

    def _keep_last_answer(self, problem, attempts, stopped, answer):
        """After ``max_iter`` stopped the library's backend (``stopped``, its record) and
        no other certified an answer: its answer, its (failing) certificate, and a
        ConvergenceWarning. An answer whose certificate holds after all (polished) is
        kept without one: it is certified."""
        self.solve_attempts_ = attempts
        self.backend_ = stopped["backend"]
        self.n_iter_ = _iterations(stopped)
        self.certificate_, answer = certified(problem, answer)
        self.dual_gap_ = self.certificate_.relative_gap
        if not self.certificate_.holds:
            warnings.warn(
                f"{type(self).__name__} stopped at max_iter={self.max_iter} without a "
                f"certified optimum (relative duality gap {self.dual_gap_:.2e}, tolerance "
                f"{self.certificate_.tolerance:.0e}); the last answer is kept. Raise "
                "max_iter, or leave it None for the backends' own caps.",
                ConvergenceWarning,
                stacklevel=5,
            )
        return answer
    def _stats(self, problem, hardness, key):
        """The planner's view of ``problem`` (``key``: the signature of its data, for
        whether a backend kept a warm start on it)."""
        X = problem.X
        n, d = X.shape
        return ProblemStats(
            self._MODEL,
            n,
            d,
            X.nnz if sp.issparse(X) else n * d,
            sp.issparse(X),
            float(max(hardness, 0.0)),
            weighted=problem.sample_weight is not None,
            warm=self._has_warm_state(key),
        )

    def _kept(self, declared, key):
        """What backend ``declared`` kept of its last run on data with signature ``key``
        (None with ``warm_start=False``). A CVXPY backend's state (the compiled
        formulation, the working sets) is kept whatever ``warm_start`` says: it
        checks the data itself, and the formulation only saves compiling it again."""
        kept = self.__dict__.get("_warm_states", {}).get(_slot(declared))
        if kept is None:
            return None
        if declared.cvxpy:
            return kept[1]
        return kept[1] if self.warm_start and kept[0] == key else None

    def _has_warm_state(self, key):
        """Whether one of the library's own backends kept an answer on data with
        signature ``key`` (that a warm start may use)."""
        if not self.warm_start:
            return False
        states = self.__dict__.get("_warm_states", {})
        return any(kept[0] == key for slot, kept in states.items() if slot != "CVXPY")

    def _keep(self, declared, key, state):
        self.__dict__.setdefault("_warm_states", {})[_slot(declared)] = (key, state)

    def _fit_weighted(self, X, y, sample_weight, fit):
        """``fit(X, y, sample_weight)`` with the samples of weight 0 dropped (weights of
        ones as None).

        The per-sample attributes (``alpha_``, ``dual_coef_``) get a 0 for each dropped
        sample and ``support_`` indexes the rows of X.
        """
        n = X.shape[0]
        sample_weight = none_if_ones(sample_weight)
        kept = None
        if sample_weight is not None:
            kept = np.flatnonzero(sample_weight > 0)
            if kept.size < X.shape[0]:
                X, y, sample_weight = X[kept], y[kept], sample_weight[kept]
            else:
                kept = None
        fit(X, y, sample_weight)
        if kept is None:
            return
        for name in _PER_SAMPLE:
            if name in self.__dict__:
                full = np.zeros(n)
                full[kept] = self.__dict__[name]
                setattr(self, name, full)
        if "support_" in self.__dict__:
            self.support_ = kept[self.support_]

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit on X (n_samples, n_features; dense, CSR or CSC) and y.

        Parameters
        ----------
        X : array-like, sparse matrix or dask.array.Array of shape (n_samples, n_features)
            The training data. A Dask array chunked by rows is fitted through sums over
            its chunks by the estimators docs/dask.md lists (ridge, RLSC, the lasso, the
            SVMs); the others raise a TypeError rather than collect it.
        y : array-like of shape (n_samples,)
            A classifier's class labels: two classes, or more (one-vs-rest, see the
            class docstring); a regressor's real targets.
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss term (default 1); an integer weight
            is the same as repeating the row, 0 the same as dropping it. A classifier's
            are multiplied by ``class_weight``.

        Returns
        -------
        object
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            A classifier's y holds fewer than two classes (or more than two for an
            estimator that is binary only); sample_weight has the wrong length, a
            negative, NaN or infinite entry, is all 0, or leaves a class with no
            positive weight.
        """
        if is_dask(X):
            return self._fit_dask(X, y, sample_weight)
        if _is_classifier(self):
            return _fit_classifier(self, X, y, sample_weight)
        X, y = validated(self, X, y, y_numeric=True)
        self._fit_weighted(X, y, _sample_weights(X, sample_weight), self._fit_problem)
        return self

    def _fit_one_vs_rest(self, X, y, sample_weight):
        """One clone per class on (class k: 1, the rest: 0); stack and gather their fits."""
        weighted = {"class_weight": None} if "class_weight" in self.get_params() else {}
        self.estimators_ = []
        for label in self.classes_:
            binary = clone(self).set_params(**weighted)
            plain = label.item() if isinstance(label, np.generic) else label  # 'a', not np.str_
            binary._problem_label = f"class {plain!r} against the rest"  # verbose, errors
            self.estimators_.append(
                binary.fit(X, (y == label).astype(int), sample_weight=sample_weight)
            )
        self.coef_ = np.vstack([est.coef_ for est in self.estimators_])
        self.intercept_ = np.concatenate([est.intercept_ for est in self.estimators_])
        self._gather(self.estimators_)

    def _gather(self, estimators):
        """Each per-problem attribute of the K binary fits, in class order.

        Numbers (``dual_gap_``, ``n_iter_``, ``objective_``, ``margin_``) become arrays of
        shape (K,),
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
            elif all(isinstance(v, Integral) for v in values):
                values = np.array(values, dtype=int)
            elif all(isinstance(v, Real) for v in values):
                values = np.array(values, dtype=float)
            setattr(self, name, values)

    @available_if(lambda self: _is_classifier(self))
    def decision_function(self, X):
        """``X coef_' + intercept_``: shape (n_samples,) for two classes, else (n_samples, K).

        For two classes a positive value means ``classes_[1]``; for K > 2, column k is
        the score of class k against the rest.

        Parameters
        ----------
        X : array-like, sparse matrix or dask.array.Array of shape (n_samples, n_features)
            The samples to score. A Dask array gives a lazy Dask array.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The scores.
        """
        return fitted_scores(self, X)

    def predict(self, X):
        """A classifier's class of each row of X (one of ``classes_``), a regressor's
        ``X coef_ + intercept_``.

        Parameters
        ----------
        X : array-like, sparse matrix or dask.array.Array of shape (n_samples, n_features)
            The samples. A Dask array gives a lazy Dask array.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted classes (``classes_[1]`` where :meth:`decision_function` is
            positive for two classes, else the class of the largest score), or targets.
        """
        if _is_classifier(self):
            return fitted_classes(self, X)
        return self._linear_response(X)

    def _linear_response(self, X):
        return fitted_scores(self, X)

    def _fit_dask(self, X, y, sample_weight):
        """Fit a Dask X (:mod:`solvers._dask_models`); by default a TypeError."""
        reject_dask_fit(self, X)

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: pickling must not strip self
        for name in ("problem_", "_warm_states"):
            state.pop(name, None)
        return state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _is_classifier(estimator):
    """Whether the estimator is a classifier (lists scikit-learn's ``ClassifierMixin``)."""
    return isinstance(estimator, ClassifierMixin)


def binary_classifier_tags(estimator):
    """``__sklearn_tags__`` of a classifier of two classes only (``multi_class`` False):
    declared by such a class as ``__sklearn_tags__ = binary_classifier_tags``, after
    scikit-learn's ``ClassifierMixin`` has set the classifier's tags."""
    tags = ClassifierMixin.__sklearn_tags__(estimator)
    tags.classifier_tags.multi_class = False
    return tags


def _fit_classifier(estimator, X, y, sample_weight):
    """``fit`` of a classifier: labels to -1/+1 (one-vs-rest for more than two classes),
    sample weights times ``class_weight``."""
    X, y = validated(estimator, X, y)
    y_type, estimator.classes_ = _target_type(y)
    if y_type not in _CLASSIFICATION_TARGETS:  # scikit-learn's check_classification_targets
        raise ValueError(
            f"Unknown label type: {y_type}. Maybe you are trying to fit a classifier, which "
            "expects discrete classes on a regression target with continuous values."
        )
    if y_type == "multiclass" and y.size > 20 and estimator.classes_.size > round(0.5 * y.size):
        warnings.warn(
            "The number of unique classes is greater than 50% of the number of samples. "
            "`y` could represent a regression problem, not a classification problem.",
            UserWarning,
            stacklevel=4,
        )
    if estimator.classes_.size < 2 or y_type not in ("binary", "multiclass"):
        raise ValueError(
            "y must hold at least two classes; "
            f"got {estimator.classes_.size} class(es): {estimator.classes_[:10]}."
        )
    if estimator.classes_.size > 2 and not estimator._one_vs_rest:
        raise ValueError(
            f"Only binary classification is supported by {type(estimator).__name__}: y must "
            f"hold exactly two classes; got {estimator.classes_.size}: {estimator.classes_[:10]}. "
            "Wrap it in sklearn.multiclass.OneVsRestClassifier for more."
        )
    sample_weight = _sample_weights(X, sample_weight)
    class_weight = getattr(estimator, "class_weight", None)
    if class_weight is not None:
        per_class = compute_sample_weight(class_weight, y)
        sample_weight = per_class if sample_weight is None else sample_weight * per_class
        _check_positive_total(sample_weight, "sample_weight times class_weight")
    if sample_weight is not None:
        for name in estimator.classes_.tolist():  # 1.0 in the message, not np.float64(1.0)
            if not np.any(sample_weight[y == name] > 0):
                raise ValueError(
                    f"sample_weight (times class_weight) is 0 on every sample of class "
                    f"{name!r}: every class needs a positive weight."
                )
    if estimator.classes_.size == 2:
        estimator.__dict__.pop("estimators_", None)
        labels = signed_labels(y, estimator.classes_)
        estimator._fit_weighted(X, labels, sample_weight, estimator._fit_problem)
        estimator.coef_ = np.asarray(estimator.coef_, dtype=float).reshape(1, -1)
        estimator.intercept_ = np.asarray(estimator.intercept_, dtype=float).reshape(1)
    else:
        estimator._fit_one_vs_rest(X, y, sample_weight)
    return estimator


def _target_type(y):
    """scikit-learn's ``type_of_target`` of a validated y (1-D, finite), and its classes.

    A y of numbers (bool, integers or floats) is typed here from its sorted unique
    values, which ``classes_`` needs anyway: floats that are not all integers are
    "continuous", else "binary" for at most two values and "multiclass" above; other
    y (text labels, objects) go through ``type_of_target``. On a small fit
    ``type_of_target`` cost a tenth of the fit (0.12 of 2.9 ms, 200 x 2211).
    """
    if y.ndim != 1 or y.dtype.kind not in "biuf":
        return type_of_target(y, input_name="y", raise_unknown=True), np.unique(y)
    if y.dtype.kind == "f" and np.any(y != y.astype(np.int64).astype(y.dtype)):
        return "continuous", np.unique(y)
    classes = np.unique(y)
    return ("multiclass" if classes.size > 2 else "binary"), classes


def scattered(coef, kept, n_features):
    """The coefficients of every feature from those of the ``kept`` ones (0 elsewhere)."""
    full = np.zeros(n_features)
    if kept is not None:
        full[kept] = coef
    return full


def _slot(declared):
    """Where a backend's state is kept: one slot for all CVXPY solvers (they share the
    compiled formulation), one per own backend."""
    return "CVXPY" if declared.cvxpy else declared.name


def _stopped_at(attempts, max_iter):
    """The last attempt of the library's own backends that ran ``max_iter`` iterations
    (None without ``max_iter``, or when none did)."""
    if max_iter is None:
        return None
    return next(
        (
            a
            for a in reversed(attempts)
            if not backend(a["backend"]).cvxpy and a.get("iterations", 0) >= max_iter
        ),
        None,
    )


def _iterations(record):
    """``n_iter_``: the iterations of the attempt that answered, as it counts them (at
    least 1; a CVXPY solver that reports none counts 1)."""
    return max(1, int(record.get("iterations") or 1))


def _print_attempt(name):
    """``report(record)`` for :func:`solvers._chain.run_chain`: one line per attempt."""

    def report(record):
        certificate = record.get("certificate")
        gap = "" if certificate is None else f", relative gap {certificate.relative_gap:.2e}"
        verdict = "" if certificate is None else (
            " (certified)" if certificate.holds else " (not certified)"
        )
        seconds = record.get("wall_time", float("nan"))
        print(f"{name}: {record['backend']} {record['status']} in {seconds:.3g} s{gap}{verdict}")

    return report


def fitted_scores(estimator, X):
    """``X coef_' + intercept_`` of a fitted estimator: (n,) for one row of ``coef_``, else
    (n, K); a lazy Dask array for a Dask X (:mod:`solvers._dask_models`)."""
    check_is_fitted(estimator)
    if is_dask(X):
        return lazy_scores(X, estimator.coef_, estimator.intercept_, estimator.n_features_in_)
    X = validated(estimator, X, reset=False)
    return linear_scores(X, estimator.coef_, estimator.intercept_)


def fitted_classes(estimator, X):
    """The classes ``predict`` gives from ``estimator.decision_function(X)`` (lazy for a
    Dask X)."""
    scores = estimator.decision_function(X)
    if is_dask(scores):
        return lazy_classes(scores, estimator.classes_)
    return scores_to_classes(scores, estimator.classes_)


def _sample_weights(X, sample_weight):
    """Validated sample weights (scikit-learn's checks), or None when not given or all 1."""
    if sample_weight is None:
        return None
    sample_weight = _check_sample_weight(
        sample_weight, X, dtype=np.float64, ensure_non_negative=True, copy=True
    )
    if not np.all(np.isfinite(sample_weight)):
        raise ValueError("sample_weight must be finite: it holds inf.")
    return none_if_ones(sample_weight)


def none_if_ones(sample_weight):
    """None for weights that are all 1 (or None), else the weights.

    Weights of ones are the unweighted problem; every fit that gets them runs exactly
    as without them (the same held-out rows, paths, backends: the same answer, bit for
    bit), instead of taking the weighted road to the same optimum.
    """
    if sample_weight is None or np.all(sample_weight == 1.0):
        return None
    return sample_weight


def _check_positive_total(sample_weight, name):
    if not np.any(sample_weight > 0):
        raise ValueError(f"{name} is 0 on every sample: at least one sample must count.")
