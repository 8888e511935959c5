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


# ---------------------------------------------------------------------------
# --debian: TechTC-style tasks of Debian sections (the shipped sample here)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def debian_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("debian")
    tasks = text_pipeline.debian_tasks("sample", n_pairs=3, n_per_class=20)
    path = folder / "run.json"
    # 40 documents, 3 folds: about 27 training documents, BSS needs r > 27
    record = text_pipeline.run_tasks(tasks, (30,), n_splits=3, n_repeats=1, path=str(path))
    return tasks, record, path


def test_debian_tasks_are_the_first_pairs(debian_run):
    from sparsify.datasets import DEBIAN_TASK_PAIRS

    tasks, record, path = debian_run
    assert [t.name for t in tasks] == ["/".join(p) for p in DEBIAN_TASK_PAIRS[:3]]
    assert all(t.X.shape[0] == 40 and min(map(len, t.words)) >= 5 for t in tasks)
    assert list(record["tasks"]) == [t.name for t in tasks]
    import json

    assert json.loads(path.read_text()) == json.loads(json.dumps(record))  # written as it ran


def test_debian_per_task_errors_are_the_cross_validation(debian_run):
    tasks, record, _ = debian_run
    task = tasks[1]
    direct = text_pipeline.experiment(task.X, task.y, (30,), n_splits=3, n_repeats=1)
    errors = record["tasks"][task.name]["errors"]
    for (name, r), row in direct.items():
        for clf, (mean, _) in row.items():
            assert errors[f"{name}|{r or 'all'}|{clf}"] == mean


def test_debian_tables_against_scipy(debian_run):
    from scipy import stats

    _, record, _ = debian_run
    errors, paired = text_pipeline.tables(record)
    per_task = [t["errors"] for t in record["tasks"].values()]
    bss = np.array([e["BSS|30|SVM C=1"] for e in per_task])
    ig = np.array([e["IG|30|SVM C=1"] for e in per_task])
    se = np.std(bss, ddof=1) / np.sqrt(bss.size)
    row = next(line for line in errors.splitlines() if line.startswith("| BSS | 30 |"))
    assert row.split("|")[-2].strip() == f"{100 * bss.mean():.2f} ± {100 * se:.2f}"
    row = next(line for line in paired.splitlines() if line.startswith("| IG | 30 |"))
    cell = row.split("|")[-2].strip()
    if np.all(ig == bss):
        assert cell == "-"
    else:
        diff = ig - bss
        p = stats.ttest_rel(ig, bss).pvalue
        assert cell.startswith(f"{100 * diff.mean():+.2f} ± ")
        assert f"(t {p:.1g}, " in cell and cell.endswith(f"{int(np.sum(diff > 0))}/3)")
    assert "| BSS | 30 |" not in paired  # BSS is the reference


def test_debian_main_summarizes_split_runs(debian_run, tmp_path, capsys):
    import json

    _, record, _ = debian_run
    names = list(record["tasks"])
    parts = []
    for i, chunk in enumerate((names[:2], names[2:])):
        part = {"config": record["config"], "tasks": {n: record["tasks"][n] for n in chunk}}
        parts.append(tmp_path / f"part{i}.json")
        parts[-1].write_text(json.dumps(part))
    text_pipeline.main(["--summarize", *map(str, parts), "--out", str(tmp_path)])
    out = capsys.readouterr().out
    whole = text_pipeline.tables(record)
    assert whole[0] in out and whole[1] in out
    assert (tmp_path / "text_pipeline_debian.png").read_bytes()[:4] == b"\x89PNG"


def test_debian_main_quick(tmp_path, capsys):
    text_pipeline.main(
        ["--debian", "sample", "--quick", "--pairs", "1", "--per-class", "20", "--r", "30",
         "--json", str(tmp_path / "q.json"), "--out", str(tmp_path)]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert "1 tasks of Debian sections (sample), 40 documents each" in out
    assert "| BSS | 30 |" in out and (tmp_path / "q.json").exists()
