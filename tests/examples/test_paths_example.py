"""examples/paths.py runs, draws the PNG where --out says, and its selections are breakpoints."""

import importlib.util
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location(
    "paths_example", Path(__file__).parents[2] / "examples" / "paths.py"
)
paths_example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(paths_example)


def test_draws_the_three_paths(tmp_path, capsys):
    out = tmp_path / "nested" / "paths.png"
    paths = paths_example.main(["--out", str(out)])
    assert out.stat().st_size > 10_000
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(paths) == 3
    printed = capsys.readouterr().out
    assert printed.count("validation picks lam=") == 3
    for path, _ in paths.values():
        assert path.lams[-1] == 0.0 and np.all(np.diff(path.lams) < 0)
