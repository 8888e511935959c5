"""Every ```python block of the docs pages and the README runs.

Each page's blocks run in order in one namespace of their own (a page may build on
its earlier blocks). Blocks meant only to be read use another info string (```text,
```pycon). Pages whose blocks take longer than about 10 s are in ``SLOW_PAGES``.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)

#: Pages (relative to the repository root) whose blocks take more than about 10 s.
SLOW_PAGES = set()


def python_blocks(text):
    """The sources of the ```python blocks of a Markdown text, in order."""
    return FENCE.findall(text)


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
        exec(compile(code, f"{page.name}, block {number}", "exec"), namespace)
