"""sparsify.utils: the public names of the input checks and the SVD helper."""

import numpy as np
import pytest
import scipy.sparse as sp

import sparsify
from sparsify import utils
from tests.sparsify.test_awkward_data import awkward


def test_public_names_are_the_functions_the_selectors_use():
    from sparsify import _svd, _validation

    for name in ("check_X", "check_orthonormal", "check_n_select", "check_random_state"):
        assert getattr(utils, name) is getattr(_validation, name)
    for name in ("right_singular_vectors", "rank_tolerance"):
        assert getattr(utils, name) is getattr(_svd, name)
    assert "utils" in sparsify.__all__


def test_right_singular_vectors_match_numpy_svd_dense_and_sparse():
    X = sp.random(30, 50, density=0.2, random_state=0, format="csr")
    ref = np.linalg.svd(X.toarray(), full_matrices=False)
    for data in (X, X.toarray()):
        V, s = utils.right_singular_vectors(data, 4)
        np.testing.assert_allclose(s, ref[1][:4], rtol=1e-10)
        # the same subspace: the projectors agree
        W = ref[2][:4].T
        np.testing.assert_allclose(V @ V.T, W @ W.T, atol=1e-9)


def test_checks_accept_good_input_and_name_the_argument_on_bad():
    np.testing.assert_array_equal(utils.check_X([[1, 2]]), np.array([[1.0, 2.0]]))
    with pytest.raises(ValueError, match="W must be 2-D"):
        utils.check_X(np.ones(3), name="W")
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((6, 2)))[0]
    np.testing.assert_array_equal(utils.check_orthonormal(Q), Q)
    with pytest.raises(ValueError, match="orthonormal"):
        utils.check_orthonormal(2 * Q)
    assert utils.check_n_select(3, name="k", low=0) == 3
    with pytest.raises(ValueError, match="k must be an integer > 3"):
        utils.check_n_select(3, name="k", low=3)
    a, b = utils.check_random_state(7), np.random.default_rng(7)
    assert a.random() == b.random()
    with pytest.raises(TypeError, match="random_state"):
        utils.check_random_state("seed")


def test_rank_tolerance_is_numpy_matrix_rank_default():
    # numpy.linalg.matrix_rank: S.max() * max(M, N) * eps
    rng = np.random.default_rng(1)
    X = rng.standard_normal((9, 3)) @ rng.standard_normal((3, 14))  # rank 3
    s = np.linalg.svd(X, compute_uv=False)
    assert utils.rank_tolerance(X.shape) == max(X.shape) * np.finfo(np.float64).eps
    rank = int(np.sum(s > s[0] * utils.rank_tolerance(X.shape)))
    assert rank == np.linalg.matrix_rank(X) == 3
    V, _ = utils.right_singular_vectors(X)
    assert V.shape == (14, 3)


def test_column_norms_dense_and_sparse():
    X = sp.random(20, 30, density=0.3, random_state=2, format="csc")
    ref = np.linalg.norm(X.toarray(), axis=0)
    for data in (X, X.tocsr(), X.toarray()):
        np.testing.assert_allclose(utils.column_norms(data), ref, rtol=1e-14)
        np.testing.assert_allclose(utils.column_norms(data, squared=True), ref**2, rtol=1e-14)


def test_signed_labels_follow_scikit_learn_positive_class():
    from sklearn.preprocessing import LabelBinarizer

    y = np.array(["b", "a", "b", "a", "a"])
    classes = np.unique(y)
    expected = LabelBinarizer(neg_label=-1).fit(y).transform(y).ravel()  # classes_[1] -> +1
    np.testing.assert_array_equal(utils.signed_labels(y, classes), expected)


def test_one_blas_thread_limits_and_restores_the_thread_counts():
    from threadpoolctl import threadpool_info, threadpool_limits

    from sparsify.utils import one_blas_thread

    def blas_threads():
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    with threadpool_limits(2, user_api="blas"):
        before = blas_threads()
        with one_blas_thread():
            assert blas_threads() == [1] * len(before)
        assert blas_threads() == before
        with pytest.raises(RuntimeError), one_blas_thread():  # restored on an exception too
            raise RuntimeError
        assert blas_threads() == before


