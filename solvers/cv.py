"""lam by K-fold cross-validation on exact paths, as glmnet's cv.glmnet and LassoLarsCV do.

`WeightedLassoCV`, `L1SVMCV` and `SVM2CV` choose the penalty of `WeightedLasso`
(004 eq. 3), `L1SVM` (eq. 6) and `SVM2` (eq. 7) by K-fold cross-validation, then
refit that estimator on all the data (so the final model is certified:
``certificate_``, ``dual_gap_``).

**One lam for data of different sizes.** The objectives sum the loss over the
samples, so the same model on n samples and on a training part of ``n_k``
samples has penalties in the ratio ``n / n_k``. The CV curve is indexed by the
lam of the *whole* data: fold k is evaluated at ``lam * n_k / n``. This is
glmnet's and scikit-learn's convention (their objectives average the loss; for
the lasso ``alpha = lam / (2 n)``), so `WeightedLassoCV` on the folds of
`sklearn.linear_model.LassoCV` or `LassoLarsCV` computes the same curve.

**The grid** (``lams=None``). Every fold's path is exact (`solvers.path`), so the
fold models are known at every lam, not only on a grid. ``cv_lams_`` is lam_max
of the whole data, then every breakpoint of every fold's path (in the whole
data's scale) below it, down to ``lam_min_ratio * lam_max``: the lams where
some fold's model changes direction (as LassoLarsCV's grid, the union of its
folds' LARS breakpoints). For the 1-norm SVM, whose fold solutions are constant
between their breakpoints (and jump at them), the geometric midpoint of every
two consecutive grid points is added: on each piece between them every fold
model is fixed, so the CV curve is piecewise constant and its maximum over all
lams in the range is found exactly. For the lasso and SVM2 the fold models are
linear in lam between grid points and the curve is evaluated exactly at each
(it is not maximised between them). ``lams`` may instead be a number of
log-spaced points between lam_max and ``lam_min_ratio * lam_max`` (glmnet's
``nlambda``), or the lams themselves. A fold path that stops early (a
`PathWarning`) limits the grid to the lams where every fold's model is exact.

**Choosing lam.** ``cv_scores_[k, i]`` is the validation score of fold k at
``cv_lams_[i]``; ``cv_mean_`` its mean over folds (each fold counts once, as in
scikit-learn's CV estimators) and ``cv_se_ = cv_std_ / sqrt(K)`` (``cv_std_``
with ``ddof=1``, glmnet's ``cvsd``). ``lam_min_`` ("lambda.min") is the lam of
the best mean score, the largest among ties; ``lam_1se_`` ("lambda.1se") the
largest lam whose mean score is within one standard error of it,
``cv_mean_ >= max(cv_mean_) - cv_se_[best]`` (Hastie, Tibshirani & Friedman,
The Elements of Statistical Learning, sec. 7.10; glmnet's rule). ``selection``
says which one the final model is fitted with.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import ClassifierMixin, RegressorMixin, is_classifier
from sklearn.metrics import get_scorer_names
from sklearn.model_selection import check_cv
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._base import (
    BACKEND_CONSTRAINTS,
    CONTROL_CONSTRAINTS,
    FINAL_FIT_CONTROLS,
    LinearModel,
    binary_classifier_tags,
)
from .exceptions import PathWarning
from .lasso import WeightedLasso
from .path._path import best_index
from .svm import L1SVM, SVM2

__all__ = ["WeightedLassoCV", "L1SVMCV", "SVM2CV"]

#: A lam of the grid within this relative distance of a fold's breakpoint is that
#: breakpoint (mapping to the fold's scale and back rounds).
_SNAP_RTOL = 1e-12
#: ``plot`` marks each lam of a grid of at most this many.
_MARKED = 100
#: The fitted attributes copied from the refitted estimator.
_COPIED = ("coef_", "intercept_", "certificate_", "dual_gap_", "objective_", "n_iter_")


def weighted_folds(estimator, X, y, weight):
    """The folds of ``estimator.cv`` on (X, y), each with a positive ``weight`` (the
    sample weights, ones when there are none) in its training and its validation part."""
    splitter = check_cv(estimator.cv, y, classifier=is_classifier(estimator))
    folds = list(splitter.split(X, y))
    for train, test in folds:
        if not (weight[train].sum() > 0 and weight[test].sum() > 0):
            raise ValueError(
                "sample_weight is 0 on every sample of a training or validation part of "
                "the folds; give those samples weight or choose other folds (cv)."
            )
    return folds


def path_cv(estimator, X, y, s):
    """Cross-validate lam on the folds' exact paths (``_estimator_class.path``) and refit
    on all of X, y: the cross-validation of every `_PathCV` but the logistic one."""
    weight = np.ones(X.shape[0]) if s is None else s
    folds = weighted_folds(estimator, X, y, weight)
    scales = np.array([weight.sum() / weight[train].sum() for train, _ in folds])
    requested, lam_max = estimator._requested_lams(X, y, s)
    lowest = requested.min() if lam_max is None else estimator.lam_min_ratio * lam_max
    parallel = Parallel(n_jobs=estimator.n_jobs)
    runs = parallel(
        delayed(_fold_path)(
            estimator._estimator_class.path, X[train], y[train], estimator.weights, lam,
            _part(s, train),
        )
        for (train, _), lam in zip(folds, lowest / scales, strict=True)
    )
    paths = [path for path, _ in runs]
    for message in dict.fromkeys(m for _, messages in runs for m in messages):
        warnings.warn(f"cross-validation fold: {message}", PathWarning, stacklevel=4)
    ends = np.array([path.lams[-1] for path in paths]) * scales
    if lam_max is None:
        grid = requested
    elif lam_max <= 0:
        grid = np.array([1.0])  # no penalised feature can enter: any lam > 0 is the same
    elif estimator.lams is None:
        grid = estimator._union_grid(paths, scales, lam_max, lowest)
    else:
        grid = requested
    exact = grid >= ends.max() * (1.0 - _SNAP_RTOL)
    if not np.any(exact):
        raise ValueError(
            f"every lam of the grid is below the end of a fold's path ({ends.max():.6g}); "
            "the fold paths stopped early (see the PathWarning): pass larger lams."
        )
    grid = grid[exact]
    estimator.cv_lams_ = grid
    estimator.cv_scores_ = np.array(
        parallel(
            delayed(_fold_scores)(
                path, X[test], y[test], _fold_lams(path, grid / scale), estimator._scoring(),
                _part(s, test),
            )  # fmt: skip
            for path, (_, test), scale in zip(paths, folds, scales, strict=True)
        )
    )
    estimator._choose_lam()
    estimator.path_, messages = _fold_path(
        estimator._estimator_class.path, X, y, estimator.weights, lowest, s
    )
    for message in messages:
        warnings.warn(f"the path on all the data: {message}", PathWarning, stacklevel=4)
    estimator.estimator_ = estimator._estimator_class(
        lam=estimator.lam_,
        weights=estimator.weights,
        solver=estimator.solver,
        solver_options=estimator.solver_options,
        **{name: getattr(estimator, name) for name in FINAL_FIT_CONTROLS},
    ).fit(X, y, sample_weight=s)
    for name in _COPIED:
        setattr(estimator, name, getattr(estimator.estimator_, name))


class _PathCV(LinearModel):
    """The CV curve on the folds' exact paths, lambda.min/lambda.1se, the certified refit.

    The public classes declare ``_estimator_class`` (`WeightedLasso`, `L1SVM` or
    `SVM2`, whose ``path`` and ``lam_max`` are used), the default scoring
    (``_default_scoring``; None: accuracy) and list scikit-learn's ``RegressorMixin``
    or ``ClassifierMixin`` (validation, labels, ``predict``). A classifier takes two
    classes only: each class's own lam would not be one ``lam_``.
    """

    _one_vs_rest = False
    _default_scoring = None  # accuracy (solvers.path.Path.scores)
    #: How it cross-validates (a function of the estimator, X, y and the sample weights,
    #: declared as data):
    #: on the folds' exact paths; SparseLogisticRegressionCV on a warm-started grid.
    _cross_validation = staticmethod(path_cv)

    _parameter_constraints = {
        "weights": ["array-like", None],
        "cv": ["cv_object"],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "selection": [StrOptions({"min", "1se"})],
        "lam_min_ratio": [Interval(Real, 0, 1, closed="neither")],
        "lams": [Interval(Integral, 1, None, closed="left"), "array-like", None],
        "n_jobs": [Integral, None],
        **BACKEND_CONSTRAINTS,
        **{name: CONTROL_CONSTRAINTS[name] for name in FINAL_FIT_CONTROLS},
    }

    def __init__(
        self,
        *,
        weights=None,
        cv=5,
        scoring=None,
        selection="min",
        lam_min_ratio=1e-3,
        lams=None,
        n_jobs=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
    ):
        self.weights = weights
        self.cv = cv
        self.scoring = scoring
        self.selection = selection
        self.lam_min_ratio = lam_min_ratio
        self.lams = lams
        self.n_jobs = n_jobs
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose

    def fit(self, X, y, sample_weight=None):
        """Cross-validate lam on the folds' exact paths, then refit on all of X, y.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The training data (dense, CSR or CSC).
        y : array-like of shape (n_samples,)
            Real targets (`WeightedLassoCV`) or two classes.
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's loss (default 1), in the fold paths,
            the validation scores (weighted, as ``LassoCV``'s) and the final fit; a
            fold's lam is scaled by its share of the total weight. Samples of weight 0
            are left out.

        Returns
        -------
        object
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            Bad X, y, weights or sample_weight (naming them), a hyperparameter out of
            range, or a grid entirely below the end of the fold paths.
        """
        return super().fit(X, y, sample_weight=sample_weight)

    def _fit_weighted(self, X, y, sample_weight, fit):
        """``fit(X, y, sample_weight)`` with every row kept: the folds index the rows of
        X (the fold paths and the final fit leave out the samples of weight 0)."""
        fit(X, y, sample_weight)

    def _fit_problem(self, X, y, s):
        if is_classifier(self):
            # The folds see the original labels, so that a scorer's pos_label applies.
            y = self.classes_[(y > 0).astype(int)]
        self._cross_validation(self, X, y, s)

    def plot(self, ax=None):
        """Draw the CV curve with lambda.min and lambda.1se, as glmnet's ``plot(cv.fit)``.

        The mean validation score over the folds at each lam of ``cv_lams_`` (a line,
        with markers when there are at most 100 lams), a shaded band of one standard
        error (``cv_se_``) around it, on a log scale of lam decreasing to the right (as
        `solvers.path.Path.plot`), and dashed vertical lines at ``lam_min_`` and
        ``lam_1se_``. The grid of the exact paths often holds thousands of lams, where
        error bars would merge into a solid band; the band shows the same. The legend
        sits above the axes, off the curve.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw (default: ``plt.gca()``).

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn on (the figure is not shown).
        """
        check_is_fitted(self, "cv_mean_")
        if ax is None:
            import matplotlib.pyplot as plt

            ax = plt.gca()
        lams, mean, se = self.cv_lams_, self.cv_mean_, self.cv_se_
        marker = "o" if lams.size <= _MARKED else None
        ax.plot(lams, mean, color="C0", marker=marker, markersize=3, label="mean over the folds")
        ax.fill_between(lams, mean - se, mean + se, color="C0", alpha=0.25, linewidth=0,
                        label="+- 1 standard error")  # fmt: skip
        for name, color, style in (("lam_min_", "C1", "--"), ("lam_1se_", "C2", ":")):
            lam = getattr(self, name)
            ax.axvline(lam, color=color, linestyle=style, label=f"{name} = {lam:.4g}")
        ax.set_xscale("log")
        if not ax.xaxis_inverted():
            ax.invert_xaxis()
        ax.set_xlabel("lam (log scale)")
        ax.set_ylabel(f"validation score ({_scoring_name(self._scoring())})")
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.02), ncol=2, fontsize="small",
                  frameon=False, borderaxespad=0.0)  # fmt: skip
        return ax

    def _scoring(self):
        """``scoring``, or the default score of the folds when it is None."""
        return self._default_scoring if self.scoring is None else self.scoring

    def _requested_lams(self, X, y, s):
        """The lams asked for (or None) and lam_max of the whole data (None when not needed)."""
        if self.lams is not None and not isinstance(self.lams, Integral):
            lams = np.asarray(self.lams, dtype=np.float64)
            if lams.ndim != 1 or lams.size == 0 or not np.all(np.isfinite(lams) & (lams > 0)):
                raise ValueError(
                    "lams must be None, a number of lams, or a 1-D array of finite lams > 0; "
                    f"got {self.lams!r}."
                )
            return np.unique(lams)[::-1], None
        lam_max = self._estimator_class.lam_max(
            X, y, self.weights, sample_weight=s
        )
        if self.lams is None or lam_max <= 0:
            return None, lam_max
        return np.geomspace(lam_max, self.lam_min_ratio * lam_max, self.lams), lam_max

    def _union_grid(self, paths, scales, lam_max, lowest):
        """lam_max, every fold breakpoint below it down to ``lowest`` (and the midpoints)."""
        breakpoints = np.concatenate([p.lams * s for p, s in zip(paths, scales, strict=True)])
        # A fold's path ends at lowest (in its own scale): rescaled, it may come back a
        # rounding above lowest, which is no breakpoint of its own.
        above = breakpoints > lowest * (1.0 + _SNAP_RTOL)
        inside = breakpoints[(breakpoints < lam_max * (1.0 - _SNAP_RTOL)) & above]
        grid = np.unique(np.concatenate(([lam_max, lowest], inside)))[::-1]
        if paths[0]._interpolation == "constant":
            middles = np.sqrt(grid[:-1] * grid[1:])
            grid = np.sort(np.concatenate((grid, middles)))[::-1]
        return grid

    def _choose_lam(self):
        """cv_mean_, cv_std_, cv_se_, lam_min_ (lambda.min), lam_1se_ (lambda.1se), lam_."""
        scores = self.cv_scores_
        self.cv_mean_ = scores.mean(axis=0)
        self.cv_std_ = scores.std(axis=0, ddof=1)
        self.cv_se_ = self.cv_std_ / np.sqrt(scores.shape[0])
        best = best_index(self.cv_mean_)
        self.lam_min_ = float(self.cv_lams_[best])
        within = self.cv_mean_ >= self.cv_mean_[best] - self.cv_se_[best]
        self.lam_1se_ = float(self.cv_lams_[np.argmax(within)])  # the largest such lam
        self.lam_ = self.lam_min_ if self.selection == "min" else self.lam_1se_


def _scoring_name(scoring):
    """What the scores are, for the plot's axis."""
    if scoring is None:
        return "accuracy"
    if scoring is _negative_mean_squared_error:
        return "negative mean squared error"
    return scoring if isinstance(scoring, str) else getattr(scoring, "__name__", "scoring")


def _negative_mean_squared_error(y_true, y_pred, *, sample_weight=None):
    """``-mean((y_true - y_pred)^2)`` (weighted by ``sample_weight``): `WeightedLassoCV`'s
    default score, the CV error of ``LassoCV`` and glmnet's ``cv.glmnet``
    (``type.measure = "mse"``)."""
    residual = np.asarray(y_true, dtype=np.float64) - np.asarray(y_pred, dtype=np.float64)
    return -float(np.average(residual * residual, weights=sample_weight))


def _part(sample_weight, rows):
    """The sample weights of some rows, or None without sample weights."""
    return None if sample_weight is None else sample_weight[rows]


def _fold_path(path_function, X, y, weights, lam_min, sample_weight):
    """The exact path of a training part down to lam_min, and its PathWarning messages."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PathWarning)
        path = path_function(X, y, weights, sample_weight=sample_weight, lam_min=lam_min)
    return path, [str(w.message) for w in caught if issubclass(w.category, PathWarning)]


def _fold_lams(path, lams):
    """Lams in a fold's scale: breakpoints within rounding snapped onto them, none below its end."""
    k = np.clip(np.searchsorted(-path.lams, -lams), 0, len(path) - 1)
    near = np.abs(lams - path.lams[k]) <= _SNAP_RTOL * path.lams[k]
    previous = np.maximum(k - 1, 0)
    near_previous = np.abs(lams - path.lams[previous]) <= _SNAP_RTOL * path.lams[previous]
    lams = np.where(near, path.lams[k], np.where(near_previous, path.lams[previous], lams))
    return np.maximum(lams, path.lams[-1])


def _fold_scores(path, X_val, y_val, lams, scoring, sample_weight):
    return path.scores(X_val, y_val, lams=lams, scoring=scoring, sample_weight=sample_weight)


_DOC_PARAMETERS = """
    Parameters
    ----------
    weights : array-like of shape (n_features,), optional
        Penalty weights, each >= 0 or +inf (default 1), the same in every fold and
        in the final fit.
    cv : int, cross-validation splitter or iterable, default=5
        As scikit-learn's ``cv`` (`sklearn.model_selection.check_cv`): an int is
        the number of folds ({fold_kind}, not shuffled).
    scoring : str, callable or None
        Higher is better: None ({default_score}), a scikit-learn scorer name
        (`sklearn.metrics.get_scorer_names`), a scorer ``scoring(estimator, X, y)``
        or a metric ``scoring(y_true, y_pred)`` (`solvers.path.Path.scores`).
    selection : {{"min", "1se"}}, default="min"
        Refit with ``lam_min_`` (the best mean score) or ``lam_1se_`` (the largest
        lam within one standard error of it; sparser).
    lam_min_ratio : float in (0, 1), default=1e-3
        The grid ends at ``lam_min_ratio * lam_max`` (scikit-learn's ``eps`` of
        LassoCV; glmnet's ``lambda.min.ratio``).
    lams : None, int or array-like, default=None
        None: every breakpoint of every fold's path (module docstring); an int: that
        many log-spaced lams from lam_max down; an array: these lams (of the whole
        data, each > 0; ``lam_min_ratio`` is then unused).
    n_jobs : int, optional
        Folds run in parallel with joblib (None: one at a time).
    solver : str or list of str, optional
        The final fit's backend chain, as in `{estimator}` (None: its default chain;
        the folds use the exact paths).
    solver_options : dict, optional
        The final fit's backend options, as in `{estimator}`.
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
        glmnet's "lambda.1se": the largest lam whose mean score is within one standard
        error of the best.
    cv_lams_ : ndarray of shape (n_lams,)
        The grid, decreasing, in the scale of the whole data.
    cv_scores_ : ndarray of shape (n_folds, n_lams)
        Validation score of each fold at each lam of the grid.
    cv_mean_ : ndarray of shape (n_lams,)
        Mean of ``cv_scores_`` over the folds.
    cv_std_ : ndarray of shape (n_lams,)
        Standard deviation of ``cv_scores_`` over the folds (ddof=1).
    cv_se_ : ndarray of shape (n_lams,)
        Standard error ``cv_std_ / sqrt(n_folds)``.
    path_ : solvers.path.Path
        The exact path on all the data (``{estimator}.path``) from lam_max down to
        the grid's end: every lam's model, glmnet's ``glmnet.fit``; ``path_.plot()``
        draws it, `plot` the CV curve.
    estimator_ : {estimator}
        The final fit on all the data at ``lam_``.
    coef_ : ndarray
        That of ``estimator_``.
    intercept_ : float or ndarray of shape (1,)
        That of ``estimator_``.
    objective_ : float
        That of ``estimator_``.
    certificate_ : solvers.certificates.Certificate
        That of ``estimator_``: its optimality certificate.
    dual_gap_ : float
        That of ``estimator_``: the certificate's relative gap.
    n_iter_ : int
        That of ``estimator_``.{classes}

    See Also
    --------
    {estimator} : The estimator refitted at ``lam_``.
    solvers.path.Path.select : The lam of one validation set, from one path.
    """


_CLASSES = """
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` where the decision is positive. Binary only
        (more classes: a ValueError; wrap it in ``sklearn.multiclass.OneVsRestClassifier``);
        ``coef_`` has shape (1, n_features) and ``intercept_`` shape (1,), as in
        scikit-learn's linear classifiers."""


class WeightedLassoCV(RegressorMixin, _PathCV):
    __doc__ = (
        """The weighted lasso (004 eq. 3) with lam chosen by K-fold CV on exact LARS paths.

    Each fold's `solvers.path.lasso_path` gives its model at every lam; the CV curve
    is evaluated at the union of the folds' breakpoints, as
    `sklearn.linear_model.LassoLarsCV` does (module docstring), and `WeightedLasso`
    is refitted on all the data. On the same folds and grid it computes the curve of
    ``LassoCV``/``LassoLarsCV`` with ``alpha = lam / (2 n)`` (their mean squared error
    is the default score), plus penalty weights.
    """
        + _DOC_PARAMETERS.format(
            fold_kind="KFold",
            default_score="the negative mean squared error, as ``LassoCV`` and glmnet's "
            "``cv.glmnet``",
            estimator="WeightedLasso",
            classes="",
        )
        + """
    Examples
    --------
    >>> from sklearn.datasets import make_regression
    >>> from solvers import WeightedLassoCV
    >>> X, y = make_regression(60, 8, n_informative=3, noise=1.0, random_state=0)
    >>> model = WeightedLassoCV(selection="1se").fit(X, y)
    >>> bool(model.certificate_.holds), model.lam_ >= model.lam_min_
    (True, True)
    """
    )

    _estimator_class = WeightedLasso
    _default_scoring = staticmethod(_negative_mean_squared_error)


class L1SVMCV(ClassifierMixin, _PathCV):
    __doc__ = """The 1-norm SVM (004 eq. 6) with lam chosen by K-fold CV on exact paths.

    Each fold's `solvers.path.l1_svm_path` is constant in lam between breakpoints, so
    the CV curve is piecewise constant and the grid (the folds' breakpoints and a
    point between each two) finds its best lam exactly (module docstring); `L1SVM` is
    refitted on all the data. Labels: any two values.
    """ + _DOC_PARAMETERS.format(
        fold_kind="StratifiedKFold",
        default_score="accuracy",
        estimator="L1SVM",
        classes=_CLASSES,
    ) + """
    Examples
    --------
    >>> from solvers import L1SVMCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 6))
    >>> y = (X[:, 0] - X[:, 1] > 0).astype(int)
    >>> model = L1SVMCV(cv=3, lams=10).fit(X, y)  # 10 log-spaced lams from lam_max
    >>> model.cv_scores_.shape, bool(model.certificate_.holds)
    ((3, 10), True)
    >>> best = model.cv_mean_[model.cv_lams_ == model.lam_][0]
    >>> bool(best == model.cv_mean_.max())
    True
    >>> bool(model.score(X, y) >= 0.9)
    True
    """

    _estimator_class = L1SVM
    __sklearn_tags__ = binary_classifier_tags


class SVM2CV(ClassifierMixin, _PathCV):
    __doc__ = """SVM2 (004 eq. 7) with lam chosen by K-fold CV on exact paths (Rosset & Zhu 2007).

    Each fold's `solvers.path.svm2_path` gives its model at every lam; the CV curve is
    evaluated at the union of the folds' breakpoints (module docstring) and `SVM2` is
    refitted on all the data. Labels: any two values.
    """ + _DOC_PARAMETERS.format(
        fold_kind="StratifiedKFold",
        default_score="accuracy",
        estimator="SVM2",
        classes=_CLASSES,
    ) + """
    Examples
    --------
    >>> from solvers import SVM2CV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 6))
    >>> y = (X[:, 0] - X[:, 1] > 0).astype(int)
    >>> model = SVM2CV(cv=3).fit(X, y)
    >>> model.coef_.shape, bool(model.certificate_.holds)
    ((1, 6), True)
    >>> best = model.cv_mean_[model.cv_lams_ == model.lam_][0]
    >>> bool(best == model.cv_mean_.max())
    True
    >>> bool(model.score(X, y) >= 0.9)
    True
    """

    _estimator_class = SVM2
    __sklearn_tags__ = binary_classifier_tags
