"""CVXPY backends: what is installed, the defaults per problem class, the fallback chain.

Every estimator of this package solves its problem through :func:`solve_with_fallback`:
the ``solver`` argument is one CVXPY solver name or a list tried in order; only the
CVXPY status ``"optimal"`` counts as solved, and when every backend of the chain has
failed, :class:`SolverError` lists each attempt (backend, status, message) and what to
try next (DESIGN.md, "solvers").
"""

import functools
import time
import warnings

import cvxpy as cp
from cvxpy.constraints import SOC
from cvxpy.reductions.solvers import defines

from .exceptions import SolverError

__all__ = ["SolverError", "available_backends", "DEFAULT_BACKENDS"]

#: Default fallback chain per problem class (a linear program, a convex QP, a
#: second-order cone program), first choice first. The reasons:
#:
#: - LP (1-norm SVM): HiGHS's dual simplex returns an exact vertex and is the
#:   fastest on these LPs; Clarabel and ECOS (interior point, high accuracy) follow.
#:   OSQP is left out: a first-order method, it stops at "optimal_inaccurate" on the
#:   1-norm SVM LP. HiGHS is run with its default (simplex) mode: its interior-point
#:   mode was reported to fail inside CVXPY on LPs with bounded variables. With CVXPY
#:   1.9.3 and highspy 1.15 every mode (simplex, ipm, pdlp) reaches linprog's optimum
#:   on the 1-norm SVM LP; tests/solvers/test_backends.py keeps checking all three.
#: - QP (SVM dual, 2-norm SVM, SVM2, weighted lasso, ridge): Clarabel, an interior-point
#:   solver that takes the quadratic objective directly and solves to 1e-8; then OSQP,
#:   then ECOS (through a second-order-cone reformulation). HiGHS is left out: it hits
#:   its iteration limit on the squared-hinge QP.
#: - SOCP (enclosing ball): Clarabel, then ECOS, then SCS.
DEFAULT_BACKENDS = {
    "LP": ("HIGHS", "CLARABEL", "ECOS"),
    "QP": ("CLARABEL", "ECOS", "OSQP"),
    "SOCP": ("CLARABEL", "ECOS", "SCS"),
}

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
    return tuple(classes)


def available_backends():
    """The installed CVXPY backends and the problem classes each supports.

    Returns
    -------
    dict
        Backend name -> tuple of problem classes among ``"LP"``, ``"QP"``, ``"SOCP"``,
        in CVXPY's order of installed solvers (mixed-integer-only variants left out).

    Examples
    --------
    >>> from solvers import available_backends
    >>> "CLARABEL" in available_backends()
    True
    """
    return dict(_installed())


@functools.cache
def _installed():
    # cvxpy.installed_solvers() probes imports (about 3 ms): once per session is enough.
    return {
        name: _classes(name)
        for name in cp.installed_solvers()
        if name not in _EXCLUDED and _classes(name)
    }


def resolve_chain(solver, problem_class):
    """Turn an estimator's ``solver`` argument into the list of backends to try.

    Parameters
    ----------
    solver : None, str or list of str
        None for the default chain of ``problem_class``; a CVXPY solver name; or a list
        of names tried in order.
    problem_class : {"LP", "QP", "SOCP"}

    Returns
    -------
    chain : list of str
        The usable backends, in order.
    skipped : list of dict
        The names left out (unknown, not installed, or not supporting the class),
        as attempts with status ``"skipped"``.

    Raises
    ------
    TypeError
        ``solver`` is not None, a string or a list/tuple of strings.
    ValueError
        No name of ``solver`` is usable.
    """
    if solver is None:
        names = list(DEFAULT_BACKENDS[problem_class])
    elif isinstance(solver, str):
        names = [solver]
    elif isinstance(solver, list | tuple) and all(isinstance(s, str) for s in solver):
        names = list(solver)
    else:
        raise TypeError(
            f"solver must be None, a CVXPY solver name or a list of names; got {solver!r}."
        )
    installed = available_backends()
    chain, skipped = [], []
    for raw in names:
        name = raw.upper()
        if name in installed and problem_class in installed[name]:
            chain.append(name)
            continue
        if name in installed:
            why = f"does not solve {problem_class} problems"
        elif name in _known_solvers():
            why = "is not installed"
        else:
            why = "is not a CVXPY solver name"
        skipped.append({"backend": raw, "status": "skipped", "message": why})
    if not chain:
        tried = "; ".join(f"{a['backend']} {a['message']}" for a in skipped)
        usable = [n for n, c in installed.items() if problem_class in c]
        raise ValueError(
            f"solver={solver!r} names no usable backend for this {problem_class} problem "
            f"({tried}). Installed backends that solve it: {usable}."
        )
    return chain, skipped


