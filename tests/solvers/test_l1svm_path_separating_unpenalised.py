"""l1_svm_path when the unpenalised features separate the classes: the start (min hinge
loss over the intercept and those features) has loss 0, and nothing penalised ever
enters (lam_max = 0). The start's margins on the elbow were solved as a system of fewer
equations than unknowns, whose minimum-norm solution broke the other margins: a hinge
loss of 39.7 and a PathWarning, and L1SVM.lam_max warned on its (right) value 0."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from solvers import L1SVM
from solvers.path import l1_svm_path


def _separated_by_the_unpenalised_column(seed):
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(40)
    y = np.where(u > 0, 1, -1)
    X = np.column_stack((u + 0.5 * y, rng.standard_normal((40, 4))))
    return X, y, np.array([0.0, 1.0, 1.0, 1.0, 1.0])


def _min_hinge_over_unpenalised(X, y, free):
    """min sum_i max(0, 1 - y_i (b + x_i,U'w_U)) by linprog on the primal LP."""
    n, k = X.shape[0], 1 + free.size
    rows = y[:, None] * np.column_stack((np.ones(n), X[:, free]))
    result = linprog(np.r_[np.zeros(k), np.ones(n)], A_ub=-np.hstack((rows, np.eye(n))),
                     b_ub=-np.ones(n), bounds=[(None, None)] * k + [(0, None)] * n,
                     method="highs")  # fmt: skip
    assert result.status == 0
    return result.fun


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("sparse", [False, True])
def test_the_start_reaches_the_least_hinge_loss_and_the_path_is_quiet(seed, sparse):
    X, y, weights = _separated_by_the_unpenalised_column(seed)
    assert _min_hinge_over_unpenalised(X, y, np.flatnonzero(weights == 0)) == pytest.approx(
        0.0, abs=1e-9
    )
    data = sp.csr_matrix(X) if sparse else X
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        path = l1_svm_path(data, y, weights)
        lam_max = L1SVM.lam_max(data, y, weights)
    w, b = path.at(path.lams[0])
    hinge = np.maximum(0.0, 1.0 - y * (X @ w + b)).sum()
    assert hinge == pytest.approx(0.0, abs=1e-9)
    assert np.all(w[weights > 0] == 0.0)
    assert lam_max == 0.0
