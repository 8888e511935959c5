"""The one timing rule every benchmark uses."""

import time


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
