"""solvers.guarantees: the theorems of 000 and 001 as checks, against independent references."""

import dataclasses
import math

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.svm import SVC

from solvers.guarantees import (
    THEOREMS,
    check_margin,
    check_radius,
    check_spectral,
    enclosing_ball,
    margin,
    required_features,
    rlsc_bound,
)
from sparsify import Selection, bss, bss_bounds
from sparsify.datasets import make_bhattacharyya


def _right_vectors(X):
    """All right singular vectors of X with nonzero singular values (NumPy's SVD)."""
    X = X.toarray() if sp.issparse(X) else X
    _, s, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt[s > s[0] * max(X.shape) * np.finfo(float).eps].T


def _separable_by_lp(X, y):
    """Feasibility of y_i (x_i'w + b) >= 1, written here with linprog."""
    n, d = X.shape
    A = -np.hstack([X * y[:, None], y[:, None]])
    res = linprog(np.zeros(d + 1), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * (d + 1))
    return res.status == 0


@pytest.fixture(scope="module")
def separable():
    """n = 12 points in d = 600 (001 sec. 5.2's generator, smaller): separable, rank 12."""
    X, y = make_bhattacharyya(n=12, d=600, k=6, random_state=0)
    assert _separable_by_lp(X, y)
    return X, y


def _bad_selection(X, r, scale=1.0):
    """The r largest-norm columns, unit scales times ``scale``: no spectral guarantee."""
    order = np.argsort(-np.linalg.norm(X, axis=0), kind="stable")
    return Selection(order[:r], np.full(r, scale), X.shape[1])


# -- the minimum enclosing ball -------------------------------------------------------


def _socp_ball(X):
    """The primal SOCP min B s.t. ||x_i - c|| <= B, written in the test."""
    c, B = cp.Variable(X.shape[1]), cp.Variable()
    cp.Problem(cp.Minimize(B), [cp.norm(x - c) <= B for x in X]).solve(solver="CLARABEL")
    return c.value, B.value


@pytest.mark.parametrize("shape", [(30, 5), (12, 40)], ids=["n>d", "d>n"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_enclosing_ball_matches_an_socp(shape, sparse):
    rng = np.random.default_rng(1)
    X = rng.standard_normal(shape) + 3.0
    center, radius = enclosing_ball(sp.csr_matrix(X) if sparse else X)
    ref_center, ref_radius = _socp_ball(X)
    assert radius == pytest.approx(ref_radius, rel=1e-6)
    np.testing.assert_allclose(center, ref_center, atol=1e-4 * ref_radius)
    # The ball encloses every point.
    assert np.max(np.linalg.norm(X - center, axis=1)) <= radius * (1 + 1e-12)


def test_enclosing_ball_known_answers():
    # Equilateral triangle of side 2: the circumcircle, center (1, 1/sqrt 3), radius 2/sqrt 3.
    tri = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, math.sqrt(3.0)]])
    center, radius = enclosing_ball(tri)
    np.testing.assert_allclose(center, [1.0, 1.0 / math.sqrt(3.0)], atol=1e-6)
    assert radius == pytest.approx(2.0 / math.sqrt(3.0), rel=1e-7)
    # An obtuse triangle: the ball on its longest side, the third point inside.
    center, radius = enclosing_ball(np.array([[0.0, 0.0], [4.0, 0.0], [2.0, 0.5]]))
    np.testing.assert_allclose(center, [2.0, 0.0], atol=1e-6)
    assert radius == pytest.approx(2.0, rel=1e-7)
    # One point: radius 0.
    center, radius = enclosing_ball(np.array([[1.0, 2.0, 3.0]]))
    np.testing.assert_allclose(center, [1.0, 2.0, 3.0])
    assert radius == 0.0


def _points_on_a_sphere():
    """31 points in R^5 inside the unit sphere about 0, two of them antipodal on it: the
    minimum enclosing ball is exactly that sphere (center 0, radius 1)."""
    rng = np.random.default_rng(0)
    U = rng.standard_normal((31, 5))
    U *= rng.uniform(0.3, 1.0, (31, 1)) / np.linalg.norm(U, axis=1)[:, None]
    U[0] /= np.linalg.norm(U[0])
    U[-1] = -U[0]
    return U


