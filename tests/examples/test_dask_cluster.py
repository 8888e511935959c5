"""examples/dask_cluster.py runs: a LocalCluster, the corpus built on the workers, an SVM,
and a model fitted on the cluster on the lazily selected columns, certified there."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")
sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import dask_cluster  # noqa: E402


@pytest.mark.slow  # 40 s: the script end to end on a LocalCluster (the quick one: below)
def test_selects_on_the_cluster_and_the_svm_learns(capsys):
    # Two chunks of 20000 documents, one per worker.
    dask_cluster.main(
        ["--documents", "40000", "--workers", "2", "--worker-memory", "400",
         "--sketch", "16", "--features", "40", "--train", "2000"]
    )  # fmt: skip
    out = capsys.readouterr().out
    kept = int(re.search(r"r=40\): (\d+) words kept", out).group(1))
    assert 0 < kept <= 40
    pattern = r"on (\d+ selected words|all 1000 words): test accuracy ([\d.]+)"
    accuracy = dict(re.findall(pattern, out))
    assert len(accuracy) == 2
    # The two classes differ in 20 topic words (five times as frequent): the selected
    # words separate them far better than chance, as do all 1000.
    assert all(float(a) > 0.7 for a in accuracy.values()), out
    # RLSC fitted on the cluster on the other 36000 documents, certified there (the
    # script raises otherwise), and its lazy test accuracy as good.
    fitted = re.search(r"RLSC fitted on the cluster: (\d+) documents x (\d+) selected words", out)
    assert fitted and fitted.groups() == ("36000", str(kept)), out
    assert "certificate holds" in out
    cluster_accuracy = float(re.search(r"RLSC on the cluster: test accuracy ([\d.]+)", out)[1])
    assert cluster_accuracy > 0.7, out


@pytest.mark.parametrize(
    "name",
    [
        # L2SVM: 26 s, its working set of samples over the chunks (the Dask fits of the
        # SVMs run in the default suite in tests/solvers/test_dask_fit_lasso_svm.py).
        pytest.param(name, marks=pytest.mark.slow) if name == "L2SVM" else name
        for name in sorted(dask_cluster.CLUSTER_MODELS)
    ],
)
def test_each_cluster_model_fits_a_dask_x_certified(name):
    """The cluster step on a small corpus with the threaded scheduler: every model of
    --model fits the Dask X certified, and its lazy accuracy is that of its predictions."""
    import dask

    X, y = dask_cluster.synthetic_corpus(4000, d=200, chunk=1000)
    with dask.config.set(scheduler="threads"):
        model = dask_cluster.fit_on_cluster(
            dask_cluster.CLUSTER_MODELS[name](), X[1000:], y[1000:].compute()
        )
        lazy = dask_cluster.lazy_accuracy(model, X[:1000], y[:1000])
        predicted = np.asarray(model.predict(X[:1000].compute()))
    if name == "RidgeRegression":
        predicted = (predicted > 0).astype(int)
    assert lazy == pytest.approx(np.mean(predicted == y[:1000].compute()))
    assert lazy > 0.6
