"""``sparsify.theory``'s examples run as a user would copy them: with no name given.

The docstring tests (tests/docs/test_docstrings.py) run every example with ``np``
already defined; ``bss_features``'s example used ``np`` without importing it, in a
module that uses no NumPy, so pasted into a fresh interpreter it raised NameError.
"""

import doctest

import pytest

import sparsify.theory


@pytest.mark.parametrize("name", sparsify.theory.__all__)
def test_theory_examples_run_without_any_global(name):
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(getattr(sparsify.theory, name), name, module=sparsify.theory, globs={})
    assert [test for test in tests if test.examples], f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        report = []
        assert runner.run(test, out=report.append).failed == 0, "".join(report)
