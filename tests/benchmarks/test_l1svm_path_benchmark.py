"""Smoke test of benchmarks/l1svm_path.py on 300 rows of standardised Spambase: the path
reaches its end certified and its objectives match linprog's (no timing asserted)."""

import numpy as np

from benchmarks import l1svm_path


def test_the_benchmark_measures_the_path_against_linprog():
    X, y = l1svm_path.standardised_spambase(rows=300)
    np.testing.assert_allclose(X.mean(axis=0), 0.0, atol=1e-12)
    result = l1svm_path.measure(X, y, repeats=1, checks=4)
    assert result["stops"] == [] and result["breakpoints"] > 10
    assert result["worst"] <= 1e-9
    assert result["path_s"] > 0
    assert set(result["lp_s"]) == {"middle", "0.1 lam_max", "median breakpoint"}
    assert result["ratio"] == result["path_s"] / result["lp_s"]["middle"]
