"""The text sweep on the Debian descriptions, on the shipped sample (no timing asserted)."""

import numpy as np

from benchmarks import real_text
from sparsify.datasets import load_debian_descriptions


def test_real_text_quick(capsys, hang_guard):
    results = real_text.main(
        ["--quick", "--sizes", "200", "--repeats", "1", "--budget", str(hang_guard)]
        + ["--splits", "hard", "--estimators", "SVMDual"]
    )
    out = capsys.readouterr().out
    assert "debian-hard" in out and "slope in n" in out
    assert len(results) == 2  # C = 1 and C = 100
    for r in results:
        assert r["n"] == 200 and r["status"] == "ok" and r["certified"], r
        # Ours at least as good as the peer (which is at its settled tolerance).
        assert r["objective_diff"] >= -1e-6, r


def test_the_splits_label_the_sections_they_name():
    documents, labels = real_text.corpus("hard", sample=True)
    loaded = load_debian_descriptions(sample=True, drop_derived=False)
    assert documents == loaded.documents
    libraries = np.isin(loaded.sections, ["libs", "libdevel"])
    assert np.array_equal(labels > 0, libraries) and 0 < libraries.sum() < len(documents)
    documents, labels = real_text.corpus("easy", sample=True)
    deduplicated = load_debian_descriptions(sample=True)
    # (the shipped sample holds no derived packages: the two splits share their documents)
    assert len(documents) == len(deduplicated.documents) <= len(loaded.documents)
    assert {"python", "perl"} & set(deduplicated.sections[labels > 0])
    X = real_text.vectorize(documents)
    # Words of five letters or more, each in at least two documents; rows of unit norm.
    assert np.all((X > 0).sum(axis=0) >= 2)
    assert np.allclose(np.sqrt(X.multiply(X).sum(axis=1)), 1.0)
