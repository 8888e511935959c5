"""The default CVXPY chains and time limit, read by the registry and by the CVXPY attempts.

A module of its own (no CVXPY import), so that :mod:`solvers._registry` (which
declares the backends) and :mod:`solvers.backends._cvxpy_solvers` (which runs CVXPY's) both read
these without importing each other.
"""

__all__ = ["DEFAULT_BACKENDS", "DEFAULT_TIME_LIMIT"]

#: The CVXPY backends of each problem class (a linear program, a convex QP, a
#: second-order cone program) that enter a default chain, most reliable first (the
#: planner, :mod:`solvers._planner`, orders them among the library's own by cost). The
#: reasons:
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
#: - EXP (logistic regression, exponential cones): Clarabel, then ECOS, then SCS.
DEFAULT_BACKENDS = {
    "LP": ("HIGHS", "CLARABEL", "ECOS"),
    "QP": ("CLARABEL", "ECOS", "OSQP"),
    "SOCP": ("CLARABEL", "ECOS", "SCS"),
    "EXP": ("CLARABEL", "ECOS", "SCS"),
}


#: Seconds a CVXPY backend's attempt may run before the chain moves on (settable per fit
#: with ``solver_options={"time_limit": seconds}``; None for none). The library's own
#: backends are bounded by their iteration caps instead.
DEFAULT_TIME_LIMIT = 60.0
