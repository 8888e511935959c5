"""Every selector on the data users bring: the same features for dense and sparse X.

Columns at 1e-12 and 1e12 beside unit columns, a Unix timestamp, duplicate and
all-zero columns, columns spread over twelve decades, low-rank and nonnegative
sparse data; n > d and n < d. The sparse selectors once took their singular
vectors from a Gram matrix whose rounding counted as rank or hid the small
singular values, and chose other features than the dense ones (37 of 720 fits).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import (
    BSSSelector,
    DocFreqSelector,
    InfoGainSelector,
    LeverageSelector,
    RRQRSelector,
    UniformSelector,
    WeightSelector,
    bss_bounds,
)

KINDS = ["plain", "tiny", "huge", "timestamp", "duplicate", "zero", "decades", "rank 3", "nonneg"]


def awkward(kind, n, d, seed=0):
    """X (n x d, d >= 7) of one awkward kind, and labels from column 6 plus noise.

    "duplicate and zero" makes column 3 a copy of column 4 and column 5 zero.
    """
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if "duplicate" in kind:
        X[:, 3] = X[:, 4]
    if "zero" in kind:
        X[:, 5] = 0.0
    if kind == "tiny":
        X[:, 0] *= 1e-12
    elif kind == "huge":
        X[:, 1] *= 1e12
    elif kind == "timestamp":
        X[:, 2] = 1.7e9 + 1e5 * rng.standard_normal(n)
    elif kind == "decades":
        X *= 10.0 ** rng.uniform(-6, 6, d)
    elif kind == "rank 3":
        X = rng.standard_normal((n, 3)) @ rng.standard_normal((3, d))
    elif kind == "nonneg":
        X = np.abs(X) * (rng.random((n, d)) < 0.3)
    y = np.where(X[:, 6] + 0.3 * rng.standard_normal(n) > 0, 1, -1)
    y[:2] = [1, -1]
    return X, y


SELECTORS = {
    "bss": lambda: BSSSelector(n_features=12),
    "bss k=3": lambda: BSSSelector(n_features=12, k=3),
    "leverage": lambda: LeverageSelector(n_features=8, random_state=0),
    "leverage k=3": lambda: LeverageSelector(n_features=8, k=3, random_state=0),
    "leverage srls": lambda: LeverageSelector(n_features=8, method="bernoulli", random_state=0),
    "rrqr": lambda: RRQRSelector(n_features=5),
    "uniform": lambda: UniformSelector(n_features=8, random_state=0),
    "weights": lambda: WeightSelector(n_features=8, random_state=0),
    "document frequency": lambda: DocFreqSelector(n_features=5),
    "information gain": lambda: InfoGainSelector(n_features=5),
}


def numpy_right_singular_vectors(X, k=None):
    """The top right singular vectors of numpy's SVD, up to matrix_rank (or k)."""
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt[: k or np.linalg.matrix_rank(X)].T


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("shape", [(40, 12), (10, 30)], ids=["n>d", "n<d"])
@pytest.mark.parametrize("kind", KINDS)
def test_dense_and_sparse_select_the_same_features(kind, shape, seed):
    X, y = awkward(kind, *shape, seed)
    rank = np.linalg.matrix_rank(X)
    for name, make in SELECTORS.items():
        ell = 3 if "k=3" in name else rank
        if "bss" in name and 12 <= ell:
            continue  # BSS needs r > ell
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. leverage sampling keeping few distinct features
            dense = make().fit(X, y)
            sparse = make().fit(sp.csr_matrix(X), y)
        if name == "rrqr":  # pivots beyond the rank are rounding (see sparsify.rrqr)
            keep = min(5, rank)
            np.testing.assert_array_equal(sparse.indices_[:keep], dense.indices_[:keep])
        else:
            np.testing.assert_array_equal(sparse.get_support(), dense.get_support(), err_msg=name)
        if "bss" in name:
            # 000 Lemma 1 for numpy's singular vectors of X, whatever the input format.
            V = numpy_right_singular_vectors(X, 3 if "k=3" in name else None)
            for fitted in (dense, sparse):
                B = V[fitted.indices_].T * fitted.scales_
                eig = np.linalg.eigvalsh(B @ B.T)
                lower, upper = bss_bounds(ell, 12)
                assert lower * (1 - 1e-6) <= eig.min() and eig.max() <= upper * (1 + 1e-6), name
