"""The theorem-driven selectors at a small epsilon: every feature kept, at once.

With ``epsilon`` the selectors take r from the theorems (001 Theorem 1, ``36 ell /
eps^2``; 001 Lemma 2 for leverage sampling). At epsilon = 1e-4 on 20 features that
is r = 7.2e10 BSS iterations or 1.7e12 i.i.d. trials: the selectors once allocated
arrays of r entries (a MemoryError naming no argument; at epsilon = 0.03, 35 s of
BSS iterations on a 30 x 20 matrix). Beyond d they keep every feature unscaled
(R = I), which the reference below checks against the theorems' inequalities,
computed with numpy from the data alone.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import BSSSelector, LeverageSelector, SketchedBSSSelector, bss_bounds
from sparsify.theory import bss_features


def _lemma_1_eigenvalues(X, selection, k=None):
    """Eigenvalues of V'RR'V for the top right singular vectors V of X (numpy SVD)."""
    _, s, Vt = np.linalg.svd(np.asarray(X), full_matrices=False)
    rank = int(np.sum(s > s[0] * max(X.shape) * np.finfo(float).eps)) if k is None else k
    V = Vt[:rank].T
    R = np.zeros((X.shape[1], selection.n_selected))
    R[selection.indices, np.arange(selection.n_selected)] = selection.scales
    return np.linalg.eigvalsh(V.T @ R @ R.T @ V), rank


@pytest.mark.parametrize("fmt", [np.asarray, sp.csr_matrix])
@pytest.mark.parametrize(
    "make",
    [
        lambda: BSSSelector(epsilon=1e-4),
        lambda: BSSSelector(epsilon=1e-4, k=3),
        lambda: LeverageSelector(epsilon=1e-4, random_state=0),
        lambda: LeverageSelector(epsilon=1e-4, method="bernoulli", random_state=0),
        lambda: SketchedBSSSelector(epsilon=1e-4, t=5, random_state=0),
    ],
)
def test_a_tiny_epsilon_keeps_every_feature_and_meets_lemma_1(make, fmt):
    X = np.random.default_rng(0).standard_normal((30, 20))
    X[:, 3] = 0.0  # a zero column (leverage 0) is kept too: R = I
    selector = make()
    with pytest.warns(UserWarning, match="exceeds the number of features d=20"):
        selector.fit(fmt(X))
    assert sorted(selector.indices_) == list(range(20))
    np.testing.assert_array_equal(selector.scales_, 1.0)
    k = getattr(selector, "k", None)
    eig, ell = _lemma_1_eigenvalues(X, selector.selection_, k if isinstance(k, int) else None)
    lower, upper = bss_bounds(ell, bss_features(1e-4, ell))  # 000 Lemma 1 at the theorem's r
    assert lower <= eig.min() and eig.max() <= upper
    np.testing.assert_allclose(selector.transform(fmt(X)).toarray() if fmt is sp.csr_matrix
                               else selector.transform(X), X[:, selector.indices_])


def test_epsilon_within_d_still_runs_bss():
    """Where the theorem's r fits in d, BSS runs as before: Lemma 1 at that r."""
    X = np.random.default_rng(1).standard_normal((40, 300))
    selector = BSSSelector(epsilon=0.9, k=2).fit(X)  # r = ceil(36 * 2 / 0.81) = 89 < 300
    assert selector.selection_.n_selected <= 89 < 300
    eig, ell = _lemma_1_eigenvalues(X, selector.selection_, 2)
    lower, upper = bss_bounds(ell, 89)
    assert lower <= eig.min() and eig.max() <= upper


@pytest.mark.parametrize("epsilon", [1e-160, 1e-300, 5e-324])
def test_theorem_r_at_an_epsilon_whose_square_underflows(epsilon):
    """``epsilon**2`` is 0 in float64 below 1.5e-154: r was a ZeroDivisionError. The
    reference is the formula in exact rational arithmetic."""
    from fractions import Fraction

    from sparsify.theory import leverage_features

    exact = Fraction(36 * 3) / Fraction(epsilon) ** 2
    assert bss_features(epsilon, 3) == -(-exact.numerator // exact.denominator)
    r = leverage_features(epsilon, 3)
    assert r >= 36 * 3 * Fraction(1) / Fraction(epsilon) ** 2  # the log factor is >= 1
    X = np.random.default_rng(0).standard_normal((10, 6))
    for selector in (BSSSelector(epsilon=epsilon), LeverageSelector(epsilon=epsilon)):
        with pytest.warns(UserWarning, match=r"asks for r=\d\.\d\de\+\d+ "):
            assert selector.fit(X).selection_.n_selected == 6

