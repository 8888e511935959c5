"""The `Path` object every path algorithm returns: breakpoints, coefficients, evaluation.

004 sec. 2.2.1 uses whole regularization paths rather than grids. A path is
stored by its breakpoints ``lams`` (decreasing, ``lams[0]`` = lam_max) and the
solution at each; `Path.at` recovers the exact solution at any lam in between.
Two shapes occur:

- ``"linear"``: the solution is linear in lam between breakpoints (the lasso,
  Efron et al. 2004; SVM2 and every piecewise-quadratic loss, Rosset & Zhu 2007).
- ``"constant"``: the 1-norm SVM is a linear program, so its solution is
  constant in lam between breakpoints and jumps at them; it is piecewise linear
  in ||w||_1 (Zhu, Rosset, Hastie & Tibshirani 2003). ``coefs[k]`` is the
  solution at ``lams[k]`` with the smallest ||w||_1, and ``coefs[k + 1]`` the
  solution on the open interval ``(lams[k + 1], lams[k])``.
"""

import inspect
from functools import partial

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.metrics import get_scorer

from sparsify.utils import check_X

from .._memory import SMALL_DENSE

__all__ = ["Path"]

_INTERPOLATIONS = ("linear", "constant")
_SNAP = 8
# Entries of the decisions scored at once (128 KiB), at least.
_SCORE_BLOCK = 2**14


