"""The code examples of docs/solvers.md run."""

import re
from pathlib import Path

import pytest

DOC = Path(__file__).parents[2] / "docs" / "solvers.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_docs_example_runs(code):
    exec(compile(code, str(DOC), "exec"), {})
