"""Leverage scores against numpy's SVD; i.i.d. and Bernoulli sampling in distribution."""

import sys

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence

from sparsify import BSSSelector, LeverageSelector, leverage_sample, leverage_scores
from sparsify.sampling import sample_features


def svd_leverage(X, k):
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    return np.sum(Vt[:k] ** 2, axis=0)


@pytest.mark.parametrize("shape", [(20, 300), (300, 20), (40, 40)])
@pytest.mark.parametrize("fmt", ["dense", "csr", "csc"])
@pytest.mark.parametrize("k", [None, 3])
def test_scores_equal_svd_row_norms(shape, fmt, k):
    rng = np.random.default_rng(0)
    X = sp.random(*shape, density=0.2, random_state=1, format="csr").toarray()
    X[:, 0] = rng.standard_normal(shape[0])  # a dense column too
    rank = np.linalg.matrix_rank(X)
    kk = rank if k is None else k
    data = X if fmt == "dense" else sp.csr_matrix(X).asformat(fmt)
    scores = leverage_scores(data, k)
    np.testing.assert_allclose(scores, svd_leverage(X, kk), atol=1e-10)
    assert scores.sum() == pytest.approx(kk, rel=1e-10)
    assert np.all(scores >= -1e-12) and np.all(scores <= 1 + 1e-12)


def test_rank_deficient_scores_sum_to_rank():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 4)) @ rng.standard_normal((4, 100))  # rank 4
    for data in (X, sp.csr_matrix(X)):
        s = leverage_scores(data)
        assert s.sum() == pytest.approx(4, rel=1e-8)
        np.testing.assert_allclose(s, svd_leverage(X, 4), atol=1e-8)


def test_sparse_input_is_never_densified(monkeypatch):
    X = sp.random(50, 2000, density=0.01, random_state=3, format="csr")
    expected = svd_leverage(X.toarray(), np.linalg.matrix_rank(X.toarray()))

    original = sp.csr_matrix.toarray

    def toarray_small_only(self, *args, **kwargs):
        # the n x n Gram matrix may be densified, the n x d data never
        assert max(self.shape) < 2000, f"densified a {self.shape} matrix"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sp.csr_matrix, "toarray", toarray_small_only)
    monkeypatch.setattr(sp.csc_matrix, "toarray", toarray_small_only)
    np.testing.assert_allclose(leverage_scores(X), expected, atol=1e-10)


def test_k_above_rank_raises():
    X = np.outer(np.arange(1.0, 6), np.arange(1.0, 9))  # rank 1
    with pytest.raises(ValueError, match="k=2 exceeds the numerical rank"):
        leverage_scores(X, k=2)
    with pytest.raises(ValueError, match="'k' parameter of leverage_scores"):
        leverage_scores(X, k=0)
    with pytest.raises(ValueError, match="X"):
        leverage_scores(np.zeros((3, 4)))


def test_iid_is_unbiased_monte_carlo():
    # E[V' R R' V] = I for i.i.d. sampling with scales 1/sqrt(r p_i) (001 eq. 4).
    rng = np.random.default_rng(0)
    V = np.linalg.qr(rng.standard_normal((60, 3)))[0]
    p = np.sum(V**2, axis=1) / 3
    gen = np.random.default_rng(123)
    reps, acc = 4000, np.zeros((3, 3))
    for _ in range(reps):
        s = sample_features(p, 10, method="iid", random_state=gen)
        B = V[s.indices].T * s.scales
        acc += B @ B.T
    np.testing.assert_allclose(acc / reps, np.eye(3), atol=0.06)


def test_iid_scales_merge_counts():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((10, 30))
    r = 50
    sel = leverage_sample(X, r, random_state=0)
    p = svd_leverage(X, 10) / 10
    counts = sel.scales**2 * r * p[sel.indices]  # must be the draw counts c_i
    np.testing.assert_allclose(counts, np.round(counts), atol=1e-9)
    assert np.all(np.round(counts) >= 1)
    assert np.round(counts).sum() == r


def test_bernoulli_expected_size_and_scales():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((15, 200))
    p = svd_leverage(X, 15) / 15
    r = 40
    keep = np.minimum(1.0, r * p)
    sizes = []
    gen = np.random.default_rng(9)
    for _ in range(400):
        sel = leverage_sample(X, r, method="bernoulli", random_state=gen)
        np.testing.assert_allclose(sel.scales, 1 / np.sqrt(keep[sel.indices]), rtol=1e-10)
        assert np.all(np.diff(sel.indices) > 0)
        sizes.append(sel.n_selected)
    # E[size] = sum_i min(1, r p_i) <= r (003 Figure 1)
    assert keep.sum() <= r
    assert np.mean(sizes) == pytest.approx(keep.sum(), abs=4 * np.sqrt(keep.sum() / 400) + 0.5)


def test_reproducible_for_fixed_seed_and_generator():
    X = np.random.default_rng(2).standard_normal((8, 50))
    a = leverage_sample(X, 20, random_state=11)
    b = leverage_sample(X, 20, random_state=11)
    np.testing.assert_array_equal(a.indices, b.indices)
    c = leverage_sample(X, 20, random_state=np.random.default_rng(11))
    np.testing.assert_array_equal(a.indices, c.indices)


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"r": 0}, ValueError, "'r' parameter of leverage_sample must be an int"),
        ({"r": 2.0}, TypeError, "'r' parameter of leverage_sample must be an int"),
        ({"r": 5, "method": "poisson"}, ValueError, "method"),
        ({"r": 5, "random_state": "seed"}, TypeError, "random_state"),
    ],
)
def test_bad_sampling_arguments(kwargs, exc, match):
    X = np.random.default_rng(0).standard_normal((5, 10))
    with pytest.raises(exc, match=match):
        leverage_sample(X, **kwargs)


