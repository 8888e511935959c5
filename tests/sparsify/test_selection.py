"""Selection (the matrix R) and the spectral-distortion certificate."""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import Selection, spectral_distortion


def test_apply_equals_matrix_product_dense_and_sparse():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((7, 10))
    sel = Selection([4, 1, 8], [2.0, 0.5, 3.0], 10)
    R = sel.matrix()
    assert sp.issparse(R) and R.shape == (10, 3)
    np.testing.assert_allclose(sel.apply(X), X @ R.toarray())
    np.testing.assert_allclose(sel.apply(X), X[:, [4, 1, 8]] * [2.0, 0.5, 3.0])
    for fmt in ("csr", "csc"):
        out = sel.apply(sp.csr_matrix(X).asformat(fmt))
        assert sp.issparse(out) and out.format == fmt
        np.testing.assert_allclose(out.toarray(), X @ R.toarray())
    mask = sel.support()
    assert mask.dtype == bool and mask.sum() == 3 and mask[[1, 4, 8]].all()


def test_from_picks_merges_repeats_and_keeps_rr_t():
    picks = np.array([3, 1, 3, 3, 0])
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    sel = Selection.from_picks(picks, w, 5)
    np.testing.assert_array_equal(sel.indices, [3, 1, 0])
    np.testing.assert_allclose(sel.scales, np.sqrt([8.0, 2.0, 5.0]))
    # R R' with repeats (one column per pick) equals the merged one
    R_full = np.zeros((5, 5))
    R_full[picks, np.arange(5)] = np.sqrt(w)
    np.testing.assert_allclose(sel.matrix() @ sel.matrix().T.toarray(), R_full @ R_full.T)


@pytest.mark.parametrize(
    "picks,weights,match",
    [
        ([0, 5, 0], [1.0, 1.0, 1.0], "indices must lie"),
        ([-1, 2], [1.0, 1.0], "indices must lie"),
        ([1, 2, 1], [1.0, -3.0, 1.0], "non-negative"),
        ([1, 2], [1.0, np.inf], "finite"),
        ([1, 2], [1.0], "one weight per pick"),
    ],
)
def test_from_picks_validates_like_the_constructor(picks, weights, match):
    with pytest.raises(ValueError, match=match):
        Selection.from_picks(picks, weights, 5)


def test_from_picks_result_is_read_only():
    sel = Selection.from_picks([2, 0, 2], [1.0, 4.0, 3.0], 3)
    # 2 merges weights 1 + 3, its scale sqrt(4); 0 has sqrt(4) too.
    assert sel.indices.tolist() == [2, 0] and sel.scales.tolist() == [2.0, 2.0]
    for array in (sel.indices, sel.scales):
        with pytest.raises(ValueError):
            array[0] = 1


def test_selection_is_immutable_and_validated():
    sel = Selection([0, 2], [1.0, 1.0], 3)
    with pytest.raises(ValueError):
        sel.indices[0] = 1
    with pytest.raises(ValueError, match="indices must lie"):
        Selection([0, 3], [1.0, 1.0], 3)
    with pytest.raises(ValueError, match="distinct"):
        Selection([1, 1], [1.0, 1.0], 3)
    with pytest.raises(ValueError, match="scales has shape"):
        Selection([1], [1.0, 1.0], 3)
    with pytest.raises(ValueError, match="non-negative"):
        Selection([1], [-1.0], 3)
    with pytest.raises(ValueError, match="X has 4 features"):
        sel.apply(np.ones((2, 4)))


def test_spectral_distortion_equals_brute_force_norm():
    rng = np.random.default_rng(1)
    V = np.linalg.qr(rng.standard_normal((30, 4)))[0]
    sel = Selection([3, 7, 11, 20, 25, 2], rng.uniform(0.5, 3, 6), 30)
    R = sel.matrix().toarray()
    brute = np.linalg.norm(np.eye(4) - V.T @ R @ R.T @ V, 2)
    assert spectral_distortion(V, sel) == pytest.approx(brute, rel=1e-12)
    # the identity selection of all rows has no distortion
    full = Selection(np.arange(30), np.ones(30), 30)
    assert spectral_distortion(V, full) == pytest.approx(0, abs=1e-12)


def test_spectral_distortion_rejects_mismatch():
    V = np.eye(5)[:, :2]
    with pytest.raises(ValueError, match="selection is over 4 features"):
        spectral_distortion(V, Selection([0], [1.0], 4))
    with pytest.raises(ValueError, match="orthonormal"):
        spectral_distortion(2 * V, Selection([0], [1.0], 5))
