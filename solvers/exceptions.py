"""The errors and warnings of the solver layer, in a module that does not import CVXPY.

The exact paths (:mod:`solvers.path`) are NumPy/SciPy code and raise these too, so
they live apart from the CVXPY backends.
"""

from sklearn.exceptions import ConvergenceWarning

__all__ = ["SolverError", "PathWarning"]


class SolverError(RuntimeError):
    """No backend of the chain returned a certified optimum.

    Raised by every estimator when each backend of its chain failed: a status other
    than ``"optimal"``, an exception inside the backend, its time limit, or a
    solution whose duality gap (:mod:`solvers.certificates`) is above the tolerance.
    The message lists each attempt and what to try next.

    Parameters
    ----------
    message : str
        The error message.
    attempts : iterable of dict, default=()
        One entry per backend tried, stored as the list ``attempts``.

    Attributes
    ----------
    attempts : list of dict
        One entry per backend of the chain, in order, with keys ``backend``,
        ``status`` (the CVXPY status, or ``"skipped"``, ``"error"``,
        ``"uncertified"``), ``message`` and, when the backend returned a point,
        ``certificate`` (a :class:`solvers.certificates.Certificate`).

    See Also
    --------
    solvers.available_backends : The installed backends and their problem classes.
    solvers.DEFAULT_BACKENDS : The default chain of each problem class.
    solvers.certificates.Certificate : What "certified" means.

    Examples
    --------
    Two iterations of SCS do not reach a certified optimum, and SCS is the whole chain:

    >>> from solvers import L2SVM, SolverError
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 5)); y = np.where(X[:, 0] > 0, 1, -1)
    >>> try:
    ...     L2SVM(solver="SCS", solver_options={"max_iters": 2}).fit(X, y)
    ... except SolverError as error:
    ...     print([attempt["backend"] for attempt in error.attempts])
    ['SCS']
    """

    def __init__(self, message, attempts=()):
        super().__init__(message)
        self.attempts = list(attempts)


class PathWarning(ConvergenceWarning):
    """A path stopped early; the message names the lam below which it is unknown.

    A subclass of scikit-learn's ``ConvergenceWarning``, so the filters users already
    have for scikit-learn's solvers apply to it. Raised by the exact paths when they
    reach ``max_steps`` or cannot certify the next segment; ``Path.at`` stays exact down
    to the last breakpoint.

    See Also
    --------
    solvers.path.lasso_path : One of the exact paths that warn with it.
    sklearn.exceptions.ConvergenceWarning : Its base class.

    Examples
    --------
    >>> import warnings
    >>> from solvers import PathWarning
    >>> from solvers.path import lasso_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 5)); y = X @ np.arange(5.0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     path = lasso_path(X, y, max_steps=2)
    >>> [warning.category is PathWarning for warning in caught], len(path)
    ([True], 2)
    """
