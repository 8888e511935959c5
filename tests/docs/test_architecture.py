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
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            # ``from . import x`` of a submodule x is an arrow to x, not to the package.
            names = submodules + ([base] if not set(submodules) & modules.keys() else [])
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in modules and name != module}
    return found


def _solvers_graph():
    """Each module of solvers/ and the modules of solvers/ it imports."""
    paths = {}
    for path in (ROOT / "solvers").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        paths[name.removesuffix(".__init__")] = path
    return {m: _imports(p, m, paths) for m, p in paths.items()}


def test_no_import_circle_in_solvers():
    """No module of solvers/ reaches itself through its imports, at module level or
    inside functions (a lazy import is an arrow too)."""
    graph = _solvers_graph()

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
    # The check sees arrows: the problem imports the certificates.
    assert "solvers.certificates" in graph["solvers._problem"]


#: The layers of solvers/ from the bottom (docs/architecture.md, "Layout"); a module
#: imports only from its own layer or the ones below.
LAYERS = {
    "the problem": (
        "exceptions", "_losses", "_penalty", "_problem", "certificates", "formulations",
        "_chain", "_memory", "_defaults", "_columns", "_centred_gram", "_subsets",
        "_scores", "_costs", "_prefetch", "_fingerprint", "_products",
    ),
    "backends": (
        "_highs", "_polish", "_dual_cd", "_coordinate_descent",
        "_logistic_cd", "_newton", "_ridge_cg", "_ridge_closed_form",
        "_lp_column_generation", "path", "path.*", "backends", "backends.*",
    ),
    "registry and planner": ("_registry", "_planner"),
    "estimator bases": (
        "_base", "_dask_models", "_problem_fit", "_l1_models", "_l2_svm",
    ),
    "estimators": (
        "ridge", "lasso", "svm", "logistic", "cv", "adaptive", "weights", "support_vectors",
    ),
    "guarantees and the package": ("guarantees", "testing", ""),
}  # fmt: skip


def _layer(module):
    """The index of ``module``'s layer in :data:`LAYERS`."""
    short = module.removeprefix("solvers").removeprefix(".")
    for index, members in enumerate(LAYERS.values()):
        wildcard = any(short.startswith(m[:-1]) for m in members if m.endswith(".*"))
        if short in members or wildcard:
            return index
    raise AssertionError(f"{module} is in no layer of LAYERS: place it")


def test_no_import_runs_back_up_a_layer_in_solvers():
    """Every module of solvers/ is in one layer, and no import (lazy ones included)
    goes from a lower layer to a higher one: the backends know nothing of the
    estimators, the planner nothing of the estimator bases."""
    graph = _solvers_graph()
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if _layer(target) > _layer(module)
    )
    assert upward == [], f"imports from a lower layer to a higher one: {upward}"
    # The check sees arrows both ways: an estimator imports a backend's module.
    assert _layer("solvers.svm") > _layer("solvers._lp_column_generation")
    assert "solvers._lp_column_generation" in graph["solvers.svm"]


def _public_estimators():
    """Every public class of ``solvers`` and ``sparsify`` that has ``fit``."""
    import inspect

    import solvers
    import sparsify

    return [
        getattr(package, name)
        for package in (solvers, sparsify)
        for name in package.__all__
        if inspect.isclass(getattr(package, name)) and hasattr(getattr(package, name), "fit")
    ]


def _library_classes(cls):
    return [k for k in cls.__mro__ if k.__module__.split(".")[0] in ("solvers", "sparsify")]


def test_each_public_estimator_has_at_most_three_library_classes_in_its_mro():
    """Thin shells (docs/architecture.md, "Layout"): an estimator is its own class, at
    most one family base and the one base; behaviour shared otherwise is a function
    (working sets, public names, one-vs-rest) or scikit-learn's mixins."""
    estimators = _public_estimators()
    assert len(estimators) >= 25  # the check sees them all, selectors included
    deep = {cls.__name__: [k.__name__ for k in _library_classes(cls)] for cls in estimators}
    deep = {name: mro for name, mro in deep.items() if len(mro) > 3}
    assert deep == {}, f"more than 3 classes of the library in the MRO: {deep}"


def _attributes_read(node, receivers):
    """The names ``r.name`` read in ``node`` for a receiver ``r`` in ``receivers``."""
    import ast

    return {
        n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id in receivers
    }


def _read_by_the_library(cls):
    """What the library reads off an instance of ``cls`` other than in ``cls``'s own body:
    ``self.x`` in the library classes of its MRO and ``e.x`` in every module function of
    solvers/ and sparsify/ whose first argument ``e`` is not ``self`` (the functions an
    estimator is handed to: working sets, one-vs-rest, cross-validation, Dask fits)."""
    import ast
    import inspect

    read = set()
    for package in ("solvers", "sparsify"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.FunctionDef) and node.args.args:
                    first = node.args.args[0].arg
                    if first != "self":
                        read |= _attributes_read(node, {first})
    for base in _library_classes(cls):
        if base is cls:
            continue
        read |= _attributes_read(ast.parse(inspect.getsource(base).strip()), {"self", "cls"})
    return read


#: scikit-learn's conventions a class defines and scikit-learn's code calls.
_SKLEARN_CONVENTIONS = {"_expected_failed_checks", "_more_tags", "_get_support_mask"}


def _hooks(cls):
    """The private methods (functions or properties written in ``cls``'s body) that the
    library reads off an instance: template-method hooks a base class or a function
    calls. Data declared on the class (strings, tuples, a module function assigned as a
    value, as ``path = staticmethod(lasso_path)``) is not a hook."""
    import types

    read = _read_by_the_library(cls)
    hooks = []
    for name, value in vars(cls).items():
        if not name.startswith("_") or name.startswith("__") or name in _SKLEARN_CONVENTIONS:
            continue
        function = value.fget if isinstance(value, property) else value
        function = getattr(function, "__func__", function)  # staticmethod, classmethod
        written_here = isinstance(function, types.FunctionType) and (
            function.__qualname__.startswith(f"{cls.__qualname__}.")
        )
        if written_here and name in read:
            hooks.append(name)
    return sorted(hooks)


def test_the_check_for_hooks_sees_a_hook():
    """A class that overrides what its base calls is caught; one that declares data is not."""
    from solvers._base import LinearModel

    class Hooked(LinearModel):
        def _fit_problem(self, X, y, sample_weight):  # LinearModel.fit calls it
            pass

        def _helper_of_its_own(self):  # nothing else reads it
            pass

    class Declared(LinearModel):
        _MODEL = "lasso"
        _fit_problem = staticmethod(print)  # a function as a value, not written here

    assert _hooks(Hooked) == ["_fit_problem"]
    assert _hooks(Declared) == []


def test_no_public_estimator_defines_a_hook_a_base_calls():
    """The estimators and selectors declare data (loss, model, path, parameters, the
    function that computes a selection); the fit lives in their family base or in
    functions (docs/architecture.md, "Layout")."""
    estimators = _public_estimators()
    assert {cls.__name__ for cls in estimators} >= {"L1SVM", "SVMDual", "RLSC", "BSSSelector"}
    hooked = {cls.__name__: _hooks(cls) for cls in estimators}
    assert {name: hooks for name, hooks in hooked.items() if hooks} == {}
