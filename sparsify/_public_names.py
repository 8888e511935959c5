"""Public classes name the methods they inherit from private bases after themselves.

Python's own errors name a function by its ``__qualname__``: without this,
``SVM2(warm_start=True)`` raised "_WeightedL1SVM.__init__() got an unexpected
keyword argument" and ``SVM2CV().fit(X, y, sample_weight=s)`` named ``_PathCV.fit``,
classes a user never meets. The one base of each family of estimators calls
:func:`name_inherited` from its ``__init_subclass__`` (a function, not a mixin: it
adds no class to an estimator's MRO). A public class then gets, for each public
method (and ``__init__``) it inherits from a private class, or holds as a function
shared with other classes (``__init__ = _shared_init``), a copy of the function under
its own name (``SVM2.__init__``); behaviour, signature and docstring are unchanged.
"""

import types

__all__ = ["name_inherited"]

#: The packages whose methods are renamed (scikit-learn's private bases keep theirs).
LIBRARY = ("sparsify", "solvers")


def name_inherited(cls):
    """On a public class ``cls``, name after it each public method (and ``__init__``) it
    inherits from a private class of this library or holds as a module function shared
    with other classes; a private class is left as it is."""
    if cls.__name__.startswith("_"):
        return
    for name in dir(cls):
        if name.startswith("_") and name != "__init__":
            continue
        owner = next((k for k in cls.__mro__ if name in k.__dict__), cls)
        function = owner.__dict__.get(name)
        if not (
            isinstance(function, types.FunctionType)
            and function.__module__.split(".")[0] in LIBRARY
        ):
            continue
        qualname = f"{cls.__qualname__}.{name}"
        shared = owner is cls and "." not in function.__qualname__  # a module function
        if owner.__name__.startswith("_") or (shared and function.__qualname__ != qualname):
            setattr(cls, name, _renamed(function, qualname, cls.__module__))


def _renamed(function, qualname, module):
    """A copy of ``function`` (same code, defaults, closure and docstring) named ``qualname``
    in ``module`` (the public class's).

    A decorator's wrapper (``functools.wraps``, as scikit-learn's ``_fit_context``)
    calls the function it wraps, whose name Python's errors give: the copy calls a
    renamed copy of it in turn.
    """
    closure = function.__closure__
    wrapped = getattr(function, "__wrapped__", None)
    if wrapped is not None and closure is not None:
        inner = _renamed(wrapped, qualname, module)
        cells = [types.CellType(inner) if _holds(c, wrapped) else c for c in closure]
        closure = tuple(cells)
    copy = types.FunctionType(
        function.__code__, function.__globals__, function.__name__, function.__defaults__, closure
    )
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__dict__.update(function.__dict__)
    copy.__doc__ = function.__doc__
    copy.__annotations__ = dict(function.__annotations__)
    copy.__module__ = module
    copy.__qualname__ = qualname
    if wrapped is not None and closure is not None:
        copy.__wrapped__ = inner
    return copy


def _holds(cell, value):
    """Whether a closure cell holds ``value`` (an empty cell holds nothing)."""
    try:
        return cell.cell_contents is value
    except ValueError:
        return False
