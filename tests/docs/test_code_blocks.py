"""Every ```python block of the docs pages and the README runs, and prints what it shows.

Each page's blocks run in order in one namespace of their own (a page may build on
its earlier blocks). Blocks meant only to be read use another info string (```text,
```pycon). Pages whose blocks take longer than about 10 s are in ``SLOW_PAGES``.

A printed output shown in a page is written as a comment on the ``print`` line,
``print(x)  # prints: <the output>`` (``...`` matches anything, as in doctest): the
test checks every line that such a ``print`` writes against it. A comment without
``prints:`` describes the value and is not checked.
"""

import builtins
import doctest
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)

#: Pages (relative to the repository root) whose blocks take more than about 10 s.
SLOW_PAGES = set()


PRINTS = re.compile(r"#\s*prints:\s*(.*?)\s*$")
CHECKER = doctest.OutputChecker()


def python_blocks(text):
    """The sources of the ```python blocks of a Markdown text, in order."""
    return FENCE.findall(text)


def shown_outputs(code):
    """{line number: the output shown} for each ``# prints:`` line of a block."""
    return {
        number: match.group(1)
        for number, line in enumerate(code.splitlines(), 1)
        if (match := PRINTS.search(line))
    }


def recording_print(filename, printed):
    """A ``print`` that also records, per line of the block, what it wrote there."""

    def record(*args, sep=" ", end="\n", file=None, flush=False):
        frame = sys._getframe(1)
        if file is None and frame.f_code.co_filename == filename:
            printed.setdefault(frame.f_lineno, []).append(sep.join(map(str, args)))
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)

    return record


def check_shown_outputs(code, printed, where):
    for number, shown in shown_outputs(code).items():
        assert number in printed, f"{where}, line {number}: the print shown never ran"
        for got in printed[number]:
            assert CHECKER.check_output(
                shown + "\n", got + "\n", doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
            ), f"{where}, line {number}: the page shows {shown!r}, the code prints {got!r}"


def test_a_shown_output_is_checked():
    code = 'print("gap", 5.41e-03)  # prints: gap 0.0054...\nprint(1)  # prints: 2\n'
    printed = {}
    namespace = {"print": recording_print("block", printed)}
    exec(compile(code, "block", "exec"), namespace)
    assert printed == {1: ["gap 0.00541"], 2: ["1"]}
    with pytest.raises(AssertionError, match="the page shows '2', the code prints '1'"):
        check_shown_outputs(code, printed, "block")
    check_shown_outputs(code.splitlines()[0], printed, "block")


def test_python_blocks_are_found_in_order():
    text = "a\n```python\nx = 1\n```\n```text\nno\n```\n```python\ny = x\n```\n"
    assert python_blocks(text) == ["x = 1\n", "y = x\n"]


def page_params():
    for page in PAGES:
        name = page.relative_to(ROOT).as_posix()
        if not python_blocks(page.read_text()):
            continue
        marks = [pytest.mark.slow] if name in SLOW_PAGES else []
        yield pytest.param(page, id=name, marks=marks)


@pytest.mark.parametrize("page", list(page_params()))
def test_code_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.chdir(tmp_path)   # whatever a block writes lands here
    namespace = {"__name__": "__docs__"}
    for number, code in enumerate(python_blocks(page.read_text()), 1):
        where, printed = f"{page.name}, block {number}", {}
        namespace["print"] = recording_print(where, printed)
        exec(compile(code, where, "exec"), namespace)
        check_shown_outputs(code, printed, where)
