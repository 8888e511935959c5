"""The independent fits of rs_weights, hybrid_weights and the CV estimators run as Dask tasks.

They hand their blocks, costs and folds to joblib; inside ``joblib.parallel_config(backend=
"dask")`` with a distributed client they run as tasks of the cluster, with the same
result as in one process for a fixed ``random_state`` (issue 23).
"""

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from joblib import parallel_config  # noqa: E402

from solvers import SVM2CV, WeightedLassoCV  # noqa: E402
from solvers.weights import hybrid_weights, rs_weights  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:  # fmt: skip
        with distributed.Client(cluster) as client:
            yield client


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 10))
    target = X[:, :3].sum(axis=1) + 0.3 * rng.standard_normal(80)
    return X, target, np.where(target > 0, 1, -1)


@pytest.mark.parametrize(
    "weights,base,settings",
    [
        (rs_weights, "svm2", {"block_size": 30, "n_blocks": 6}),  # its blocks
        (hybrid_weights, "lasso", {"C_grid": (0.01, 0.1, 1.0, 10.0)}),  # its grid of costs
        (hybrid_weights, "svm2", {"C_grid": (0.01, 0.1, 1.0, 10.0)}),
    ],
    ids=["rs_weights", "hybrid_weights-lasso", "hybrid_weights-svm2"],
)
def test_weights_fits_run_on_the_cluster_with_the_same_result(client, weights, base, settings):
    X, target, labels = _data()
    y = target if base == "lasso" else labels
    settings = {"base": base, "random_state": 0, **settings}
    in_process = weights(X, y, **settings)
    with distributed.get_task_stream(client) as stream, parallel_config(backend="dask"):
        on_cluster = weights(X, y, n_jobs=2, **settings)
    assert len(stream.data) >= 1  # tasks ran on the cluster's workers
    np.testing.assert_array_equal(on_cluster, in_process)


@pytest.mark.parametrize("kind", ["lasso", "svm2"])
def test_cv_folds_run_on_the_cluster_with_the_same_result(client, kind):
    X, target, labels = _data()
    cls, y = (WeightedLassoCV, target) if kind == "lasso" else (SVM2CV, labels)
    in_process = cls(cv=4).fit(X, y)
    with distributed.get_task_stream(client) as stream, parallel_config(backend="dask"):
        on_cluster = cls(cv=4, n_jobs=2).fit(X, y)
    assert len(stream.data) >= 1
    np.testing.assert_array_equal(on_cluster.cv_lams_, in_process.cv_lams_)
    np.testing.assert_allclose(on_cluster.cv_scores_, in_process.cv_scores_, rtol=1e-12)
    assert on_cluster.lam_ == in_process.lam_
