"""Issue 30, item 5: the 1-norm SVM path ending within 1e-9 of a breakpoint.

``l1_svm_path(X, y, lam_min=lam).at(lam)`` raised "below the end of this path" whenever
lam was within the path's event tolerance (1e-9, relative) below lam_max, and
``L1SVM(solver="HOMOTOPY")`` failed there. The reference is the linear program of
004 eq. 6 written out for scipy's linprog (HiGHS), independent of the path.
"""

import numpy as np
import pytest
from scipy.optimize import linprog

from solvers import L1SVM
from solvers.path import l1_svm_path


def _l1_svm_lp(X, y, lam):
    """``min sum_i xi_i + lam ||w||_1`` s.t. ``xi_i >= 1 - y_i (x_i'w + b)``, ``xi >= 0``.

    Variables ``(w+, w-, b, xi)``; returns the optimal value.
    """
    n, d = X.shape
    cost = np.concatenate((np.full(2 * d, lam), [0.0], np.ones(n)))
    YX = y[:, None] * X
    # -y_i x_i'(w+ - w-) - y_i b - xi_i <= -1
    A = np.hstack((-YX, YX, -y[:, None], -np.eye(n)))
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert result.status == 0
    return result.fun


def _objective(X, y, coef, intercept, lam):
    hinge = np.maximum(0.0, 1.0 - y * (X @ coef + intercept))
    return hinge.sum() + lam * np.abs(coef).sum()


def _problem(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 6))
    y = np.where(X[:, 0] + rng.standard_normal(30) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("below", [0.0, 1e-12, 1e-10, 1e-9, 3e-9, 1e-6])
def test_path_ends_just_below_lam_max(seed, below):
    X, y = _problem(seed)
    lam_max = l1_svm_path(X, y).lams[0]
    lam = lam_max * (1.0 - below)
    path = l1_svm_path(X, y, lam_min=lam)
    assert path.lams[-1] <= lam
    coef, intercept = path.at(lam)
    reference = _l1_svm_lp(X, y, lam)
    assert _objective(X, y, coef, intercept, lam) == pytest.approx(reference, rel=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_path_ends_just_below_an_inner_breakpoint(seed):
    X, y = _problem(seed)
    breakpoints = l1_svm_path(X, y).lams
    lam = breakpoints[2] * (1.0 - 1e-10)
    coef, intercept = l1_svm_path(X, y, lam_min=lam).at(lam)
    reference = _l1_svm_lp(X, y, lam)
    assert _objective(X, y, coef, intercept, lam) == pytest.approx(reference, rel=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_homotopy_backend_just_below_lam_max(seed):
    X, y = _problem(seed)
    lam = l1_svm_path(X, y).lams[0] * (1.0 - 1e-10)
    fit = L1SVM(lam=lam, solver="HOMOTOPY").fit(X, y)
    assert fit.certificate_.holds
    reference = _l1_svm_lp(X, y, lam)
    assert fit.objective_ == pytest.approx(reference, rel=1e-9)
