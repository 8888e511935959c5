"""The lasso (through its centred Gram matrix) and the SVMs (through a working set of
samples) fit a Dask X, certified over its chunks.

References: the in-memory fit on the same data (itself certified), the in-memory
certificate functions of :mod:`solvers.certificates` on the whole X, and brute-force
margins computed here.
"""

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

da = pytest.importorskip("dask.array")

from sklearn.base import is_classifier  # noqa: E402

import solvers._dask_models as dask_models  # noqa: E402
from solvers import (  # noqa: E402
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    AdaptiveLasso,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
)
from solvers.certificates import (  # noqa: E402
    _lasso_certificate_of_sums,
    lasso_certificate,
    svm_certificate,
)
from solvers.exceptions import SolverError  # noqa: E402

# The small noisy problems here keep most samples in the working set: its warning is
# tested once, below.
pytestmark = pytest.mark.filterwarnings("ignore:.* samples in memory:UserWarning")

SVMS = [(SVMDual, {"C": 0.5}), (L2SVM, {"C": 2.0, "loss": "squared_hinge"}),
        (L1SVM, {"lam": 4.0}), (SVM2, {"lam": 4.0})]  # fmt: skip
LASSOS = [
    (WeightedLasso, {"lam": 20.0}),
    (WeightedLasso, {"lam": 20.0, "weights": [1, 0, 1, np.inf, 1, 1e-13, 1, 2, 1]}),
    (AdaptiveLasso, {"lam": 5.0}),
    (AdaptiveLasso, {"lam": 5.0, "init": "ridge", "init_lam": 3.0}),
]


def _data(seed=0, n=600, d=9):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    return X, X @ rng.standard_normal(d) + 0.7 * rng.standard_normal(n)


def _dask(X, chunk, sparse):
    array = da.from_array(X, chunks=(chunk, X.shape[1]))
    return array.map_blocks(sp.csr_matrix) if sparse else array


def _weights(n, seed=1):
    s = np.random.default_rng(seed).uniform(0.0, 3.0, n)
    s[:9] = 0.0
    return s


def _id(case):
    cls, params = case
    return cls.__name__ + ("-weights" if "weights" in params else "") + (
        "-ridge" if "init" in params else ""
    )


@pytest.fixture
def small_first_set(monkeypatch):
    """A first working set of 60 samples, so that the set grows over several rounds;
    counts the passes over the data (every reduction over the chunks)."""
    monkeypatch.setattr(dask_models, "FIRST_SAMPLES", 60)
    passes = []
    reduce = dask_models.reduce_row_blocks

    def counted(*args, **kwargs):
        passes.append(1)
        return reduce(*args, **kwargs)

    monkeypatch.setattr(dask_models, "reduce_row_blocks", counted)
    return passes


# The lasso --------------------------------------------------------------------------


@pytest.mark.parametrize("case", LASSOS, ids=_id)
@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
@pytest.mark.parametrize("chunk,weighted", [(77, False), (250, True)])
def test_lasso_on_dask_is_the_in_memory_fit(case, sparse, chunk, weighted):
    cls, params = case
    X, y = _data()
    y = y + 3.0  # an intercept to find
    s = _weights(y.size) if weighted else None
    fit = cls(**params).fit(_dask(X, chunk, sparse), y, sample_weight=s)
    reference = cls(**params).fit(X, y, sample_weight=s)
    assert fit.certificate_.holds and fit.n_features_in_ == 9
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-9)
    scale = np.abs(reference.coef_).max()
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=0, atol=1e-7 * scale)
    np.testing.assert_allclose(fit.intercept_, reference.intercept_, rtol=1e-8)
    in_memory = lasso_certificate(X, y, fit.coef_, fit.intercept_, params["lam"],
                                  getattr(fit, "weights_", params.get("weights")),
                                  sample_weight=s)  # fmt: skip
    assert in_memory.holds
    np.testing.assert_allclose(fit.certificate_.primal, in_memory.primal, rtol=1e-12)
    if "weights" in params:  # the +inf weight's feature is left out
        assert fit.coef_[3] == 0.0
    predicted = fit.predict(_dask(X, chunk, sparse))
    np.testing.assert_allclose(predicted.compute(), reference.predict(X), atol=1e-6 * scale)


