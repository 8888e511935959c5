"""The benchmark scripts in the test suite: answers are asserted, never time.

A benchmark's ``--budget`` stops a step that runs too long and reports it as "over
budget"; the scripts keep their own budgets (seconds per step, for the published
tables). A test runs them with :func:`hang_guard` instead: so long that only a step
that hangs reaches it, however loaded the machine, so that every step answers and
the test checks the answer.
"""

import pytest

#: Seconds per step in the tests: a guard against a hung step, not a timing assertion
#: (the steps of the quick runs take well under a second each on an idle machine).
HANG_GUARD = 1800.0


@pytest.fixture
def hang_guard():
    """The budget (seconds per step) a test passes to a benchmark script."""
    return HANG_GUARD
