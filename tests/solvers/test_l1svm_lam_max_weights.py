"""L1SVM.lam_max checks sample_weight as fit does: a negative, all-zero or short
sample_weight is a ValueError naming it (it returned 5.59, 0.0 and an IndexError), and
valid weights give the lam_max of the weighted problem (checked by the zero solution's
optimality written out with scipy's linprog)."""

import numpy as np
import pytest
from scipy.optimize import linprog

from solvers import L1SVM


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 5))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(30) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize(
    "sample_weight",
    [-np.ones(30), np.zeros(30), np.ones(29)],
    ids=["negative", "all zero", "short"],
)
def test_bad_sample_weight_is_refused_naming_it(sample_weight):
    X, y = _data()
    with pytest.raises(ValueError, match="sample_weight"):
        L1SVM.lam_max(X, y, sample_weight=sample_weight)


def test_weighted_lam_max_is_the_smallest_lam_with_a_zero_solution():
    """lam_max = min over the dual optima a of the zero solution (0 <= a_i <= s_i, y'a = 0,
    a_i = s_i where the best intercept leaves y_i b < 1) of max_j |X_j'Y a|: the LP
    written out, against L1SVM.lam_max."""
    X, y = _data()
    s = np.random.default_rng(1).uniform(0.1, 10.0, 30)
    found = L1SVM.lam_max(X, y, sample_weight=s)
    # The best intercept of the zero model: the weighted hinge's minimiser over b.
    grid = np.linspace(-3, 3, 60001)
    losses = [(s * np.maximum(0.0, 1.0 - y * b)).sum() for b in grid]
    b = grid[int(np.argmin(losses))]
    # Variables (a, t): min t s.t. |X'Ya| <= t, y'a = 0, bounds by the margins at b.
    n, d = X.shape
    M = (X * y[:, None]).T
    inside = y * b < 1.0 - 1e-6
    bounds = [(s[i], s[i]) if inside[i] else (0.0, s[i]) for i in range(n)] + [(0, None)]
    A = np.block([[M, -np.ones((d, 1))], [-M, -np.ones((d, 1))]])
    result = linprog(np.r_[np.zeros(n), 1.0], A_ub=A, b_ub=np.zeros(2 * d),
                     A_eq=np.r_[y.astype(float), 0.0][None, :], b_eq=[0.0], bounds=bounds,
                     method="highs")  # fmt: skip
    assert result.status == 0
    assert np.isclose(found, result.fun, rtol=1e-4)
