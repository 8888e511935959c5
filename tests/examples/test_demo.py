"""make demo: the quick 001 experiment prints its table, plot path and a guarantee report."""

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import demo  # noqa: E402
import reproduce_001  # noqa: E402


def test_demo_prints_table_plot_and_report(tmp_path, capsys, monkeypatch):
    # The demo's own data, smaller (100 x 300, the 40 relevant features kept), so that
    # the suite does not run the quick experiment twice (tests/examples/test_reproduce_001).
    small = functools.partial(reproduce_001.experiment, n=100, d=300)
    monkeypatch.setattr(reproduce_001, "experiment", small)
    report = demo.main(["--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "| BSS (SV) | 30 |" in out and "| RFE | 40 |" in out
    assert f"plot: {tmp_path}" in out and (tmp_path / "reproduce_001_k40.png").is_file()
    assert "001 Theorem 1" in out and repr(report) in out
    assert report.holds and 0 < report.full and 0 < report.selected
