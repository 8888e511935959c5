"""Build the API reference (Markdown) from the docstrings of the public names.

Run: ``python docs/build_api.py [--out docs/_build/api.md]`` (``make docs``).
Every name in ``sparsify.__all__``, ``sparsify.datasets.__all__`` and
``solvers.__all__`` gets a section with its signature and docstring.
"""

import argparse
import inspect
from pathlib import Path

import solvers
import sparsify
from sparsify import datasets

MODULES = (sparsify, datasets, solvers)


def public_objects():
    """Yield (qualified name, object) for every public name of the packages."""
    for module in MODULES:
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            yield f"{module.__name__}.{name}", obj


def section(qualname, obj):
    try:
        signature = str(inspect.signature(obj))
    except (TypeError, ValueError):
        signature = ""
    doc = inspect.getdoc(obj) or ""
    return f"## `{qualname}{signature}`\n\n```text\n{doc}\n```\n"


def build():
    parts = ["# API reference\n", "Generated from the docstrings by `docs/build_api.py`.\n"]
    parts += [section(q, o) for q, o in public_objects()]
    return "\n".join(parts)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "_build" / "api.md"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(build())
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