@pytest.mark.parametrize("shift", [0.0, 1e3, 1e5, 1e8])
def test_enclosing_ball_is_translation_invariant(shift):
    """Raw prices, timestamps: the ball of X + c is the ball of X moved by c."""
    offset = shift + np.arange(5.0)
    center, radius = enclosing_ball(_points_on_a_sphere() + offset)
    # The points themselves are known to |offset| * 1e-16 only.
    assert radius == pytest.approx(1.0, rel=1e-8 + 1e-15 * shift)
    np.testing.assert_allclose(center, offset, rtol=0, atol=1e-6 + 1e-15 * shift)


@pytest.mark.parametrize("scale", [1e-12, 1e-10, 1e10, 1e12])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_enclosing_ball_scales_with_the_points(scale, sparse):
    X = _points_on_a_sphere() * scale
    center, radius = enclosing_ball(sp.csr_matrix(X) if sparse else X)
    assert radius == pytest.approx(scale, rel=1e-8)
    np.testing.assert_allclose(center, 0.0, atol=1e-6 * scale)


def test_enclosing_ball_of_identical_points_has_radius_zero():
    center, radius = enclosing_ball(np.tile([[1e5, 3.0, -2.0]], (4, 1)))
    assert radius == 0.0
    np.testing.assert_array_equal(center, [1e5, 3.0, -2.0])


def test_check_radius_is_translation_invariant():
    X = _points_on_a_sphere()
    selection = Selection(np.arange(5), np.ones(5), 5)
    reports = [check_radius(X + shift, selection) for shift in (0.0, 1e5)]
    assert reports[1].full == pytest.approx(reports[0].full, rel=1e-8) == 1.0
    assert reports[0].holds and reports[1].holds


# -- the margin -------------------------------------------------------------------------


def test_hard_margin_matches_svc(separable):
    X, y = separable
    m = margin(X, y)
    assert m.form == "hard"
    svc = SVC(kernel="linear", C=1e8, tol=1e-8).fit(X, y)
    assert m.value == pytest.approx(1.0 / np.linalg.norm(svc.coef_), rel=1e-4)
    assert m.objective == pytest.approx(0.5 / m.value**2, rel=1e-6)
    assert set(m.support) == set(svc.support_)


def test_soft_margin_matches_svc_dual_objective(ionosphere):
    X, y = ionosphere
    assert not _separable_by_lp(X, np.where(y == np.unique(y)[1], 1.0, -1.0))
    m = margin(X, y)
    assert m.form == "soft" and m.C == 1.0
    svc = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    a = np.abs(svc.dual_coef_).ravel()
    z_svc = a.sum() - 0.5 * np.sum(svc.coef_**2)
    assert m.value == pytest.approx(z_svc, rel=1e-5)
    lower, upper = m.objective_bounds
    # Z is the dual at alpha_, the bracket the certificate's (its best dual point): equal
    # to rounding where the gap closes (2.7e-15 after DUAL_CD's direct face step).
    assert lower * (1 - 1e-12) <= m.value <= upper and upper - lower <= 1e-6 * upper


def test_hard_margin_on_data_that_are_not_separable_is_an_error(ionosphere):
    X, y = ionosphere
    with pytest.raises(ValueError, match="not linearly separable"):
        margin(X, y, C=np.inf)


def test_bss_with_the_theorems_r_keeps_margin_and_radius(separable):
    """001 Theorem 2: BSS with r = required_features(eps) meets both bounds at that eps."""
    X, y = separable
    eps = 0.9
    r = required_features(eps, "001 Theorem 2", X=X)
    assert r == math.ceil(36 * X.shape[0] / eps**2)  # rank n
    selection = bss(_right_vectors(X), r)
    report = check_margin(X, y, selection, eps=eps)
    assert report.holds and report.form == "hard margin" and report.theorem == "001 Theorem 2"
    assert report.distortion <= eps / 2  # the premise the proof uses (000 Lemma 2)
    # The margins themselves, from scikit-learn.
    gamma2 = 1.0 / np.sum(SVC(kernel="linear", C=1e8, tol=1e-8).fit(X, y).coef_ ** 2)
    gamma2_sel = 1.0 / np.sum(
        SVC(kernel="linear", C=1e8, tol=1e-8).fit(selection.apply(X), y).coef_ ** 2
    )
    assert report.full == pytest.approx(gamma2, rel=1e-4)
    assert report.selected == pytest.approx(gamma2_sel, rel=1e-4)
    assert gamma2_sel >= (1 - eps) * gamma2
    radius = check_radius(X, selection, eps=eps)
    assert radius.holds and radius.selected <= (1 + eps) * radius.full
    # With eps measured, the reports are certificates with a smaller eps.
    measured = check_margin(X, y, selection)
    d = measured.distortion
    assert measured.holds and measured.eps == pytest.approx(d / (1 - d))
    assert check_radius(X, selection).eps == pytest.approx(d / (1 - d))  # 001 Theorem 2's eps


