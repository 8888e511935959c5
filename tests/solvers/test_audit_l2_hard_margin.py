"""The 2-norm SVMs at C = 1e8 on separable data with a column of spread 300.

At such a C the solution is the hard margin, whose multipliers (about 1e2) are far
below the box C. The polish of a backend's answer (:func:`solvers._polish.refit_svm_dual`)
once counted a multiplier as nonzero only above 1e-6 C = 1e2, found no free support
vector, and every backend's answer failed its certificate (SolverError). The
reference is the hard-margin QP ``min 1/2 ||w||^2 s.t. y_i (x_i'w + b) >= 1`` solved
by CLARABEL, and the primal objective recomputed in NumPy at the returned (w, b).
"""

import cvxpy as cp
import numpy as np
import pytest

from solvers import L2SVM, SVMDual


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 6))
    y = np.where(X @ rng.standard_normal(6) + 0.5 * rng.standard_normal(40) > 0, 1, 0)
    spread = 1e3 * np.random.default_rng(5).uniform(0, 1, 40)
    X[:, 1] = spread - spread.mean()  # a column of spread 300 beside unit ones
    return X, y


def _hard_margin(X, signs):
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [cp.multiply(signs, X @ w + b) >= 1])
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    assert problem.status == "optimal"  # separable
    return problem.value


@pytest.mark.parametrize("make", [lambda C: SVMDual(C=C), lambda C: L2SVM(C=C)])
def test_hard_margin_at_a_huge_C_is_certified_and_matches_cvxpy(make):
    X, y = _data()
    signs = np.where(y == 1, 1.0, -1.0)
    C = 1e8
    reference = _hard_margin(X, signs)
    clf = make(C).fit(X, y)
    w, b = clf.coef_[0], clf.intercept_[0]
    primal = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - signs * (X @ w + b)).sum()
    assert clf.certificate_.holds
    np.testing.assert_allclose(primal, reference, rtol=1e-6)
    np.testing.assert_allclose(clf.objective_, reference, rtol=1e-6)


def _two_columns():
    """A unit column and one at 1e6: the median of two norms is no typical norm."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 8))
    y = np.where(X[:, 0] + 0.1 * rng.standard_normal(30) > 0, 1, -1)
    return np.column_stack([X[:, 0], 1e6 * X[:, 1]]), y


@pytest.mark.parametrize("make", [lambda C: SVMDual(C=C), lambda C: L2SVM(C=C)])
def test_a_column_at_1e6_beside_one_unit_column_is_certified(make):
    """The column at 1e6 dwarfs the other but is not 1e3 times the median of the two
    norms: it was not rescaled, and every backend's answer failed its certificate
    (relative gap 1.7e-2, SolverError)."""
    X, y = _two_columns()
    C = 638.0  # above every multiplier of the hard margin (what guarantees.margin picks)
    norms = np.linalg.norm(X, axis=0)
    v, b = cp.Variable(2), cp.Variable()
    reference = cp.Problem(
        cp.Minimize(0.5 * cp.sum_squares(cp.multiply(1 / norms, v))
                    + C * cp.sum(cp.pos(1 - cp.multiply(y, (X / norms) @ v + b))))
    )
    reference.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    clf = make(C).fit(X, y)
    w, b0 = clf.coef_[0], clf.intercept_[0]
    primal = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - y * (X @ w + b0)).sum()
    assert clf.certificate_.holds
    assert primal <= reference.value * (1 + 1e-6)
    np.testing.assert_allclose(clf.objective_, reference.value, rtol=1e-6)


@pytest.mark.parametrize("make", [lambda C: SVMDual(C=C), lambda C: L2SVM(C=C)])
@pytest.mark.parametrize(
    ("seed", "spread", "C", "zeros"),
    [(2, 300.0, 1e8, False), (3, 3000.0, 1e6, True), (3, 3000.0, 1e8, True)],
)
def test_weighted_hard_margin_with_a_dominant_column_matches_the_hard_margin_qp(
    make, seed, spread, C, zeros
):
    """Sample weights over six decades (three of them 0) and a column at 300-3000 on
    separable data: every backend's answer failed its certificate (SolverError). The
    polish read the support vectors off multipliers whose box is ``C s_i``, so the
    small multipliers of heavy samples counted as 0, and an interior-point backend's
    residue at 1e-4 of the largest as support vectors. At such C no sample has slack
    and the weights do not matter: the reference is the hard-margin QP on the samples
    of positive weight."""
    rng = np.random.default_rng(seed)
    n, d = (40, 6) if seed % 2 == 0 else (20, 30)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.3 * X[:, 2] > 0, 1, 0)
    X[:, 1] *= spread
    s = 10.0 ** rng.uniform(-3, 3, n)
    if zeros:
        s[:3] = 0.0
    signs = np.where(y == 1, 1.0, -1.0)
    kept = s > 0
    norms = np.linalg.norm(X[kept], axis=0)
    v, b = cp.Variable(d), cp.Variable()
    qp = cp.Problem(
        cp.Minimize(0.5 * cp.sum_squares(cp.multiply(1 / norms, v))),
        [cp.multiply(signs[kept], (X[kept] / norms) @ v + b) >= 1],
    )
    qp.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    clf = make(C).fit(X, y, sample_weight=s)
    w = clf.coef_[0]
    assert clf.certificate_.holds
    np.testing.assert_allclose(clf.objective_, qp.value, rtol=1e-6)
    np.testing.assert_allclose(0.5 * w @ w, qp.value, rtol=1e-6)