def _known_solvers():
    return set(defines.SOLVER_MAP_CONIC) | set(defines.SOLVER_MAP_QP)


def solve_with_fallback(problem, solver, solver_options, problem_class):
    """Solve ``problem`` with the first backend of the chain that reaches "optimal".

    Parameters
    ----------
    problem : cvxpy.Problem
    solver : None, str or list of str
        See :func:`resolve_chain`.
    solver_options : dict or None
        Keyword arguments passed to ``problem.solve`` for every backend of the chain;
        a key that is a backend name (e.g. ``{"SCS": {"max_iters": 10}}``) holds
        options for that backend only.
    problem_class : {"LP", "QP", "SOCP"}

    Returns
    -------
    backend : str
        The backend that solved the problem.
    attempts : list of dict
        Every attempt (including skipped names), with its ``compile_time`` and
        ``solve_time`` in seconds when it ran.

    Raises
    ------
    SolverError
        When no backend returned the status "optimal".
    """
    chain, attempts = resolve_chain(solver, problem_class)
    options = dict(solver_options or {})
    if "solver" in options:
        raise ValueError(
            "solver_options must not contain 'solver': the backend is the estimator's "
            "solver= argument. For HiGHS's own 'solver' option (simplex, ipm, pdlp) pass "
            "solver_options={'HIGHS': {'highs_options': {'solver': 'ipm'}}}."
        )
    per_backend = {
        k.upper(): options.pop(k) for k in list(options) if k.upper() in _known_solvers()
    }
    for name in chain:
        kwargs = {**options, **per_backend.get(name, {})}
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                # An inaccurate solve is reported through the status (and SolverError).
                warnings.filterwarnings("ignore", message="Solution may be inaccurate")
                problem.solve(solver=name, **kwargs)
            status, message = problem.status, ""
        except cp.error.SolverError as exc:
            status, message = "error", str(exc).strip().splitlines()[0]
        attempt = {
            "backend": name,
            "status": status,
            "message": message,
            "wall_time": time.perf_counter() - start,
        }
        if status not in ("error",):
            attempt["compile_time"] = problem.compilation_time
            attempt["solve_time"] = problem.solver_stats.solve_time
        attempts.append(attempt)
        if status == cp.OPTIMAL:
            return name, attempts
    raise SolverError(_failure_message(attempts, problem_class), attempts)


def _failure_message(attempts, problem_class):
    lines = [f"no backend solved this {problem_class} problem to the status 'optimal':"]
    for a in attempts:
        detail = f" ({a['message']})" if a["message"] else ""
        lines.append(f"  - {a['backend']}: {a['status']}{detail}")
    usable = [n for n, c in available_backends().items() if problem_class in c]
    lines.append(
        "What to try: another backend or a longer chain (solver=[...]; installed for "
        f"{problem_class}: {usable}); more iterations or looser tolerances through "
        "solver_options (e.g. {'SCS': {'max_iters': 100000}}); rescaling the features; "
        "or a larger regularisation (lam or 1/C) if the problem is badly conditioned."
    )
    return "\n".join(lines)
