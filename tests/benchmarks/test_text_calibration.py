"""The calibrated synthetic corpus against the real corpus' statistics.

The targets are the Debian descriptions' statistics as they come (the real-text
benchmark's hard split, 20 000 documents drawn with seed 0), measured by
``python -m benchmarks.text_calibration --documents 20000``; every statistic of the
generator is computed here by code of the test's own (scipy's linregress for the
slopes, a brute-force nearest neighbour), not by the benchmark's functions.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import linregress

from benchmarks import text_calibration
from benchmarks._text import DEBIAN_CALIBRATION, text_like

N, D = 20000, 15465  # the real corpus' shape at 20 000 documents
#: Real hard split, 20 000 documents (name: (value, tolerance)).
TARGETS = {
    "length p10": (10, 1.5),
    "length p50": (20, 1.5),
    "length p90": (41, 3),
    "zipf tail": (-1.38, 0.1),
    "words df <= 2": (0.311, 0.05),
    "near-duplicates": (0.264, 0.05),
    "near-dup. other label": (0.069, 0.03),
    "positive": (0.197, 0.03),
}
#: The statistics the generator does not match (the flat head of real text).
NOT_MATCHED = ("zipf head", "top word share")


def _slope(frequencies, lo, hi):
    ranks = np.arange(lo, hi + 1)
    return linregress(np.log(ranks), np.log(frequencies[lo - 1 : hi])).slope


def _own_statistics(X, y, queries=1500, seed=0):
    """The statistics, near-duplicates estimated on ``queries`` random documents
    against all (brute force, dense similarities)."""
    lengths = np.asarray((X != 0).sum(axis=1)).ravel()
    df = np.asarray((X != 0).sum(axis=0)).ravel()
    seen = np.sort(df[df > 0])[::-1]
    last = np.flatnonzero(seen >= 3)[-1] + 1
    chosen = np.random.default_rng(seed).choice(X.shape[0], queries, replace=False)
    cosine = (X @ X[chosen].T).toarray()
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    cosine /= norms[:, None] * norms[chosen][None, :]
    cosine[chosen, np.arange(queries)] = 0.0
    near = cosine >= 0.9
    return {
        "length p10": np.percentile(lengths, 10),
        "length p50": np.percentile(lengths, 50),
        "length p90": np.percentile(lengths, 90),
        "zipf tail": _slope(seen, 100, last),
        "words df <= 2": np.mean(seen <= 2),
        "near-duplicates": near.any(axis=0).mean(),
        "near-dup. other label": (near & (y[:, None] != y[chosen][None, :])).any(axis=0).mean(),
        "positive": np.mean(y > 0),
    }


@pytest.fixture(scope="module")
def calibrated():
    """The calibrated generator's statistics at the real corpus' shape."""
    return _own_statistics(*text_like(N, D, **DEBIAN_CALIBRATION))


@pytest.mark.parametrize("name", list(TARGETS))
def test_calibrated_generator_matches_the_real_corpus(calibrated, name):
    found = calibrated[name]
    target, tolerance = TARGETS[name]
    assert abs(found - target) <= tolerance, (name, found, target)


def test_the_sweeps_generator_does_not():
    """The default corpus (the text sweep's) misses the targets the calibration meets:
    100 words in every document, no near-duplicates, balanced classes."""
    found = _own_statistics(*text_like(2000, D))
    assert found["length p50"] == 100
    assert found["near-duplicates"] == 0.0
    assert abs(found["positive"] - 0.5) < 0.01


def test_calibration_parameters_move_the_statistics_they_name():
    base = {"words_per_document": 20, "length_spread": 0.5}
    X, y = text_like(3000, 5000, **base, near_duplicates=0.3, relabel=1.0, positive_share=0.2)
    found = _own_statistics(X, y, queries=3000)
    # 900 copies and their sources: at least 0.3 near-duplicates; every copy has the
    # other label than its source.
    assert found["near-duplicates"] >= 0.3
    assert found["near-dup. other label"] >= 0.3
    lengths = np.diff(X.indptr)
    assert lengths.min() >= 1 and np.percentile(lengths, 90) > 1.5 * np.median(lengths)
    np.testing.assert_allclose(sp.linalg.norm(X, axis=1), 1.0)


def test_benchmark_statistics_agree_with_brute_force():
    """The benchmark's own statistics (block products) against the test's (all queries)."""
    X, y = text_like(1500, 3000, seed=3, **DEBIAN_CALIBRATION)
    ours = text_calibration.statistics(X, y)
    theirs = _own_statistics(X, y, queries=1500)
    for name in ("length p10", "length p50", "length p90", "words df <= 2", "near-duplicates",
                 "near-dup. other label", "positive"):  # fmt: skip
        assert ours[name] == pytest.approx(theirs[name], abs=1e-12), name
    assert ours["zipf tail"] == pytest.approx(theirs["zipf tail"], rel=1e-9)
    assert set(NOT_MATCHED) <= set(ours)


def test_quick_run_prints_both_tables(capsys):
    found = text_calibration.main(["--quick"])
    out = capsys.readouterr().out
    assert "text_like (calibrated)" in out and "DUAL_CD iterations" in out
    for statistics, iterations in found.values():
        assert all(count > 0 for count, _, _ in iterations.values())
        assert 0 < statistics["positive"] < 1


@pytest.mark.slow
def test_targets_are_the_real_corpus_statistics():
    """The targets above, measured again on this machine's apt lists (skipped without)."""
    from benchmarks.real_text import corpora

    try:
        ((_, X, y),) = corpora(("hard",), (N,))
    except FileNotFoundError:
        pytest.skip("no Debian package lists on this machine")
    if X.shape != (N, D):
        pytest.skip(f"other package lists than the targets' ({X.shape})")
    found = _own_statistics(X, y, queries=3000)
    for name, (target, tolerance) in TARGETS.items():
        # The real corpus is the target itself: a tenth of the generator's tolerance
        # (the near-duplicate shares are estimated on 3000 documents).
        assert abs(found[name] - target) <= max(tolerance / 10, 0.015), (name, found[name])
