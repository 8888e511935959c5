"""Weighted L1 models with data-driven weights: Zou's hybrid SVM and the RS models of 004.

Each estimator computes penalty weights (:mod:`solvers.weights`), then fits the
weighted model of 004 (eq. 6, 7 or 3) with them, by composition: the fitted
:class:`solvers.L1SVM`, :class:`solvers.SVM2` or :class:`solvers.WeightedLasso`
is kept as ``estimator_`` and its solution and certificate are copied.

How lam is chosen (``lam=None``, as 004 sec. 4 does): the exact path of the
weighted model (:mod:`solvers.path`) is computed and its best breakpoint on
validation data is taken (:meth:`solvers.path.Path.select`; accuracy for the SVMs,
R^2 for the lasso, ties to the sparsest). Validation data are ``X_val, y_val``
given to ``fit``; otherwise ``validation_fraction`` of the rows is held out
(stratified by class, drawn with ``random_state``), the path runs on the rest, and
the model is refitted on all rows with the chosen lam times ``n / n_train``: the
losses are sums over samples, so this keeps the balance of loss and penalty. A
breakpoint of 0 (the unpenalised end, whose solution is not unique) is replaced by
half the last positive breakpoint. A number ``lam`` is used as given.

`HybridSVM` with ``base="l1"`` on data where the exact path's estimated work on the
held-in rows, ``2 (n + min(n, d)) nnz``, is above the registry's limit for it
(``solvers._registry.SIZE_LIMITS``) chooses lam instead on a grid of 41 lams from
lam_max down to 1e-4 lam_max, each solved by warm-started column generation
(:func:`solvers.path._l1svm_grid.grid_selection`): the path's selection restricted to
the grid (docs/weights.md).
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target

from sparsify._dask import is_dask
from sparsify._public_names import name_inherited

from ._base import (
    BACKEND_CONSTRAINTS,
    CONTROL_CONSTRAINTS,
    FINAL_FIT_CONTROLS,
    POSITIVE,
    _sample_weights,
    binary_classifier_tags,
    checked_new,
    fitted_classes,
    fitted_scores,
    validated,
)
from ._dask_models import reject_dask_fit
from ._l1_models import _inverse_power_weights
from ._registry import over_size
from .exceptions import PathWarning
from .lasso import WeightedLasso
from .path._l1svm_grid import grid_selection
from .path._steps import streamed_selection
from .svm import L1SVM, SVM2
from .weights import (
    C_GRID,
    VALIDATION_FRACTION,
    _best_l2_model,
    _check_validation,
    _validation_split,
    rs_weights,
)

__all__ = ["HybridSVM", "RSWeightedSVM", "RSWeightedLasso"]

#: The weighted model of each base (004 eq. 6, 7 and 3).
MODELS = {"l1": L1SVM, "svm2": SVM2, "lasso": WeightedLasso}
_RANDOM_STATE = [None, Interval(Integral, 0, None, closed="left"), np.random.Generator]

#: Fitted attributes copied from the inner estimator.
_COPIED = (
    "coef_", "intercept_", "objective_", "certificate_", "dual_gap_", "backend_", "n_iter_"
)  # fmt: skip


class _AdaptiveL1(BaseEstimator):
    """Shared by the three estimators: weights, then lam, then the weighted model.

    The public classes list scikit-learn's ``ClassifierMixin`` (``_classifier``: the
    SVMs, base model ``base``) or ``RegressorMixin`` (the lasso), compute the weights
    in ``fit`` and hand them to :meth:`_fit_weighted`.
    """

    _classifier = True
    #: Whether lam is chosen on a grid of lams, not on the exact path, where that path's
    #: work is above the registry's limit (:func:`_lam_on_grid`; HybridSVM's).
    _GRID_ABOVE_PATH_LIMIT = False
    __new__ = checked_new  # an unknown argument names this class and what to pass

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name_inherited(cls)  # errors name the public class, not this one

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, X_val=None, y_val=None, sample_weight=None):
        """RS weights on X, y (004 Algorithm 1), then the weighted model (the RS models;
        HybridSVM has its own).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The training data.
        y : array-like of shape (n_samples,)
            Two classes (the SVMs) or real targets (the lasso).
        X_val : array-like or sparse matrix of shape (n_val, n_features), optional
            Validation data for the blocks and for lam (with ``y_val``); default: the
            examples left out of each block, and a held-out share for lam.
        y_val : array-like of shape (n_val,), optional
            The targets of ``X_val`` (given with it or not at all).
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss (default 1): in the blocks' paths,
            the held-out scores and the weighted model (``X_val`` is unweighted).

        Returns
        -------
        object
            The fitted self (``self``).

        Raises
        ------
        ValueError
            A hyperparameter is out of range, y of a classifier does not hold exactly
            two classes, only one of ``X_val`` and ``y_val`` is given, or
            ``sample_weight`` is not n_samples numbers >= 0, not all 0.
        """
        X, y, X_val, y_val = self._validate(X, y, X_val, y_val, reset=True)
        s = _sample_weights(X, sample_weight)
        weights = _rs_weights(self, X, y, X_val, y_val, s)
        return self._fit_weighted(X, y, X_val, y_val, weights, s)

    def _validate(self, X, y, X_val, y_val, *, reset):
        """Validated (X, y, X_val, y_val); sets ``classes_`` (classifiers) when ``reset``."""
        if is_dask(X):
            reject_dask_fit(self, X)
        if self._classifier:
            X, y = validated(self, X, y, reset=reset)
            check_classification_targets(y)
            classes = np.unique(y)
            if type_of_target(y, input_name="y") != "binary" or classes.size != 2:
                raise ValueError(
                    "Only binary classification is supported: y must hold exactly two classes; "
                    f"got {classes.size} class(es): {classes[:10]}. Wrap the estimator in "
                    "sklearn.multiclass.OneVsRestClassifier for more."
                )
            if reset:
                self.classes_ = classes
            elif not np.array_equal(classes, self.classes_):
                raise ValueError(
                    f"y holds the classes {classes.tolist()}; the earlier frames held "
                    f"{self.classes_.tolist()}: every frame needs the same two classes."
                )
        else:
            X, y = validated(self, X, y, y_numeric=True, reset=reset)
        if X_val is not None or y_val is not None:
            classes = self.classes_ if self._classifier else None
            X_val, y_val = _check_validation(X_val, y_val, X.shape[1], classes)
        return X, y, X_val, y_val

    def _fit_weighted(self, X, y, X_val, y_val, weights, sample_weight):
        """Choose lam (when None) and fit the weighted model; set the fitted attributes.

        ``sample_weight``: the samples' weights (None without them), in the path lam is
        chosen on, the held-out share's scores and the final fit.
        """
        self.weights_ = weights
        model = MODELS[_base_model(self)](
            weights=weights,
            solver=self.solver,
            solver_options=self.solver_options,
            **{name: getattr(self, name) for name in FINAL_FIT_CONTROLS},
        )
        lam = self.lam
        if lam is None:
            lam = self._select_lam(X, y, X_val, y_val, model, sample_weight)
        self.lam_ = float(lam)
        self.estimator_ = model.set_params(lam=self.lam_).fit(X, y, sample_weight=sample_weight)
        for name in _COPIED:
            setattr(self, name, getattr(self.estimator_, name))
        return self

    def _select_lam(self, X, y, X_val, y_val, model, sample_weight):
        """The best breakpoint of the weighted path on validation data (module docstring)."""
        X_train, y_train, s_train, s_val, scale = X, y, sample_weight, None, 1.0
        if X_val is None:
            X_train, X_val, y_train, y_val, s_train, s_val = _validation_split(
                X,
                y,
                classifier=self._classifier,
                validation_fraction=self.validation_fraction,
                random_state=self.random_state,
                sample_weight=sample_weight,
            )
            total = np.ones(X.shape[0]) if sample_weight is None else sample_weight
            part = np.ones(X_train.shape[0]) if s_train is None else s_train
            scale = total.sum() / part.sum()  # the held-in share of the loss
        if _lam_on_grid(self, X_train):
            lams, _, lam = grid_selection(
                X_train, y_train, self.weights_, X_val, y_val, self.classes_,
                sample_weight=s_train, val_weight=s_val,
            )  # fmt: skip
        else:
            with warnings.catch_warnings(), streamed_selection(X_val, y_val, s_val) as selection:
                # Every feature excluded: a path of one breakpoint, whatever lam.
                warnings.filterwarnings("ignore", category=PathWarning, message=".*lam_max=0")
                # Each breakpoint scored as it is recorded: only its lam and score are kept.
                model.path(
                    X_train, y_train, self.weights_, sample_weight=s_train, return_path=False
                )
            lam, lams = selection.select(), np.asarray(selection.lams)
        if lam <= 0:
            positive = lams[lams > 0]
            lam = positive[-1] / 2 if positive.size else 1.0  # 1.0: no feature can enter
        return lam * scale

    def _expected_failed_checks(self):
        """The scikit-learn checks these estimators fail by design, each with its reason:
        pass them to ``check_estimator(est, expected_failed_checks=est._expected_failed_checks())``.

        Returns
        -------
        dict of str to str
            Check name to the reason it fails.
        """
        reason = (
            "a sample's weight multiplies its loss in every fit, but the held-out share "
            "(validation_fraction, for C and lam) and the RS blocks are drawn over rows: "
            "repeating a row changes which rows are drawn. With lam, one C and X_val "
            "given, weights equal repeated rows (tests/solvers/test_adaptive.py)."
        )
        return {
            "check_sample_weight_equivalence_on_dense_data": reason,
            "check_sample_weight_equivalence_on_sparse_data": reason,
        }

    def _linear_response(self, X):
        return fitted_scores(self, X)

    @available_if(lambda self: self._classifier)
    def decision_function(self, X):
        """``X coef_' + intercept_``, shape (n_samples,); positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            The signed distance to the hyperplane times ``||coef_||``.
        """
        return fitted_scores(self, X)

    def predict(self, X):
        """The class of each row of X (one of ``classes_``; the SVMs), or ``X coef_ +
        intercept_`` (the lasso).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``classes_[1]`` where :meth:`decision_function` is positive, else
            ``classes_[0]``; the predicted targets of the lasso.
        """
        if self._classifier:
            return fitted_classes(self, X)
        return self._linear_response(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _lam_on_grid(estimator, X):
    """Whether ``estimator`` chooses lam on the grid of
    :func:`solvers.path._l1svm_grid.grid_selection`: a 1-norm SVM of a class that says
    so (``_GRID_ABOVE_PATH_LIMIT``) where the exact path's estimated work on X is above
    the registry's limit for it (``solvers._registry.SIZE_LIMITS``)."""
    if not (estimator._GRID_ABOVE_PATH_LIMIT and estimator.base == "l1"):
        return False
    n, d = X.shape
    nnz = X.nnz if sp.issparse(X) else n * d
    return over_size("l1_svm", "HOMOTOPY", n, d, nnz) is not None


