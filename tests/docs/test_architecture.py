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


def _imports(path, module, modules):
    """The modules of ``modules`` that ``module`` (at ``path``) imports, anywhere in it."""
    import ast

    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = parent + ("." + node.module if node.module else "")
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in modules and name != module}
    return found


def test_no_import_circle_in_solvers():
    """No module of solvers/ reaches itself through its imports, at module level or
    inside functions (a lazy import is an arrow too)."""
    paths = {}
    for path in (ROOT / "solvers").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        paths[name.removesuffix(".__init__")] = path
    graph = {m: _imports(p, m, paths) for m, p in paths.items()}

    def reaches(start):
        seen, stack = set(), list(graph[start])
        while stack:
            module = stack.pop()
            if module not in seen:
                seen.add(module)
                stack.extend(graph[module])
        return seen

    circles = sorted(m for m in graph if m in reaches(m) and m != "solvers")
    assert circles == [], f"modules on an import circle: {circles}"
    # The check sees arrows: the estimators import the certificates.
    assert "solvers.certificates" in graph["solvers.lasso"]
