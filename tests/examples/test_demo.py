"""make demo: the quick 001 experiment prints its table and plot path, then 001 Theorem 2
side by side: BSS at the theorem's r passes with finite bounds, two arbitrary features fail."""

import functools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import demo  # noqa: E402
import reproduce_001  # noqa: E402


def test_demo_prints_table_plot_and_the_guarantee_side_by_side(tmp_path, capsys, monkeypatch):
    # The demo's own data, smaller (100 x 300, the 40 relevant features kept), so that
    # the suite does not run the quick experiment twice (tests/examples/test_reproduce_001).
    small = functools.partial(reproduce_001.experiment, n=100, d=300)
    monkeypatch.setattr(reproduce_001, "experiment", small)
    reports = demo.main(["--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "| BSS (SV) | 30 |" in out and "| RFE | 40 |" in out
    assert f"plot: {tmp_path}" in out and (tmp_path / "reproduce_001_k40.png").is_file()
    (bss_name, (margin, radius)), (two_name, (two_margin, two_radius)) = reports.items()
    # BSS at r = 36 rank / eps^2: both halves of the theorem hold, with finite bounds
    # at the eps asked for, and 000 Lemma 2's distortion eps / 2.
    for report in (margin, radius):
        assert report.holds and np.isfinite(report.bound) and report.eps == demo.EPS
        assert report.distortion <= demo.EPS / 2
    # Two features against a row space of rank 33: the theorem does not apply.
    for report in (two_margin, two_radius):
        assert not report.holds and "premise" in report.failures
    assert out.count("holds:") == 2 and out.count("FAILS:") == 2
    assert "the premise fails: this selection distorts the row space of X by" in out
    assert bss_name in out and two_name in out


def test_demo_says_what_the_theorem_asks_of_text(capsys):
    """On a 200-document task the theorem's r exceeds the vocabulary; the top-10
    distortion of BSSSelector()'s 40 words is within 000 Lemma 2's 3 sqrt(k / r)."""
    rank, d, r, distortion = demo.text_shapes()
    assert rank == 199 and r == int(np.ceil(36 * rank / demo.EPS**2)) and r > d
    assert distortion <= 3 * np.sqrt(10 / 40)
    out = capsys.readouterr().out
    assert f"asks for r = {r} words" in out and "top-10 singular subspace" in out
