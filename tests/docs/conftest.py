"""The documentation site, built once per test run (``mkdocs build --strict``).

The tests that read the built site share one build: the session's, and under
pytest-xdist (``make test``) the first worker's, which the others wait for and reuse.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import fcntl
except ImportError:  # not POSIX: each xdist worker builds its own site
    fcntl = None

ROOT = Path(__file__).parents[2]


def _build(site):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    return {"returncode": build.returncode, "stdout": build.stdout, "stderr": build.stderr}


@pytest.fixture(scope="session")
def site_build(tmp_path_factory):
    """``(site directory, completed build)``: the site built in strict mode, once.

    Skips when the docs tools are not installed; the tests that read the site assert
    that the build succeeded (``test_docs.py`` checks it for warnings too).
    """
    for package in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        pytest.importorskip(package)
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
        root = root.parent  # the run's folder, shared by the workers
    site, record = root / "docs-site", root / "docs-site.json"
    with open(root / "docs-site.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            record.write_text(json.dumps(_build(site)))
        build = json.loads(record.read_text())
    return site, subprocess.CompletedProcess(args=["mkdocs", "build"], **build)


@pytest.fixture(scope="session")
def site(site_build):
    """The directory of the built site; the build must have succeeded."""
    site, build = site_build
    assert build.returncode == 0, build.stdout + build.stderr
    return site
