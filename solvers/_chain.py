"""Running a planned chain: the first attempt that is optimal and certified wins.

A fit tries the backends of its plan (:mod:`solvers._planner`) in order. An attempt
succeeds only when the backend reports ``"optimal"`` *and* the certificate of its
answer (:mod:`solvers.certificates`, computed by NumPy from the data) holds:
backends do report "optimal" for points that are not. Anything else moves on to the
next backend: another status, an exception inside the backend (a bad option, a
failed factorisation), its time limit, a failed certificate. A backend that ran out
of its budget hands its last point to the next one as a warm start. When every
attempt has failed, :class:`solvers.SolverError` lists them all and what to try.
"""

import time
from dataclasses import dataclass, field, replace

from .exceptions import SolverError

__all__ = ["Outcome", "first_line", "run_chain"]


@dataclass
class Outcome:
    """What one attempt returned.

    Attributes
    ----------
    status : str
        ``"optimal"`` when the backend claims an optimum (the certificate decides),
        else its status: a CVXPY status, ``"error"``, ``"max_iter"`` (a budget or
        iteration limit reached), ``"user_limit"`` (a time limit).
    message : str
        The backend's explanation, if any.
    answer : solvers._problem.Answer, optional
        The backend's answer (an optimal one, or the last point of one that stopped
        short, which the next backend that takes a warm start starts from).
    state : object, optional
        What the backend keeps for its next run on the same data (its warm start:
        multipliers, a working set, a compiled CVXPY problem), handed back to it as
        ``warm_start.kept``.
    record : dict
        Extra entries for the attempt's record: ``iterations`` (what the backend
        counts: epochs, CG iterations, path breakpoints, LP rounds, the CVXPY solver's
        iterations), CVXPY's ``compile_time`` and ``solve_time``.
    certificate : solvers.certificates.Certificate, optional
        The certificate the backend computed with :mod:`solvers.certificates` on the
        fitted attributes (the chain then takes it instead of computing it again), or
        that of an answer the backend itself found wanting.
    """

    status: str
    message: str = ""
    answer: object = None
    record: dict = field(default_factory=dict)
    certificate: object = None
    state: object = None


def first_line(exc):
    """The first line of an exception's message (its type when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def run_chain(steps, attempt, certify, *, what, hint="", tolerance=None, report=None):
    """Run the steps in order until one is optimal and certified.

    Parameters
    ----------
    steps : list of solvers._planner.Step
    attempt : callable
        ``attempt(step, warm) -> Outcome``: runs ``step.backend`` with ``step.options``,
        starting from ``warm`` (the answer of the last backend that ran, when this one
        takes a warm start, else None).
    certify : callable
        ``certify(outcome) -> Certificate`` of an optimal attempt's answer; it may
        replace ``outcome.answer`` by a better one it certified (a polished point).
    what : str
        The problem, for the error message (e.g. ``"SVM2 problem"``).
    hint : str, optional
        What else to try, appended to the error message.
    tolerance : float, optional
        The certificates' tolerance (the estimator's ``tol``; default theirs).
    report : callable, optional
        ``report(record)`` after each attempt (the estimator's ``verbose``).

    Returns
    -------
    backend : str
        The backend that solved it.
    attempts : list of dict
        One record per attempt: ``backend``, ``status``, ``message``, ``reason`` (why
        the planner put it there), ``wall_time``, CVXPY's ``compile_time`` and
        ``solve_time`` when it ran, ``certificate`` when one was computed, and
        ``warm_start`` (the backend whose answer it started from) when it was
        handed one.
    outcome : Outcome
        The certified attempt's outcome (its ``answer``).

    Raises
    ------
    SolverError
        No attempt succeeded; the message lists every attempt.
    """
    attempts, warm, source = [], None, None

    def retoleranced(certificate):
        if tolerance is None or certificate is None:
            return certificate
        return replace(certificate, tolerance=tolerance)

    def finish(record, start):
        record["wall_time"] = time.perf_counter() - start
        if report is not None:
            report(record)

    for step in steps:
        if step.skip:
            attempts.append(
                {"backend": step.backend, "status": "skipped", "message": step.skip,
                 "reason": step.reason}
            )
            continue
        start = time.perf_counter()
        handed = warm if step.warm_start else None
        try:
            outcome = attempt(step, handed)
        except Exception as exc:  # noqa: BLE001 - any failure of one backend moves the chain on
            outcome = Outcome("error", first_line(exc))
        record = {
            "backend": step.backend,
            "status": outcome.status,
            "message": outcome.message,
            "reason": step.reason,
            **outcome.record,
        }
        if outcome.certificate is not None:
            record["certificate"] = retoleranced(outcome.certificate)
        if handed is not None:
            record["warm_start"] = source
        attempts.append(record)
        if outcome.answer is not None:
            warm, source = outcome.answer, step.backend
        if outcome.status == "optimal":
            try:
                certificate = retoleranced(outcome.certificate or certify(outcome))
            except (ArithmeticError, ValueError, TypeError) as exc:  # no value read back
                record["message"] = f"no certificate: {first_line(exc)}"
            else:
                record["certificate"] = certificate
                if certificate.holds:
                    finish(record, start)
                    return step.backend, attempts, outcome
                record["message"] = "; ".join(filter(None, (outcome.message, str(certificate))))
        finish(record, start)
    raise SolverError(_failure_message(attempts, what, hint), attempts)


def _failure_message(attempts, what, hint):
    lines = [f"no backend returned a certified optimum of this {what}:"]
    for a in attempts:
        detail = f" ({a['message']})" if a["message"] else ""
        lines.append(f"  - {a['backend']}: {a['status']}{detail}")
    lines.append(
        "What to try: another backend or a longer chain (solver=[...]; "
        "solvers.available_backends() lists them); more iterations, tighter tolerances "
        "or a longer time limit through solver_options (e.g. {'SCS': {'max_iters': "
        "100000, 'eps_abs': 1e-9, 'eps_rel': 1e-9}}, {'time_limit': 600}); rescaling the "
        "features; or a larger regularisation (lam or 1/C) if the problem is badly conditioned."
        + (f" {hint}" if hint else "")
    )
    return "\n".join(lines)
