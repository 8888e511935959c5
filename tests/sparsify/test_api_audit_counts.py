"""Counts given as a bool get a TypeError naming the argument, as `check_n_select` gives.

scikit-learn's ``Interval(Integral, ...)`` accepts True (a bool is an Integral):
``leverage_sample(X, True, method="bernoulli")`` sampled as r = 1, the samplers'
``n_features=True`` failed inside NumPy ("expected a sequence of integers or a single
integer, got 'True'"), and ``bss_features(0.5, rank=True)`` returned the r of rank 1.
The values the theorems give are checked against their formulas written out here.
"""

import math

import numpy as np
import pytest

import sparsify
from sparsify.theory import bss_features, leverage_features

X = np.random.default_rng(0).standard_normal((10, 6))
LABELS = np.array([0, 1] * 5)

SELECTORS = [
    sparsify.BSSSelector,
    sparsify.SketchedBSSSelector,
    sparsify.LeverageSelector,
    sparsify.UniformSelector,
    sparsify.WeightSelector,
    sparsify.DocFreqSelector,
    sparsify.RRQRSelector,
    sparsify.InfoGainSelector,
]


@pytest.mark.parametrize("selector", SELECTORS, ids=lambda cls: cls.__name__)
def test_selectors_refuse_a_bool_n_features(selector):
    with pytest.raises(TypeError, match="n_features must be an integer; got True"):
        selector(n_features=True).fit(X, LABELS)


@pytest.mark.parametrize("method", ["iid", "bernoulli"])
def test_leverage_sample_refuses_a_bool_r(method):
    with pytest.raises(TypeError, match="r must be an integer; got True"):
        sparsify.leverage_sample(X, True, method=method, random_state=0)


@pytest.mark.parametrize("function", [bss_features, leverage_features])
def test_theory_refuses_a_bool_rank(function):
    with pytest.raises(TypeError, match="rank must be an integer; got True"):
        function(0.5, rank=True)


def test_theory_counts_as_written():
    """001 Theorem 1's 36 rank / eps^2 (at least rank + 1) and 001 Lemma 2's count, for
    NumPy integers and floats too."""
    for rank in (1, np.int64(3), 7):
        assert bss_features(np.float64(0.5), rank) == max(144 * rank, rank + 1)
        log = max(1.0, math.log(rank / (0.25 * 0.1)))
        assert leverage_features(0.5, rank) == math.ceil(144 * rank * log)


def test_integer_counts_still_accepted():
    assert sparsify.leverage_sample(X, np.int64(3), random_state=0).n_selected <= 3
    selector = sparsify.UniformSelector(n_features=np.int32(2), random_state=0).fit(X)
    assert selector.n_features_in_ == 6
