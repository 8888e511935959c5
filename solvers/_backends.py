"""CVXPY backends: what is installed, the defaults per problem class, the fallback chain.

Every estimator of this package solves its problem through :func:`solve_with_fallback`:
the ``solver`` argument is one CVXPY solver name or a list tried in order; an attempt
counts as solved only when the backend says ``"optimal"`` *and* the duality gap of
its answer, computed by :mod:`solvers.certificates`, is within tolerance. Each attempt
has a time limit; when every backend of the chain has failed, :class:`SolverError`
lists each attempt (backend, status, message, certificate) and what to try next
(docs/solvers.md, "Backends").
"""

import functools
import os
import sys
import time
import warnings

import cvxpy as cp
from cvxpy.constraints import SOC
from cvxpy.reductions.solvers import defines

from .exceptions import SolverError

__all__ = [
    "SolverError",
    "available_backends",
    "DEFAULT_BACKENDS",
    "DEFAULT_TIME_LIMIT",
    "TIME_LIMIT_OPTIONS",
    "ACCURACY_OPTIONS",
]

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

    See Also
    --------
    solvers.DEFAULT_BACKENDS : The default chain of each problem class.
    solvers.SolverError : Raised when no backend of a chain certifies its answer.

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


def resolve_chain(solver, problem_class, *, extra=()):
    """Turn an estimator's ``solver`` argument into the list of backends to try.

    Parameters
    ----------
    solver : None, str or list of str
        None for the default chain of ``problem_class``; a CVXPY solver name; or a list
        of names tried in order.
    problem_class : {"LP", "QP", "SOCP"}
    extra : tuple of str
        Names of non-CVXPY backends the caller also accepts (upper case).

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
        if name in extra or (name in installed and problem_class in installed[name]):
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
        usable = [n for n, c in installed.items() if problem_class in c] + list(extra)
        raise ValueError(
            f"solver={solver!r} names no usable backend for this {problem_class} problem "
            f"({tried}). Installed backends that solve it: {usable}."
        )
    return chain, skipped


def _known_solvers():
    return set(defines.SOLVER_MAP_CONIC) | set(defines.SOLVER_MAP_QP)


def solve_with_fallback(
    problem, solver, solver_options, problem_class, *, certify=None, extra_backends=None
):
    """Solve with the first backend of the chain whose answer is optimal and certified.

    An attempt succeeds when the backend reports the CVXPY status ``"optimal"`` and,
    if ``certify`` is given, the certificate it returns holds (the duality gap of
    :mod:`solvers.certificates`, computed by NumPy from the data: backends do report
    "optimal" for points that are not, e.g. SCS 4e-4 above the optimum). Anything
    else moves on to the next backend: another status, an exception raised inside
    the backend (a bad option, a failed factorisation), the time limit, a failed
    certificate.

    Parameters
    ----------
    problem : cvxpy.Problem or callable
        The problem, or a function returning it (called once, at the first CVXPY
        attempt: a chain of non-CVXPY backends never builds it).
    solver : None, str or list of str
        See :func:`resolve_chain`.
    solver_options : dict or None
        Keyword arguments passed to ``problem.solve`` for every backend of the chain;
        a key that is a backend name (e.g. ``{"SCS": {"max_iters": 10}}``) holds
        options for that backend only. ``"time_limit"`` (seconds, default
        :data:`DEFAULT_TIME_LIMIT`) is translated into each backend's own option
        (:data:`TIME_LIMIT_OPTIONS`).
    problem_class : {"LP", "QP", "SOCP"}
    certify : callable, optional
        ``certify(backend)``, called after an "optimal" attempt: reads the solution
        and returns a :class:`solvers.certificates.Certificate`.
    extra_backends : dict, optional
        Backend name (upper case) -> callable computing the solution without CVXPY
        (the exact path, ``"HOMOTOPY"``); such names are usable in ``solver``.

    Returns
    -------
    backend : str
        The backend that solved the problem.
    attempts : list of dict
        Every attempt (including skipped names): ``backend``, ``status``,
        ``message``, ``wall_time``, ``compile_time`` and ``solve_time`` for CVXPY
        attempts that ran, and ``certificate`` when one was computed.

    Raises
    ------
    SolverError
        When no attempt succeeded; its message lists every attempt.
    """
    extra_backends = extra_backends or {}
    chain, attempts = resolve_chain(solver, problem_class, extra=tuple(extra_backends))
    options = dict(solver_options or {})
    if "solver" in options:
        raise ValueError(
            "solver_options must not contain 'solver': the backend is the estimator's "
            "solver= argument. For HiGHS's own 'solver' option (simplex, ipm, pdlp) pass "
            "solver_options={'HIGHS': {'highs_options': {'solver': 'ipm'}}}."
        )
    time_limit = options.pop("time_limit", DEFAULT_TIME_LIMIT)
    per_backend = {
        k.upper(): options.pop(k)
        for k in list(options)
        if k.upper() in _known_solvers() or k.upper() in extra_backends
    }
    for name in chain:
        start = time.perf_counter()
        if name in extra_backends:
            attempt = _run_extra(name, extra_backends[name])
        else:
            if callable(problem):
                problem = problem()
            kwargs = {
                **_limits(name, time_limit),
                **ACCURACY_OPTIONS.get(name, {}),
                **options,
                **per_backend.get(name, {}),
            }
            attempt = _run_cvxpy(problem, name, kwargs)
        attempt["wall_time"] = time.perf_counter() - start
        attempts.append(attempt)
        if attempt["status"] != cp.OPTIMAL:
            continue
        if certify is None:
            return name, attempts
        try:
            certificate = certify(name)
        except (ArithmeticError, ValueError, TypeError) as exc:  # e.g. no value read back
            attempt["message"] = f"no certificate: {_first_line(exc)}"
            continue
        attempt["certificate"] = certificate
        if certificate.holds:
            return name, attempts
        attempt["message"] = str(certificate)
    raise SolverError(_failure_message(attempts, problem_class), attempts)


#: Seconds each backend of a chain may run before the chain moves on (settable per
#: fit with ``solver_options={"time_limit": seconds}``).
DEFAULT_TIME_LIMIT = 60.0

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


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@functools.cache
def _silence_highs_banner():
    """Build the process's first ``highspy.Highs`` with stdout pointed at /dev/null.

    HiGHS prints its banner to the C-level stdout once per process, when the first
    ``highspy.Highs`` is built (CVXPY builds one per solve); a fit must print
    nothing, so the first one is built here, quietly.
    """
    try:
        import highspy
    except ImportError:  # HiGHS is not installed: the chain skips it
        return
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no stdout to protect
        highspy.Highs()
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _run_cvxpy(problem, name, kwargs):
    """One CVXPY attempt; an exception inside the backend becomes the status "error"."""
    if name == "HIGHS":
        _silence_highs_banner()
    try:
        with warnings.catch_warnings():
            # An inaccurate solve is reported through the status (and SolverError).
            warnings.filterwarnings("ignore", message="Solution may be inaccurate")
            problem.solve(solver=name, **kwargs)
    except Exception as exc:  # noqa: BLE001 - any failure of one backend moves the chain on
        return {"backend": name, "status": "error", "message": _first_line(exc)}
    return {
        "backend": name,
        "status": problem.status,
        "message": "",
        "compile_time": problem.compilation_time,
        "solve_time": problem.solver_stats.solve_time,
    }


def _run_extra(name, run):
    """One attempt of a non-CVXPY backend (the exact path)."""
    try:
        run()
    except Exception as exc:  # noqa: BLE001 - any failure of one backend moves the chain on
        return {"backend": name, "status": "error", "message": _first_line(exc)}
    return {"backend": name, "status": cp.OPTIMAL, "message": ""}


def _failure_message(attempts, problem_class):
    lines = [f"no backend returned a certified optimum of this {problem_class} problem:"]
    for a in attempts:
        detail = f" ({a['message']})" if a["message"] else ""
        lines.append(f"  - {a['backend']}: {a['status']}{detail}")
    usable = [n for n, c in available_backends().items() if problem_class in c]
    lines.append(
        "What to try: another backend or a longer chain (solver=[...]; installed for "
        f"{problem_class}: {usable}); more iterations, tighter tolerances or a longer "
        "time limit through solver_options (e.g. {'SCS': {'max_iters': 100000, 'eps': "
        "1e-9}}, {'time_limit': 600}); rescaling the features; or a larger "
        "regularisation (lam or 1/C) if the problem is badly conditioned."
    )
    return "\n".join(lines)
