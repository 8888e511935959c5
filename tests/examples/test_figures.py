"""examples/figures.py: valid PNGs for the docs, each shown on a page, redrawn when stale."""

import importlib.util
import os
import re
import struct
from pathlib import Path

import matplotlib
import pytest
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).parents[2]
spec = importlib.util.spec_from_file_location("figures_example", ROOT / "examples" / "figures.py")
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
#: The pages that must show figures, as the issue asks.
PAGES = ("paths.md", "reproduce_000_001.md", "sparsify.md", "reproduce_004.md")


@pytest.fixture(scope="module")
def generated():
    """The figures of the docs build (drawn now unless fresh, as `make docs` does)."""
    figures.generate()
    return figures.DOCS_FIGURES


def png_size(path):
    """(width, height) from the IHDR chunk, read by hand (PNG spec sec. 11.2.2)."""
    with open(path, "rb") as fh:
        head = fh.read(24)
    assert head[:8] == PNG_SIGNATURE and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_every_figure_is_a_valid_png_of_sensible_size(generated):
    for name in figures.figure_names():
        path = generated / name
        assert path.is_file(), name
        width, height = png_size(path)
        assert 400 <= width <= 2000 and 250 <= height <= 2000, (name, width, height)
        assert 10_000 < path.stat().st_size < 2_000_000, name
        with Image.open(path) as image:  # Pillow decodes every chunk and checks the CRCs
            image.load()
            assert image.size == (width, height)
            low, high = image.convert("L").getextrema()
        assert high - low > 100, f"{name} is blank"


def test_every_page_image_resolves_to_a_generated_figure(generated):
    shown = set()
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for link in IMAGE_LINK.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / link).resolve()
            assert target.parent == generated.resolve(), f"{page.name}: {link}"
            assert target.is_file(), f"{page.name}: {link} was not generated"
            shown.add((page.name, target.name))
    for page in PAGES:
        assert any(p == page for p, _ in shown), f"docs/{page} shows no figure"
    assert {name for _, name in shown} == set(figures.figure_names())  # none left unshown


def test_generated_figures_are_git_ignored():
    ignore = (ROOT / ".gitignore").read_text().split()
    assert "docs/_figures/" in ignore


def _fake_figure(calls):
    def draw(path):
        calls.append(Path(path))
        fig, ax = plt.subplots(figsize=(2, 2))
        ax.plot([0, 1], [1, 0])
        fig.savefig(path, dpi=50)
        plt.close(fig)

    return draw


def test_a_fresh_figure_is_kept_and_a_stale_one_redrawn(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(figures, "FIGURES", ((_fake_figure(calls), ("fake.png",)),))
    out = tmp_path / "figs"
    assert figures.generate(out) == [out / "fake.png"]
    assert png_size(out / "fake.png") == (100, 100)
    assert figures.generate(out) == [] and len(calls) == 1  # newer than every source
    os.utime(out / "fake.png", (0, 0))  # older than the sources
    assert figures.generate(out) == [out / "fake.png"] and len(calls) == 2
    assert figures.generate(out, force=True) == [out / "fake.png"] and len(calls) == 3
    # Drawn under a temporary name, then moved into place: nothing else is left.
    assert sorted(p.name for p in out.iterdir()) == ["fake.png"]
    assert all(call.name.startswith(".") for call in calls)


def test_a_failing_figure_leaves_no_file(tmp_path, monkeypatch):
    def draw(path):
        Path(path).write_bytes(b"half a PNG")
        raise RuntimeError("boom")

    monkeypatch.setattr(figures, "FIGURES", ((draw, ("broken.png",)),))
    with pytest.raises(RuntimeError, match="boom"):
        figures.generate(tmp_path)
    assert list(tmp_path.iterdir()) == []