@pytest.mark.parametrize("perturb", [0.0, 1e-3])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_certificate_of_sums_is_the_in_memory_certificate(perturb, weighted):
    """The sums a Dask fit collects give lasso_certificate's values, nearly free columns
    (weights 0 and 1e-13) included; a candidate 0.1% off the optimum fails both."""
    X, y = _data(2)
    X[:, 4] += 5.0  # a column with a large mean
    weights = np.array([1, 0, 1, 2, 1, 1e-13, 1, 2, 1.0])
    s = _weights(y.size, 3) if weighted else np.ones(y.size)
    fit = WeightedLasso(lam=30.0, weights=weights).fit(X, y, sample_weight=s)
    coef = fit.coef_ * (1 + perturb)
    intercept = fit.intercept_
    r = y - X @ coef - intercept
    total = s.sum()
    x_mean = s @ X / total
    centred = X - x_mean
    sums = {"xsr": X.T @ (s * r), "xs": s @ X, "sr": s @ r, "srr": s @ r**2,
            "ssr": s**2 @ r, "ssrr": s**2 @ r**2, "ss": s @ s, "s": total}  # fmt: skip
    gram = centred.T @ (s[:, None] * centred)
    null = s @ (y - s @ y / total) ** 2
    norms = np.linalg.norm(X, axis=0)
    of_sums = _lasso_certificate_of_sums(
        coef, 30.0, weights, sums, gram, norms, null, tolerance=1e-6
    )
    in_memory = lasso_certificate(X, y, coef, intercept, 30.0, weights, sample_weight=s)
    assert of_sums.holds == in_memory.holds == (perturb == 0.0)
    np.testing.assert_allclose(of_sums.primal, in_memory.primal, rtol=1e-12)
    np.testing.assert_allclose(of_sums.dual, in_memory.dual, rtol=1e-9)
    # The KKT violation (a report; holds reads the gap) is measured at the dual point
    # before the nearly free columns are projected out from the sums, after in memory.
    np.testing.assert_allclose(of_sums.kkt, in_memory.kkt, rtol=1e-2, atol=1e-12)


def test_a_timestamp_column_is_centred_in_the_chunks():
    """Dense chunks whose column mean dwarfs its spread (a Unix timestamp) take a second
    pass, centred in each chunk: the answer is the in-memory one."""
    X, y = _data(4)
    X[:, 0] = 1.7e9 + 1e3 * np.random.default_rng(4).standard_normal(X.shape[0])
    y = y + 1e-6 * (X[:, 0] - 1.7e9)
    fit = WeightedLasso(lam=10.0).fit(_dask(X, 100, False), y)
    reference = WeightedLasso(lam=10.0).fit(X, y)
    assert fit.certificate_.holds
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-8)
    np.testing.assert_allclose(fit.coef_[0], reference.coef_[0], rtol=1e-6)


