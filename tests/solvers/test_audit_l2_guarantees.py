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


# -- the margin with a Unix timestamp column ----------------------------------------


def _with_timestamp(seed):
    rng = np.random.default_rng(seed)
    x0 = rng.standard_normal(30)
    y = np.where(x0 + 0.1 * rng.standard_normal(30) > 0, 1, -1)
    return np.column_stack([x0, 1.7e9 + rng.uniform(0, 1e3, 30)]), y


def _margin_objective(X, y, C=None):
    """By CLARABEL on the centred data (the free b absorbs the means): the hard margin's
    min 1/2 ||w||^2 s.t. y_i (x_i'w + b) >= 1 (inf when infeasible), or with C the
    soft margin's min 1/2 ||w||^2 + C sum_i [1 - y_i (x_i'w + b)]_+."""
    import cvxpy as cp

    Xc = X - X.mean(axis=0)
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    margins = cp.multiply(y, Xc @ w + b)
    if C is None:
        problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [margins >= 1])
    else:
        problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(cp.pos(1 - margins))))
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    return problem.value if problem.status == "optimal" else np.inf


@pytest.mark.parametrize("seed", [1, 7, 18, 20, 26])
def test_margin_with_a_timestamp_column_matches_cvxpy(seed):
    """The separability LP once stopped with a HiGHS solve error (SolverError) on these
    draws; the margin does not depend on a column's offset (the intercept is free)."""
    from solvers.guarantees import margin

    X, y = _with_timestamp(seed)
    hard = _margin_objective(X, y.astype(float))
    m = margin(X, y)
    assert m.form == ("hard" if np.isfinite(hard) else "soft")
    reference = hard if np.isfinite(hard) else _margin_objective(X, y.astype(float), C=1.0)
    np.testing.assert_allclose(m.objective, reference, rtol=1e-5)


# -- the theorems' r at an eps whose square underflows ------------------------------


def _close(r, exact):
    """r within one part in 1e15 of the exact value (floats round 36 ell / eps^2 where
    eps^2 does not underflow: 36 * 60 / 0.3**2 is 24000, not 24001)."""
    return abs(r / exact - 1) < 1e-15


@pytest.mark.parametrize("eps", [1e-17, 1e-200, 1e-300])
def test_required_features_at_a_tiny_eps(eps):
    """1e-300**2 is 0 and sqrt(1 + 1e-17) - 1 is 0 in float64: ZeroDivisionError. The
    reference is each formula of the table in exact rational arithmetic."""
    import math
    from fractions import Fraction

    from solvers.guarantees import required_features

    e, ell = Fraction(eps), 3
    assert _close(required_features(eps, "001 Theorem 2", ell=ell), 36 * ell / e**2)
    assert _close(required_features(eps, "000 Theorem 1", ell=ell), 9 * ell / e**2)
    # ell / (sqrt(1 + eps) - 1)^2 = ell (sqrt(1 + eps) + 1)^2 / eps^2, and sqrt(1 + eps)
    # is 1 to float64 at these eps: 4 ell / eps^2.
    assert _close(required_features(eps, "000 Lemma 1", ell=ell), 4 * ell / e**2)
    log_term = Fraction(math.log(ell) - 2 * math.log(eps) - 0.5 * math.log(0.01))
    assert _close(required_features(eps, "001 Lemma 2", ell=ell), 36 * ell * log_term / e**2)


@pytest.mark.parametrize("eps", [1e-200, 1e-300])
def test_checks_at_a_tiny_eps_fail_with_a_report(eps):
    """The failure messages computed 36 / eps**2 in floats: ZeroDivisionError."""
    from solvers.guarantees import check_margin, check_radius

    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 6))
    y = np.where(X[:, 0] > 0, 1, -1)
    two = Selection([0, 1], np.ones(2), 6)
    for report in (check_margin(X, y, two, eps=eps), check_radius(X, two, eps=eps)):
        assert not report.holds and "premise" in report.failures
        assert "e+" in report.explain()  # r written as 1.08e+401, not 400 digits
