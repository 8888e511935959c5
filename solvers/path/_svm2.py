"""The exact SVM2 path: squared hinge loss plus a weighted L1 penalty (Rosset & Zhu 2007)."""

from ._inputs import check_path_inputs
from ._quadratic import quadratic_path


def svm2_path(
    X, y, weights=None, *, lam_min=0.0, max_features=None, max_steps=None, return_path=True
):
    """The whole regularization path of SVM2 (004 eq. 7).

    Minimises ``sum_i max(0, 1 - y_i (x_i' w + b))^2 + lam * sum_j weights_j |w_j|``
    for every lam >= lam_min, with b unpenalised. The squared hinge is
    piecewise quadratic, so the path is piecewise linear in lam (Rosset & Zhu
    2007, sec. 4): it is the lasso path of the samples with margin below one,
    whose set changes at breakpoints (004 sec. 2.2.1).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two distinct labels; the larger (in sorted order) is mapped to +1.
    weights : array-like of shape (n_features,), optional
        Penalty weights (default 1), each >= 0 or ``+inf``: 0 leaves a feature
        unpenalised (in every model, from lam_max on, like the intercept), ``+inf``
        excludes it (its coefficient stays 0).
    lam_min : float, default 0
        Stop at this lam.
    max_features : int, optional
        Stop at the breakpoint where more than this many features are active.
    max_steps : int, optional
        Stop after this many breakpoints (default ``10 * (n_samples + n_features)``),
        with a `PathWarning` naming the lam reached.

    return_path : bool, default True
        False keeps only the last two breakpoints (as scikit-learn's
        ``lars_path(return_path=False)``): ``Path.at`` is exact between them, and
        memory no longer grows with the number of breakpoints times n_features
        (the estimators' ``solver="homotopy"`` uses it).
    Returns
    -------
    Path
        ``lams[0] = max_j |2 X_j' Y a| / weights_j`` over the penalised features,
        with y in {-1, +1} and ``a = max(0, 1 - y f)`` at the squared-hinge fit f on
        ``[1, X_U]`` (U: the unpenalised features); with none,
        ``a = 1 - y mean(y)`` and ``intercepts[0] = mean(y)``.
    """
    problem = check_path_inputs(
        X,
        y,
        weights,
        classifier=True,
        lam_min=lam_min,
        max_features=max_features,
        max_steps=max_steps,
        return_path=return_path,
    )
    return quadratic_path(problem, margin_rows=True)