def test_supervised_check_uses_the_support_vectors(separable):
    """001 Theorem 1: BSS on the support vectors, r = 36 p / eps^2."""
    X, y = separable
    eps = 0.9
    sv = SVC(kernel="linear", C=1e8, tol=1e-8).fit(X, y).support_
    r = required_features(eps, "001 Theorem 1", X=X, y=y)
    assert r == math.ceil(36 * sv.size / eps**2)
    selection = bss(_right_vectors(X[sv]), r)
    report = check_margin(X, y, selection, eps=eps, supervised=True)
    assert report.holds and report.theorem == "001 Theorem 1"
    assert report.details["n_samples"] == sv.size


def test_ionosphere_uses_the_soft_margin_form_and_holds(ionosphere):
    X, y = ionosphere
    eps = 0.9
    selection = bss(_right_vectors(X), required_features(eps, "001 Theorem 2", X=X))
    report = check_margin(X, y, selection)
    assert report.form.startswith("soft-margin dual objective") and "C=1" in report.form
    assert report.holds and report.eps < 1  # a real certificate, not a vacuous one
    assert "soft-margin" in repr(report)

    # Z~ <= Z / (1 - eps) against scikit-learn's duals.
    def dual_value(Xs):
        svc = SVC(kernel="linear", C=1.0, tol=1e-8).fit(Xs, y)
        return np.abs(svc.dual_coef_).sum() - 0.5 * np.sum(svc.coef_**2)

    z, z_sel = dual_value(X), dual_value(selection.apply(X))
    assert report.full == pytest.approx(z, rel=1e-5)
    assert report.selected == pytest.approx(z_sel, rel=1e-5)
    assert z_sel <= z / (1 - report.eps) and report.eps <= eps


def test_a_bad_selection_fails_somewhere_in_a_sweep(separable):
    X, y = separable
    reports = [
        check_margin(X, y, _bad_selection(X, r), eps=eps) for r in (10, 50) for eps in (0.1, 0.9)
    ]
    # Every one fails, for its premise: the theorem does not apply to these selections ...
    assert not any(report.holds for report in reports)
    assert all("premise" in report.failures for report in reports)
    # ... although the inequality alone is met by some of them (a check of the
    # conclusion only would have passed those).
    assert any("conclusion" not in report.failures for report in reports)
    # Inflated scales (sqrt(d / r), as uniform sampling would) break the radius bound.
    inflated = _bad_selection(X, 10, scale=math.sqrt(X.shape[1] / 10))
    report = check_radius(X, inflated, eps=0.5)
    assert not report.holds and report.selected > 1.5 * report.full
    # With eps measured, ten features cannot keep a rank-16 row space: no eps < 1 is
    # certified, and the default check fails as vacuous instead of passing.
    measured = check_radius(X, inflated)
    assert measured.distortion >= 1 and measured.eps == np.inf
    assert not measured.holds and list(measured.failures) == ["vacuous"]


# -- RLSC (000 Theorems 1-2) -------------------------------------------------------------


def _rlsc_values(X, y, Q, lam):
    """f(q) = q'X'x with x = (XX' + lam I)^+ y, in NumPy (000 eq. 1-3)."""
    x = np.linalg.pinv(X @ X.T + lam * np.eye(X.shape[0])) @ y
    return Q @ (X.T @ x)


