"""The exact weighted-lasso path: LARS with the lasso modification (Efron et al. 2004)."""

from ._inputs import check_path_inputs
from ._quadratic import quadratic_path


def lasso_path(
    X, y, weights=None, *, lam_min=0.0, max_features=None, max_steps=None, return_path=True
):
    """The whole regularization path of the weighted lasso (004 eq. 3).

    Minimises ``||y - X b - b0||^2 + lam * sum_j weights_j |b_j|`` for every
    lam >= lam_min at once, with the intercept b0 unpenalised: LARS with the
    lasso modification (Efron et al. 2004, sec. 3.1), as used in 004 sec. 2.2.1.
    The solution is piecewise linear in lam.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
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
        ``lams[0] = max_j |2 X_j' r| / weights_j`` over the penalised features,
        where r is the residual of the least-squares fit on ``[1, X_U]`` (U: the
        unpenalised features; ``r = y - mean(y)`` when there are none).

    Notes
    -----
    Scaled to scikit-learn's ``lars_path(method="lasso")`` on centered data
    (objective ``||y - X b||^2 / (2 n) + alpha ||b||_1``): ``lam = 2 n alpha``.
    """
    problem = check_path_inputs(
        X,
        y,
        weights,
        classifier=False,
        lam_min=lam_min,
        max_features=max_features,
        max_steps=max_steps,
        return_path=return_path,
    )
    return quadratic_path(problem, margin_rows=False)
