"""solvers.testing: the assertions pass where the theorems hold and fail with the report."""

import math
import re
from pathlib import Path

import numpy as np
import pytest

from solvers.testing import (
    assert_margin_preserved,
    assert_radius_preserved,
    assert_rlsc_bound,
    assert_spectral_bound,
)
from sparsify import Selection, bss
from sparsify.datasets import make_bhattacharyya

DOC = Path(__file__).parents[2] / "docs" / "guarantees.md"


@pytest.fixture(scope="module")
def data():
    X, y = make_bhattacharyya(n=16, d=400, k=8, random_state=2)
    V = np.linalg.svd(X, full_matrices=False)[2].T
    return X, y, V


def _noise_columns(X, r):
    """r columns of pure noise (the last ones of the generator), unit scales: no guarantee."""
    d = X.shape[1]
    return Selection(np.arange(d - r, d), np.ones(r), d)


def test_the_test_file_of_the_docs_passes():
    """Every test function of the page's example file passes (its failing case included)."""
    (code,) = [
        block
        for block in re.findall(r"^```python\n(.*?)^```$", DOC.read_text(), re.S | re.M)
        if block.startswith('"""test_my_selection.py')
    ]
    namespace = {"__name__": "test_my_selection"}
    exec(compile(code, str(DOC), "exec"), namespace)
    tests = [f for name, f in namespace.items() if name.startswith("test_")]
    assert len(tests) == 6
    for test in tests:
        test()


def test_asserts_pass_and_return_the_report(data):
    X, y, V = data
    selection = bss(V, 400)
    report = assert_margin_preserved(X, y, selection)
    assert report.holds and report.theorem == "001 Theorem 2"
    assert assert_radius_preserved(X, selection).holds
    q = np.random.default_rng(0).standard_normal((3, X.shape[1]))
    assert assert_rlsc_bound(X, y, q, 1.0, selection).holds
    assert assert_spectral_bound(V, selection, r=400).holds


def test_margin_assert_fails_with_the_report_in_its_message(data):
    X, y, _ = data
    with pytest.raises(AssertionError) as info:
        assert_margin_preserved(X, y, _noise_columns(X, 5), eps=0.2, err_msg="noise only")
    message = str(info.value)
    assert "001 Theorem 2 does not hold for this selection: noise only" in message
    for field in ("hard margin", "full", "selected", "bound", "eps", "holds      = False"):
        assert field in message


def test_radius_assert_fails_for_inflated_scales(data):
    X, _, _ = data
    # The largest-norm columns, scaled by sqrt(d / r) as uniform sampling would.
    largest = np.argsort(-np.linalg.norm(X, axis=0), kind="stable")[:5]
    inflated = Selection(largest, np.full(5, math.sqrt(X.shape[1] / 5)), X.shape[1])
    with pytest.raises(AssertionError, match="enclosing-ball radius"):
        assert_radius_preserved(X, inflated, eps=0.5)


def test_rlsc_assert_fails_when_the_selection_misses_the_eps_asked_for(data):
    X, y, V = data
    inside = np.random.default_rng(1).standard_normal((4, X.shape[0])) @ X
    with pytest.raises(AssertionError, match="000 Theorem 1"):
        assert_rlsc_bound(X, y, inside, 1.0, _noise_columns(X, 5), eps=1e-3)
    # With the measured eps (not below 1: five noise columns against rank 16) the
    # bound promises nothing, and the default assertion fails for that reason.
    with pytest.raises(AssertionError, match="the bound is vacuous: the measured eps"):
        assert_rlsc_bound(X, y, inside, 1.0, _noise_columns(X, 5))


def test_spectral_assert_fails_outside_lemma1(data):
    X, _, V = data
    with pytest.raises(AssertionError, match="000 Lemma 1"):
        assert_spectral_bound(V, _noise_columns(X, 40), r=40)
