"""The theorems' r (sparsify.theory) against the formulas written out here."""

import math

import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sparsify.theory import bss_features, leverage_features


@pytest.mark.parametrize("epsilon, rank", [(0.5, 1), (0.5, 2), (0.1, 10), (0.9, 50)])
def test_bss_features_is_36_rank_over_epsilon_squared(epsilon, rank):
    # 000 Theorems 1-2: distortion 3 sqrt(rank / r) = epsilon / 2, and r > rank.
    expected = max(math.ceil(36 * rank / epsilon**2), rank + 1)
    assert bss_features(epsilon, rank) == expected
    assert 3 * math.sqrt(rank / bss_features(epsilon, rank)) <= epsilon / 2 + 1e-12


@pytest.mark.parametrize("epsilon, rank, delta", [(0.5, 2, 0.01), (0.1, 10, 0.05), (0.9, 1, 0.5)])
def test_leverage_features_follows_001_lemma_2(epsilon, rank, delta):
    log_term = max(1.0, math.log(rank / (epsilon**2 * math.sqrt(delta))))
    assert leverage_features(epsilon, rank, delta) == math.ceil(36 * rank / epsilon**2 * log_term)


def test_smaller_delta_asks_for_more_features():
    assert leverage_features(0.5, 5, delta=1e-4) > leverage_features(0.5, 5, delta=0.1)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: bss_features(0.0, 2), "epsilon"),
        (lambda: bss_features(1.5, 2), "epsilon"),
        (lambda: bss_features("0.5", 2), "epsilon"),
        (lambda: bss_features(0.5, 0), "rank"),
        (lambda: bss_features(0.5, 2.5), "rank"),
        (lambda: leverage_features(0.5, -1), "rank"),
        (lambda: leverage_features(0.5, 2, delta=0.0), "delta"),
        (lambda: leverage_features(0.5, 2, delta=1.0), "delta"),
    ],
)
def test_bad_arguments_are_named(call, name):
    with pytest.raises(InvalidParameterError, match=f"'{name}'"):
        call()
