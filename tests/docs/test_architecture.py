"""The layering that docs/architecture.md states holds, in a fresh interpreter."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parents[2]


def loaded_after(code):
    """The top-level packages present in sys.modules after running ``code`` alone."""
    script = textwrap.dedent(code) + "\nimport sys\nprint(' '.join(sorted(sys.modules)))\n"
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(run.stdout.split())


def test_sparsify_never_imports_cvxpy_or_solvers():
    modules = loaded_after(
        """
        import pkgutil, importlib, sparsify
        for info in pkgutil.walk_packages(sparsify.__path__, "sparsify."):
            importlib.import_module(info.name)
        """
    )
    assert "sparsify.bss" in modules and "sparsify.datasets" in modules
    assert "cvxpy" not in modules
    assert not any(m == "solvers" or m.startswith("solvers.") for m in modules)


def test_paths_certificates_and_exceptions_load_without_cvxpy():
    modules = loaded_after("import solvers.path, solvers.certificates, solvers.exceptions")
    assert "solvers.path" in modules and "cvxpy" not in modules
