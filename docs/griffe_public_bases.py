"""Griffe extension (mkdocs.yml, mkdocstrings ``extensions:``): public classes, public bases.

The estimators inherit most of their methods (``fit``, ``predict``, ``score``, ...) from
private classes (``_PathCV``, ``_AdaptiveL1``, classes of private modules such as
``solvers._base``) and from scikit-learn. On the API pages each public class should list
every public method it has, inherited ones included, and name only bases a reader can
look up. For each class of a loaded package whose path is public (no part starts with
``_``), this extension

- loads, from scikit-learn and any other package outside the docs, just the modules that
  define the classes it inherits from (loading all of scikit-learn would add seconds to
  every build), so that its inherited members are known;
- copies its inherited members into the class (as the inherited members they are:
  mkdocstrings' ``inherited_members`` option still decides whether they show), and
- replaces each private base by that base's own bases, until only public ones are left:
  ``L1SVM(ClassifierMixin, WeightedL1Model)`` shows "Bases: ClassifierMixin,
  BaseEstimator". A base is private when a part of its dotted path (as imported)
  starts with ``_``.

Members are copied before any base is changed, so every class's members are those of
its real bases.
"""

import importlib.util
from pathlib import Path

import griffe

#: Packages loaded in full by mkdocstrings (the ``:::`` pages); other packages' modules
#: are loaded one at a time, as the bases need them.
DOCUMENTED = ("sparsify", "solvers")


def _is_private(path):
    return any(part.startswith("_") for part in path.split("."))


def _path(base):
    return base if isinstance(base, str) else base.canonical_path


def _classes(obj):
    """The classes defined in ``obj`` (a module or class) and under it."""
    for member in obj.members.values():
        if member.is_alias:
            continue
        if member.is_class:
            yield member
        if member.is_module or member.is_class:
            yield from _classes(member)


def _load_module(loader, path):
    """The module ``path`` of the loader's collection, visited (with its parents) if needed.

    None for a module without a Python source file (builtins, extension modules).
    """
    collection = loader.modules_collection
    module = None
    parts = path.split(".")
    for depth, part in enumerate(parts, 1):
        parent = module
        members = collection.members if parent is None else parent.members
        module = members.get(part)
        if module is not None and not module.is_alias and module.is_module:
            continue
        name = ".".join(parts[:depth])
        if parts[0] in DOCUMENTED:  # loaded whole, as mkdocstrings loads them
            if parts[0] not in collection.members:
                loader.load(parts[0], try_relative_path=False)
            try:
                module = collection.get_member(path)
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                return None
            return module if module.is_module else None
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        if spec is None or not (spec.origin or "").endswith(".py"):
            return None
        filepath = Path(spec.origin)
        code = filepath.read_text(encoding="utf-8-sig")
        loader.lines_collection[filepath] = code.splitlines(keepends=False)
        module = griffe.visit(
            part, filepath, code,
            extensions=loader.extensions,
            parent=parent,
            docstring_parser=loader.docstring_parser,
            docstring_options=loader.docstring_options,
            lines_collection=loader.lines_collection,
            modules_collection=collection,
        )
        (collection if parent is None else parent).set_member(part, module)
    return module


def _resolve(loader, path, seen=()):
    """The class at ``path`` (following imports), loading its module if needed; or None."""
    if path in seen or "." not in path:
        return None
    module_path, name = path.rsplit(".", 1)
    module = _load_module(loader, module_path)
    member = None if module is None else module.members.get(name)
    if member is None:
        return None
    if member.is_alias:
        return _resolve(loader, member.target_path, (*seen, path))
    return member if member.is_class else None


def _load_ancestors(loader, cls, seen):
    """Load the modules defining every class ``cls`` inherits from."""
    for base in cls.bases:
        path = _path(base)
        if path in seen:
            continue
        seen.add(path)
        resolved = _resolve(loader, path)
        if resolved is not None:
            _load_ancestors(loader, resolved, seen)


def _public_bases(loader, cls, seen=()):
    """The bases of ``cls``, each private one replaced by its own public bases."""
    bases = []
    for base in cls.bases:
        path = _path(base)
        if not _is_private(path):
            bases.append(base)
        elif path not in seen:
            resolved = _resolve(loader, path)
            if resolved is not None:
                bases.extend(_public_bases(loader, resolved, (*seen, path)))
    unique = {}
    for base in bases:
        unique.setdefault(_path(base), base)
    return list(unique.values())


def _inherited(cls):
    """``cls``'s inherited members: the nearest base's first, each base's in source order.

    Each is an inherited alias, numbered (``alias_lineno``) after the class's last line, so
    that ``members_order: source`` lists them after the class's own members, in this order.
    """
    inherited = {}
    after = (cls.endlineno or cls.lineno or 0) + 1
    try:
        mro = cls.mro()
    except ValueError:  # an inheritance cycle: griffe lists no inherited member either
        return inherited
    for base in mro:
        for name, member in base.members.items():
            if name not in cls.members and name not in inherited:
                inherited[name] = griffe.Alias(
                    name, member, lineno=after + len(inherited), parent=cls, inherited=True
                )
    return inherited


class PublicBases(griffe.Extension):
    """Public classes: inherited members copied in, private bases replaced by public ones."""

    def on_package(self, *, pkg, loader, **kwargs):
        if pkg.name not in DOCUMENTED:
            return
        classes = [cls for cls in _classes(pkg) if not _is_private(cls.path)]
        seen = set()
        for cls in classes:
            _load_ancestors(loader, cls, seen)
        changes = [(cls, _inherited(cls), _public_bases(loader, cls)) for cls in classes]
        for cls, inherited, bases in changes:
            for name, member in inherited.items():
                cls.set_member(name, member)
            cls.bases = bases
