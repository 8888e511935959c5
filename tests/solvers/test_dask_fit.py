"""RidgeRegression and RLSC fit a Dask X through its Gram matrix, certified over its chunks.

The reference is the in-memory fit on the same data (itself certified); the Dask fit's
certificate is computed from sums over the chunks of the data, so it is checked here
against the in-memory certificate of the same coefficients (``ridge_certificate``).
"""

import numpy as np
import pytest
import scipy.sparse as sp

da = pytest.importorskip("dask.array")

import solvers._dask_models as dask_models  # noqa: E402
from solvers import RLSC, RidgeRegression  # noqa: E402
from solvers.certificates import ridge_certificate  # noqa: E402
from solvers.exceptions import SolverError  # noqa: E402


def _data(seed=0, n=400, d=9):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    return X, X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n)


def _dask(X, chunk, sparse):
    array = da.from_array(X, chunks=(chunk, X.shape[1]))
    return array.map_blocks(sp.csr_matrix) if sparse else array


@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
@pytest.mark.parametrize("chunk", [37, 150])
@pytest.mark.parametrize("weighted", [False, True])
def test_ridge_on_dask_is_the_in_memory_fit(sparse, chunk, weighted):
    X, y = _data()
    s = None
    if weighted:
        s = np.random.default_rng(1).uniform(0.0, 3.0, y.size)
        s[:7] = 0.0
    fit = RidgeRegression(lam=3.0).fit(_dask(X, chunk, sparse), y, sample_weight=s)
    reference = RidgeRegression(lam=3.0).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    assert fit.certificate_.holds and fit.backend_ == "SVD" and fit.n_features_in_ == 9
    in_memory = ridge_certificate(X, y, fit.coef_, 3.0, sample_weight=s)
    np.testing.assert_allclose(fit.certificate_.primal, in_memory.primal, rtol=1e-12)
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-10)
    predicted = fit.predict(_dask(X, chunk, sparse))
    assert isinstance(predicted, da.Array)
    np.testing.assert_allclose(predicted.compute(), reference.predict(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
def test_two_class_rlsc_on_dask_is_the_in_memory_fit(sparse):
    X, y = _data(2)
    labels = np.where(y > 0, "spam", "ham")
    fit = RLSC(lam=0.5).fit(_dask(X, 64, sparse), labels)
    reference = RLSC(lam=0.5).fit(X, labels)
    assert list(fit.classes_) == ["ham", "spam"] and fit.coef_.shape == (1, 9)
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    assert fit.certificate_.holds
    np.testing.assert_array_equal(fit.predict(_dask(X, 64, sparse)).compute(), reference.predict(X))


def test_multiclass_rlsc_on_dask_is_the_in_memory_one_vs_rest(monkeypatch):
    """Two passes over the data for all the classes (the Gram matrix with a target column
    per class, then the certificates' sums), not two per class."""
    passes = []
    reduce = dask_models.reduce_row_blocks
    counted = lambda *args, **kwargs: passes.append(1) or reduce(*args, **kwargs)  # noqa: E731
    monkeypatch.setattr(dask_models, "reduce_row_blocks", counted)
    X, y = _data(8)
    labels = np.digitize(y, np.quantile(y, [0.3, 0.7]))
    s = np.random.default_rng(8).uniform(0.5, 2.0, y.size)
    fit = RLSC(lam=0.5, class_weight="balanced").fit(_dask(X, 90, True), labels, sample_weight=s)
    assert len(passes) == 2
    reference = RLSC(lam=0.5, class_weight="balanced").fit(X, labels, sample_weight=s)
    assert fit.coef_.shape == (3, 9) and len(fit.certificate_) == 3
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    assert all(c.holds for c in fit.certificate_) and len(fit.estimators_) == 3
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-10)
    np.testing.assert_array_equal(fit.predict(_dask(X, 90, True)).compute(), reference.predict(X))


def test_rlsc_class_weight_on_dask_is_the_in_memory_fit():
    X, y = _data(7)
    labels = np.where(y > 1.0, 1, 0)  # imbalanced
    fit = RLSC(lam=0.5, class_weight="balanced").fit(_dask(X, 80, False), labels)
    reference = RLSC(lam=0.5, class_weight="balanced").fit(X, labels)
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    unweighted = RLSC(lam=0.5).fit(X, labels)
    assert not np.allclose(fit.coef_, unweighted.coef_, rtol=1e-3)


def test_a_gram_matrix_float64_cannot_resolve_is_a_solver_error_not_a_wrong_answer():
    """A Unix-timestamp column beside unit columns, lam tiny: the Gram matrix squares the
    condition number. Either the answer is certified on the data and equals the in-memory
    one, or a SolverError says to fit in memory."""
    X, y = _data(3)
    X[:, 0] = 1.7e9 + 1e3 * np.random.default_rng(3).standard_normal(X.shape[0])
    reference = RidgeRegression(lam=1e-9).fit(X, y)
    try:
        fit = RidgeRegression(lam=1e-9).fit(_dask(X, 100, False), y)
    except SolverError as error:
        assert "in memory" in str(error)
    else:
        assert fit.certificate_.holds
        np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-6)


def test_bad_input_is_named(monkeypatch):
    X, y = _data(4)
    with pytest.raises(ValueError, match="two classes"):
        RLSC().fit(_dask(X, 100, False), np.zeros(y.size))
    with pytest.raises(ValueError, match="y must have shape"):
        RidgeRegression().fit(_dask(X, 100, False), y[:-1])
    monkeypatch.setattr(dask_models, "GRAM_MAX_FEATURES", 5)
    with pytest.raises(ValueError, match="select features first"):
        RidgeRegression().fit(_dask(X, 100, False), y)


def test_a_pipeline_selects_and_fits_on_dask_without_collecting_x():
    """A selector and RLSC in a scikit-learn Pipeline, end to end on a Dask corpus."""
    from sklearn.pipeline import make_pipeline

    from sparsify import LeverageSelector

    X, y = _data(5, n=300, d=30)
    labels = np.where(y > 0, 1, -1)
    corpus = _dask(X, 60, True)
    pipeline = make_pipeline(LeverageSelector(n_features=10, k=4, random_state=0), RLSC(lam=1.0))
    pipeline.fit(corpus, labels)
    reference = make_pipeline(LeverageSelector(n_features=10, k=4, random_state=0), RLSC(lam=1.0))
    reference.fit(X, labels)
    np.testing.assert_allclose(pipeline[-1].coef_, reference[-1].coef_, rtol=1e-8, atol=1e-10)
    assert pipeline[-1].certificate_.holds
    predicted = pipeline.predict(corpus)
    assert isinstance(predicted, da.Array)
    np.testing.assert_array_equal(predicted.compute(), reference.predict(X))


def test_ridge_on_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    X, y = _data(6)
    reference = RidgeRegression(lam=1.0).fit(X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:  # fmt: skip
        with distributed.Client(cluster):
            fit = RidgeRegression(lam=1.0).fit(_dask(X, 50, True), y)
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    assert fit.certificate_.holds
