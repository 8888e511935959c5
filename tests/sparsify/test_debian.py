"""Tests of the Debian package descriptions corpus: the loader and the TechTC-style tasks.

No test needs apt or the network: the shipped sample, and apt lists written here.
"""

import collections
import gzip
import hashlib
import re
import shutil
import subprocess

import numpy as np
import pytest

from sparsify import datasets
from sparsify.datasets import (
    DEBIAN_TASK_PAIRS,
    PROGRAMMING_LANGUAGE_SECTIONS,
    load_debian_descriptions,
    make_text_tasks,
)

# ---------------------------------------------------------------------------
# Fake apt lists: the join, the -dev filter and the de-duplication against a
# brute force over the records the test writes.
# ---------------------------------------------------------------------------

WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()


def _fake_records(seed=0, n=60):
    """Packages with sections and long descriptions; some derived, duplicated, short."""
    rng = np.random.default_rng(seed)
    suffixes = ["", "", "", "-dev", "-doc", "-dbg", "-data", "-common", "-tools"]
    records = []
    texts = []
    for i in range(n):
        name = f"pkg{i:03d}{suffixes[rng.integers(len(suffixes))]}"
        section = ["games", "science", "contrib/games", "non-free/sound"][rng.integers(4)]
        if texts and rng.random() < 0.2:  # the same description as an earlier package
            synopsis, body = texts[rng.integers(len(texts))]
        else:
            synopsis = " ".join(rng.choice(WORDS, 3))
            body = [" ".join(rng.choice(WORDS, int(rng.integers(1, 8)))) for _ in range(3)]
            if rng.random() < 0.3:
                body.insert(1, ".")  # a paragraph break
        texts.append((synopsis, body))
        translated = rng.random() > 0.1  # some packages have no long description
        records.append(
            dict(name=name, section=section, synopsis=synopsis, body=body, tr=translated)
        )
    return records


def _md5(synopsis, body):
    return hashlib.md5(("\n".join([synopsis, *body]) + "\n").encode()).hexdigest()


def _write_lists(folder, records, *, compress=False):
    packages, translations = [], []
    for rec in records:
        md5 = _md5(rec["synopsis"], rec["body"])
        packages.append(
            f"Package: {rec['name']}\nVersion: 1.0\nDescription: {rec['synopsis']}\n"
            f"Description-md5: {md5}\nTag: role::program,\n use::gameplaying\n"
            f"Section: {rec['section']}\nPriority: optional\n"
        )
        if rec["tr"]:
            long = "\n".join(" " + line for line in rec["body"])
            translations.append(
                f"Package: {rec['name']}\nDescription-md5: {md5}\n"
                f"Description-en: {rec['synopsis']}\n{long}\n"
            )
    p, t = folder / "Packages", folder / "Translation-en"
    p.write_text("\n".join(packages))
    t.write_text("\n".join(translations))
    if compress:
        for path in (p, t):
            with gzip.open(f"{path}.gz", "wt") as fh:
                fh.write(path.read_text())
        return folder / "Packages.gz", folder / "Translation-en.gz"
    return p, t


def _expected(records, min_words, drop_duplicates=True):
    """The brute force: first entry per name, sorted names, filters, first of equal texts."""
    first = {}
    for rec in records:
        first.setdefault(rec["name"], rec)
    out, seen = [], set()
    for name in sorted(first):
        rec = first[name]
        if not rec["tr"] or re.search(r"-(dev|doc|dbg|data|common)$", name):
            continue
        words = rec["synopsis"].split() + [w for line in rec["body"] for w in line.split()]
        words = [w for w in words if w != "."]
        if len(words) < min_words or (drop_duplicates and tuple(words) in seen):
            continue
        seen.add(tuple(words))
        out.append((name, rec["section"].split("/")[-1], words))
    return out


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("min_words", [0, 10])
def test_join_filter_dedup_against_brute_force(tmp_path, compress, min_words):
    records = _fake_records()
    p, t = _write_lists(tmp_path, records, compress=compress)
    corpus = load_debian_descriptions(p, t, min_words=min_words)
    expected = _expected(records, min_words)
    assert list(corpus.packages) == [name for name, _, _ in expected]
    assert list(corpus.sections) == [section for _, section, _ in expected]
    assert [d.split() for d in corpus.documents] == [words for _, _, words in expected]
    # the synopsis is the first line, a " ." line an empty one
    for doc, (name, _, _) in zip(corpus.documents, expected, strict=True):
        rec = next(r for r in records if r["name"] == name)
        lines = doc.split("\n")
        assert lines[0] == rec["synopsis"]
        assert lines[1:] == ["" if b == "." else b for b in rec["body"]]
    assert corpus.source == [str(p), str(t)]


