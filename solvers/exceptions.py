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

    Attributes
    ----------
    attempts : list of dict
        One entry per backend of the chain, in order, with keys ``backend``,
        ``status`` (the CVXPY status, or ``"skipped"``, ``"error"``,
        ``"uncertified"``), ``message`` and, when the backend returned a point,
        ``certificate`` (a :class:`solvers.certificates.Certificate`).
    """

    def __init__(self, message, attempts=()):
        super().__init__(message)
        self.attempts = list(attempts)


class PathWarning(ConvergenceWarning):
    """A path stopped early; the message names the lam below which it is unknown.

    A subclass of scikit-learn's ``ConvergenceWarning``, so the filters users already
    have for scikit-learn's solvers apply to it.
    """