KINDS = ["duplicate and zero", "rank 3", "huge", "timestamp"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", [(60, 12), (10, 30)], ids=["n>d", "n<d"])
def test_sparse_singular_vectors_have_the_rank_and_span_of_the_dense_svd(kind, shape):
    # A Gram matrix squares the condition number: its rounding noise (about
    # eps * s_max^2) once counted as rank (rank 3 data came out rank 8), and a
    # column at 1e12 hid the unit columns (rank 1 instead of 10). The rank must be
    # numpy's matrix_rank, and V must span every column of X to rounding.
    X, _ = awkward(kind, *shape)
    rank = np.linalg.matrix_rank(X)
    norms = np.linalg.norm(X, axis=0)
    for data in (sp.csr_matrix(X), sp.csc_matrix(X), X):
        V, s = utils.right_singular_vectors(data)
        assert V.shape == (shape[1], rank)
        np.testing.assert_allclose(V.T @ V, np.eye(rank), atol=1e-12)
        # Weyl: backward-stable SVDs agree to a multiple of eps * s_max.
        reference = np.linalg.svd(X, compute_uv=False)[:rank]
        np.testing.assert_allclose(s, reference, rtol=1e-12, atol=1e-12 * reference[0])
        residual = np.linalg.norm(X - (X @ V) @ V.T, axis=0)
        assert np.all(residual <= 1e-3 * norms + 1e-300), (kind, residual / norms)


def test_all_zero_columns_get_exact_zero_rows_and_are_never_selected():
    # X e_j = 0 puts e_j in the null space: row j of V is 0, not the 1e-16 an
    # SVD leaves there, which BSS scored as a row and picked with scale 2.5e15.
    X, _ = awkward("duplicate and zero", 400, 12)
    for data in (X, sp.csr_matrix(X)):
        V, _ = utils.right_singular_vectors(data)
        assert not np.any(V[5])
        selector = sparsify.BSSSelector(n_features=20).fit(data)  # r > d: all others picked
        assert 5 not in selector.indices_
        assert np.all(selector.scales_ < 10)
        scores = sparsify.leverage_scores(data)
        assert scores[5] == 0.0
        np.testing.assert_allclose(scores.sum(), np.linalg.matrix_rank(X), rtol=1e-12)


def test_tall_sparse_duplicate_columns_merge_exactly():
    # Copies of a column (two and three of them) and zero columns: X = Y N with
    # N's rows orthonormal, so the copies share their row of V, divided by
    # sqrt(copies), and the leverage scores are those of numpy's SVD.
    rng = np.random.default_rng(4)
    base = sp.random(300, 20, density=0.2, random_state=4, format="csc")
    X = sp.hstack([base, base[:, [2, 7, 7]], sp.csc_matrix((300, 2)), base[:, [2]]]).tocsr()
    X.data[:5] = rng.random(5)  # copies stay copies only where the stored values agree
    dense = X.toarray()
    rank = np.linalg.matrix_rank(dense)
    V, s = utils.right_singular_vectors(X)
    assert V.shape == (X.shape[1], rank)
    _, reference_s, Vt = np.linalg.svd(dense, full_matrices=False)
    np.testing.assert_allclose(s, reference_s[:rank], rtol=1e-10)
    np.testing.assert_allclose(V @ V.T, Vt[:rank].T @ Vt[:rank], atol=1e-10)
    duplicates = [
        (j, k)
        for j in range(X.shape[1])
        for k in range(j)
        if np.array_equal(dense[:, j], dense[:, k]) and dense[:, j].any()
    ]
    assert len(duplicates) >= 4
    for j, k in duplicates:
        np.testing.assert_array_equal(V[j], V[k])
    np.testing.assert_allclose(
        sparsify.leverage_scores(X), np.sum(Vt[:rank] ** 2, axis=0), atol=1e-10
    )


@pytest.mark.parametrize("block_rows", [7, 12, 1000])
def test_blocked_qr_over_row_blocks_gives_the_singular_values_of_x(monkeypatch, block_rows):
    # R of X = QR, block after block (each stacked under the R so far): R'R = X'X,
    # so the SVD of R has X's singular values and right singular vectors.
    from sparsify import _svd

    d = 12
    monkeypatch.setattr(_svd, "_QR_BLOCK_BYTES", 8 * d * block_rows)  # block_rows rows a block
    X = sp.csr_matrix(awkward("huge", 100, d)[0])
    R = _svd.blocked_r_factor(X)
    assert R.shape == (d, d)
    np.testing.assert_allclose(np.triu(R), R, atol=0)
    reference = np.linalg.svd(X.toarray(), compute_uv=False)
    V, s = _svd.r_singular_pairs(R)
    np.testing.assert_allclose(s, reference, rtol=1e-12, atol=1e-12 * reference[0])
    residual = np.linalg.norm(X.toarray() - (X @ V) @ V.T, axis=0)
    assert np.all(residual <= 1e-3 * np.linalg.norm(X.toarray(), axis=0))
