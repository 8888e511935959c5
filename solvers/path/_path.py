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

import numpy as np
from sklearn.metrics import accuracy_score, r2_score

from sparsify._validation import check_X

__all__ = ["Path"]

_INTERPOLATIONS = ("linear", "constant")


class Path:
    """An exact regularization path, as returned by `lasso_path`, `l1_svm_path`, `svm2_path`.

    Parameters
    ----------
    lams : ndarray of shape (n_breakpoints,)
        Breakpoints, strictly decreasing; ``lams[0]`` is lam_max, the smallest
        lam at which every coefficient is zero.
    coefs : ndarray of shape (n_breakpoints, n_features)
        The solution at each breakpoint, in the caller's feature scale (the
        penalty weights already undone).
    intercepts : ndarray of shape (n_breakpoints,)
        The unpenalised intercept at each breakpoint.
    active_sets : list of int ndarrays
        ``active_sets[k]``: the features allowed to be nonzero on the segment
        that starts at ``lams[k]`` (for the last breakpoint, the final set).
    interpolation : {"linear", "constant"}
        How the solution varies between breakpoints (see the module docstring).
    classes : ndarray of shape (2,), optional
        For classifier paths, the original labels mapped to -1 and +1.

    Notes
    -----
    Objectives are those of docs/solvers.md and 004 eq. 3, 6 and 7: losses summed
    over samples, penalty ``lam * sum_j weights_j |coef_j|``, intercept free.
    """

    def __init__(self, lams, coefs, intercepts, active_sets, *, interpolation, classes=None):
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(
                f"interpolation must be one of {_INTERPOLATIONS}; got {interpolation!r}."
            )
        self.lams = np.asarray(lams, dtype=np.float64)
        self.coefs = np.asarray(coefs, dtype=np.float64)
        self.intercepts = np.asarray(intercepts, dtype=np.float64)
        self.active_sets = [np.asarray(a, dtype=np.intp) for a in active_sets]
        self._interpolation = interpolation
        self._classes = None if classes is None else np.asarray(classes)

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
        module docstring). For ``lam >= lams[0]`` every coefficient is zero.

        Parameters
        ----------
        lam : float
            A penalty with ``lam >= lams[-1]``.

        Returns
        -------
        coef : ndarray of shape (n_features,)
        intercept : float
        """
        lam = float(lam)
        if not np.isfinite(lam) or lam < 0:
            raise ValueError(f"lam must be a finite number >= 0; got lam={lam}.")
        lams = self.lams
        if lam >= lams[0]:
            return self.coefs[0].copy(), float(self.intercepts[0])
        if lam < lams[-1]:
            raise ValueError(
                f"lam={lam:.6g} is below the end of this path (lams[-1]={lams[-1]:.6g}); "
                "recompute the path with a smaller lam_min or a larger max_steps/max_features."
            )
        # The first breakpoint at or below lam: lams[k - 1] > lam >= lams[k].
        k = int(np.searchsorted(-lams, -lam, side="left"))
        if lam == lams[k] or self._interpolation == "constant":
            return self.coefs[k].copy(), float(self.intercepts[k])
        t = (lams[k - 1] - lam) / (lams[k - 1] - lams[k])
        coef = (1.0 - t) * self.coefs[k - 1] + t * self.coefs[k]
        intercept = (1.0 - t) * self.intercepts[k - 1] + t * self.intercepts[k]
        return coef, float(intercept)

    def decision_function(self, X):
        """Linear predictions ``X @ coefs[k] + intercepts[k]`` at every breakpoint.

        Returns
        -------
        ndarray of shape (n_samples, n_breakpoints)
        """
        X = check_X(X, name="X")
        if X.shape[1] != self.coefs.shape[1]:
            raise ValueError(
                f"X has {X.shape[1]} features; this path was computed on {self.coefs.shape[1]}."
            )
        return np.asarray(X @ self.coefs.T) + self.intercepts

    def select(self, X_val, y_val, scoring=None):
        """The breakpoint lam that scores best on validation data.

        Parameters
        ----------
        X_val : array-like or sparse matrix of shape (n_samples, n_features)
        y_val : array-like of shape (n_samples,)
            Targets (lasso) or labels in the classes the path was fitted on.
        scoring : callable, optional
            ``scoring(y_true, y_pred) -> float``, higher is better, where
            ``y_pred`` are predicted labels for classifier paths and predicted
            values for the lasso. Default: accuracy for classifiers, R^2 for the lasso.

        Returns
        -------
        float
            The breakpoint with the best score; ties go to the largest lam
            (the sparsest model).
        """
        if scoring is not None and not callable(scoring):
            raise ValueError(
                f"scoring must be None or a callable(y_true, y_pred); got {scoring!r}."
            )
        decisions = self.decision_function(X_val)
        y_val = np.asarray(y_val)
        if y_val.ndim != 1 or y_val.shape[0] != decisions.shape[0]:
            raise ValueError(
                f"y_val must be 1-D with {decisions.shape[0]} entries (one per row of X_val); "
                f"got shape {y_val.shape}."
            )
        if self._classes is None:
            score = scoring or r2_score
            predictions = decisions.T
        else:
            score = scoring or accuracy_score
            predictions = np.where(decisions.T >= 0, self._classes[1], self._classes[0])
        scores = np.array([score(y_val, p) for p in predictions])
        return float(self.lams[int(np.argmax(scores))])