@pytest.mark.parametrize(
    "cls,lam",
    [(WeightedLasso, 0.1), (AdaptiveLasso, 0.1), (RidgeRegression, 1.0), (RidgeRegression, 1e-8)],
)
def test_the_numerics_sweeps_inputs_on_dask_are_right_or_a_clear_error(cls, lam):
    """The awkward columns of the numerics sweep (duplicates, zeros, 1e-12, a timestamp,
    twelve decades, an offset target), n > d and d > n, with and without sample weights,
    lam at 0.1 lam_max (the lasso) or 1 and 1e-8 (ridge): certified and equal to the
    in-memory optimum, or a SolverError saying to fit in memory, never a certified wrong
    answer."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_numerics_sweep import KINDS, SHAPES
    from test_numerics_sweep import _data as sweep_data

    certified = 0
    for kind, shape, weighted in itertools.product(KINDS, SHAPES, (False, True)):
        X, _, y, _, s = sweep_data(kind, shape, 0)
        s = s if weighted else None
        scale = 1.0 if cls is RidgeRegression else WeightedLasso.lam_max(X, y, sample_weight=s)
        try:
            reference = cls(lam=lam * scale).fit(X, y, sample_weight=s)
        except SolverError:
            continue
        try:
            fit = cls(lam=lam * scale).fit(_dask(X, 7, True), y, sample_weight=s)
        except SolverError as error:
            assert "in memory" in str(error)
            continue
        assert fit.certificate_.holds, (kind, shape)
        np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-6)
        certified += 1
    assert certified >= 14


# The SVMs ---------------------------------------------------------------------------


def _labels(seed=0, n=600, d=9):
    X, y = _data(seed, n, d)
    return X, np.where(y > 0.3, "spam", "ham")


@pytest.mark.parametrize("case", SVMS, ids=_id)
@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
@pytest.mark.parametrize("chunk,weighted", [(70, False), (200, True)])
def test_svm_on_dask_is_the_in_memory_fit(case, sparse, chunk, weighted, small_first_set):
    cls, params = case
    X, labels = _labels()
    s = _weights(labels.size) if weighted else None
    # Both past the 1e-8 the objectives are compared at (the certificate's default is 1e-6).
    fit = cls(**params, tol=1e-10).fit(_dask(X, chunk, sparse), labels, sample_weight=s)
    reference = cls(**params, tol=1e-10).fit(X, labels, sample_weight=s)
    assert len(small_first_set) >= 3  # the rows of the first set, then two rounds or more
    assert list(fit.classes_) == ["ham", "spam"] and fit.coef_.shape == (1, 9)
    assert fit.certificate_.holds
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-8)
    np.testing.assert_allclose(fit.certificate_.primal, reference.certificate_.primal, rtol=1e-8)
    scale = np.abs(reference.coef_).max()
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=0, atol=1e-6 * scale)
    np.testing.assert_allclose(fit.intercept_, reference.intercept_, rtol=0, atol=1e-6)
    # Every sample of positive weight outside the support has a margin of at least 1
    # (brute force here), and the multipliers are 0 there.
    y_pm = np.where(labels == "spam", 1.0, -1.0)
    margins = y_pm * (X @ fit.coef_[0] + fit.intercept_[0])
    counted = np.arange(y_pm.size) if s is None else np.flatnonzero(s > 0)
    others = np.setdiff1d(counted, fit.support_)
    assert margins[others].min() >= 1.0 - 1e-6
    assert fit.alpha_.shape == (600,) and np.all(fit.alpha_[others] <= 1e-6 * fit.alpha_.max())
    if cls is SVMDual:  # the multipliers certify the whole X, as in memory
        whole = svm_certificate(X, y_pm, fit.coef_[0], fit.intercept_[0], params["C"],
                                alpha=fit.alpha_, sample_weight=s)  # fmt: skip
        assert whole.holds
        np.testing.assert_allclose(whole.relative_gap, fit.certificate_.relative_gap, atol=1e-9)
    predicted = fit.predict(_dask(X, chunk, sparse))
    agree = np.mean(predicted.compute() == reference.predict(X))
    assert agree >= 1 - 1 / 600  # a sample on the boundary may fall either way


def test_a_separable_corpus_keeps_only_its_margin_rows(small_first_set):
    """Few support vectors: the working set stays a small part of the data."""
    rng = np.random.default_rng(5)
    X = rng.standard_normal((3000, 6))
    labels = np.where(X @ np.arange(1.0, 7.0) > 0, 1, -1)
    X += 0.3 * labels[:, None] * np.arange(1.0, 7.0) / 9.1  # a gap around the boundary
    fit = SVMDual(C=10.0).fit(_dask(X, 500, False), labels)
    reference = SVMDual(C=10.0).fit(X, labels)
    assert fit.certificate_.holds
    np.testing.assert_allclose(fit.coef_, reference.coef_, rtol=1e-6, atol=1e-8)
    held = int(fit.solve_attempts_[-1]["message"].split("a working set of ")[1].split()[0])
    assert held < 600, fit.solve_attempts_[-1]["message"]


def test_a_working_set_of_most_samples_is_reported(small_first_set):
    """A penalty so strong that most samples are inside the margin: the answer is still
    the in-memory one, and a UserWarning says the working set held most of X."""
    X, labels = _labels(9)
    with pytest.warns(UserWarning, match="held .* of its 600 samples in memory"):
        fit = SVM2(lam=200.0).fit(_dask(X, 100, True), labels)
    reference = SVM2(lam=200.0).fit(X, labels)
    assert fit.certificate_.holds and len(reference.support_) > 300
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-8)


def test_multiclass_svm_on_dask_is_the_in_memory_one_vs_rest(small_first_set):
    X, y = _data(6)
    labels = np.digitize(y, np.quantile(y, [0.3, 0.7]))
    s = np.random.default_rng(6).uniform(0.5, 2.0, y.size)
    fit = SVM2(lam=3.0, class_weight="balanced").fit(_dask(X, 150, True), labels, sample_weight=s)
    reference = SVM2(lam=3.0, class_weight="balanced").fit(X, labels, sample_weight=s)
    assert fit.coef_.shape == (3, 9) and all(c.holds for c in fit.certificate_)
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-8)
    np.testing.assert_allclose(fit.coef_, reference.coef_, atol=1e-6)
    assert fit.alpha_.shape == (3, 600)


def test_bad_svm_input_is_named():
    X, labels = _labels(7)
    corpus = _dask(X, 100, False)
    with pytest.raises(ValueError, match="two classes"):
        L1SVM().fit(corpus, np.ones(labels.size))
    s = np.where(labels == "spam", 0.0, 1.0)
    with pytest.raises(ValueError, match="every class needs a positive weight"):
        L2SVM().fit(corpus, labels, sample_weight=s)
    with pytest.raises(ValueError, match="sample_weight"):
        SVMDual().fit(corpus, labels, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="Unknown label type"):  # as in memory
        SVM2().fit(corpus, np.linspace(0.0, 1.0, labels.size))


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:  # fmt: skip
        with distributed.Client(cluster) as client:
            yield client


@pytest.mark.parametrize("case", [*LASSOS[::2], *SVMS, (RidgeRegression, {"lam": 2.0}),
                                  (RLSC, {"lam": 2.0})], ids=_id)  # fmt: skip
@pytest.mark.parametrize("sparse", [False, True], ids=["numpy-chunks", "csr-chunks"])
def test_every_estimator_on_a_local_cluster(client, case, sparse, small_first_set):
    """Each estimator with a Dask fit, its tasks run on the workers of a LocalCluster:
    the in-memory fit, certified."""
    import distributed

    cls, params = case
    X, y = _data(8)
    if is_classifier(cls()):
        y = np.where(y > 0, 1, -1)
    with distributed.get_task_stream(client) as stream:
        fit = cls(**params).fit(_dask(X, 50, sparse), y)
    assert len(stream.data) >= 12  # at least a pass over the 12 chunks ran on the workers
    reference = cls(**params).fit(X, y)
    assert fit.certificate_.holds
    np.testing.assert_allclose(fit.objective_, reference.objective_, rtol=1e-8)
    scale = np.abs(reference.coef_).max()
    np.testing.assert_allclose(fit.coef_, reference.coef_, atol=1e-6 * scale)
