"""sparsify.utils: the public names of the input checks and the SVD helper."""

import numpy as np
import pytest
import scipy.sparse as sp

import sparsify
from sparsify import utils


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
