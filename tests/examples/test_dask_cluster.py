"""examples/dask_cluster.py runs: a LocalCluster, the corpus built on the workers, an SVM."""

import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")
sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import dask_cluster  # noqa: E402


def test_selects_on_the_cluster_and_the_svm_learns(capsys):
    # Two chunks of 20000 documents, one per worker.
    dask_cluster.main(
        ["--documents", "40000", "--workers", "2", "--worker-memory", "400",
         "--sketch", "16", "--features", "40", "--train", "2000"]
    )  # fmt: skip
    out = capsys.readouterr().out
    kept = int(re.search(r"r=40\): (\d+) words kept", out).group(1))
    assert 0 < kept <= 40
    pattern = r"on (\d+ selected words|all 1000 words): test accuracy ([\d.]+)"
    accuracy = dict(re.findall(pattern, out))
    assert len(accuracy) == 2
    # The two classes differ in 20 topic words (five times as frequent): the selected
    # words separate them far better than chance, as do all 1000.
    assert all(float(a) > 0.7 for a in accuracy.values()), out
