"""Griffe extension (mkdocs.yml, mkdocstrings ``extensions:``): what only the objects know.

griffe reads the source; two kinds of documentation are not in it as griffe expects:

- **Docstrings built at import time.** ``WeightedLassoCV``, ``L1SVMCV`` and ``SVM2CV``
  (``solvers/cv.py``) share their Parameters and Attributes::

      class L1SVMCV(_BinaryPathCV):
          __doc__ = "The 1-norm SVM ..." + _DOC_PARAMETERS.format(...) + "Examples ..."

  That is no string literal, so griffe finds no docstring and the class would show no
  description, parameters or attributes. A public class or function without a docstring
  in its source is imported, and its own ``__doc__`` (the class's ``__dict__`` entry:
  never one inherited from a base) becomes its docstring, parsed as the others are
  (``docstring_style``), with the Sphinx roles made plain as ``griffe_comments.py`` does.
  Only such objects are imported; the rest of the package is still read from source.
- **Functions set as class attributes.** ``path = staticmethod(l1_svm_path)`` is a class
  attribute without a docstring, which mkdocstrings does not list. An attribute whose
  value is ``staticmethod(f)`` or ``classmethod(f)``, with ``f`` a function griffe
  knows, gets a docstring naming ``f`` (a link when ``f`` is public) and ``f``'s summary,
  and the label ``staticmethod``/``classmethod`` instead of ``instance-attribute`` (it is
  a method, not data): ``L1SVM.path`` reads "The function
  `solvers.path.l1_svm_path`, as a static method. The whole regularization path of the
  1-norm SVM (004 eq. 6)."
"""

import importlib.util
from pathlib import Path

import griffe

#: The packages the API pages document.
DOCUMENTED = ("sparsify", "solvers")
#: Wrappers that make a function a class attribute, and how the docstring says so.
_WRAPPERS = {"staticmethod": "a static method", "classmethod": "a class method"}


def _load_plain():
    """``griffe_comments._plain`` (Sphinx roles to Markdown), loaded from its file."""
    path = Path(__file__).with_name("griffe_comments.py")
    spec = importlib.util.spec_from_file_location("_griffe_comments_roles", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._plain


_plain = _load_plain()


def _is_private(path):
    return any(part.startswith("_") for part in path.split("."))


def _objects(obj):
    """The modules, classes, functions and attributes defined in ``obj`` and under it."""
    for member in obj.members.values():
        if member.is_alias:
            continue
        yield member
        if member.is_module or member.is_class:
            yield from _objects(member)


def _runtime_docstring(obj):
    """The ``__doc__`` the object at ``obj.path`` has of its own at runtime, or None."""
    try:
        runtime = griffe.dynamic_import(obj.path)
    except ImportError:
        return None
    doc = vars(runtime).get("__doc__") if isinstance(runtime, type) else runtime.__doc__
    return doc if isinstance(doc, str) and doc.strip() else None


def _wrapped_function(attr):
    """``(wrapper, path, function)`` for ``attr = wrapper(function)``; None otherwise.

    ``path`` is the function's path as the module imports it (``solvers.path.lasso_path``,
    not that of the private module defining it).
    """
    value = attr.value
    if not isinstance(value, griffe.ExprCall) or len(value.arguments) != 1:
        return None
    wrapper, (argument,) = str(value.function), value.arguments
    if wrapper not in _WRAPPERS or not isinstance(argument, griffe.ExprName):
        return None
    path = argument.canonical_path
    try:
        function = attr.modules_collection.get_member(path)
        if function.is_alias:
            function = function.final_target
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    return (wrapper, path, function) if function.is_function else None


def _function_docstring(attr, wrapper, path, function, loader):
    """The docstring of ``attr = wrapper(function)``: what it is and the summary."""
    public = [p for p in (path, function.path) if not _is_private(p)]
    name = f"[`{public[0]}`][{public[0]}]" if public else f"`{path}`"
    text = f"The function {name}, as {_WRAPPERS[wrapper]}."
    if function.docstring is not None:
        summary = function.docstring.value.split("\n\n", 1)[0].strip()
        text += f"\n\n{summary}"
    return griffe.Docstring(
        text,
        lineno=attr.lineno,
        endlineno=attr.endlineno,
        parent=attr,
        parser=loader.docstring_parser,
        parser_options=loader.docstring_options,
    )


class RuntimeDocs(griffe.Extension):
    """Docstrings built at import time; functions set as class attributes."""

    def on_package(self, *, pkg, loader, **kwargs):
        if pkg.name not in DOCUMENTED:
            return
        for obj in _objects(pkg):
            if obj.docstring is not None or _is_private(obj.path):
                continue
            if obj.is_class or obj.is_function:
                doc = _runtime_docstring(obj)
                if doc is None:
                    continue
                source = obj.members.get("__doc__") if obj.is_class else None
                where = obj if source is None or source.is_alias else source
                obj.docstring = griffe.Docstring(
                    _plain(doc),
                    lineno=where.lineno,
                    endlineno=where.endlineno,
                    parent=obj,
                    parser=loader.docstring_parser,
                    parser_options=loader.docstring_options,
                )
            elif obj.is_attribute and obj.parent.is_class:
                wrapped = _wrapped_function(obj)
                if wrapped is not None:
                    obj.docstring = _function_docstring(obj, *wrapped, loader)
                    obj.labels.discard("instance-attribute")  # a method, not data
                    obj.labels.add(wrapped[0])