def test_duplicates_kept_as_they_come(tmp_path):
    records = _fake_records()
    p, t = _write_lists(tmp_path, records)
    kept = load_debian_descriptions(p, t, drop_duplicates=False, min_words=0)
    expected = _expected(records, 0, drop_duplicates=False)
    assert list(kept.packages) == [name for name, _, _ in expected]
    deduplicated = load_debian_descriptions(p, t, min_words=0)
    assert len(kept.documents) > len(deduplicated.documents)  # the fake lists repeat texts


def test_first_list_wins_and_drop_derived_off(tmp_path):
    records = _fake_records(seed=1)
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    pa, ta = _write_lists(a, records[:30])
    moved = [dict(r, section="science") for r in records[:30]]  # same names, another section
    pb, tb = _write_lists(b, moved + records[30:])
    corpus = load_debian_descriptions([pa, pb], [ta, tb], drop_derived=False, min_words=0)
    first = {r["name"]: r["section"].split("/")[-1] for r in records}
    for name, section in zip(corpus.packages, corpus.sections, strict=True):
        assert section == first[name]
    assert any(re.search(r"-(dev|doc)$", n) for n in corpus.packages)


def test_lz4_lists_read_through_a_tool(tmp_path):
    if shutil.which("lz4") is None:
        pytest.skip("no lz4 tool")
    records = _fake_records(seed=2)
    p, t = _write_lists(tmp_path, records)
    for path in (p, t):
        subprocess.run(["lz4", "-q", str(path), f"{path}.lz4"], check=True)
    plain = load_debian_descriptions(p, t)
    packed = load_debian_descriptions(f"{p}.lz4", f"{t}.lz4")
    assert list(packed.packages) == list(plain.packages)
    assert packed.documents == plain.documents


def test_missing_system_lists_name_the_command(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "APT_LISTS", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"apt-get update -o Acquire::Languages=en"):
        load_debian_descriptions()
    with pytest.raises(FileNotFoundError, match="sample=True"):
        load_debian_descriptions()


def test_bad_arguments(tmp_path):
    with pytest.raises(FileNotFoundError, match="packages"):
        load_debian_descriptions(tmp_path / "nope", tmp_path / "nope")
    with pytest.raises(ValueError, match="sample=True"):
        load_debian_descriptions(tmp_path / "Packages", sample=True)
    with pytest.raises(ValueError, match="min_words"):
        load_debian_descriptions(sample=True, min_words=-1)


# ---------------------------------------------------------------------------
# The shipped sample
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample():
    return load_debian_descriptions(sample=True, vectorize=True)


def test_sample_loads_without_apt(sample):
    n = len(sample.documents)
    assert n == sample.sections.size == sample.packages.size == 3664
    assert len(set(sample.sections)) == 58
    assert not any(re.search(r"-(dev|doc|dbg|data|common)$", p) for p in sample.packages)
    assert len({" ".join(d.split()) for d in sample.documents}) == n  # no duplicates
    assert min(len(d.split()) for d in sample.documents) >= 10
    counts = collections.Counter(sample.sections)
    for section in {s for pair in DEBIAN_TASK_PAIRS for s in pair}:
        assert counts[section] == 100  # every pair's section has 100 or more in bookworm