# ---------------------------------------------------------------------------
# Issue 12: a truncated SVD for small k on sparse X, certified or replaced.
# ---------------------------------------------------------------------------


@pytest.fixture
def truncated_calls(monkeypatch):
    """Record what the truncated SVD returned: a triple when certified, None when not."""
    svd_module = sys.modules["sparsify._svd"]
    original = svd_module._truncated_svd
    calls = []

    def spy(X, k):
        out = original(X, k)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(svd_module, "_truncated_svd", spy)
    return calls


@pytest.mark.parametrize("route", ["lapack", "arpack"])
@pytest.mark.parametrize("shape", [(60, 400), (400, 60), (80, 80)])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("k", [1, 3, 10])
def test_truncated_scores_equal_numpy_svd(shape, fmt, k, route, truncated_calls, monkeypatch):
    # The triplets from LAPACK on the small Gram matrix (min(n, d) <= 500) or from ARPACK.
    if route == "arpack":
        monkeypatch.setattr(sys.modules["sparsify._svd"], "_DENSE_GRAM_MAX", 0)
    X = sp.random(*shape, density=0.1, random_state=k, format=fmt)
    scores = leverage_scores(X, k)
    assert truncated_calls == [True]
    np.testing.assert_allclose(scores, svd_leverage(X.toarray(), k), rtol=1e-8, atol=1e-14)


def test_truncated_path_feeds_sampling_and_selectors(truncated_calls):
    X = sp.random(60, 500, density=0.1, random_state=4, format="csr")
    p = svd_leverage(X.toarray(), 3) / 3
    sel = leverage_sample(X, 40, k=3, method="bernoulli", random_state=0)
    np.testing.assert_allclose(sel.scales, 1 / np.sqrt(np.minimum(1, 40 * p[sel.indices])))
    LeverageSelector(k=3, n_features=40, random_state=0).fit(X)
    BSSSelector(k=3, n_features=10).fit(X)
    assert truncated_calls == [True, True, True]


def test_equal_singular_values_at_k_fall_back_to_the_full_svd(truncated_calls):
    # s = (3, 2, 2, 1, ...): with k = 2, s_k = s_{k+1}, so the top-2 subspace is
    # e_1 plus any unit vector of span(e_2, e_3): not unique, not certified.
    X = sp.lil_matrix((40, 300))
    for i, value in enumerate([3.0, 2.0, 2.0] + [1.0] * 20):
        X[i, i] = value
    scores = leverage_scores(X.tocsr(), 2)
    assert truncated_calls == [False]
    assert scores[0] == pytest.approx(1.0)
    assert scores[1] + scores[2] == pytest.approx(1.0)
    np.testing.assert_allclose(scores[3:], 0.0, atol=1e-12)


def test_uncertified_truncated_svd_falls_back(monkeypatch, truncated_calls):
    # An inaccurate "truncated SVD" (vectors off by 1e-6) has residuals far above
    # the gap times the tolerance; the exact decomposition replaces it. Both
    # sources of the triplets: ARPACK (forced by a zero _DENSE_GRAM_MAX) and LAPACK.
    svd_module = sys.modules["sparsify._svd"]
    exact_svds, exact_gram_triplets = svd_module.svds, svd_module._gram_triplets
    noise = np.random.default_rng(0).standard_normal

    def sloppy_svds(X, k, v0):
        U, s, Vt = exact_svds(X, k=k, v0=v0)
        return U, s, Vt + 1e-6 * noise(Vt.shape)

    def sloppy_gram_triplets(X, m):
        U, s, V = exact_gram_triplets(X, m)
        return U, s, V + 1e-6 * noise(V.shape)

    X = sp.random(60, 400, density=0.1, random_state=5, format="csr")
    monkeypatch.setattr(svd_module, "_gram_triplets", sloppy_gram_triplets)
    np.testing.assert_allclose(leverage_scores(X, 3), svd_leverage(X.toarray(), 3), atol=1e-12)
    monkeypatch.setattr(svd_module, "svds", sloppy_svds)
    monkeypatch.setattr(svd_module, "_DENSE_GRAM_MAX", 0)
    np.testing.assert_allclose(leverage_scores(X, 3), svd_leverage(X.toarray(), 3), atol=1e-12)
    assert truncated_calls == [False, False]


def test_arpack_failure_falls_back(monkeypatch, truncated_calls):
    svd_module = sys.modules["sparsify._svd"]

    def failing_svds(X, k, v0):
        raise ArpackNoConvergence("no convergence", np.empty(0), np.empty((0, 0)))

    monkeypatch.setattr(svd_module, "svds", failing_svds)
    monkeypatch.setattr(svd_module, "_DENSE_GRAM_MAX", 0)
    X = sp.random(60, 400, density=0.1, random_state=8, format="csr")
    np.testing.assert_allclose(leverage_scores(X, 3), svd_leverage(X.toarray(), 3), atol=1e-12)
    assert truncated_calls == [False]


def test_truncated_k_above_rank_raises(truncated_calls):
    rng = np.random.default_rng(6)
    X = sp.csr_matrix(rng.standard_normal((40, 2)) @ rng.standard_normal((2, 400)))  # rank 2
    with pytest.raises(ValueError, match="k=3 exceeds the numerical rank"):
        leverage_scores(X, 3)
    assert truncated_calls == [False]


def test_truncated_is_reproducible():
    X = sp.random(80, 600, density=0.05, random_state=7, format="csr")
    assert leverage_scores(X, 5).tobytes() == leverage_scores(X.copy(), 5).tobytes()
