"""The text pipeline of 000 sec. 6.4 / 003 sec. 6 on a small TechTC-style folder."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import text_pipeline  # noqa: E402

# 20 long "class" words (10 per class), 20 long noise words, 20 short words of which
# the first 10 also mark the classes: the filter must drop them.
LONG_A = [f"alpha{i:02d}" for i in range(10)]
LONG_B = [f"bravo{i:02d}" for i in range(10)]
NOISE = [f"noise{i:02d}" for i in range(20)]
SHORT = [f"s{i:02d}" for i in range(20)]  # three letters
VOCABULARY = LONG_A + SHORT[:5] + LONG_B + SHORT[5:] + NOISE  # interleaved numbering
N_DOCS = 36


def write_folder(folder, *, vocabulary=True, seed=0):
    """A TechTC folder: vectors.dat (SVMlight with '#' comment lines) and features.idx."""
    rng = np.random.default_rng(seed)
    number = {w: j + 1 for j, w in enumerate(VOCABULARY)}  # 1-based feature numbers
    lines = []
    for doc in range(N_DOCS):
        label = 1 if doc % 2 else -1
        words = LONG_A if label == 1 else LONG_B
        short = SHORT[:5] if label == 1 else SHORT[5:10]
        picks = list(rng.choice(words, 4, replace=False)) + list(rng.choice(NOISE, 5))
        picks += list(rng.choice(short, 2)) + list(rng.choice(SHORT[10:], 2))
        counts = {}
        for w in picks:
            counts[number[w]] = counts.get(number[w], 0) + 1
        pairs = " ".join(f"{j}:{c}" for j, c in sorted(counts.items()))
        lines += [f"# document {doc}", f"{label} {pairs}"]
    folder.mkdir(exist_ok=True)
    (folder / "vectors.dat").write_text("\n".join(lines) + "\n")
    if vocabulary:
        header = ["# TechTC-style feature index", "# number word"]
        body = [f"{j + 1} {w}" for j, w in enumerate(VOCABULARY)]
        (folder / "features.idx").write_text("\n".join(header + body) + "\n")
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_folder(tmp_path_factory.mktemp("techtc") / "Exp_1_2")


def test_short_words_dropped(folder):
    X, y, words = text_pipeline.load_folder(folder)
    expected = [w for w in VOCABULARY if len(w) > 4]
    assert list(words) == expected
    assert X.shape == (N_DOCS, len(expected))
    assert sorted(set(y)) == [-1.0, 1.0]
    # column of word w = its feature number - 1 in the full matrix: compare with it
    X_all, _, all_words = text_pipeline.load_folder(folder, min_word_length=0)
    assert X_all.shape[1] == len(VOCABULARY) and all_words[0] == "#1"
    keep = [j for j, w in enumerate(VOCABULARY) if len(w) > 4]
    np.testing.assert_array_equal(X.toarray(), X_all.toarray()[:, keep])


def test_missing_vocabulary_is_an_error(tmp_path):
    bare = write_folder(tmp_path / "bare", vocabulary=False)
    with pytest.raises(ValueError, match="features.idx"):
        text_pipeline.load_folder(bare)
    X, _, _ = text_pipeline.load_folder(bare, min_word_length=0)
    assert X.shape[0] == N_DOCS


def test_bad_vocabulary_line(tmp_path):
    bad = write_folder(tmp_path / "bad")
    (bad / "features.idx").write_text("1 alpha\nword-without-number\n")
    with pytest.raises(ValueError, match="line 2"):
        text_pipeline.load_folder(bad)


@pytest.fixture(scope="module")
def summary(folder):
    X, y, _ = text_pipeline.load_folder(folder)
    # 24 training documents per fold: BSS needs r > 24 = rank; 40 words in all.
    return text_pipeline.experiment(X, y, (26, 32), n_splits=3, n_repeats=1)


def test_every_method_and_classifier_ran(summary):
    methods = set(text_pipeline.selectors(26)) | {"all features"}
    assert {name for name, _ in summary} == methods
    for row in summary.values():
        assert set(row) == set(text_pipeline.classifiers())
        for mean, sd in row.values():
            assert 0 <= mean <= 1 and np.isfinite(sd)


def test_errors(summary):
    # Every document holds 4 of its class's 10 words: all 40 long words separate the
    # classes, and so do the 20 class words IG ranks first (supervised).
    for clf in text_pipeline.classifiers():
        assert summary["all features", None][clf][0] == 0.0
        assert summary["IG", 26][clf][0] == 0.0
    # Uniform sampling keeps about r of 40 words at random and cannot beat IG.
    rlsc = {key: text_pipeline.rlsc_error(row)[0] for key, row in summary.items()}
    assert rlsc["US", 26] >= rlsc["IG", 26]


def test_main(folder, tmp_path, capsys, monkeypatch, summary):
    monkeypatch.setattr(text_pipeline, "experiment", lambda *a, **k: summary)
    text_pipeline.main([str(folder), "--quick", "--r", "26", "32", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "40 words of >= 5 characters" in out and "| BSS | 26 |" in out
    assert (tmp_path / "text_pipeline.png").read_bytes()[:4] == b"\x89PNG"
