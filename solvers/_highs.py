"""HiGHS without its banner: a fit prints nothing.

HiGHS prints its banner to the C-level stdout once per process, when the first
``highspy.Highs`` is built. Both of the library's routes to HiGHS (CVXPY's backend and
the column generation of :mod:`solvers._lp_column_generation`) call
:func:`silence_highs_banner` first.
"""

import functools
import os
import sys

__all__ = ["silence_highs_banner"]


@functools.cache
def silence_highs_banner():
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


