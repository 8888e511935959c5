"""Every public name's docstring is valid numpydoc and its Examples run (doctest).

The public names are those of ``docs/hooks.py`` (the modules' ``__all__``, the names the
API pages render), and the public methods the library defines on its public classes
(``fit``, ``transform``, ``at``, ...). Each is checked with numpydoc's validator, as
scikit-learn and skglm check theirs, and the examples in its docstring are run.
"""

import doctest
import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

ROOT = Path(__file__).parents[2]
LIBRARY = ("sparsify", "solvers")

#: numpydoc checks left out, for every name:
#: ES01 an extended summary (a one-line docstring can be the whole story),
#: GL01/GL02 where the text starts and ends relative to the quotes (style, not content),
#: SS05 the summary's first word in third person ("Fits" vs "Fit"),
#: SS06 a summary longer than one line, SA04 a See Also entry without a description.
IGNORED = {"ES01", "GL01", "GL02", "SS05", "SS06", "SA04"}
#: Left out for methods only: methods are documented with their class, whose docstring
#: carries the See Also and the Examples (scikit-learn's rule for its estimators too).
IGNORED_FOR_METHODS = {"SA01", "EX01"}


def _load_hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _defined_here(obj):
    return (getattr(obj, "__module__", None) or "").split(".")[0] in LIBRARY


def _public_methods(cls):
    """Public methods the library defines on ``cls`` or its library bases."""
    for name, member in inspect.getmembers(cls):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        if _defined_here(member) and member.__qualname__.split(".")[0] != member.__name__:
            yield member


def _public_names():
    """``{import path: object}``: functions, classes and their public methods."""
    found = {}
    for _, _, obj in _load_hooks().public_objects():
        if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not _defined_here(obj):
            continue
        found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
        if inspect.isclass(obj):
            for method in _public_methods(obj):
                found.setdefault(f"{method.__module__}.{method.__qualname__}", method)
    return found


PUBLIC = _public_names()


def test_the_public_names_are_found():
    assert "sparsify.bss.bss" in PUBLIC and "solvers.svm.L1SVM" in PUBLIC
    assert "solvers.svm.L1SVM.fit" in PUBLIC or "solvers._base.LinearModel.fit" in PUBLIC
    assert not any(name.split(".")[-1].startswith("_") for name in PUBLIC)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_docstring_is_valid_numpydoc(name):
    is_method = "." in PUBLIC[name].__qualname__
    ignored = IGNORED | (IGNORED_FOR_METHODS if is_method else set())
    errors = [f"{code}: {message}" for code, message in numpydoc_validate.validate(name)["errors"]
              if code not in ignored]
    assert errors == [], f"{name}:\n  " + "\n  ".join(errors)


def _doctests(name):
    obj = PUBLIC[name]
    module = inspect.getmodule(obj)
    finder = doctest.DocTestFinder(recurse=False)
    return [test for test in finder.find(obj, name, module=module, globs={"np": np})
            if test.examples]


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_docstring_examples_run(name):
    tests = _doctests(name)
    is_method = "." in PUBLIC[name].__qualname__
    if not tests:
        assert is_method, f"{name} has no Examples section"
        return
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        report = []  # doctest's own account of each failure
        assert runner.run(test, out=report.append).failed == 0, "".join(report)