def _base_model(estimator):
    """The name of the weighted model (a key of :data:`MODELS`): ``base`` of the SVMs."""
    return estimator.base if estimator._classifier else "lasso"


# ``fit`` and ``partial_fit`` of the RS models (004 Algorithm 1 and sec. 4.2), shared by
# RSWeightedSVM and RSWeightedLasso (each names them after itself).


def _rs_weights(estimator, X, y, X_val, y_val, sample_weight):
    """The RS weights of one fit or frame (004 Algorithm 1), with the blocks' defaults."""
    n = X.shape[0]
    block_size = estimator.block_size
    smallest = 2 if X_val is not None else 3  # blocks of >= 2, and rows left out
    if block_size is None and n < smallest:
        raise ValueError(
            f"{type(estimator).__name__} needs at least {smallest} samples: its blocks hold "
            f"at least 2{'' if X_val is not None else ' and leave one out to validate on'}"
            f"; got n_samples={n}. Fit on more samples, or give X_val and y_val."
        )
    if block_size is None:  # 20% of the rows (004 sec. 4.1), and some left out
        block_size = min(max(2, round(0.2 * n)), n if X_val is not None else n - 1)
    n_blocks = estimator.n_blocks
    if n_blocks is None:  # 10 n / B blocks (004 sec. 4.2)
        n_blocks = int(np.ceil(10 * n / block_size))
    return rs_weights(
        X,
        y,
        base=_base_model(estimator),
        block_size=block_size,
        n_blocks=n_blocks,
        X_val=X_val,
        y_val=y_val,
        n_jobs=estimator.n_jobs,
        random_state=estimator.random_state,
        cap=estimator.cap,
        sample_weight=sample_weight,
    )


