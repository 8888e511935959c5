"""The text sweep on the Debian descriptions, on the shipped sample (no timing asserted)."""

import numpy as np
import pytest

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


def test_one_vs_rest_quick(hang_guard):
    rows = real_text.main(["--quick", "--one-vs-rest", "3", "--budget", str(hang_guard)])
    assert len(rows) == 6  # SVMDual, L2SVM at two C; the logistic at two lam
    for row in rows:
        ours, peer = row["ours"], row["peer"]
        assert row["classes"] == 3 and ours["status"] == peer["status"] == "ok", row
        assert ours["certified"], row
        # Every class's answer at least as good as the one-vs-rest peer's (liblinear
        # penalises its intercept: its objective, taken without, is not below ours).
        assert peer["objective"] >= ours["objective"] * (1 - 1e-6), row


def test_one_vs_rest_objective_is_the_sum_over_classes():
    """The SVM objective of the table against the binary problems written out."""
    X, labels = real_text.sections_corpus(3, sample=True)
    rng = np.random.default_rng(0)
    coef, intercept = rng.standard_normal((3, X.shape[1])), rng.standard_normal(3)
    expected = 0.0
    for k, section in enumerate(sorted(set(labels))):
        y = np.where(labels == section, 1.0, -1.0)
        margins = y * (X @ coef[k] + intercept[k])
        expected += 0.5 * coef[k] @ coef[k] + 7.0 * np.sum(np.maximum(0, 1 - margins))
    found = real_text._svm_objective(X, labels, coef, intercept, 7.0)
    assert found == pytest.approx(expected, rel=1e-12)


def test_rlsc_row_is_ridge_on_the_labels(hang_guard):
    results = real_text.main(
        ["--quick", "--sizes", "200", "--repeats", "1", "--budget", str(hang_guard)]
        + ["--splits", "easy", "--estimators", "RLSC"]
    )
    assert [r["case"].name for r in results] == ["RLSC", "RLSC"]
    for r in results:
        assert r["status"] == "ok" and r["certified"], r
        assert r["objective_diff"] >= -1e-6, r
