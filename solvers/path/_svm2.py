"""The exact SVM2 path: squared hinge loss plus a weighted L1 penalty (Rosset & Zhu 2007)."""

from ._inputs import check_path_inputs
from ._quadratic import quadratic_path


def svm2_path(
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
    """The whole regularization path of SVM2 (004 eq. 7).

    Minimises ``sum_i max(0, 1 - y_i (x_i' w + b))^2 + lam * sum_j weights_j |w_j|``
    for every lam >= lam_min, with b unpenalised. The squared hinge is
    piecewise quadratic, so the path is piecewise linear in lam (Rosset & Zhu
    2007, sec. 4): it is the lasso path of the samples with margin below one,
    whose set changes at breakpoints (004 sec. 2.2.1).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data, one sample per row (not modified).
    y : array-like of shape (n_samples,)
        Two distinct labels; the larger (in sorted order) is mapped to +1.
    weights : array-like of shape (n_features,), optional
        Penalty weights (default 1), each >= 0 or ``+inf``: 0 leaves a feature
        unpenalised (in every model, from lam_max on, like the intercept), ``+inf``
        excludes it (its coefficient stays 0).
    sample_weight : array-like of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's squared hinge (default 1), as in the
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
        ``lams[0] = max_j |2 X_j' Y a| / weights_j`` over the penalised features,
        with y in {-1, +1} and ``a = max(0, 1 - y f)`` at the squared-hinge fit f on
        ``[1, X_U]`` (U: the unpenalised features); with none,
        ``a = 1 - y mean(y)`` and ``intercepts[0] = mean(y)``.

    Raises
    ------
    ValueError
        Bad X, y (not two classes), weights or stopping criteria; the message names
        the argument.

    Warns
    -----
    PathWarning
        When the path stops before lam_min (max_steps reached, or a step that
        cannot be certified); the message names the lam reached.

    See Also
    --------
    Path : What is returned: ``at``, ``scores``, ``select``, ``plot``.
    solvers.formulations.svm2 : The same problem at one lam, in CVXPY.
    solvers.SVM2CV : The lam chosen by cross-validation on these paths.
    solvers.certificates.svm2_certificate : The duality gap of a solution.

    Examples
    --------
    ``lams[0]`` is ``max_j |2 X_j' Y a|`` with ``a = 1 - y mean(y)``, and the solution
    at any lam has a zero duality gap:

    >>> from solvers.certificates import svm2_certificate
    >>> from solvers.path import svm2_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = np.where(X[:, 0] + 0.5 * rng.standard_normal(30) > 0, 1, -1)
    >>> path = svm2_path(X, y)
    >>> a = 1 - y * y.mean()
    >>> bool(np.isclose(path.lams[0], np.max(np.abs(2 * X.T @ (y * a)))))
    True
    >>> coef, intercept = path.at(5.0)
    >>> svm2_certificate(X, y, coef, intercept, lam=5.0).holds
    True
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
        sample_weight=sample_weight,
    )
    return quadratic_path(problem, margin_rows=True)
