"""rlsc_bound on a selection that loses a direction of the row space of X fails.

000 Theorem 1's proof needs ``V'RR'V`` invertible (eps < 1). A selection of two
features of rank-3 data, or of three features two of which are the same column,
makes it singular: the distortion is exactly 1. Its smallest eigenvalue computes as
a rounding error (1e-18), and the check once took ``eps = 1 - 1e-16`` as measured,
kept the bound finite and certified 15 of 40 such selections. The reference is
numpy's rank of the selected data ``X R`` against that of X.
"""

import numpy as np
import pytest

from solvers.guarantees import rlsc_bound
from sparsify import Selection


def _rank3(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3)) @ rng.standard_normal((3, d))
    return X, np.where(X[:, 0] > 0, 1, -1)


@pytest.mark.parametrize("lam", [1.0, 0.0])
@pytest.mark.parametrize("seed", [23, 24, 25, 36])
def test_two_features_of_rank_3_data_are_not_certified(seed, lam):
    n, d = (12, 40) if seed % 2 else (30, 8)
    X, y = _rank3(seed, n, d)
    selection = Selection([0, 1], np.ones(2), d)
    assert np.linalg.matrix_rank(selection.apply(X)) < np.linalg.matrix_rank(X)
    report = rlsc_bound(X, y, X[:3], lam, selection)  # test points in the row space
    assert not report.holds and "vacuous" in report.failures
    assert report.eps >= 1


def test_a_duplicated_column_is_not_certified():
    X, y = _rank3(24, 12, 40)
    X[:, 1] = X[:, 0]
    selection = Selection([0, 1, 2], np.ones(3), 40)
    assert np.linalg.matrix_rank(selection.apply(X)) == 2 < np.linalg.matrix_rank(X) == 3
    assert not rlsc_bound(X, y, X[:3], 1.0, selection).holds


def test_every_feature_is_still_certified():
    X, y = _rank3(24, 12, 40)
    report = rlsc_bound(X, y, X[:3], 1.0, Selection(np.arange(40), np.ones(40), 40))
    assert report.holds and report.eps < 1e-12
