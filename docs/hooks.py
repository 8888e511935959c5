"""MkDocs hook (mkdocs.yml, ``hooks:``): every public name is documented in the API pages.

After the build, every name of the public modules' ``__all__`` must

- have a docstring of its own (classes, functions, modules; a constant is described
  where it is defined), and
- be rendered by mkdocstrings on one of the ``api/`` pages (an element whose id is the
  name's dotted path).

Otherwise the build fails with the list of names, so a new public name cannot land
without its reference entry. ``tests/docs/test_docs.py`` runs the build and calls
:func:`undocumented` directly.
"""

import importlib
import inspect
import re

#: Modules whose ``__all__`` is the public API. Submodules named in these ``__all__``
#: (``solvers.weights``, ...) are added by :func:`public_modules`.
PUBLIC_MODULES = (
    "sparsify",
    "sparsify.datasets",
    "sparsify.theory",
    "solvers",
    "solvers.formulations",
    "solvers.path",
    "solvers.certificates",
)

_ID = re.compile(r'\bid="([A-Za-z_][\w.]*)"')
_rendered_ids = set()


def _members(module):
    """``(name, object)`` for each name of ``module.__all__``; the ImportError of a lazy one."""
    for name in module.__all__:
        try:
            yield name, getattr(module, name)
        except ImportError as exc:
            yield name, exc


def public_modules():
    """The public modules: `PUBLIC_MODULES` and every module named in their ``__all__``."""
    modules = {name: importlib.import_module(name) for name in PUBLIC_MODULES}
    for module in list(modules.values()):
        for _, value in _members(module):
            if inspect.ismodule(value):
                modules.setdefault(value.__name__, value)
    return list(modules.values())


def public_objects():
    """Yield ``(module, name, object)`` for every name of the public modules' ``__all__``.

    The object is the ImportError raised when a lazily imported name cannot be imported.
    """
    for module in public_modules():
        for name, value in _members(module):
            yield module, name, value


def _has_own_docstring(obj):
    if inspect.ismodule(obj) or inspect.isclass(obj) or callable(obj):
        return bool((getattr(obj, "__doc__", None) or "").strip())
    return True  # a constant: its description is a comment where it is defined


def _is_rendered(module, name, obj, ids):
    if inspect.ismodule(obj):
        return obj.__name__ in ids
    top = module.__name__.split(".")[0]
    return any(i.startswith(top + ".") and i.rsplit(".", 1)[-1] == name for i in ids)


def undocumented(ids=None):
    """Public names without a docstring, and (given the rendered ids) those not rendered."""
    missing = []
    for module, name, obj in public_objects():
        qualname = f"{module.__name__}.{name}"
        if isinstance(obj, ImportError):
            missing.append(f"{qualname}: cannot be imported ({obj})")
        elif not _has_own_docstring(obj):
            missing.append(f"{qualname}: no docstring")
        elif ids is not None and not _is_rendered(module, name, obj, ids):
            missing.append(f"{qualname}: not on any docs/api/ page")
    return missing


def on_page_content(html, page, **kwargs):
    """Collect the ids of the elements mkdocstrings rendered on the API pages."""
    if page.file.src_uri.startswith("api/"):
        _rendered_ids.update(_ID.findall(html))
    return html


def on_post_build(config, **kwargs):
    """Fail the build when a public name is undocumented or missing from the API pages."""
    from mkdocs.exceptions import PluginError

    missing = undocumented(_rendered_ids)
    _rendered_ids.clear()
    if missing:
        raise PluginError("public names without API documentation:\n  " + "\n  ".join(missing))


def on_pre_build(config, **kwargs):
    """Draw the figures of the guides into ``docs/_figures/`` (``examples/figures.py``).

    Runs before the docs folder is read, so the pages' image links resolve; figures
    newer than their sources are kept as they are.
    """
    import importlib.util
    from pathlib import Path

    script = Path(config["config_file_path"]).parent / "examples" / "figures.py"
    spec = importlib.util.spec_from_file_location("docs_figures", script)
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    figures.generate(Path(config["docs_dir"]) / "_figures")


def on_template_context(context, template_name, config, **kwargs):
    """Make the links of the error page (``404.html``) relative, as those of every other page.

    MkDocs renders error templates with links from the server's root (``/index.html``,
    ``/assets/...``; the path of ``site_url`` when it is set), for a server that shows
    ``404.html`` at any depth. With ``use_directory_urls: false`` the site is meant to be
    opened from the file system, where such links point to the disk's root: the page is
    at the top of the site, so its links are made relative to it (``./index.html``).
    """
    from mkdocs.utils import is_error_template, normalize_url

    if is_error_template(template_name) and not config.use_directory_urls:
        context["base_url"] = "."
        context["extra_css"] = [normalize_url(path, None, ".") for path in config.extra_css]
        context["extra_javascript"] = [
            normalize_url(str(path), None, ".") for path in config.extra_javascript
        ]
    return context
