"""The benchmark scripts run end to end on small data (no timing is asserted)."""

import numpy as np

from benchmarks import bss, paths, solvers
from sparsify.datasets import make_bhattacharyya


def test_bss_benchmark_quick(capsys):
    bss.main(["--quick", "--repeats", "1"])
    out = capsys.readouterr().out
    assert "ratio" in out and "peak memory" in out


def test_solvers_benchmark_on_small_data(capsys):
    X, y = make_bhattacharyya(n=40, d=15, k=5, random_state=0)
    solvers.run("small", X, y, repeats=1)
    out = capsys.readouterr().out
    assert out.count("ratio") >= 1 and "SVM2" in out and "L1SVM" in out


def test_paths_benchmark_on_small_data(capsys):
    X, y = make_bhattacharyya(n=30, d=12, k=4, random_state=1)
    paths.bench_lasso_vs_lars("small", X, y.astype(float), 1)
    paths.bench_svm2_vs_linearsvc("small", X, y, 1)
    for kind in paths.PATHS:
        paths.bench_path_vs_cvxpy("small", X, y, kind, 1, 2)
    out = capsys.readouterr().out
    assert np.all([k in out for k in ("lasso", "svm2", "l1_svm")])
