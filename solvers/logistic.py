"""L1, L2 and elastic-net logistic regression, and its penalty chosen by cross-validation.

The model is one loss (:data:`solvers._losses.LOGISTIC`) and one penalty
(:class:`solvers._penalty.Penalty`, the weighted elastic net); everything else is the
package's: the planned chain of backends (:mod:`solvers._planner`: the compiled
proximal Newton of :mod:`solvers._logistic_cd`, then CVXPY's exponential-cone solvers
on :func:`solvers.formulations.sparse_logistic_regression`), the generic certificate
(:func:`solvers.certificates.certificate`), labels, sample weights and one-vs-rest
(:class:`solvers._base.LinearModel`). docs/architecture.md ("Adding a
model") walks through it.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import ClassifierMixin
from sklearn.utils import check_X_y
from sklearn.utils._param_validation import Interval

from sparsify.utils import column_norms, signed_labels

from ._base import (
    BACKEND_CONSTRAINTS,
    CLASS_WEIGHT_CONSTRAINTS,
    CONTROL_CONSTRAINTS,
    FINAL_FIT_CONTROLS,
    POSITIVE,
    binary_classifier_tags,
)
from ._losses import LOGISTIC
from ._penalty import check_penalty_weights, l1_lam_max
from ._problem_fit import LAM_MAX_L1_RATIO, ProblemModel, null_correlations
from .cv import _fold_scores, _part, _PathCV, weighted_folds
from .exceptions import PathWarning
from .path import Path
from .path._path import _LinearClassifierAt

__all__ = ["SparseLogisticRegression", "SparseLogisticRegressionCV"]

_L1_RATIO = [Interval(Real, 0, 1, closed="both")]


def _lam_max(X, y, weights, l1_ratio, s):
    """The smallest lam at which every coefficient of positive finite weight is 0.

    ``max_j |X_j'Ya| / (l1_ratio W_j)`` at the fit of the unpenalised features alone (the
    constant model when there are none), exact for ``l1_ratio = 1``; with unpenalised
    features and a 2-norm part, their fit depends on lam, and the fit without it is used.
    When the unpenalised features separate the classes that fit has no optimum: ``a``
    tends to 0 (1e-300 where the fit stops) and lam_max is 0; a correlation below
    rounding of its bound ``||X_j|| ||s||`` counts as 0.
    """
    free = np.isfinite(weights) & (weights == 0)
    if np.any(free):
        from ._logistic_cd import ROUNDING, logistic_prox_newton

        only_free = np.where(free, 0.0, np.inf)
        fit = logistic_prox_newton(X, y, 1.0, only_free, sample_weight=s)
        fitted = np.asarray(X @ fit.coef).ravel() + fit.intercept
        correlations = np.asarray(X.T @ (y * LOGISTIC.dual_point(y, fitted, s))).ravel()
        bound = column_norms(X) * np.linalg.norm(np.ones(y.size) if s is None else s)
        correlations[np.abs(correlations) <= ROUNDING * bound] = 0.0  # rounding of it
    else:
        correlations = null_correlations(LOGISTIC, X, y, s)
    return l1_lam_max(correlations, weights) / max(l1_ratio, LAM_MAX_L1_RATIO)


class SparseLogisticRegression(ClassifierMixin, ProblemModel):
    """L1, L2 and elastic-net logistic regression with penalty weights, intercept unpenalised.

    Primal (solved):
    ``min_{w,b} sum_i s_i log(1 + exp(-y_i (x_i'w + b)))
    + lam (l1_ratio sum_j W_j |w_j| + (1 - l1_ratio)/2 ||w||^2)``.
    Dual: ``max_a sum_i s_i H(a_i / s_i) - sum_j [|X_j'Ya| - lam l1_ratio W_j]_+^2 /
    (2 lam (1 - l1_ratio))`` on ``0 <= a <= s``, ``y'a = 0`` (H the binary entropy;
    at ``l1_ratio = 1`` the second term is the constraint ``|X_j'Ya| <= lam W_j``, an
    equality for ``W_j = 0``). Map: ``a_i = s_i sigma(-y_i f_i)``, the probability the
    model gives the *other* class, times the sample weight.

    Same model as scikit-learn's ``LogisticRegression(C=1/lam, l1_ratio=l1_ratio)``
    (``penalty="l1"``, ``"l2"`` or ``"elasticnet"`` before scikit-learn 1.8) with unit
    weights, whose objective is this one divided by lam, when its intercept is not
    penalised (liblinear's is, unless ``intercept_scaling`` is large); glmnet's
    binomial family with ``alpha = l1_ratio``, ``lambda = lam / n`` and
    ``penalty.factor = W``; skglm's ``SparseLogisticRegression(alpha=lam / n)`` at
    ``l1_ratio = 1``.

    Sample weights: ``fit(X, y, sample_weight=s)`` multiplies sample i's loss by
    ``s_i``; an integer weight is the same as repeating the row, 0 the same as dropping
    it.

    Parameters
    ----------
    lam : float > 0, default=1.0
        The penalty (``1 / C`` in scikit-learn). Above :meth:`lam_max` every
        coefficient of positive weight is 0 (at ``l1_ratio > 0``).
    l1_ratio : float in [0, 1], default=1.0
        The L1 share of the penalty: 1 the (weighted) L1 penalty, 0 the squared 2-norm,
        between them the elastic net.
    weights : array of shape (n_features,), optional
        Weights W of the L1 part, each >= 0 or +inf (default 1; 0: not L1-penalised,
        +inf: excluded, its coefficient is 0). Adaptive weights:
        ``weights=solvers.hybrid_weights(X, y, base="svm2")`` (004 eq. 4-5), or
        ``|w_j|^-gamma`` of a fit at ``l1_ratio=0``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the sample weights of each class, as in scikit-learn.
    solver : str or list of str, optional
        ``"PROX_NEWTON"`` (proximal Newton with coordinate descent on working sets of
        features, :mod:`solvers._logistic_cd`), CVXPY's exponential-cone backends
        (Clarabel, ECOS, SCS), or a chain of them; None (default) for the planned chain,
        as in :class:`solvers.SVMDual`.
    solver_options : dict, optional
        As in :class:`solvers.SVMDual`.
    tol : float in (0, 1), optional
        As in :class:`solvers.SVMDual`.
    max_iter : int >= 1, optional
        As in :class:`solvers.SVMDual`.
    verbose : int, default=0
        As in :class:`solvers.SVMDual`.
    warm_start : bool, default=True
        Start from the last answer on the same data (a new lam, l1_ratio or weights).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        w; at ``l1_ratio > 0`` the features with ``coef_ != 0`` are selected.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        b (unpenalised).
    objective_ : float or ndarray of shape (n_classes,)
        The primal objective above at (coef_, intercept_).
    problem_ : cvxpy.Problem or list of them
        Set when a CVXPY backend solved it.
    backend_ : str or list of str
        The backend that solved it.
    solve_attempts_ : list of dict
        What ran and why (as in :class:`solvers.SVMDual`).
    certificate_ : solvers.certificates.Certificate or list of them
        The optimality certificate (:func:`solvers.certificates.certificate`).
    dual_gap_ : float or ndarray of shape (n_classes,)
        The certificate's relative duality gap.
    n_iter_ : int or ndarray of shape (n_classes,)
        Working sets (proximal Newton) or the CVXPY solver's iterations.
    classes_ : ndarray of shape (n_classes,)
        The class labels; more than two are fitted one-vs-rest (``estimators_``), as in
        :class:`solvers.SVMDual`.

    See Also
    --------
    SparseLogisticRegressionCV : The penalty chosen by cross-validation.
    solvers.formulations.sparse_logistic_regression : The CVXPY formulation.
    sklearn.linear_model.LogisticRegression : The peer (``C = 1 / lam``).

    Examples
    --------
    >>> from solvers import SparseLogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((60, 8))
    >>> y = (X[:, 0] - X[:, 1] + 0.5 * rng.standard_normal(60) > 0).astype(int)
    >>> clf = SparseLogisticRegression(lam=2.0).fit(X, y)
    >>> clf.coef_.shape, bool(clf.certificate_.holds)
    ((1, 8), True)

    The objective, and scikit-learn's answer to the same problem at ``C = 1 / lam``,
    which the certificate's dual bounds from below:

    >>> signs = 2 * y - 1
    >>> def objective(w, b):
    ...     return np.logaddexp(0, -signs * (X @ w + b)).sum() + 2.0 * np.abs(w).sum()
    >>> bool(np.isclose(clf.objective_, objective(clf.coef_[0], clf.intercept_[0])))
    True
    >>> from sklearn.linear_model import LogisticRegression
    >>> peer = LogisticRegression(C=0.5, l1_ratio=1.0, solver="saga", tol=1e-10,
    ...                           max_iter=100000).fit(X, y)
    >>> peer_objective = objective(peer.coef_[0], peer.intercept_[0])
    >>> bool(clf.certificate_.dual <= peer_objective + 1e-9)
    True
    >>> bool(np.isclose(clf.objective_, peer_objective, rtol=1e-6))
    True
    >>> clf.predict_proba(X[:2]).shape
    (2, 2)
    """

    _MODEL = "logistic"
    _LOSS = "logistic"
    #: Proximal Newton reads X by columns, a CSC matrix in place: an unsorted CSR X (a
    #: ``TfidfVectorizer``'s) is sorted by one conversion to CSC, where sorting it in
    #: CSR took two and held both copies (2000 Debian documents: 1.0 -> 0.5 MiB).
    _SPARSE_FORMAT = "csc"
    _parameter_constraints = {
        "lam": [POSITIVE],
        "l1_ratio": _L1_RATIO,
        "weights": ["array-like", None],
        **CLASS_WEIGHT_CONSTRAINTS,
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }

    def __init__(
        self,
        lam=1.0,
        *,
        l1_ratio=1.0,
        weights=None,
        class_weight=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.lam = lam
        self.l1_ratio = l1_ratio
        self.weights = weights
        self.class_weight = class_weight
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start

    @classmethod
    def lam_max(cls, X, y, weights=None, *, l1_ratio=1.0, sample_weight=None):
        """The smallest lam at which every coefficient of positive finite weight is 0.

        ``max_j |X_j'Ya| / (l1_ratio W_j)`` with ``a = s sigma(-y f)`` at the fit of the
        unpenalised features alone (the constant model, at the log-odds of the classes,
        when there are none): the KKT conditions at ``w = 0``, as glmnet's first lambda.
        Below ``l1_ratio = 1e-3`` it is that of 1e-3 (glmnet's rule: the 2-norm
        penalty alone sets no coefficient to 0).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        weights : array-like of shape (n_features,), optional
            Each >= 0 or +inf (default 1).
        l1_ratio : float in [0, 1], default=1.0
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss (default 1), as in ``fit``.

        Returns
        -------
        float
        """
        X, y = check_X_y(X, y, accept_sparse=("csr", "csc"), dtype=np.float64)
        classes = np.unique(y)
        if classes.size != 2:
            raise ValueError(f"y must hold exactly two classes; got {classes.size}.")
        weights = check_penalty_weights(weights, X.shape[1])
        s = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        if s is not None:
            kept = s > 0
            X, y, s = X[kept], y[kept], s[kept]
        return _lam_max(X, signed_labels(y, classes), weights, float(l1_ratio), s)

    def predict_proba(self, X):
        """The probability of each class: ``sigma(f)`` for ``classes_[1]`` with two classes;
        with more, each one-vs-rest probability normalised to sum 1 (scikit-learn's
        ``multi_class="ovr"``).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The probability of each class (columns in the order of ``classes_``).
        """
        return _probabilities(self.decision_function(X))

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The logarithm of each class's probability.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))


def _probabilities(scores):
    """The class probabilities of decision values: ``sigma(f)`` for ``classes_[1]`` (one
    column of scores), the one-vs-rest ``sigma(f_k)`` normalised to sum 1 (several)."""
    scores = np.asarray(scores)
    probabilities = np.exp(-np.logaddexp(0.0, -scores))
    if scores.ndim == 1:
        return np.column_stack((1.0 - probabilities, probabilities))
    return probabilities / probabilities.sum(axis=1, keepdims=True)


class _LogisticAt(_LinearClassifierAt):
    """The model of one lam of a fold's grid, with probabilities for scorers such as
    ``"neg_log_loss"`` (glmnet's deviance)."""

    def predict_proba(self, X):
        return _probabilities(self.decision_function(X))


class _GridPath(Path):
    """A fold's models on the grid of lams (each exact at its lam, which is where the CV
    curve is evaluated), with probabilities."""

    def _model(self, coef, intercept):
        return _LogisticAt(coef, intercept, self._classes)


def _grid_cv(estimator, X, y, s):
    """The CV curve of SparseLogisticRegressionCV on its grid of lams, the folds' fits
    warm-started along it; lam chosen as `_PathCV` chooses it, then the certified refit."""
    weight = np.ones(X.shape[0]) if s is None else s
    folds = weighted_folds(estimator, X, y, weight)
    grid = _grid(estimator, X, y, s)
    estimator.cv_lams_ = grid
    signs = signed_labels(y, estimator.classes_)
    weights = check_penalty_weights(estimator.weights, X.shape[1])
    scales = [weight.sum() / weight[train].sum() for train, _ in folds]
    runs = Parallel(n_jobs=estimator.n_jobs)(
        delayed(_fold_grid)(
            X[train], signs[train], _part(s, train), weights, estimator.l1_ratio, grid / scale,
            X[test], y[test], _part(s, test), estimator._scoring(), estimator.classes_,
        )  # fmt: skip
        for (train, test), scale in zip(folds, scales, strict=True)
    )
    estimator.cv_scores_ = np.array([scores for scores, _ in runs])
    for message in dict.fromkeys(m for _, messages in runs for m in messages):
        warnings.warn(f"cross-validation fold: {message}", PathWarning, stacklevel=4)
    estimator._choose_lam()
    estimator.estimator_ = SparseLogisticRegression(
        lam=estimator.lam_,
        l1_ratio=estimator.l1_ratio,
        weights=estimator.weights,
        solver=estimator.solver,
        solver_options=estimator.solver_options,
        **{name: getattr(estimator, name) for name in FINAL_FIT_CONTROLS},
    ).fit(X, y, sample_weight=s)
    for name in ("coef_", "intercept_", "certificate_", "dual_gap_", "objective_", "n_iter_"):
        setattr(estimator, name, getattr(estimator.estimator_, name))

def _grid(estimator, X, y, s):
    """The lams of the CV curve, decreasing."""
    if not isinstance(estimator.lams, Integral):
        lams = np.asarray(estimator.lams, dtype=np.float64)
        if lams.ndim != 1 or lams.size == 0 or not np.all(np.isfinite(lams) & (lams > 0)):
            raise ValueError(
                f"lams must be a number of lams or a 1-D array of finite lams > 0; got "
                f"{estimator.lams!r}."
            )
        return np.unique(lams)[::-1]
    kept = slice(None) if s is None else s > 0
    lam_max = SparseLogisticRegression.lam_max(
        X[kept], y[kept], estimator.weights, l1_ratio=estimator.l1_ratio,
        sample_weight=None if s is None else s[kept],
    )  # fmt: skip
    if not lam_max > 0:
        return np.array([1.0])  # no penalised feature can enter: any lam is the same
    ratio = estimator.lam_min_ratio
    if ratio is None:
        ratio = 1e-4 if X.shape[0] > X.shape[1] else 1e-2
    return np.geomspace(lam_max, ratio * lam_max, estimator.lams)


class SparseLogisticRegressionCV(ClassifierMixin, _PathCV):
    """Logistic regression with lam chosen by K-fold cross-validation on a warm-started grid.

    The grid is ``lams`` log-spaced values from :meth:`SparseLogisticRegression.lam_max`
    down to ``lam_min_ratio`` times it (glmnet's ``cv.glmnet``; scikit-learn's
    ``LogisticRegressionCV`` with ``Cs = 1 / lams``). Each fold's models are computed
    from the largest lam down, each starting from the last (warm starts, as glmnet's
    path), by the proximal Newton of :mod:`solvers._logistic_cd`; fold k is evaluated at
    ``lam * n_k / n`` (the objective sums the loss over the samples; module docstring of
    :mod:`solvers.cv`). lambda.min and lambda.1se are chosen as in
    :class:`solvers.L1SVMCV`, and :class:`SparseLogisticRegression` is refitted on all
    the data (certified). Labels: two classes.

    Parameters
    ----------
    l1_ratio : float in [0, 1], default=1.0
        As in :class:`SparseLogisticRegression`.
    weights : array-like of shape (n_features,), optional
        Penalty weights of the L1 part, each >= 0 or +inf (default 1), the same in
        every fold and in the final fit.
    class_weight : dict, "balanced" or None, default=None
        As in :class:`SparseLogisticRegression`.
    cv : int, cross-validation splitter or iterable, default=5
        As scikit-learn's ``cv`` (an int: StratifiedKFold, not shuffled).
    scoring : str, callable or None
        Higher is better: None (accuracy), a scikit-learn scorer name (``"neg_log_loss"``
        is glmnet's deviance), a scorer or a metric, as in :class:`solvers.L1SVMCV`.
    selection : {"min", "1se"}, default="min"
        Refit with ``lam_min_`` or ``lam_1se_`` (sparser).
    lam_min_ratio : float in (0, 1), optional
        The grid ends at ``lam_min_ratio * lam_max``; None (default): 1e-4 when
        n_samples > n_features, else 1e-2 (glmnet's ``lambda.min.ratio``).
    lams : int or array-like, default=30
        An int: that many log-spaced lams from lam_max down; an array: these lams (of
        the whole data, each > 0).
    n_jobs : int, optional
        Folds run in parallel with joblib (None: one at a time).
    solver : str or list of str, optional
        The final fit's backend chain, as in :class:`SparseLogisticRegression` (the
        folds use proximal Newton).
    solver_options : dict, optional
        The final fit's backend options.
    tol : float in (0, 1), optional
        As in :class:`solvers.HybridSVM`.
    max_iter : int >= 1, optional
        As in :class:`solvers.HybridSVM`.
    verbose : int, default=0
        As in :class:`solvers.HybridSVM`.

    Attributes
    ----------
    lam_ : float
        The lam of the final fit: ``lam_min_`` or ``lam_1se_``.
    lam_min_ : float
        glmnet's "lambda.min": the lam of the best mean score (the largest among ties).
    lam_1se_ : float
        glmnet's "lambda.1se": the largest lam within one standard error of the best.
    cv_lams_ : ndarray of shape (n_lams,)
        The grid, decreasing, in the scale of the whole data.
    cv_scores_ : ndarray of shape (n_folds, n_lams)
        Validation score of each fold at each lam.
    cv_mean_ : ndarray of shape (n_lams,)
        Mean of ``cv_scores_`` over the folds.
    cv_std_ : ndarray of shape (n_lams,)
        Standard deviation over the folds (ddof=1).
    cv_se_ : ndarray of shape (n_lams,)
        ``cv_std_ / sqrt(n_folds)``.
    estimator_ : SparseLogisticRegression
        The final fit on all the data at ``lam_``.
    coef_ : ndarray of shape (1, n_features)
        That of ``estimator_``.
    intercept_ : ndarray of shape (1,)
        That of ``estimator_``.
    objective_ : float
        That of ``estimator_``.
    certificate_ : solvers.certificates.Certificate
        That of ``estimator_``.
    dual_gap_ : float
        That of ``estimator_``.
    n_iter_ : int
        That of ``estimator_``.
    classes_ : ndarray of shape (2,)
        The two labels.

    See Also
    --------
    SparseLogisticRegression : The estimator refitted at ``lam_``.
    sklearn.linear_model.LogisticRegressionCV : The peer (``Cs = 1 / lams``).

    Examples
    --------
    >>> from solvers import SparseLogisticRegressionCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((80, 10))
    >>> y = (X[:, 0] - X[:, 1] + 0.5 * rng.standard_normal(80) > 0).astype(int)
    >>> model = SparseLogisticRegressionCV(cv=3, lams=10).fit(X, y)
    >>> model.cv_scores_.shape, bool(model.certificate_.holds)
    ((3, 10), True)
    >>> bool(model.cv_mean_[model.cv_lams_ == model.lam_][0] == model.cv_mean_.max())
    True
    """

    _estimator_class = SparseLogisticRegression
    _parameter_constraints = {
        **_PathCV._parameter_constraints,
        "l1_ratio": _L1_RATIO,
        "class_weight": CLASS_WEIGHT_CONSTRAINTS["class_weight"],
        "lam_min_ratio": [Interval(Real, 0, 1, closed="neither"), None],
        "lams": [Interval(Integral, 1, None, closed="left"), "array-like"],
    }

    def __init__(
        self,
        *,
        l1_ratio=1.0,
        weights=None,
        class_weight=None,
        cv=5,
        scoring=None,
        selection="min",
        lam_min_ratio=None,
        lams=30,
        n_jobs=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
    ):
        self.l1_ratio = l1_ratio
        self.class_weight = class_weight
        super().__init__(
            weights=weights, cv=cv, scoring=scoring, selection=selection,
            lam_min_ratio=lam_min_ratio, lams=lams, n_jobs=n_jobs, solver=solver,
            solver_options=solver_options, tol=tol, max_iter=max_iter, verbose=verbose,
        )  # fmt: skip

    __sklearn_tags__ = binary_classifier_tags
    #: Cross-validation on a warm-started grid of lams (a function, declared as data).
    _cross_validation = staticmethod(_grid_cv)


def _fold_grid(X, y, s, weights, l1_ratio, lams, X_val, y_val, s_val, scoring, classes):
    """One fold: the models at every lam (warm-started from the last), scored on its
    validation part; the messages of the lams whose fit did not converge."""
    from ._logistic_cd import logistic_prox_newton

    if s is not None:  # the kernel takes positive weights: a sample of weight 0 is dropped
        X, y, s = X[s > 0], y[s > 0], s[s > 0]
    coefs = np.zeros((lams.size, X.shape[1]))
    intercepts = np.zeros(lams.size)
    messages = []
    start = {}
    for k, lam in enumerate(lams):
        result = logistic_prox_newton(
            X, y, lam, weights, l1_ratio=l1_ratio, sample_weight=s, **start
        )
        if not result.converged:
            messages.append(
                f"the fit at lam={lam:.6g} stopped at a relative duality gap of "
                f"{result.relative_gap:.2e}"
            )
        coefs[k], intercepts[k] = result.coef, result.intercept
        start = {"coef": result.coef, "intercept": result.intercept,
                 "working_set": result.working_set}  # fmt: skip
    path = _GridPath(
        lams, coefs, intercepts, [np.flatnonzero(c) for c in coefs],
        interpolation="constant", classes=classes,
    )  # fmt: skip
    return _fold_scores(path, X_val, y_val, lams, scoring, s_val), messages