def _rs_partial_fit(estimator, X, y, X_val=None, y_val=None, sample_weight=None):
    """``partial_fit`` of the RS models: one frame, ``W <- W + rs_weights(frame)``."""
    first = not hasattr(estimator, "weights_")
    X, y, X_val, y_val = estimator._validate(X, y, X_val, y_val, reset=first)
    s = _sample_weights(X, sample_weight)
    weights = _rs_weights(estimator, X, y, X_val, y_val, s)
    if not first:
        weights = estimator.weights_ + weights
    return estimator._fit_weighted(X, y, X_val, y_val, weights, s)


class HybridSVM(ClassifierMixin, _AdaptiveL1):
    """Zou's hybrid SVM (004 eq. 4-5): the 1-norm SVM or SVM2 with weights ``|beta_l2|^-gamma``.

    The weights come from the best 2-norm SVM over ``C_grid``
    (:func:`solvers.weights.hybrid_weights`, 004 sec. 4); the weighted 1-norm SVM
    (``base="l1"``, 004 eq. 6) or SVM2 (``"svm2"``, eq. 7) is fitted with them, at
    ``lam`` or at the lam chosen on validation data from its exact path (see
    :mod:`solvers.adaptive`).

    Parameters
    ----------
    base : {"l1", "svm2"}, default="l1"
        The weighted model: the 1-norm SVM (004 eq. 6) or SVM2 (eq. 7).
    gamma : float > 0, default=1.0
        ``W_j = |beta_j|^-gamma`` (004 sec. 4 tries 1, 2 and 4).
    lam : float > 0, optional
        The penalty; None (default) chooses it on validation data: the best breakpoint
        of the exact path or, for ``base="l1"`` where the path's estimated work
        ``2 (n + min(n, d)) nnz`` is above 1e9 (``solvers._registry.SIZE_LIMITS``), the
        best of 41 lams log-spaced from lam_max to 1e-4 lam_max (see
        :mod:`solvers.adaptive`).
    C_grid : sequence of float > 0, default=(0.1, 0.5, 1, 2, 5, 10)
        The costs of the 2-norm SVM; the best on validation data gives beta.
    validation_fraction : float in (0, 1), default=0.25
        The share of the rows held out when ``fit`` gets no ``X_val``.
    n_jobs : int, optional
        The costs of ``C_grid`` run in parallel (joblib); the result does not depend on it.
    random_state : None, int or numpy.random.Generator, default=None
        Draws the held-out rows (for ``C_grid`` and for lam). None draws other rows
        at every ``fit``, so two fits on the same data differ (on 150 x 12 of
        Ionosphere, in 8 of 12 coefficients); an int gives the same model at every
        fit, and ``sample_weight`` of ones then gives the unweighted model bit for bit.
    solver : str or list of str, optional
        Passed to the weighted model (:class:`solvers.L1SVM` or :class:`solvers.SVM2`);
        None for its default chain.
    solver_options : dict, optional
        Passed to the weighted model.
    tol : float in (0, 1), optional
        Passed to the final fit (its certificate's relative gap; default 1e-6).
    max_iter : int >= 1, optional
        Passed to the final fit (iterations at most of its backends).
    verbose : int, default=0
        Passed to the final fit (1: its planned chain and attempts).

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
        The hybrid weights (``inf``: feature excluded).
    C_ : float
        The cost of the 2-norm SVM that gave them.
    lam_ : float
        The penalty of the fitted model.
    estimator_ : L1SVM or SVM2
        The fitted weighted model.
    coef_ : ndarray of shape (1, n_features)
        That of ``estimator_``.
    intercept_ : ndarray of shape (1,)
        That of ``estimator_``.
    objective_ : float
        That of ``estimator_``.
    certificate_ : solvers.certificates.Certificate
        That of ``estimator_``: the optimality certificate of the weighted model.
    dual_gap_ : float
        That of ``estimator_``: the certificate's relative gap.
    n_iter_ : int
        That of ``estimator_``.
    backend_ : str
        That of ``estimator_``: the backend that solved the weighted model.
    classes_ : ndarray of shape (2,)
        Binary only: more classes are a ValueError (the weights are one per feature
        for one problem); wrap it in ``sklearn.multiclass.OneVsRestClassifier``.

    See Also
    --------
    RSWeightedSVM : The same model with RS weights (004 Algorithm 1).
    solvers.weights.hybrid_weights : The weights alone.
    solvers.AdaptiveLasso : Zou's weights for the lasso.

    Examples
    --------
    >>> from solvers import HybridSVM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 6))
    >>> y = (X[:, 0] - X[:, 1] > 0).astype(int)
    >>> model = HybridSVM(base="svm2", C_grid=(1.0,), random_state=0).fit(X, y)
    >>> model.coef_.shape, bool(model.certificate_.holds)
    ((1, 6), True)
    >>> bool(model.weights_[:2].max() < model.weights_[2:].min())  # the two informative
    True
    >>> bool(model.score(X, y) >= 0.9)
    True
    """

    _scaling_model = "l1_svm"  # C of a scikit-learn SVM is 1 / lam for either base
    __sklearn_tags__ = binary_classifier_tags
    _GRID_ABOVE_PATH_LIMIT = True
    _parameter_constraints = {
        "base": [StrOptions({"l1", "svm2"})],
        "gamma": [POSITIVE],
        "lam": [None, POSITIVE],
        "C_grid": ["array-like"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_jobs": [None, Integral],
        "random_state": _RANDOM_STATE,
        **BACKEND_CONSTRAINTS,
        **{name: CONTROL_CONSTRAINTS[name] for name in FINAL_FIT_CONTROLS},
    }

    def __init__(
        self,
        base="l1",
        *,
        gamma=1.0,
        lam=None,
        C_grid=C_GRID,
        validation_fraction=VALIDATION_FRACTION,
        n_jobs=None,
        random_state=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
    ):
        self.base = base
        self.gamma = gamma
        self.lam = lam
        self.C_grid = C_grid
        self.validation_fraction = validation_fraction
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, X_val=None, y_val=None, sample_weight=None):
        """Hybrid weights from the best 2-norm SVM, then the weighted model.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The training data.
        y : array-like of shape (n_samples,)
            Two classes.
        X_val : array-like or sparse matrix of shape (n_val, n_features), optional
            Validation data for C and lam (with ``y_val``); default: a held-out share
            (``validation_fraction``) of X.
        y_val : array-like of shape (n_val,), optional
            The labels of ``X_val`` (given with it or not at all).
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss (default 1): in the 2-norm SVMs,
            the path lam is chosen on, the held-out scores and the weighted model
            (``X_val`` is unweighted).

        Returns
        -------
        object
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            A hyperparameter is out of range, y does not hold exactly two classes,
            only one of ``X_val`` and ``y_val`` is given, or ``sample_weight`` is not
            n_samples numbers >= 0, not all 0.
        """
        X, y, X_val, y_val = self._validate(X, y, X_val, y_val, reset=True)
        s = _sample_weights(X, sample_weight)
        coef, self.C_ = _best_l2_model(
            X,
            y,
            base=self.base,
            C_grid=self.C_grid,
            X_val=X_val,
            y_val=y_val,
            validation_fraction=self.validation_fraction,
            random_state=self.random_state,
            sample_weight=s,
            n_jobs=self.n_jobs,
        )
        weights = _inverse_power_weights(coef, self.gamma, X)
        del coef  # d numbers less while lam is chosen
        return self._fit_weighted(X, y, X_val, y_val, weights, s)


