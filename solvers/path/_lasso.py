"""The exact weighted-lasso path: LARS with the lasso modification (Efron et al. 2004)."""

from ._inputs import check_path_inputs
from ._quadratic import quadratic_path


def lasso_path(
    X,
    y,
    weights=None,
    *,
    sample_weight=None,
    lam_min=0.0,
    max_features=None,
    max_steps=None,
    return_path=True,
):
    """The whole regularization path of the weighted lasso (004 eq. 3).

    Minimises ``||y - X b - b0||^2 + lam * sum_j weights_j |b_j|`` for every
    lam >= lam_min at once, with the intercept b0 unpenalised: LARS with the
    lasso modification (Efron et al. 2004, sec. 3.1), as used in 004 sec. 2.2.1.
    The solution is piecewise linear in lam.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data, one sample per row (not modified).
    y : array-like of shape (n_samples,)
        The targets, finite numbers.
    weights : array-like of shape (n_features,), optional
        Penalty weights (default 1), each >= 0 or ``+inf``: 0 leaves a feature
        unpenalised (in every model, from lam_max on, like the intercept), ``+inf``
        excludes it (its coefficient stays 0).
    sample_weight : array-like of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's squared error (default 1), as in the
        estimators' ``fit``: the rows and targets are scaled by ``sqrt(s_i)`` and the
        intercept's column by ``sqrt(s)``; a sample of weight 0 counts for nothing.
    lam_min : float, default=0.0
        Stop at this lam.
    max_features : int, optional
        Stop at the breakpoint where more than this many features are active.
    max_steps : int, optional
        Stop after this many breakpoints (default ``10 * (n_samples + n_features)``),
        with a `PathWarning` naming the lam reached.
    return_path : bool, default=True
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

    Raises
    ------
    ValueError
        Bad X, y, weights or stopping criteria; the message names the argument.

    Warns
    -----
    PathWarning
        When the path stops before lam_min (max_steps reached, or a step that
        cannot be certified); the message names the lam reached.

    See Also
    --------
    Path : What is returned: ``at``, ``scores``, ``select``, ``plot``.
    solvers.formulations.weighted_lasso : The same problem at one lam, in CVXPY.
    solvers.WeightedLassoCV : The lam chosen by cross-validation on these paths.
    sklearn.linear_model.lars_path : The same path in scikit-learn, ``lam = 2 n alpha``.

    Notes
    -----
    Scaled to scikit-learn's ``lars_path(method="lasso")`` on centered data
    (objective ``||y - X b||^2 / (2 n) + alpha ||b||_1``): ``lam = 2 n alpha``.

    Examples
    --------
    ``lams[0]`` is ``max_j |2 X_j'(y - mean(y))|``, and at any lam the solution is
    scikit-learn's ``Lasso(alpha=lam / (2 n))``:

    >>> from sklearn.linear_model import Lasso
    >>> from solvers.path import lasso_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5)); y = X @ [3.0, -2.0, 0, 0, 1.0] + rng.standard_normal(30)
    >>> path = lasso_path(X, y)
    >>> bool(np.isclose(path.lams[0], np.max(np.abs(2 * X.T @ (y - y.mean())))))
    True
    >>> coef, intercept = path.at(10.0)
    >>> peer = Lasso(alpha=10.0 / (2 * 30), tol=1e-12, max_iter=100_000).fit(X, y)
    >>> bool(np.allclose(coef, peer.coef_, atol=1e-6))
    True
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
        sample_weight=sample_weight,
    )
    return quadratic_path(problem, margin_rows=False)
