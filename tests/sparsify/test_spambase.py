"""`sparsify.datasets.load_spambase` against the shipped file read by another route (pandas),
and against the UCI documentation's figures (spambase.names: class counts, attribute means)."""

from importlib import resources

import numpy as np
import pandas as pd

from sparsify.datasets import load_spambase

#: The UCI attribute names (spambase.names), in order: the file's header abbreviates them.
_UCI_WORDS = (
    "make address all 3d our over remove internet order mail receive will people report "
    "addresses free business email you credit your font 000 money hp hpl george 650 lab "
    "labs telnet 857 data 415 85 technology 1999 parts pm direct cs meeting original "
    "project re edu table conference"
).split()


def test_load_spambase_matches_the_file_read_by_pandas():
    X, y = load_spambase()
    path = resources.files("sparsify").joinpath("data/spambase.csv.gz")
    with resources.as_file(path) as local:
        frame = pd.read_csv(local, compression="gzip")
    assert frame.shape == (4601, 58) and frame.columns[-1] == "Spam"
    np.testing.assert_array_equal(X, frame.iloc[:, :-1].to_numpy(dtype=np.float64))
    np.testing.assert_array_equal(y, np.where(frame["Spam"].to_numpy() == 1, 1.0, -1.0))
    # The header names the UCI attributes in the UCI order (spaces and prefixes aside).
    words = [name.strip().removeprefix("W_").rstrip(":") for name in frame.columns[:48]]
    assert words == _UCI_WORDS
    assert [name.strip() for name in frame.columns[48:57]] == [
        "C;",
        "C(",
        "C[",
        "C!",
        "C$",
        "C#",
        "CAP_avg",
        "CAP_long",
        "CAP_tot",
    ]


def test_load_spambase_matches_the_uci_documentation():
    X, y = load_spambase()
    assert X.shape == (4601, 57) and y.dtype == np.float64
    assert np.sum(y == 1) == 1813 and np.sum(y == -1) == 2788  # 39.4% spam
    assert np.all(np.isfinite(X)) and np.all(X >= 0)
    # Means listed in spambase.names: word_freq_make, capital_run_length_average,
    # capital_run_length_longest, capital_run_length_total.
    np.testing.assert_allclose(X[:, [0, 54, 55, 56]].mean(axis=0),
                               [0.10455, 5.1915, 52.1728, 283.2893], atol=5e-4)  # fmt: skip
    assert np.all(X[:, 55:] == np.round(X[:, 55:]))  # run lengths are integers
