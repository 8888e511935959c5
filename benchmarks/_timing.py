"""The timing rules the benchmarks share."""

import argparse
import multiprocessing
import time
import warnings


def benchmark_parser(description):
    """An argument parser with the options every benchmark takes.

    ``--quick`` (small sizes, for a smoke run), ``--repeats`` (default 3) and
    ``--threads`` (BLAS threads for both sides; default: all).
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="BLAS threads for both sides (1 is robust on a loaded machine); default: all",
    )
    return parser


def best_time(fn, repeats):
    """Best wall time of ``repeats`` runs of ``fn()`` after one untimed warm-up run.

    Returns
    -------
    seconds : float
    result : the value of the last run
    """
    result = fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def timed(fn):
    """Wall time of one run of ``fn()``.

    Returns
    -------
    seconds : float
    result : the value ``fn()`` returned
    """
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


class StepTimeout(RuntimeError):
    """A step of :func:`forked_steps` ran past its time limit (the child was killed)."""


class ChildError(RuntimeError):
    """The child of :func:`forked_steps` raised an exception or died (its message is kept)."""


def forked_steps(steps, timeout):
    """Run the generator function ``steps()`` in a forked child and yield what it yields.

    The child sees the parent's memory as it was at the fork (data, imported modules,
    thread-pool settings), so nothing is pickled but the yielded items. Each item must
    arrive within ``timeout`` seconds of the previous one (of the start, for the
    first); otherwise the child is killed. The child is also killed when the caller
    stops iterating early, so no step can keep a benchmark waiting.

    Parameters
    ----------
    steps : callable
        Takes no argument and returns an iterator of picklable items.
    timeout : float
        Seconds each step may take.

    Yields
    ------
    item
        The items of ``steps()``, in order.

    Raises
    ------
    StepTimeout
        When a step took longer than ``timeout``.
    ChildError
        When ``steps()`` raised (the message names the exception) or the child died
        (e.g. killed for memory).
    """
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child():
        try:
            for item in steps():
                sender.send(("item", item))
            sender.send(("done", None))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, never raised here
            lines = str(exc).strip().splitlines()
            sender.send(("error", f"{type(exc).__name__}: {lines[0] if lines else ''}"))
        finally:
            sender.close()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with BLAS threads alive
        process = context.Process(target=child, daemon=True)
        process.start()
    sender.close()
    try:
        while True:
            if not receiver.poll(timeout):
                raise StepTimeout(f"a step ran past {timeout:g} s")
            try:
                kind, payload = receiver.recv()
            except EOFError:
                process.join()
                raise ChildError(f"the child died (exit code {process.exitcode})") from None
            if kind == "item":
                yield payload
            elif kind == "error":
                raise ChildError(payload)
            else:
                return
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
