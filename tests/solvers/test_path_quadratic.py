"""lasso_path and svm2_path (004 eq. 3, 7): unpenalised features, scale invariance, certificates.

- weights 0 (unpenalised), +inf (excluded) and spanning ten decades, against CVXPY
  solves of the objective written here and the fit on the unpenalised columns alone;
- the same problem written at other scales (X, single columns, y, the weights times
  powers of ten) gives the same path, rescaled, and every breakpoint holds its
  certificate (`solvers.certificates`, a duality gap computed from the data);
- make_bhattacharyya(200, 1000) against scikit-learn's LARS down to lam = 0;
- a PathWarning names the caller's line, and a breakpoint that fails its check ends the path.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
from sklearn.linear_model import lars_path

from solvers.certificates import lasso_certificate, svm2_certificate
from solvers.path import PathWarning, _quadratic, lasso_path, svm2_path
from sparsify.datasets import make_bhattacharyya

PATHS = {"lasso": lasso_path, "svm2": svm2_path}
CERTIFICATES = {"lasso": lasso_certificate, "svm2": svm2_certificate}


def _data(seed=0, n=40, d=12):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] - X[:, 1] + X[:, 2] + rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


def _weights(d, seed=1):
    """Weights spanning ten decades, two unpenalised features and one excluded."""
    weights = 10.0 ** np.random.default_rng(seed).uniform(-5, 5, d)
    weights[[1, 4]] = 0.0
    weights[6] = np.inf
    return weights


def _targets(kind, X, y):
    return y + X[:, 3] if kind == "lasso" else y  # a non-binary target for the lasso


def _objective(kind, X, y, coef, intercept, lam, weights):
    finite = np.isfinite(weights)
    f = X @ coef + intercept
    loss = (y - f) ** 2 if kind == "lasso" else np.maximum(0.0, 1.0 - y * f) ** 2
    return loss.sum() + lam * weights[finite] @ np.abs(coef[finite])


def _cvxpy_solution(kind, X, y, lam, weights):
    """The optimum of 004 eq. 3 / 7 with the weights of the convention (0 free, inf excluded)."""
    finite = np.isfinite(weights)
    coef, intercept = cp.Variable(int(finite.sum())), cp.Variable()
    f = X[:, finite] @ coef + intercept
    loss = (
        cp.sum_squares(y - f) if kind == "lasso" else cp.sum_squares(cp.pos(1 - cp.multiply(y, f)))
    )
    penalty = lam * cp.sum(cp.multiply(weights[finite], cp.abs(coef)))
    problem = cp.Problem(cp.Minimize(loss + penalty))
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-11, tol_gap_rel=1e-11)
    assert problem.status == "optimal", problem.status
    full = np.zeros(X.shape[1])
    full[finite] = coef.value
    return full, float(intercept.value), problem.value


def _assert_certified(kind, X, y, path, weights):
    """Every breakpoint satisfies its certificate's scale-free KKT measure (from the data alone).

    The relative duality gap is not asserted: for features whose bound ``lam W_j``
    is tiny against ``||X_j|| ||u||`` (columns or weights many decades apart), the
    certificate scales its dual point by ``lam W_j / |X_j'u|``, and the gap then
    measures the rounding of that ratio (1e-6 with a KKT violation of 1e-15).
    """
    for lam, coef, intercept in zip(path.lams, path.coefs, path.intercepts, strict=True):
        if lam > 0:
            certificate = CERTIFICATES[kind](X, y, coef, intercept, lam, weights)
            assert certificate.kkt <= 1e-9, (lam, str(certificate))
            assert certificate.dual_infeasibility <= 1e-9, (lam, str(certificate))


# -- weights 0 and +inf -------------------------------------------------------------


@pytest.mark.parametrize("kind", PATHS)
def test_unpenalised_and_excluded_features_match_cvxpy(kind):
    X, y = _data()
    y = _targets(kind, X, y)
    weights = _weights(X.shape[1])
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = PATHS[kind](X, y, weights)
    assert path.lams[-1] == 0.0
    np.testing.assert_array_equal(path.coefs[:, 6], 0.0)
    # The unpenalised features are in every model, from lam_max on.
    assert np.all(path.coefs[:, [1, 4]] != 0)
    assert all({1, 4} <= set(active) for active in path.active_sets)
    lams = path.lams
    for lam in [*lams[1:-1:3], *(0.5 * (lams[:-1:3] + lams[1::3]))]:
        coef, intercept = path.at(lam)
        ours = _objective(kind, X, y, coef, intercept, lam, weights)
        # CVXPY's solve is an upper bound on the optimum (with weights spanning ten
        # decades it is not accurate to 1e-7); the certificates bound it from below.
        best = _cvxpy_solution(kind, X, y, lam, weights)[2]
        assert ours <= best * (1 + 1e-7), (lam, ours, best)
    _assert_certified(kind, X, y, path, weights)


@pytest.mark.parametrize("kind", PATHS)
def test_lam_max_is_the_largest_correlation_at_the_unpenalised_fit(kind):
    X, y = _data(seed=2)
    y = _targets(kind, X, y)
    weights = np.ones(X.shape[1])
    weights[[0, 5]] = 0.0
    path = PATHS[kind](X, y, weights)
    # lam -> inf leaves the fit on [1, X_0, X_5] alone: CVXPY with the others excluded.
    free = np.where(weights == 0, 0.0, np.inf)
    coef, intercept, _ = _cvxpy_solution(kind, X, y, 1.0, free)
    f = X @ coef + intercept
    gradient = 2 * (y - f) if kind == "lasso" else 2 * y * np.maximum(0.0, 1.0 - y * f)
    np.testing.assert_allclose(path.lams[0], np.max(np.abs(X.T @ gradient)), rtol=1e-6)
    np.testing.assert_allclose(path.coefs[0], coef, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(path.intercepts[0], intercept, rtol=1e-6, atol=1e-8)


# -- scale invariance -------------------------------------------------------------


def _assert_same_path(path, reference, *, lam_scale=1.0, coef_scale=1.0, intercept_scale=1.0):
    np.testing.assert_allclose(path.lams, reference.lams * lam_scale, rtol=1e-8)
    expected = reference.coefs * coef_scale
    size = np.max(np.abs(expected), axis=0)  # per column: coefficients differ by decades
    np.testing.assert_allclose(path.coefs, expected, rtol=1e-8, atol=0)
    assert np.all(np.abs(path.coefs - expected) <= 1e-8 * size)
    scale = np.max(np.abs(reference.intercepts * intercept_scale))
    np.testing.assert_allclose(
        path.intercepts, reference.intercepts * intercept_scale, rtol=1e-8, atol=1e-8 * scale
    )


@pytest.mark.parametrize("kind", PATHS)
def test_rescaled_problems_give_the_rescaled_path(kind):
    X, y = _data(seed=3, n=50, d=15)
    y = _targets(kind, X, y)
    weights = _weights(X.shape[1], seed=4)
    reference = PATHS[kind](X, y, weights)
    assert len(reference.lams) >= 15
    _assert_certified(kind, X, y, reference, weights)
    powers = 10.0 ** np.random.default_rng(5).integers(-12, 13, X.shape[1])
    cases = [
        # Columns times 10^k, their weights too (0 and inf stay): the same problem.
        (X * powers, weights * powers, {"coef_scale": 1 / powers}),
        # Unpenalised columns are not rescaled inside: scale them alone.
        (
            X * np.where(weights == 0, powers, 1.0),
            weights,
            {"coef_scale": 1 / np.where(weights == 0, powers, 1.0)},
        ),
        (X * 1e-8, weights, {"lam_scale": 1e-8, "coef_scale": 1e8}),
        (X * 1e12, weights, {"lam_scale": 1e12, "coef_scale": 1e-12}),
        (X, weights * 1e-7, {"lam_scale": 1e7}),
    ]
    for X_scaled, weights_scaled, scales in cases:
        path = PATHS[kind](X_scaled, y, weights_scaled)
        _assert_same_path(path, reference, **scales)
        _assert_certified(kind, X_scaled, y, path, weights_scaled)


def test_lasso_target_scale():
    X, y = _data(seed=6)
    y = _targets("lasso", X, y) + 100.0
    reference = lasso_path(X, y)
    for factor in (1e-9, 1e9):
        path = lasso_path(X, y * factor)
        _assert_same_path(
            path, reference, lam_scale=factor, coef_scale=factor, intercept_scale=factor
        )


@pytest.mark.parametrize("kind", PATHS)
def test_columns_spanning_24_decades_with_unit_weights(kind):
    """Every feature joins, at lams 24 decades apart, and each breakpoint holds its certificate."""
    X, y = _data(seed=7, n=50, d=15)
    y = _targets(kind, X, y)
    powers = 10.0 ** np.linspace(-12, 12, X.shape[1])
    X_scaled = X * np.random.default_rng(8).permutation(powers)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = PATHS[kind](X_scaled, y)
    assert len(path.lams) >= X.shape[1] + 1 and path.lams[-1] == 0.0
    _assert_certified(kind, X_scaled, y, path, np.ones(X.shape[1]))
    if kind == "lasso":  # at lam = 0: least squares, computed on the unscaled columns
        Z = np.column_stack((np.ones(X.shape[0]), X))
        theta = np.linalg.lstsq(Z, y, rcond=None)[0]
        expected = theta[1:] / (X_scaled[0] / X[0])
        np.testing.assert_allclose(path.coefs[-1], expected, rtol=1e-8)


# -- degenerate data: make_bhattacharyya(200, 1000) against LARS -----------------


def test_bhattacharyya_200_by_1000_matches_lars_down_to_zero():
    X, y = make_bhattacharyya(200, 1000, random_state=0)
    alphas, _, coefs = lars_path(X - X.mean(axis=0), y - y.mean(), method="lasso")
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = lasso_path(X, y)
    lams = 2 * X.shape[0] * alphas
    assert path.lams[-1] == 0.0
    np.testing.assert_allclose(path.lams, lams, rtol=1e-8, atol=1e-9 * lams[0])
    size = np.max(np.abs(coefs))
    np.testing.assert_allclose(path.coefs[:-1], coefs.T[:-1], atol=1e-7 * size)
    # At lam = 0 the 199 active features interpolate (ill-conditioned; LARS
    # extrapolates there): least squares on them, directly.
    active = path.active_sets[-1]
    Z = np.column_stack((np.ones(X.shape[0]), X[:, active]))
    theta = np.linalg.lstsq(Z, y, rcond=None)[0]
    np.testing.assert_allclose(path.coefs[-1, active], theta[1:], rtol=1e-6, atol=1e-6 * size)


# -- warnings ------------------------------------------------------------------


@pytest.mark.parametrize("kind", PATHS)
def test_path_warning_names_the_callers_line(kind):
    X, y = _data()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PATHS[kind](X, y, max_steps=3)
    assert [w.category for w in caught] == [PathWarning]
    assert caught[0].filename == __file__


@pytest.mark.parametrize("kind", PATHS)
def test_a_breakpoint_failing_its_check_ends_the_path(kind, monkeypatch):
    """Simulate a check that fails from the fourth breakpoint on: the path keeps three."""
    X, y = _data()
    full = PATHS[kind](X, y)
    measured = _quadratic._QuadraticHomotopy._kkt_violation

    def failing_from_the_fourth(self, lam):
        return 1.0 if lam < full.lams[2] * (1 - 1e-9) else measured(self, lam)

    monkeypatch.setattr(_quadratic._QuadraticHomotopy, "_kkt_violation", failing_from_the_fourth)
    with pytest.warns(
        PathWarning, match=rf"stopped at lam={full.lams[2]:.6g} .*lam={full.lams[3]:.6g} fails"
    ):
        path = PATHS[kind](X, y)
    np.testing.assert_array_equal(path.lams, full.lams[:3])


@pytest.mark.parametrize("value", [3.0, 3.1, -1e6])
def test_constant_target_gives_the_one_point_path(value):
    # [1] fits a constant y exactly: lam_max = 0 and every coefficient is 0 (the
    # residual is rounding, which no KKT check can measure).
    X = np.random.default_rng(0).standard_normal((20, 5))
    y = np.full(20, value)
    path = lasso_path(X, y)
    np.testing.assert_array_equal(path.lams, [0.0])
    np.testing.assert_array_equal(path.coefs, np.zeros((1, 5)))
    np.testing.assert_allclose(path.intercepts, [value], rtol=1e-14)
    coef, intercept = path.at(1.0)
    assert not coef.any() and intercept == pytest.approx(value, rel=1e-14)


def test_unpenalised_column_of_one_sample_does_not_cycle_the_start():
    # The squared-hinge fit of [1, x_free] puts the one sample x_free touches on the
    # margin; any larger coefficient is optimal too. Newton's method must stop there
    # (it cycled: the sample left the loss, the column was freed, it came back).
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 6))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(40) > 0, 1.0, -1.0)
    X[:, 5] = 0.0
    X[np.flatnonzero(y > 0)[0], 5] = 5.0
    weights = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PathWarning)
        path = svm2_path(X, y, weights, max_steps=1)
    coef, intercept = path.at(path.lams[0])
    assert svm2_certificate(X, y, coef, intercept, path.lams[0], weights).holds
