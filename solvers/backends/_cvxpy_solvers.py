"""CVXPY's backends: which are installed, one attempt with each, their time limits and accuracy.

A CVXPY backend solves the problem's formulation (:mod:`solvers.formulations`,
through :mod:`solvers.backends.cvxpy`); it is one attempt of a planned chain
(:mod:`solvers._chain`), which accepts its answer
only when the backend says ``"optimal"`` *and* the certificate of
:mod:`solvers.certificates` holds. Each attempt has a time limit and, unless the
user sets them, tolerances tighter than the backend's defaults.
"""

import functools
import warnings

import cvxpy as cp
from cvxpy.constraints import SOC, ExpCone
from cvxpy.reductions.solvers import defines

from .._chain import Outcome, first_line
from .._defaults import DEFAULT_BACKENDS, DEFAULT_TIME_LIMIT
from .._highs import silence_highs_banner

__all__ = [
    "DEFAULT_BACKENDS",
    "DEFAULT_TIME_LIMIT",
    "TIME_LIMIT_OPTIONS",
    "ACCURACY_OPTIONS",
    "cvxpy_attempt",
    "installed_classes",
    "known_solvers",
]

# Mixed-integer variants of continuous solvers: never useful here.
_EXCLUDED = frozenset({"ECOS_BB", "GLPK_MI"})


def _classes(name):
    """Problem classes CVXPY can hand to backend ``name`` (empty when it knows none)."""
    conic = defines.SOLVER_MAP_CONIC.get(name)
    qp = defines.SOLVER_MAP_QP.get(name)
    socp = conic is not None and SOC in conic.SUPPORTED_CONSTRAINTS
    classes = []
    if conic is not None or qp is not None:
        classes.append("LP")
    if qp is not None or socp:  # CVXPY rewrites a QP as an SOCP for conic-only backends
        classes.append("QP")
    if socp:
        classes.append("SOCP")
    if conic is not None and ExpCone in conic.SUPPORTED_CONSTRAINTS:
        classes.append("EXP")
    return tuple(classes)


@functools.cache
def installed_classes():
    """The installed CVXPY backends and the problem classes each can solve.

    Returns
    -------
    dict
        Backend name -> tuple of problem classes among ``"LP"``, ``"QP"``, ``"SOCP"``,
        ``"EXP"`` (exponential cones),
        in CVXPY's order of installed solvers (mixed-integer-only variants left out).
        ``cvxpy.installed_solvers()`` probes imports (about 3 ms): read once.
    """
    return {
        name: _classes(name)
        for name in cp.installed_solvers()
        if name not in _EXCLUDED and _classes(name)
    }


def known_solvers():
    """Every solver name CVXPY knows, installed or not."""
    return set(defines.SOLVER_MAP_CONIC) | set(defines.SOLVER_MAP_QP)


def cvxpy_attempt(problem, name, options):
    """One CVXPY attempt at ``problem`` with backend ``name``: an :class:`solvers._chain.Outcome`.

    ``options`` are the attempt's options (:func:`solvers._registry.split_options`):
    ``time_limit`` (seconds, default :data:`DEFAULT_TIME_LIMIT`; None for none) is
    translated into the backend's own option (:data:`TIME_LIMIT_OPTIONS`), the
    backend's accuracy options (:data:`ACCURACY_OPTIONS`) apply unless overridden,
    and the rest go to ``problem.solve``. An exception inside the backend (a bad
    option, a failed factorisation) becomes the status ``"error"``.
    """
    options = dict(options)
    time_limit = options.pop("time_limit", DEFAULT_TIME_LIMIT)
    kwargs = {**_limits(name, time_limit), **ACCURACY_OPTIONS.get(name, {}), **options}
    if name == "HIGHS":
        silence_highs_banner()
    try:
        with warnings.catch_warnings():
            # An inaccurate solve is reported through the status (and SolverError).
            warnings.filterwarnings("ignore", message="Solution may be inaccurate")
            problem.solve(solver=name, **kwargs)
    except Exception as exc:  # noqa: BLE001 - any failure of one backend moves the chain on
        return Outcome("error", first_line(exc))
    record = {
        "compile_time": problem.compilation_time,
        "solve_time": problem.solver_stats.solve_time,
        "iterations": problem.solver_stats.num_iters,
    }
    return Outcome(problem.status, record=record)


#: The option through which each backend takes its time limit. ECOS has none: its
#: iteration cap (``max_iters``, 100 by default) bounds it.
TIME_LIMIT_OPTIONS = {
    "CLARABEL": "time_limit",
    "OSQP": "time_limit",
    "SCS": "time_limit_secs",
    "HIGHS": "time_limit",
    "GUROBI": "TimeLimit",
    "CBC": "maximumSeconds",
    "PIQP": "max_time",
}


#: Tolerances each backend is run with unless ``solver_options`` set them: tighter
#: than the backends' defaults, so that their "optimal" answers pass the certificate
#: (with its defaults, ECOS stops 1e-5 above the optimum of the lasso and SVM2);
#: where they still fall short, the estimators polish the answer (solvers._polish).
ACCURACY_OPTIONS = {
    "CLARABEL": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10},
    "ECOS": {"abstol": 1e-9, "reltol": 1e-9, "feastol": 1e-9},
    "OSQP": {"eps_abs": 1e-6, "eps_rel": 1e-6, "max_iter": 100000, "polishing": True},
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 100000},
}


def _limits(name, time_limit):
    option = TIME_LIMIT_OPTIONS.get(name)
    return {} if option is None or time_limit is None else {option: float(time_limit)}
