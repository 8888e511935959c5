"""The scikit-learn transformers: estimator checks, dense = CSR, theorems' r, errors."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from sparsify import (
    BSSSelector,
    DocFreqSelector,
    InfoGainSelector,
    LeverageSelector,
    RRQRSelector,
    SketchedBSSSelector,
    UniformSelector,
    WeightSelector,
    bss_bounds,
    document_frequency,
    information_gain,
    spectral_distortion,
)
from sparsify.datasets import load_ionosphere

ALL = [
    BSSSelector(n_features=50),
    BSSSelector(n_features=6, k=3),
    LeverageSelector(n_features=6, random_state=0),
    LeverageSelector(n_features=6, method="bernoulli", random_state=0),
    SketchedBSSSelector(n_features=8, t=5, random_state=0),
    RRQRSelector(n_features=3),
    UniformSelector(n_features=4, random_state=0),
    WeightSelector(n_features=4, method="bernoulli", random_state=0),
    DocFreqSelector(n_features=3),
    InfoGainSelector(n_features=3),
]


@parametrize_with_checks(
    [
        BSSSelector(),
        LeverageSelector(),
        SketchedBSSSelector(),
        RRQRSelector(),
        UniformSelector(),
        WeightSelector(),
        DocFreqSelector(),
        InfoGainSelector(),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def text_like():
    """A small nonnegative sparse matrix with labels, like a term-document matrix."""
    rng = np.random.default_rng(0)
    X = sp.random(40, 60, density=0.15, random_state=1, format="csr")
    X.data = np.round(X.data * 5) + 1
    y = rng.choice([0, 1], 40)
    return X.toarray(), y


@pytest.mark.parametrize("est", ALL, ids=lambda e: repr(e))
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_dense_and_sparse_give_the_same_selection(est, fmt, text_like):
    X, y = text_like
    dense = est.__class__(**est.get_params()).fit(X, y)
    sparse = est.__class__(**est.get_params()).fit(sp.csr_matrix(X).asformat(fmt), y)
    np.testing.assert_array_equal(dense.indices_, sparse.indices_)
    np.testing.assert_allclose(dense.scales_, sparse.scales_, rtol=1e-8)
    out = sparse.transform(sp.csr_matrix(X).asformat(fmt))
    assert sp.issparse(out)
    np.testing.assert_allclose(out.toarray(), dense.transform(X), rtol=1e-8)


@pytest.mark.parametrize("est", ALL, ids=lambda e: repr(e))
def test_transform_is_rescaled_columns_in_pick_order(est, text_like):
    X, y = text_like
    X0 = X.copy()
    fitted = est.fit(X, y)
    np.testing.assert_array_equal(X, X0)  # input untouched
    Xt = fitted.transform(X)
    np.testing.assert_allclose(Xt, X[:, fitted.indices_] * fitted.scales_)
    np.testing.assert_allclose(Xt, X @ fitted.selection_.matrix().toarray())
    assert fitted.get_support().sum() == len(fitted.indices_)
    names = fitted.get_feature_names_out()
    np.testing.assert_array_equal(names, [f"x{i}" for i in fitted.indices_])
    back = fitted.inverse_transform(Xt)
    np.testing.assert_allclose(back[:, fitted.indices_], X[:, fitted.indices_])
    assert not back[:, ~fitted.get_support()].any()


def test_bss_selector_epsilon_gives_theorem_r_and_bound():
    X, _ = load_ionosphere()
    ell = np.linalg.matrix_rank(X)
    eps = 0.9
    r = int(np.ceil(36 * ell / eps**2))  # 001 Theorem 1
    assert r > X.shape[1]
    with pytest.warns(UserWarning, match=f"asks for r={r} .*exceeds the number of features"):
        est = BSSSelector(epsilon=eps).fit(X)
    V = np.linalg.svd(X, full_matrices=False)[2][:ell].T
    # Lemma 2 of 000 at r: distortion <= 3 sqrt(ell / r) <= eps / 2
    assert spectral_distortion(V, est.selection_) <= 3 * np.sqrt(ell / r) + 1e-12
    assert 3 * np.sqrt(ell / r) <= eps / 2 + 1e-12


def test_bss_selector_top_k_vectors():
    X, _ = load_ionosphere()
    est = BSSSelector(n_features=12, k=5).fit(X)
    V = np.linalg.svd(X, full_matrices=False)[2][:5].T
    assert spectral_distortion(V, est.selection_) <= 3 * np.sqrt(5 / 12)


def test_sketched_bss_with_full_sketch_equals_bss():
    # With t >= n the sketch G X spans the row space of X, and BSS depends on V
    # only through V V' (it is rotation invariant): the same features come out.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((12, 80))
    exact = BSSSelector(n_features=30).fit(X)
    sketched = SketchedBSSSelector(n_features=30, t=20, random_state=0).fit(X)
    np.testing.assert_array_equal(exact.indices_, sketched.indices_)
    np.testing.assert_allclose(exact.scales_, sketched.scales_, rtol=1e-6)


def test_randomised_selectors_reproducible():
    X = np.random.default_rng(0).standard_normal((10, 40))
    for cls in (LeverageSelector, UniformSelector, WeightSelector):
        a = cls(n_features=15, random_state=4).fit(X)
        b = cls(n_features=15, random_state=4).fit(X)
        np.testing.assert_array_equal(a.indices_, b.indices_)


def test_rankers_pick_top_scores():
    X = np.array([[1.0, 0, 2, 0], [1, 1, 0, 0], [1, 0, 3, 0]])
    np.testing.assert_array_equal(DocFreqSelector(n_features=2).fit(X).indices_, [0, 2])
    y = np.array([1, 0, 1])
    ig = InfoGainSelector(n_features=2).fit(X, y)
    # features 1 and 2 split the classes perfectly; 0 and 3 carry nothing
    assert set(ig.indices_) == {1, 2}


def test_in_a_pipeline():
    X, y = load_ionosphere()
    pipe = make_pipeline(BSSSelector(n_features=40), LinearSVC())
    assert pipe.fit(X, y).score(X, y) > 0.85


@pytest.mark.parametrize(
    "est,X,exc,match",
    [
        (BSSSelector(n_features=3, epsilon=0.5), np.eye(5), ValueError, "either n_features or"),
        (
            BSSSelector(n_features=4),
            np.eye(5),
            ValueError,
            "n_features=4 must exceed ell=5 \\(the rank of X",
        ),
        (BSSSelector(epsilon=1.5), np.eye(5), ValueError, "epsilon"),
        (LeverageSelector(n_features=0), np.eye(5), ValueError, "n_features"),
        (RRQRSelector(n_features=9), np.eye(5), ValueError, "n_features must be"),
        (DocFreqSelector(n_features=6), np.eye(5), ValueError, "n_features must be"),
        (UniformSelector(method="x"), np.eye(5), ValueError, "method"),
        (BSSSelector(), np.array([[np.nan, 1.0]]), ValueError, "X"),
        (BSSSelector(), np.array([[np.inf, 1.0]]), ValueError, "X"),
        (BSSSelector(), np.ones(4), ValueError, "X"),
        (BSSSelector(), np.ones((2, 2, 2)), ValueError, "X"),
        (BSSSelector(), np.ones((0, 3)), ValueError, "X"),
        (BSSSelector(), np.zeros((4, 3)), ValueError, "X is all zeros"),
        (RRQRSelector(), np.array([["a", "b"]], dtype=object), ValueError, "X"),
    ],
)
def test_bad_input(est, X, exc, match):
    with pytest.raises(exc, match=match):
        est.fit(X, np.arange(len(X)) % 2 if X.ndim == 2 else None)


def test_info_gain_needs_two_classes():
    X = np.eye(4)
    with pytest.raises(ValueError, match="y"):
        InfoGainSelector(n_features=2).fit(X, np.ones(4))
    with pytest.raises(ValueError, match="requires y"):
        InfoGainSelector(n_features=2).fit(X)


def test_rankers_expose_their_scores(text_like):
    X, y = text_like
    df = DocFreqSelector(n_features=5).fit(X)
    np.testing.assert_array_equal(df.scores_, document_frequency(X))
    ig = InfoGainSelector(n_features=5).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(ig.scores_, information_gain(X, y), rtol=1e-12)
    # the kept features are those of the 5 highest scores (a brute-force ranking)
    brute = sorted(range(X.shape[1]), key=lambda j: (-ig.scores_[j], j))[:5]
    np.testing.assert_array_equal(ig.indices_, brute)


def test_transform_warns_when_nothing_is_selected():
    X = np.random.default_rng(0).standard_normal((5, 40))
    # Bernoulli with r = 1 keeps each feature with probability 1/40: often none at all
    seed = next(
        s
        for s in range(100)
        if not np.any(np.random.default_rng(s).random(40) < 1 / 40)  # the sampler's draws
    )
    est = UniformSelector(n_features=1, method="bernoulli", random_state=seed).fit(X)
    assert est.indices_.size == 0
    with pytest.warns(UserWarning, match="No features were selected"):
        Xt = est.transform(X)
    assert Xt.shape == (5, 0)


@pytest.mark.parametrize("cls", [BSSSelector, LeverageSelector])
def test_default_r_is_four_times_the_rank(cls):
    # 40 x 2000: the theorems' r (144 ell for epsilon = 0.5) would exceed d = 2000.
    X = np.random.default_rng(0).standard_normal((40, 2000))
    # BSS on all rank(X) vectors is k=None (its default k="auto" takes the top 10)
    est = cls(random_state=0) if cls is LeverageSelector else cls(k=None)
    est.fit(X)
    ell = np.linalg.matrix_rank(X)
    assert 0 < est.indices_.size <= 4 * ell < X.shape[1]
    if cls is BSSSelector:  # r = 4 ell iterations of BSS pick 4 ell distinct features here
        assert est.indices_.size == 4 * ell
        V = np.linalg.svd(X, full_matrices=False)[2].T
        lo, hi = bss_bounds(ell, 4 * ell)  # 000 Lemma 1: [0.25, 2.25]
        R = est.selection_.matrix().toarray()
        eig = np.linalg.eigvalsh(V.T @ R @ R.T @ V)
        assert lo - 1e-9 <= eig.min() and eig.max() <= hi + 1e-9


def test_leverage_epsilon_beyond_d_warns():
    X = np.random.default_rng(0).standard_normal((10, 50))
    with pytest.warns(UserWarning, match="exceeds the number of features d=50"):
        LeverageSelector(epsilon=0.5, random_state=0).fit(X)


# ---------------------------------------------------------------------------
# BSSSelector's defaults on text, and the messages that point to k
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def text_task():
    from sparsify.datasets import make_text_tasks

    # 200 descriptions x about 2500 words: rank 200, BSS on all of it needs r > 200
    return make_text_tasks(pairs=[("admin", "utils")], n_per_class=100)[0]


def test_bss_default_on_text_keeps_a_small_share(text_task):
    X = text_task.X
    est = BSSSelector().fit(X)
    d = X.shape[1]
    assert est.indices_.size == 40 < d / 20  # r = 4 ell on the top-10 subspace
    # 000 Lemma 1 on the top-10 right singular vectors (LAPACK's SVD of the dense X)
    V = np.linalg.svd(X.toarray(), full_matrices=False)[2][:10].T
    lo, hi = bss_bounds(10, 40)
    R = est.selection_.matrix().toarray()
    eig = np.linalg.eigvalsh(V.T @ R @ R.T @ V)
    assert lo - 1e-9 <= eig.min() and eig.max() <= hi + 1e-9
    # the same selection as an explicit k=10, n_features=40
    explicit = BSSSelector(n_features=40, k=10).fit(X)
    np.testing.assert_array_equal(est.indices_, explicit.indices_)
    np.testing.assert_allclose(est.scales_, explicit.scales_)


def test_bss_auto_k_with_n_features_is_all_of_the_rank():
    X = np.random.default_rng(1).standard_normal((12, 60))
    auto = BSSSelector(n_features=20).fit(X)
    full = BSSSelector(n_features=20, k=None).fit(X)
    np.testing.assert_array_equal(auto.indices_, full.indices_)
    np.testing.assert_array_equal(auto.scales_, full.scales_)
    # below rank 10, k="auto" without n_features takes the whole rank
    small = BSSSelector().fit(X[:4])
    assert small.indices_.size == 16  # r = 4 * rank 4, distinct features on Gaussian data


def test_bss_n_features_at_or_below_the_rank_points_to_k(text_task):
    X = text_task.X
    rank = np.linalg.matrix_rank(X.toarray())
    for r in (100, rank):
        with pytest.raises(ValueError, match=rf"n_features={r} must exceed ell={rank}") as info:
            BSSSelector(n_features=r).fit(X)
        assert f"k < {r}" in str(info.value) and "k=10" in str(info.value)
        # the fix the message gives runs, and keeps r features
        assert BSSSelector(n_features=r, k=10).fit(X).indices_.size == r
    with pytest.raises(ValueError, match=r"t < 30"):
        SketchedBSSSelector(n_features=30, t=64, random_state=0).fit(X)


def test_bss_epsilon_beyond_d_warning_points_to_k():
    X = np.random.default_rng(0).standard_normal((10, 50))
    with pytest.warns(UserWarning, match="smaller k"):
        BSSSelector(epsilon=0.5).fit(X)
