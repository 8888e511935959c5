"""Fitted models score a Dask array of documents lazily, chunk by chunk (issue 23, first part).

``decision_function`` and ``predict`` of every linear estimator take a Dask X (NumPy or
CSR chunks, several chunkings) and return a lazy Dask array equal to the in-memory
answer; ``score`` returns the in-memory score. Also on a distributed LocalCluster.
"""

import numpy as np
import pytest
import scipy.sparse as sp

da = pytest.importorskip("dask.array")

from solvers import (  # noqa: E402
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    HybridSVM,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
)


def _data(seed=0, n=90, d=7):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.7)
    return X, X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)


def _dask(X, chunk, sparse):
    array = da.from_array(X, chunks=(chunk, X.shape[1]))
    return array.map_blocks(sp.csr_matrix) if sparse else array


CLASSIFIERS = [SVMDual(), L2SVM(loss="squared_hinge"), L1SVM(lam=2.0), SVM2(lam=2.0), RLSC(),
               HybridSVM(base="svm2", C_grid=(1.0,), lam=1.0)]  # fmt: skip
REGRESSORS = [WeightedLasso(lam=2.0), RidgeRegression()]


@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
@pytest.mark.parametrize("chunk", [13, 45])
@pytest.mark.parametrize("est", CLASSIFIERS, ids=lambda e: type(e).__name__)
def test_classifiers_score_a_dask_array_lazily(est, chunk, sparse):
    X, target = _data()
    labels = np.where(target > 0, "yes", "no")
    fit = est.fit(X, labels)
    lazy = fit.decision_function(_dask(X, chunk, sparse))
    assert isinstance(lazy, da.Array) and lazy.shape == (X.shape[0],)
    np.testing.assert_allclose(lazy.compute(), fit.decision_function(X), rtol=1e-12, atol=1e-12)
    predicted = fit.predict(_dask(X, chunk, sparse))
    assert isinstance(predicted, da.Array)
    np.testing.assert_array_equal(predicted.compute(), fit.predict(X))
    assert fit.score(_dask(X, chunk, sparse), labels) == fit.score(X, labels)


@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
@pytest.mark.parametrize("est", REGRESSORS, ids=lambda e: type(e).__name__)
def test_regressors_predict_a_dask_array_lazily(est, sparse):
    X, target = _data(1)
    fit = est.fit(X, target)
    lazy = fit.predict(_dask(X, 20, sparse))
    assert isinstance(lazy, da.Array)
    np.testing.assert_allclose(lazy.compute(), X @ fit.coef_ + fit.intercept_, rtol=1e-12)
    assert fit.score(_dask(X, 20, sparse), target) == pytest.approx(fit.score(X, target), 1e-12)


def test_one_vs_rest_scores_have_a_column_per_class():
    X, target = _data(2)
    labels = np.digitize(target, np.quantile(target, [1 / 3, 2 / 3]))
    fit = SVMDual().fit(X, labels)
    lazy = fit.decision_function(_dask(X, 25, False))
    assert lazy.shape == (X.shape[0], 3)
    np.testing.assert_allclose(lazy.compute(), fit.decision_function(X), rtol=1e-12)
    np.testing.assert_array_equal(fit.predict(_dask(X, 25, False)).compute(), fit.predict(X))


def test_wrong_features_and_nan_are_named():
    X, target = _data(3)
    fit = RidgeRegression().fit(X, target)
    with pytest.raises(ValueError, match="7"):
        fit.predict(_dask(X[:, :5], 20, False))
    bad = X.copy()
    bad[40, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        fit.predict(_dask(bad, 20, False)).compute()


def test_scoring_on_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    X, target = _data(4)
    fit = SVM2(lam=1.0).fit(X, np.where(target > 0, 1, -1))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:  # fmt: skip
        with distributed.Client(cluster):
            lazy = fit.decision_function(_dask(X, 30, True))
            np.testing.assert_allclose(lazy.compute(), fit.decision_function(X), rtol=1e-12)


def _estimators():
    import inspect

    import solvers

    for name in solvers.__all__:
        obj = getattr(solvers, name)
        if inspect.isclass(obj) and hasattr(obj, "predict"):
            yield obj


#: The estimators that fit a Dask X (tests/solvers/test_dask_fit.py and
#: test_dask_fit_lasso_svm.py).
DASK_FIT = {"RidgeRegression", "RLSC", "WeightedLasso", "AdaptiveLasso", "SVMDual", "L2SVM",
            "L1SVM", "SVM2"}  # fmt: skip


@pytest.mark.parametrize(
    "cls", [c for c in _estimators() if c.__name__ not in DASK_FIT], ids=lambda c: c.__name__
)
def test_fit_on_a_dask_array_says_what_to_do_instead_of_collecting_it(cls):
    """docs/dask.md: the estimators without a Dask fit do not compute a Dask X whole to
    fit it."""
    X, target = _data(5)
    y = target if "Lasso" in cls.__name__ or "Ridge" in cls.__name__ else np.sign(target)
    with pytest.raises(TypeError, match=rf"{cls.__name__}.fit does not take a Dask array"):
        cls().fit(_dask(X, 30, False), y)


def test_a_pipeline_selects_on_dask_and_scores_lazily():
    """Select on the Dask corpus, fit on the selected columns (computed: n x r), and
    score the whole corpus lazily through the same selection."""
    from sparsify import LeverageSelector

    rng = np.random.default_rng(6)
    X = rng.standard_normal((120, 40))
    y = np.where(X[:, :3].sum(axis=1) + 0.3 * rng.standard_normal(120) > 0, 1, -1)
    corpus = _dask(X, 40, False)
    selector = LeverageSelector(n_features=12, k=5, random_state=0).fit(corpus)
    model = SVM2(lam=1.0).fit(selector.transform(corpus).compute(), y)
    lazy = model.predict(selector.transform(corpus))
    assert isinstance(lazy, da.Array)
    in_memory = SVM2(lam=1.0).fit(selector.transform(X), y).predict(selector.transform(X))
    np.testing.assert_array_equal(lazy.compute(), in_memory)
