"""The documentation site builds in strict mode and documents every public name."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).parents[2]


def load_hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_public_name_has_a_docstring():
    assert load_hooks().undocumented() == []


def test_a_public_name_missing_from_the_api_pages_is_reported():
    hooks = load_hooks()
    names = {f"{module.__name__}.{name}" for module, name, _ in hooks.public_objects()}
    ids = names | {"sparsify.bss.bss", "sparsify.rrqr.rrqr"}
    assert hooks.undocumented(ids) == []
    ids.discard("sparsify.leverage_sample")
    assert hooks.undocumented(ids) == ["sparsify.leverage_sample: not on any docs/api/ page"]


def test_the_site_builds_in_strict_mode(site_build):
    site, build = site_build   # conftest.py: one build for the session
    assert build.returncode == 0, build.stdout + build.stderr
    assert "WARNING" not in build.stderr, build.stderr   # strict: not even a warning
    api = (site / "api" / "sparsify.html").read_text()
    assert 'id="sparsify.bss.bss"' in api and "Lemma 1" in api
    estimators = (site / "api" / "estimators.html").read_text()
    assert 'id="solvers.svm.SVMDual"' in estimators
    for page in ("index", "getting-started", "architecture", "references"):
        assert (site / f"{page}.html").is_file()