@pytest.fixture(scope="module")
def rlsc_data():
    rng = np.random.default_rng(3)
    n, d = 15, 400
    X = rng.standard_normal((n, d)) * np.linspace(0.2, 2.0, d)
    y = np.where(rng.standard_normal(n) > 0, 1.0, -1.0)
    V = _right_vectors(X)
    inside = rng.standard_normal((4, n)) @ X  # the alpha component only
    outside = rng.standard_normal((4, d))
    outside -= outside @ V @ V.T  # the beta component only
    mixed = inside + 3.0 * outside
    return X, y, V, np.vstack([inside, outside, mixed])


@pytest.mark.parametrize("lam", [0.0, 1.0, 50.0])
def test_rlsc_bound_holds_on_both_sides_of_the_training_subspace(rlsc_data, lam):
    X, y, V, Q = rlsc_data
    selection = bss(V, 300)
    report = rlsc_bound(X, y, Q, lam, selection)
    assert report.holds and report.theorem == "000 Theorem 1"
    assert report.form == ("additive, lam = 0" if lam == 0 else "additive, lam > 0")
    full = _rlsc_values(X, y, Q, lam)
    selected = _rlsc_values(selection.apply(X), y, selection.apply(Q), lam)
    np.testing.assert_allclose(report.full, full, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(report.selected, selected, rtol=1e-8, atol=1e-10)
    # The right-hand side of 000 Theorem 1, computed here.
    s = np.linalg.svd(X, compute_uv=False)
    kappa, eps = s[0] / s[-1], report.eps
    alpha = np.linalg.norm(np.linalg.lstsq(X.T, Q.T, rcond=None)[0], axis=0)
    beta = np.linalg.norm(Q - Q @ V @ V.T, axis=1)
    beta[beta < 1e-9 * np.linalg.norm(Q, axis=1)] = 0.0
    ynorm = np.linalg.norm(y)
    assert eps <= 0.5
    rhs = 2 * eps * kappa / s[0] * beta * ynorm + (2 * eps * kappa * alpha * ynorm if lam else 0)
    np.testing.assert_allclose(report.bound, rhs, rtol=1e-8)
    assert np.all(np.abs(selected - full) <= rhs + 1e-9)
    # eps >= the measured distortion and 000 Lemma 6's ratio for the points outside.
    assert eps >= report.distortion and eps >= report.details["lemma6"]


def test_rlsc_relative_bound_for_points_in_the_subspace(rlsc_data):
    X, y, V, Q = rlsc_data
    selection = bss(V, 300)
    inside = Q[:4]
    relative = rlsc_bound(X, y, inside, 1.0, selection, relative=True)
    additive = rlsc_bound(X, y, inside, 1.0, selection)
    assert relative.holds and relative.theorem == "000 Theorem 2"
    assert np.all(relative.bound <= additive.bound)
    with pytest.raises(ValueError, match="span of the training points"):
        rlsc_bound(X, y, Q, 1.0, selection, relative=True)
    with pytest.raises(ValueError, match="lam > 0"):
        rlsc_bound(X, y, inside, 0.0, selection, relative=True)


def test_rlsc_lam0_needs_the_factor_two_of_the_proof():
    """000 Theorem 1 prints eps kappa / sigma_max ||beta|| ||y|| for lam = 0; a closed-form
    example reaches eps / (1 - eps) times that, within the proof's 2 eps kappa / sigma_max."""
    eps = 0.45
    X = np.array([[1.0, 1.0, 0.0], [0.0, 0.0, math.sqrt(2.0)]]) / math.sqrt(2.0)
    y = np.array([1.0, -1.0])
    q = np.array([[-1.0, 1.0, 0.0]]) / math.sqrt(2.0)  # orthogonal to both points
    selection = Selection([0, 1, 2], [math.sqrt(1 - 2 * eps), 1.0, 1.0], 3)
    report = rlsc_bound(X, y, q, 0.0, selection)
    assert report.distortion == pytest.approx(eps) and report.eps == pytest.approx(eps)
    gap = abs(report.selected[0] - report.full[0])
    assert gap == pytest.approx(eps / (1 - eps))  # f = 0, f~ = eps / (1 - eps)
    printed = eps * 1.0 / 1.0 * 1.0 * math.sqrt(2.0)  # kappa = sigma_max = ||beta|| = 1
    assert gap > printed
    assert report.holds and report.bound[0] == pytest.approx(2 * printed)


# -- 000 Lemma 1 and required_features --------------------------------------------------


def test_check_spectral_matches_lemma1(separable):
    X, _ = separable
    V = _right_vectors(X)
    selection = bss(V, 120)
    report = check_spectral(V, selection, r=120)
    assert report.holds
    np.testing.assert_allclose(report.bound, bss_bounds(V.shape[1], 120))
    eig = np.linalg.eigvalsh((V[selection.indices].T * selection.scales**2) @ V[selection.indices])
    np.testing.assert_allclose(report.selected, [eig[0], eig[-1]], atol=1e-12)
    assert not check_spectral(V, _bad_selection(V.T, 40), r=40).holds


@pytest.mark.parametrize("theorem", sorted(THEOREMS))
def test_required_features_is_the_smallest_r_meeting_each_formula(theorem):
    ell, eps = 7, 0.4
    r = required_features(eps, theorem, ell=ell)
    assert r > ell

    def meets(r):  # each theorem's requirement, as its paper states it
        if theorem.startswith("001 Theorem"):
            return 36 * ell / r <= eps**2
        if theorem == "000 Lemma 1":
            return (1 + math.sqrt(ell / r)) ** 2 <= 1 + eps and (
                1 - math.sqrt(ell / r)
            ) ** 2 >= 1 - eps
        if theorem == "001 Lemma 2":
            return 36 * ell / eps**2 * math.log(ell / (eps**2 * 0.1)) <= r
        return 3 * math.sqrt(ell / r) <= eps  # 000 Lemma 2, Theorems 1-2

    assert meets(r) and not meets(r - 1)


def test_required_features_counts_from_the_data(separable):
    X, y = separable
    assert required_features(0.5, "000 theorem-1", X=X) == math.ceil(9 * X.shape[0] / 0.25)
    assert required_features(0.5, "001_Lemma_2", X=X) == required_features(
        0.5, "001 Lemma 2", ell=X.shape[0]
    )


# -- reports and bad input ------------------------------------------------------------------


def test_report_is_frozen_and_readable(separable):
    X, y = separable
    report = check_radius(X, bss(_right_vectors(X), 100))
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.holds = False
    text = repr(report)
    for word in ("001 Theorem 2", "enclosing-ball radius", "full", "selected", "bound", "eps"):
        assert word in text
    assert bool(report) is report.holds


def test_bad_input_names_the_argument(separable):
    X, y = separable
    selection = bss(_right_vectors(X), 100)
    with pytest.raises(ValueError, match="y must hold exactly two classes"):
        margin(X, np.ones(X.shape[0]))
    with pytest.raises(ValueError, match="C must be > 0"):
        check_margin(X, y, selection, C=0.0)
    with pytest.raises(ValueError, match="C must be > 0"):
        margin(X, y, C=-1.0)
    with pytest.raises(ValueError, match="selection is over 600 features but X has 599"):
        check_radius(X[:, :599], selection)
    with pytest.raises(TypeError, match="selection must be a sparsify.Selection"):
        check_radius(X, selection.indices)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        check_margin(bad, y, selection)
    with pytest.raises(ValueError, match="y contains NaN"):
        margin(X, np.where(np.arange(X.shape[0]) == 0, np.nan, y))
    with pytest.raises(ValueError, match="eps must lie in"):
        check_radius(X, selection, eps=-0.1)
    with pytest.raises(ValueError, match="eps must lie in"):
        rlsc_bound(X, y, X[:2], 1.0, selection, eps=0.7)
    with pytest.raises(ValueError, match="q has 5 features"):
        rlsc_bound(X, y, np.ones((2, 5)), 1.0, selection)
    with pytest.raises(ValueError, match="lam must be"):
        rlsc_bound(X, y, X[:2], -1.0, selection)
    with pytest.raises(ValueError, match="theorem must be one of"):
        required_features(0.5, "Theorem 9", ell=3)
    with pytest.raises(ValueError, match="give ell"):
        required_features(0.5, "001 Theorem 2")
    with pytest.raises(ValueError, match="eps must be"):
        required_features(1.5, "001 Theorem 2", ell=3)