def test_sample_vectorized(sample):
    X = sample.X
    assert X.format == "csr" and X.shape == (len(sample.documents), sample.words.size)
    np.testing.assert_allclose(np.sqrt(X.multiply(X).sum(axis=1)).A1, 1.0)
    assert min(len(w) for w in sample.words) >= 5
    # document i's nonzero columns are exactly its words of >= 5 letters, lowercased
    for i in (0, 17, 1234, len(sample.documents) - 1):
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", sample.documents[i]) if len(w) >= 5}
        assert set(sample.words[X[i].indices]) == words
    # one-vs-rest labels: a single +1 per row, in the document's section's column
    assert np.all((sample.Y == 1).sum(axis=1) == 1)
    np.testing.assert_array_equal(
        sample.section_names[np.argmax(sample.Y, axis=1)], sample.sections
    )
    language = [s in PROGRAMMING_LANGUAGE_SECTIONS for s in sample.sections]
    np.testing.assert_array_equal(sample.y_language > 0, language)
    np.testing.assert_array_equal(sample.y_libs > 0, np.isin(sample.sections, ["libs", "libdevel"]))


# ---------------------------------------------------------------------------
# make_text_tasks
# ---------------------------------------------------------------------------


def test_text_tasks_counts_against_brute_force(sample):
    pairs = [("games", "science"), ("net", "web")]
    tasks = make_text_tasks(sample, pairs, n_per_class=30, random_state=3)
    by_name = dict(zip(sample.packages, sample.documents, strict=True))
    section = dict(zip(sample.packages, sample.sections, strict=True))
    for task, (first, second) in zip(tasks, pairs, strict=True):
        assert task.name == f"{first}/{second}"
        assert task.X.shape[0] == 60 and task.X.format == "csr"
        np.testing.assert_array_equal(task.y, np.repeat([1.0, -1.0], 30))
        assert [section[p] for p in task.packages] == [first] * 30 + [second] * 30
        column = {w: j for j, w in enumerate(task.words)}
        vocabulary = set()
        for i, package in enumerate(task.packages):
            words = [w.lower() for w in re.findall(r"[^\W\d_]+", by_name[package])]
            counts = collections.Counter(w for w in words if len(w) >= 5)
            vocabulary |= set(counts)
            row = np.zeros(task.words.size)
            for w, c in counts.items():
                row[column[w]] = c
            np.testing.assert_array_equal(task.X[i].toarray().ravel(), row)
        assert vocabulary == set(task.words)


def test_text_tasks_reproducible_and_capped(sample):
    a = make_text_tasks(sample, [("games", "math")], n_per_class=50, random_state=0)[0]
    b = make_text_tasks(sample, [("games", "math")], n_per_class=50, random_state=0)[0]
    c = make_text_tasks(sample, [("games", "math")], n_per_class=50, random_state=1)[0]
    np.testing.assert_array_equal(a.packages, b.packages)
    assert set(a.packages) != set(c.packages)
    # a section with fewer documents than n_per_class gives all of them
    rust = int(np.sum(sample.sections == "rust"))
    t = make_text_tasks(sample, [("rust", "games")], n_per_class=1000)[0]
    assert int(np.sum(t.y > 0)) == rust and int(np.sum(t.y < 0)) == 100
    # min_word_length=1 counts the short words too
    short = make_text_tasks(sample, [("games", "math")], n_per_class=50, min_word_length=1)[0]
    assert short.words.size > a.words.size and min(len(w) for w in short.words) == 1


def test_default_tasks_on_the_sample():
    tasks = make_text_tasks()
    assert len(tasks) == len(DEBIAN_TASK_PAIRS) >= 40
    assert all(t.X.shape[0] == 200 for t in tasks)


@pytest.mark.parametrize(
    "pairs,match",
    [([("games", "nosuchsection")], "nosuchsection"), ([("games", "games")], "two different")],
)
def test_text_tasks_bad_pairs(sample, pairs, match):
    with pytest.raises(ValueError, match=match):
        make_text_tasks(sample, pairs)


def test_text_tasks_bad_n_per_class(sample):
    with pytest.raises(ValueError, match="n_per_class"):
        make_text_tasks(sample, [("games", "math")], n_per_class=0)