class RSWeightedSVM(ClassifierMixin, _AdaptiveL1):
    """The 1-norm SVM or SVM2 with randomized-sampling weights (004 Algorithm 1).

    The weights ``W = 1 / V`` count how often each feature is selected on K random
    blocks of B examples (:func:`solvers.weights.rs_weights`); the weighted 1-norm SVM
    (``base="l1"``, 004 eq. 6) or SVM2 (``"svm2"``, eq. 7) is fitted with them, at
    ``lam`` or at the lam chosen on validation data from its exact path (see
    :mod:`solvers.adaptive`). ``partial_fit`` propagates the weights along a stream of
    frames, ``W <- W + rs_weights(frame)`` (004 sec. 4.2).

    Parameters
    ----------
    base : {"l1", "svm2"}, default="l1"
        The weighted model: the 1-norm SVM (004 eq. 6) or SVM2 (eq. 7).
    block_size : int >= 2, optional
        B; default 20% of the rows (004 sec. 4.1).
    n_blocks : int >= 1, optional
        K; default ``ceil(10 n / B)`` (004 sec. 4.2).
    lam : float > 0, optional
        The penalty; None (default) chooses it on validation data.
    validation_fraction : float in (0, 1), default=0.25
        The share of the rows held out to choose lam when ``fit`` gets no ``X_val``.
    cap : float > 0, optional
        A finite weight for features never selected (default ``inf``: excluded).
    n_jobs : int, optional
        Blocks run in parallel (joblib); the result does not depend on it.
    random_state : None, int or numpy.random.Generator, default=None
        Draws the blocks and the held-out rows: None draws others at every ``fit``
        (two fits differ); an int gives the same model at every fit.
    solver : str or list of str, optional
        Passed to the weighted model (:class:`solvers.L1SVM` or :class:`solvers.SVM2`);
        None for its default chain.
    solver_options : dict, optional
        Passed to the weighted model.
    tol : float in (0, 1), optional
        As in :class:`HybridSVM`.
    max_iter : int >= 1, optional
        As in :class:`HybridSVM`.
    verbose : int, default=0
        As in :class:`HybridSVM`.

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
        The RS weights (summed over the frames of ``partial_fit``).
    lam_ : float
        As in :class:`HybridSVM`.
    estimator_ : L1SVM or SVM2
        As in :class:`HybridSVM`.
    coef_ : ndarray of shape (1, n_features)
        As in :class:`HybridSVM`.
    intercept_ : ndarray of shape (1,)
        As in :class:`HybridSVM`.
    objective_ : float
        As in :class:`HybridSVM`.
    certificate_ : solvers.certificates.Certificate
        As in :class:`HybridSVM`.
    dual_gap_ : float
        As in :class:`HybridSVM`.
    n_iter_ : int
        That of ``estimator_``.
    backend_ : str
        As in :class:`HybridSVM`.
    classes_ : ndarray of shape (2,)
        As in :class:`HybridSVM`.

    See Also
    --------
    HybridSVM : The same model with Zou's weights.
    RSWeightedLasso : The lasso with RS weights.
    solvers.weights.rs_weights : The weights alone.

    Examples
    --------
    >>> from solvers import RSWeightedSVM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 6))
    >>> y = (X[:, 0] - X[:, 1] > 0).astype(int)
    >>> model = RSWeightedSVM("svm2", block_size=10, n_blocks=10, random_state=0)
    >>> model = model.fit(X, y)
    >>> model.weights_.shape, bool(model.certificate_.holds)
    ((6,), True)
    >>> bool(model.score(X, y) >= 0.9)
    True

    A stream of frames (004 sec. 4.2): each frame's RS weights are added.

    >>> first = model.partial_fit(X[:20], y[:20]).weights_.copy()
    >>> bool(np.all(model.partial_fit(X[20:], y[20:]).weights_ >= first))
    True
    """

    _scaling_model = "l1_svm"  # C of a scikit-learn SVM is 1 / lam for either base
    __sklearn_tags__ = binary_classifier_tags
    _parameter_constraints = {
        "base": [StrOptions({"l1", "svm2"})],
        "block_size": [None, Interval(Integral, 2, None, closed="left")],
        "n_blocks": [None, Interval(Integral, 1, None, closed="left")],
        "lam": [None, POSITIVE],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "cap": [None, POSITIVE],
        "n_jobs": [None, Integral],
        "random_state": _RANDOM_STATE,
        **BACKEND_CONSTRAINTS,
        **{name: CONTROL_CONSTRAINTS[name] for name in FINAL_FIT_CONTROLS},
    }

    def __init__(
        self,
        base="l1",
        *,
        block_size=None,
        n_blocks=None,
        lam=None,
        validation_fraction=VALIDATION_FRACTION,
        cap=None,
        n_jobs=None,
        random_state=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
    ):
        self.base = base
        self.block_size = block_size
        self.n_blocks = n_blocks
        self.lam = lam
        self.validation_fraction = validation_fraction
        self.cap = cap
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, X_val=None, y_val=None, classes=None):
        """One frame of a stream (004 sec. 4.2): ``W <- W + rs_weights(frame)``, then refit.

        The first call starts from the frame's RS weights. Each call adds the frame's
        RS weights to ``weights_`` and refits the weighted model on this frame alone
        (lam chosen on it as in ``fit``). With an int ``random_state`` every frame's
        blocks are drawn from the same seed.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The frame; the same features as the earlier frames.
        y : array-like of shape (n_samples,)
            Both classes, in every frame (each frame's blocks need them).
        X_val, y_val : array-like, optional
            As in ``fit``.
        classes : array-like of shape (2,), optional
            The two classes (scikit-learn's ``partial_fit`` convention); when given,
            every frame must hold exactly these.

        Returns
        -------
        object
            The estimator (``self``), fitted on this frame with the summed weights.

        Raises
        ------
        ValueError
            ``classes`` are not the two labels of y, or as in ``fit``; also when the
            frame's features or classes differ from the earlier frames'.
        """
        if classes is not None:
            expected = np.unique(np.asarray(classes))
            found = np.unique(np.asarray(y))
            if expected.size != 2 or not np.array_equal(found, expected):
                raise ValueError(
                    f"classes must be the two labels of y; got classes={expected.tolist()} "
                    f"and labels {found[:10].tolist()} in y."
                )
        return _rs_partial_fit(self, X, y, X_val, y_val)


