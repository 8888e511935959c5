"""The API reference builds, every public name is documented, and the README example runs."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
spec = importlib.util.spec_from_file_location("build_api", ROOT / "docs" / "build_api.py")
build_api = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_api)


def test_every_public_name_has_a_docstring_citing_its_source(tmp_path):
    undocumented = [q for q, o in build_api.public_objects() if not (o.__doc__ or "").strip()]
    assert not undocumented, undocumented
    build_api.main(["--out", str(tmp_path / "api.md")])
    text = (tmp_path / "api.md").read_text()
    assert "sparsify.bss(" in text and "Lemma 1" in text


def test_readme_example_runs():
    readme = (ROOT / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