class Path:
    """An exact regularization path, as returned by `lasso_path`, `l1_svm_path`, `svm2_path`.

    Parameters
    ----------
    lams : ndarray of shape (n_breakpoints,)
        Breakpoints, strictly decreasing; ``lams[0]`` is lam_max, the smallest
        lam at which every coefficient is zero.
    coefs : ndarray or sparse matrix of shape (n_breakpoints, n_features)
        The solution at each breakpoint, in the caller's feature scale (the
        penalty weights already undone). Kept as a CSR matrix: each breakpoint
        stores only the coefficients of its model (zero off the active set).
    intercepts : ndarray of shape (n_breakpoints,)
        The unpenalised intercept at each breakpoint.
    active_sets : list of int ndarrays
        ``active_sets[k]``: the features allowed to be nonzero on the segment
        that starts at ``lams[k]`` (for the last breakpoint, the final set).
    interpolation : {"linear", "constant"}
        How the solution varies between breakpoints (see the module docstring).
    classes : ndarray of shape (2,), optional
        For classifier paths, the original labels mapped to -1 and +1.
    n_steps : int, optional
        The breakpoints the algorithm went through (default ``len(lams)``; more when
        only the last ones are kept, ``return_path=False``).
    dense_coefs : bool, optional
        Whether `coefs` reads as a dense array. Default: when ``coefs`` is given dense,
        or holds at most ``solvers._memory.SMALL_DENSE`` (2^17) entries.

    Attributes
    ----------
    coefs : ndarray or scipy.sparse.csr_matrix of shape (n_breakpoints, n_features)
        The coefficients at every breakpoint. A dense ndarray (formed on first
        access, then kept) for the paths of a dense X and for small paths; for the
        path of a sparse X, a CSR matrix, so that a path's memory stays
        ``O(n_breakpoints + n_features + sum_k |active_sets[k]|)``: ``n_breakpoints x
        n_features`` dense could dwarf X (10 000 breakpoints x 200 000 words is 16 GB).
        `at`, `scores`, `select`, `decision_function` and `plot` never form the
        dense array; ``coefs[k]`` of the CSR matrix is a 1 x n_features matrix
        (``at(lams[k])[0]`` is the dense vector).
    n_steps : int
        As given.

    See Also
    --------
    lasso_path : The weighted lasso's path, 004 eq. (3).
    svm2_path : SVM2's path, 004 eq. (7).
    l1_svm_path : The 1-norm SVM's path, 004 eq. (6).

    Notes
    -----
    Objectives are those of docs/solvers.md and 004 eq. 3, 6 and 7: losses summed
    over samples, penalty ``lam * sum_j weights_j |coef_j|``, intercept free.

    Examples
    --------
    At ``lams[0]`` every coefficient is 0; `select` picks the breakpoint that scores
    best on validation data (R^2 for the lasso, as ``sklearn.metrics.r2_score``):

    >>> from sklearn.metrics import r2_score
    >>> from solvers.path import lasso_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 5)); y = X @ [3.0, -2.0, 0, 0, 1.0] + rng.standard_normal(40)
    >>> path = lasso_path(X[:30], y[:30])
    >>> bool(np.all(path.at(path.lams[0])[0] == 0))
    True
    >>> lam = path.select(X[30:], y[30:])
    >>> coef, intercept = path.at(lam)
    >>> best = max(r2_score(y[30:], X[30:] @ c + b) for c, b in zip(path.coefs, path.intercepts))
    >>> bool(np.isclose(r2_score(y[30:], X[30:] @ coef + intercept), best))
    True
    >>> path.decision_function(X[30:]).shape == (10, len(path))
    True
    """

    def __init__(
        self,
        lams,
        coefs,
        intercepts,
        active_sets,
        *,
        interpolation,
        classes=None,
        n_steps=None,
        dense_coefs=None,
    ):
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(
                f"interpolation must be one of {_INTERPOLATIONS}; got {interpolation!r}."
            )
        self.lams = np.asarray(lams, dtype=np.float64)
        self._sparse_coefs = sp.csr_matrix(coefs, dtype=np.float64)
        if dense_coefs is None:
            dense_coefs = not sp.issparse(coefs) or _entries(coefs.shape) <= SMALL_DENSE
        self._dense_coefs = None if dense_coefs else self._sparse_coefs
        self.intercepts = np.asarray(intercepts, dtype=np.float64)
        self.active_sets = [np.asarray(a, dtype=np.intp) for a in active_sets]
        self._interpolation = interpolation
        self._classes = None if classes is None else np.asarray(classes)
        self.n_steps = len(self.lams) if n_steps is None else int(n_steps)

    @property
    def coefs(self):
        """The coefficients at every breakpoint (n_breakpoints x n_features): see the
        class docstring for when they are dense."""
        if self._dense_coefs is None:
            self._dense_coefs = self._sparse_coefs.toarray()
        return self._dense_coefs

    def __len__(self):
        return self.lams.shape[0]

    def __repr__(self):
        kind = "classifier" if self._classes is not None else "regression"
        return (
            f"Path({kind}, {len(self)} breakpoints, lam from {self.lams[0]:.6g} to "
            f"{self.lams[-1]:.6g}, up to {max(len(a) for a in self.active_sets)} active features)"
        )

    def at(self, lam):
        """The exact solution ``(coef, intercept)`` at a penalty ``lam``.

        Between breakpoints the lasso and SVM2 solutions are linear in lam and
        are interpolated; the 1-norm SVM solution is constant there (see the
        module docstring). For ``lam >= lams[0]`` every coefficient is zero. A lam
        within 8 ulps below a breakpoint counts as the breakpoint (breakpoints are
        known to rounding; lam_max computed elsewhere may land one ulp below lams[0]).

        Parameters
        ----------
        lam : float
            A penalty with ``lam >= lams[-1]``.

        Returns
        -------
        coef : ndarray of shape (n_features,)
            The coefficients at lam, in the caller's feature scale.
        intercept : float
            The unpenalised intercept at lam.

        Raises
        ------
        ValueError
            If lam is not a finite number >= 0, or is below ``lams[-1]`` (where the
            path was not computed).
        """
        coefs, intercepts = self._solutions(self._check_lams(lam, name="lam"))
        return coefs.toarray()[0], float(intercepts[0])

    def _check_lams(self, lams, *, name):
        """``lams`` as a 1-D float array of finite values in ``[lams[-1], inf)``."""
        values = np.atleast_1d(np.asarray(lams, dtype=np.float64))
        if values.ndim != 1 or values.size == 0:
            raise ValueError(f"{name} must be a number or a 1-D array of them; got {lams!r}.")
        bad = ~np.isfinite(values) | (values < 0)
        if np.any(bad):
            raise ValueError(f"{name} must be finite and >= 0; got {values[bad][0]}.")
        if np.any(values < self.lams[-1]):
            raise ValueError(
                f"{name}={values.min():.6g} is below the end of this path "
                f"(lams[-1]={self.lams[-1]:.6g}); recompute the path with a smaller lam_min "
                "or a larger max_steps/max_features."
            )
        return values

    def _solutions(self, lams):
        """Coefficients (CSR, m x n_features) and intercepts (m,) at m checked penalties.

        Each is ``W @ coefs`` for a sparse W with one entry per row (a breakpoint)
        or, for the linear paths inside a segment, two (``1 - t`` and ``t``).
        """
        breakpoints = self.lams
        # The first breakpoint at or below each lam: breakpoints[k - 1] > lam >= breakpoints[k]
        # (k = 0 above lam_max, where every coefficient is 0).
        k = np.searchsorted(-breakpoints, -lams, side="left")
        # A lam within rounding (_SNAP ulps) below a breakpoint is that breakpoint: lam_max
        # computed elsewhere may land one ulp below lams[0], where the constant path of
        # the 1-norm SVM would otherwise already give the next knot.
        above = np.maximum(k - 1, 0)
        k[(k > 0) & (breakpoints[above] - lams <= _SNAP * np.finfo(float).eps * lams)] -= 1
        k[lams >= breakpoints[0]] = 0
        rows, columns, shares = np.arange(k.shape[0]), k, np.ones(k.shape[0])
        inside = (k > 0) & (lams != breakpoints[k])
        if self._interpolation == "linear" and np.any(inside):
            upper = k[inside] - 1
            t = (breakpoints[upper] - lams[inside]) / (breakpoints[upper] - breakpoints[k[inside]])
            shares[inside] = t
            rows = np.concatenate((rows, np.flatnonzero(inside)))
            columns = np.concatenate((columns, upper))
            shares = np.concatenate((shares, 1.0 - t))
        mixing = sp.csr_matrix((shares, (rows, columns)), shape=(k.shape[0], len(self)))
        return mixing @ self._sparse_coefs, mixing @ self.intercepts

    def decision_function(self, X):
        """Linear predictions ``X @ coefs[k] + intercepts[k]`` at every breakpoint.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The samples, over the features the path was computed on.

        Returns
        -------
        ndarray of shape (n_samples, n_breakpoints)
            Column k holds the decision values (classifier paths: positive for
            ``classes[1]``) or predictions (lasso) at ``lams[k]``.

        Raises
        ------
        ValueError
            If X is not 2-D, holds NaN or infinity, or has another number of features.
        """
        X = self._check_X(X, name="X")
        return _decisions(X, self._sparse_coefs, self.intercepts)

    def _check_X(self, X, *, name):
        X = check_X(X, name=name)
        if X.shape[1] != self._sparse_coefs.shape[1]:
            raise ValueError(
                f"{name} has {X.shape[1]} features; this path was computed on "
                f"{self._sparse_coefs.shape[1]}."
            )
        return X

    def scores(self, X_val, y_val, lams=None, scoring=None, sample_weight=None):
        """The validation score of the exact solution at each lam.

        Parameters
        ----------
        X_val : array-like or sparse matrix of shape (n_samples, n_features)
            Validation samples, over the features the path was computed on.
        y_val : array-like of shape (n_samples,)
            Targets (lasso) or labels in the classes the path was fitted on.
        lams : float or array-like of shape (n_lams,), optional
            Penalties, each ``>= lams[-1]`` (default: the breakpoints). The
            solution at each is exact (`at`).
        scoring : str, callable or None, default=None
            Higher is better. One of:

            - None: accuracy for classifier paths, R^2 for the lasso (the
              ``score`` of scikit-learn's classifiers and regressors);
            - a scikit-learn scorer name (``"roc_auc"``, ``"balanced_accuracy"``,
              ``"neg_mean_squared_error"``, ...; `sklearn.metrics.get_scorer_names`);
            - a scorer ``scoring(estimator, X, y)`` (as from
              `sklearn.metrics.make_scorer`): any callable whose signature takes
              three positional arguments. It is given a fitted linear model of
              each lam with ``coef_``, ``intercept_``, ``predict`` and
              ``decision_function`` (and ``classes_`` for classifiers);
            - a metric ``scoring(y_true, y_pred)``: any other callable, given the
              predicted labels (classifiers) or values (lasso).
        sample_weight : array-like of shape (n_samples,), optional
            Weights of the validation samples (the weighted accuracy or R^2; passed
            as ``sample_weight=`` to a scorer or metric), as scikit-learn's CV
            estimators score folds of weighted data.

        Returns
        -------
        ndarray of shape (n_lams,)
            The score of the solution at each lam (each breakpoint by default).

        Raises
        ------
        ValueError
            For an unknown scorer name, a lam below the end of the path, a scorer
            that needs ``predict_proba`` (no path has probabilities), or X_val, y_val
            of the wrong shape.
        """
        kind, scorer = _check_scoring(scoring)
        X_val = self._check_X(X_val, name="X_val")
        y_val = np.asarray(y_val)
        if y_val.ndim != 1 or y_val.shape[0] != X_val.shape[0]:
            raise ValueError(
                f"y_val must be 1-D with {X_val.shape[0]} entries (one per row of X_val); "
                f"got shape {y_val.shape}."
            )
        weighted = {}
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, dtype=np.float64)
            if (
                sample_weight.shape != y_val.shape
                or not np.all(np.isfinite(sample_weight) & (sample_weight >= 0))
                or not np.any(sample_weight > 0)
            ):
                raise ValueError(
                    f"sample_weight must hold {y_val.shape[0]} finite numbers >= 0, one per "
                    "row of X_val, not all 0."
                )
            weighted = {"sample_weight": sample_weight}
        if lams is None:
            coefs, intercepts = self._sparse_coefs, self.intercepts
        else:
            coefs, intercepts = self._solutions(self._check_lams(lams, name="lams"))
        if kind == "scorer":
            return np.array(
                [
                    _call_scorer(
                        scorer,
                        self._model(coefs[k].toarray()[0], intercept),
                        X_val,
                        y_val,
                        scoring,
                        weighted,
                    )
                    for k, intercept in enumerate(intercepts)
                ]
            )
        # The decisions of a block of lams at a time: (n_samples, block) stays within
        # n_samples + n_features entries (or _SCORE_BLOCK), whatever the number of lams.
        block = max(1, max(_SCORE_BLOCK, X_val.shape[0] + X_val.shape[1]) // X_val.shape[0])
        return np.concatenate(
            [
                self._block_scores(
                    _decisions(
                        X_val, coefs[start : start + block], intercepts[start : start + block]
                    ),
                    y_val,
                    kind,
                    scorer,
                    weighted,
                    sample_weight,
                )
                for start in range(0, coefs.shape[0], block)
            ]
        )

    def _block_scores(self, decisions, y_val, kind, scorer, weighted, sample_weight):
        """The scores of the columns of ``decisions`` (n_samples, n_lams)."""
        if kind is None:
            return default_scores(decisions, y_val, self._classes, sample_weight)
        if self._classes is not None:
            decisions = _labels(decisions, self._classes)
        return np.array([scorer(y_val, column, **weighted) for column in decisions.T])

    def _model(self, coef, intercept):
        if self._classes is None:
            return _LinearRegressorAt(coef, intercept)
        return _LinearClassifierAt(coef, intercept, self._classes)

    def select(self, X_val, y_val, scoring=None, sample_weight=None):
        """The breakpoint lam that scores best on validation data.

        Parameters
        ----------
        X_val : array-like or sparse matrix of shape (n_samples, n_features)
            Validation samples, over the features the path was computed on.
        y_val : array-like of shape (n_samples,)
            Targets (lasso) or labels in the classes the path was fitted on.
        scoring : str, callable or None, default=None
            Higher is better; as in `scores`: None (accuracy for classifiers, R^2
            for the lasso), a scikit-learn scorer name, a scorer
            ``scoring(estimator, X, y)`` or a metric ``scoring(y_true, y_pred)``.
        sample_weight : array-like of shape (n_samples,), optional
            Weights of the validation samples, as in `scores`.

        Returns
        -------
        float
            The breakpoint with the best score; ties go to the largest lam
            (the sparsest model). A NaN score never wins.

        Raises
        ------
        ValueError
            As `scores`, or when every score is NaN.

        See Also
        --------
        solvers.WeightedLassoCV : The lam chosen by K-fold cross-validation on the
            exact lasso paths of every fold.
        solvers.L1SVMCV : The same for the 1-norm SVM.
        solvers.SVM2CV : The same for SVM2.
        """
        scores = self.scores(X_val, y_val, scoring=scoring, sample_weight=sample_weight)
        return float(self.lams[best_index(scores)])

    def plot(self, ax=None, *, x="lam", breakpoints=True, feature_names=None, **line_kwargs):
        """Draw the coefficient paths with matplotlib; one line per feature ever active.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw (default: ``plt.gca()``).
        x : {"lam", "l1_norm"}, default="lam"
            The horizontal axis. ``"lam"``: the positive penalties on a log scale,
            decreasing to the right (the null model on the left); the lasso and
            SVM2 solutions are drawn exactly as linear in lam between breakpoints,
            the 1-norm SVM's as steps (constant between breakpoints). ``"l1_norm"``:
            ``||coef||_1`` at each breakpoint, along which all three paths are
            piecewise linear (Zhu, Rosset, Hastie & Tibshirani 2003).
        breakpoints : bool, default=True
            Mark the breakpoints with thin dotted vertical lines (a LineCollection).
        feature_names : sequence of str, optional
            Line labels (default ``"x<j>"``), for ``ax.legend()``.
        **line_kwargs
            Passed to ``ax.plot`` (or ``ax.step``) for the coefficient lines.

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn on; the figure is not shown (call ``plt.show()`` or
            ``fig.savefig``).
        """
        if x not in ("lam", "l1_norm"):
            raise ValueError(f"x must be 'lam' or 'l1_norm'; got x={x!r}.")
        n_features = self._sparse_coefs.shape[1]
        if feature_names is not None and len(feature_names) != n_features:
            raise ValueError(
                f"feature_names must have {n_features} entries (one per feature); "
                f"got {len(feature_names)}."
            )
        if ax is None:
            import matplotlib.pyplot as plt

            ax = plt.gca()
        stored = self._sparse_coefs
        active = np.unique(stored.indices[stored.data != 0])
        if x == "l1_norm":
            positions = np.asarray(abs(stored).sum(axis=1)).ravel()
            grid, coefs, draw = positions, stored, ax.plot
            ax.set_xlabel("||coef||_1")
        else:
            positions = self.lams[self.lams > 0]
            grid, coefs, draw = self._lam_curve(positions, ax)
            ax.set_xscale("log")
            if not ax.xaxis_inverted():
                ax.invert_xaxis()
            ax.set_xlabel("lam (log scale)")
        coefs = coefs[:, active].toarray()  # the lines drawn: one column per active feature
        for position, j in enumerate(active):
            label = f"x{j}" if feature_names is None else str(feature_names[j])
            draw(grid, coefs[:, position], label=label, **line_kwargs)
        if breakpoints and positions.size:
            ax.vlines(
                positions,
                0,
                1,
                transform=ax.get_xaxis_transform(),
                colors="0.7",
                linestyles=":",
                linewidths=0.8,
            )
        ax.set_ylabel("coefficients")
        return ax

    def _lam_curve(self, positive, ax):
        """Points at which the coefficients are drawn against lam, and how."""
        if self._interpolation == "constant":
            # coefs[k + 1] holds on (lams[k + 1], lams[k]): a step "pre" in decreasing lam.
            return positive, self._sparse_coefs[: positive.size], partial(ax.step, where="pre")
        if positive.size < 2:
            return positive, self._sparse_coefs[: positive.size], ax.plot
        # Linear in lam between breakpoints, so curved on a log axis: 20 points per segment,
        # evenly spaced in log lam, the breakpoints among them.
        t = np.linspace(0.0, 1.0, 20, endpoint=False)
        grid = positive[:-1, None] ** (1.0 - t) * positive[1:, None] ** t
        grid = np.append(grid.ravel(), positive[-1])
        return grid, self._solutions(grid)[0], ax.plot


def _decisions(X, coefs, intercepts):
    """``X @ coefs.T + intercepts`` (n_samples, n_lams) as a dense array, coefs CSR."""
    product = coefs @ X.T
    product = product.toarray() if sp.issparse(product) else np.asarray(product)
    return product.T + intercepts


def default_scores(decisions, y_val, classes, sample_weight=None):
    """The default score (``scoring=None``) of each column of ``decisions`` (n_samples,
    n_lams): the weighted accuracy of the labels for a classifier path (``classes`` given),
    R^2 of the predictions for the lasso (``classes`` None)."""
    if classes is None:
        return _r2_scores(y_val, decisions, sample_weight)
    predictions = _labels(decisions, classes)
    return np.average(predictions == y_val[:, None], axis=0, weights=sample_weight)


def _entries(shape):
    return int(shape[0]) * int(shape[1])


def best_index(scores):
    """The index of the best score, the first (largest lam) among ties; NaN never wins."""
    scores = np.asarray(scores, dtype=np.float64)
    if np.all(np.isnan(scores)):
        raise ValueError("every validation score is NaN; check scoring and the validation data.")
    return int(np.nanargmax(scores))


def _check_scoring(scoring):
    """``(kind, function)``: kind None (the default), "scorer" or "metric"."""
    if scoring is None:
        return None, None
    if isinstance(scoring, str):
        try:
            return "scorer", get_scorer(scoring)
        except ValueError:
            raise ValueError(
                f"scoring={scoring!r} is not a scikit-learn scorer name; use one of "
                "sklearn.metrics.get_scorer_names(), a scorer(estimator, X, y) or a "
                "metric(y_true, y_pred)."
            ) from None
    if not callable(scoring):
        raise ValueError(
            "scoring must be None, a scikit-learn scorer name, a scorer(estimator, X, y) or "
            f"a metric(y_true, y_pred); got {scoring!r}."
        )
    try:
        inspect.signature(scoring).bind(None, None, None)
    except TypeError:
        return "metric", scoring
    except ValueError:  # no signature to read (some builtins): a metric, as before
        return "metric", scoring
    return "scorer", scoring


def _call_scorer(scorer, model, X, y, scoring, weighted):
    try:
        return float(scorer(model, X, y, **weighted))
    except AttributeError as error:
        raise ValueError(
            f"scoring={scoring!r} needs a method the linear models of a path do not have "
            f"({error}); paths give decision_function and predict, no predict_proba."
        ) from None


def _r2_scores(y, predictions, sample_weight=None):
    """R^2 of each column of predictions, as `sklearn.metrics.r2_score` (force_finite)."""
    s = np.ones(y.shape[0]) if sample_weight is None else sample_weight
    residual = s @ (y[:, None] - predictions) ** 2
    total = s @ (y - np.average(y, weights=s)) ** 2
    if total == 0:  # constant targets: 1 for a perfect fit, 0 otherwise (as scikit-learn)
        return np.where(residual == 0, 1.0, 0.0)
    return 1.0 - residual / total


class _LinearAt(BaseEstimator):
    """The fitted linear model of one lam of a path, for scikit-learn's scorers.

    ``coef_`` and ``intercept_`` have scikit-learn's shapes: ``(n_features,)`` and a float
    for a regressor (as `sklearn.linear_model.Lasso`), ``(1, n_features)`` and ``(1,)``
    for a binary classifier (as `sklearn.svm.LinearSVC` and this library's classifiers).
    """

    def __init__(self, coef, intercept, classes=None):
        self.coef, self.intercept, self.classes = coef, intercept, classes

    def decision_function(self, X):
        return np.asarray(X @ self.coef_.T).ravel() + self.intercept_


class _LinearRegressorAt(RegressorMixin, _LinearAt):
    def __init__(self, coef, intercept, classes=None):
        super().__init__(coef, intercept, classes)
        self.coef_ = np.asarray(coef, dtype=np.float64)
        self.intercept_ = float(intercept)

    def predict(self, X):
        return self.decision_function(X)


class _LinearClassifierAt(ClassifierMixin, _LinearAt):
    def __init__(self, coef, intercept, classes=None):
        super().__init__(coef, intercept, classes)
        self.coef_ = np.asarray(coef, dtype=np.float64).reshape(1, -1)
        self.intercept_ = np.array([intercept], dtype=np.float64)
        self.classes_ = classes

    def predict(self, X):
        return _labels(self.decision_function(X), self.classes_)


def _labels(decisions, classes):
    """``classes[1]`` where the decision is positive, ``classes[0]`` elsewhere (as the
    estimators' and scikit-learn's ``predict``)."""
    return np.where(decisions > 0, classes[1], classes[0])