class RSWeightedLasso(RegressorMixin, _AdaptiveL1):
    """The weighted lasso (004 eq. 3) with randomized-sampling weights (004 Algorithm 1).

    As :class:`RSWeightedSVM`, with the lasso path on each block (chosen by R^2) and
    :class:`solvers.WeightedLasso` as the weighted model.

    Parameters
    ----------
    block_size : int >= 2, optional
        B; default 20% of the rows (004 sec. 4.1).
    n_blocks : int >= 1, optional
        K; default ``ceil(10 n / B)`` (004 sec. 4.2).
    lam : float > 0, optional
        The penalty; None (default) chooses it on validation data (by R^2).
    validation_fraction : float in (0, 1), default=0.25
        The share of the rows held out to choose lam when ``fit`` gets no ``X_val``.
    cap : float > 0, optional
        A finite weight for features never selected (default ``inf``: excluded).
    n_jobs : int, optional
        Blocks run in parallel (joblib); the result does not depend on it.
    random_state : None, int or numpy.random.Generator, default=None
        Draws the blocks and the held-out rows: None draws others at every ``fit``
        (two fits differ); an int gives the same model at every fit.
    solver : str or list of str, optional
        Passed to :class:`solvers.WeightedLasso`; None for its default chain.
    solver_options : dict, optional
        Passed to :class:`solvers.WeightedLasso`.
    tol : float in (0, 1), optional
        As in :class:`HybridSVM`.
    max_iter : int >= 1, optional
        As in :class:`HybridSVM`.
    verbose : int, default=0
        As in :class:`HybridSVM`.

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
        The RS weights (summed over the frames of ``partial_fit``).
    lam_ : float
        The penalty of the fitted model.
    estimator_ : WeightedLasso
        The fitted weighted model.
    coef_ : ndarray of shape (n_features,)
        That of ``estimator_``.
    intercept_ : float
        That of ``estimator_``.
    objective_ : float
        That of ``estimator_``.
    certificate_ : solvers.certificates.Certificate
        That of ``estimator_``: the optimality certificate of the weighted lasso.
    dual_gap_ : float
        That of ``estimator_``: the certificate's relative gap.
    n_iter_ : int
        That of ``estimator_``.
    backend_ : str
        That of ``estimator_``: the backend that solved the weighted lasso.

    See Also
    --------
    RSWeightedSVM : The SVMs with RS weights.
    solvers.AdaptiveLasso : The weighted lasso with Zou's weights.
    solvers.weights.rs_weights : The weights alone.

    Examples
    --------
    >>> from solvers import RSWeightedLasso
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 6))
    >>> y = X[:, 0] - 2 * X[:, 3] + 0.1 * rng.standard_normal(40)
    >>> model = RSWeightedLasso(block_size=10, n_blocks=10, random_state=0).fit(X, y)
    >>> model.coef_.shape, bool(model.certificate_.holds)
    ((6,), True)
    >>> bool(model.weights_[[0, 3]].max() == 1.0)  # selected on every block
    True
    >>> bool(model.score(X, y) >= 0.95)
    True
    """

    _classifier = False
    _scaling_model = "lasso"
    _parameter_constraints = {
        k: v for k, v in RSWeightedSVM._parameter_constraints.items() if k != "base"
    }

    def __init__(
        self,
        *,
        block_size=None,
        n_blocks=None,
        lam=None,
        validation_fraction=VALIDATION_FRACTION,
        cap=None,
        n_jobs=None,
        random_state=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
    ):
        self.block_size = block_size
        self.n_blocks = n_blocks
        self.lam = lam
        self.validation_fraction = validation_fraction
        self.cap = cap
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, X_val=None, y_val=None, sample_weight=None):
        """One frame of a stream (004 sec. 4.2): ``W <- W + rs_weights(frame)``, then refit.

        The first call starts from the frame's RS weights. Each call adds the frame's
        RS weights to ``weights_`` and refits the weighted model on this frame alone
        (lam chosen on it as in ``fit``). With an int ``random_state`` every frame's
        blocks are drawn from the same seed.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The frame; the same features as the earlier frames.
        y : array-like of shape (n_samples,)
            The frame's targets.
        X_val : array-like or sparse matrix of shape (n_val, n_features), optional
            As in ``fit``.
        y_val : array-like of shape (n_val,), optional
            As in ``fit``.
        sample_weight : array-like of shape (n_samples,), optional
            The frame's sample weights, as in ``fit``.

        Returns
        -------
        object
            The estimator (``estimator``), fitted on this frame with the summed weights.

        Raises
        ------
        ValueError
            As in ``fit``; also when the frame's features or classes differ from the
            earlier frames'.
        """
        return _rs_partial_fit(self, X, y, X_val, y_val, sample_weight)
