"""The layering that docs/architecture.md states holds, in a fresh interpreter."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parents[2]

SCRIPT = """
import importlib, pkgutil, sys

def loaded():
    return " ".join(sorted(sys.modules))

import sparsify
for info in pkgutil.walk_packages(sparsify.__path__, "sparsify."):
    importlib.import_module(info.name)
print(loaded())
import solvers.path, solvers.certificates, solvers.exceptions
print(loaded())
"""


def test_sparsify_never_loads_cvxpy_or_solvers_and_paths_load_without_cvxpy():
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    after_sparsify, after_paths = (set(line.split()) for line in run.stdout.splitlines())
    assert {"sparsify.bss", "sparsify.datasets", "sparsify.selectors"} <= after_sparsify
    assert "cvxpy" not in after_sparsify
    assert not any(m == "solvers" or m.startswith("solvers.") for m in after_sparsify)
    assert {"solvers.path", "solvers.certificates"} <= after_paths
    assert "cvxpy" not in after_paths
