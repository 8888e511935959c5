"""No test of the suite depends on how fast the machine is (issue 30, item 10).

A benchmark's budget turns a slow step into "over budget": a test that passed a short
budget went red on a loaded machine although every answer was right. Every budget a
test passes to a benchmark script is the hang guard (or a budget no step can meet,
which tests the over-budget path itself), and no test compares a measured time with
a number.
"""

import ast
from pathlib import Path

TESTS = Path(__file__).parents[1]
#: A budget that no step can meet: the test of the "over budget" path.
_IMPOSSIBLE = 1e-6
#: The names of measured times.
_CLOCKS = {"perf_counter", "monotonic", "time", "process_time"}


def _number(node):
    """The number a budget argument holds (a literal, or a string of one), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str):
        try:
            return float(node.value)
        except ValueError:
            return None
    return None


def budgets(tree):
    """``(line, value)`` of every budget in a test module: ``budget=<number>`` keywords
    and the string after ``"--budget"`` in a list of arguments."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "budget":
            found.append((node.value.lineno, _number(node.value)))
        if isinstance(node, ast.List):
            items = node.elts
            for flag, value in zip(items, items[1:], strict=False):
                if isinstance(flag, ast.Constant) and flag.value == "--budget":
                    found.append((value.lineno, _number(value)))
    return found


def timed_assertions(tree):
    """Lines of ``assert`` statements that call a clock (``time.perf_counter()`` ...)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            for call in ast.walk(node.test):
                if isinstance(call, ast.Call) and getattr(call.func, "attr", None) in _CLOCKS:
                    lines.append(node.lineno)
    return lines


def _modules():
    return sorted(p for p in TESTS.rglob("test_*.py") if p.name != Path(__file__).name)


def test_the_checks_see_what_they_look_for():
    tree = ast.parse(
        "f(budget=60.0)\nmain(['--budget', '60'])\nmain(['--budget', str(guard)])\n"
        "import time\nassert time.perf_counter() - start < 60\n"
    )
    assert budgets(tree) == [(1, 60.0), (2, 60.0), (3, None)]
    assert timed_assertions(tree) == [5]


def test_no_test_passes_a_budget_a_loaded_machine_can_exceed(hang_guard):
    modules = _modules()
    assert len(modules) > 50  # the whole suite is read
    short, timed = [], []
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = str(path.relative_to(TESTS))
        short += [
            (name, line, value)
            for line, value in budgets(tree)
            if value is not None and _IMPOSSIBLE < value < hang_guard
        ]
        timed += [(name, line) for line in timed_assertions(tree)]
    assert short == [], "pass the hang_guard fixture as the budget"
    assert timed == [], "assert answers, not seconds"
