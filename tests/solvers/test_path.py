"""Exact paths (004 sec. 2.2.1) against independent references.

- lasso_path against scikit-learn's LARS (Efron et al. 2004);
- every path, with random positive weights, against CVXPY solves of the same
  objective at breakpoints and midpoints (Ionosphere, make_bhattacharyya,
  random n < d data), and the KKT conditions at every breakpoint, computed here;
- degenerate inputs and the stop criteria.

The references are written from the objectives of docs/solvers.md / 004 eq. 3, 6, 7,
without using solvers.path.
"""

import warnings
from functools import cache

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.linear_model import lars_path

from solvers.path import PathWarning, l1_svm_path, lasso_path, svm2_path
from sparsify.datasets import load_ionosphere, make_bhattacharyya

# -- references ---------------------------------------------------------------

KINDS = ("lasso", "svm2", "l1_svm")


def datasets():
    """name -> (X, y) with y in {-1, +1}; the lasso regresses on y."""
    rng = np.random.default_rng(7)
    X_wide = rng.standard_normal((25, 60))
    y_wide = np.sign(X_wide[:, 0] + X_wide[:, 1] + 0.5 * rng.standard_normal(25))
    return {
        "ionosphere": load_ionosphere(),
        "bhattacharyya": make_bhattacharyya(n=40, d=100, k=10, random_state=0),
        "wide": (X_wide, y_wide),
    }


def objective(kind, X, y, coef, intercept, lam, weights):
    """The objective of docs/solvers.md at (coef, intercept): losses summed, weighted L1 penalty."""
    f = X @ coef + intercept
    penalty = lam * np.sum(weights * np.abs(coef))
    if kind == "lasso":
        return np.sum((y - f) ** 2) + penalty
    hinge = np.maximum(0.0, 1.0 - y * f)
    return np.sum(hinge**2 if kind == "svm2" else hinge) + penalty


class Reference:
    """The same problem in CVXPY with lam as a parameter, compiled once and re-solved."""

    def __init__(self, kind, X, y, weights):
        self.lam = cp.Parameter(nonneg=True)
        coef, intercept = cp.Variable(X.shape[1]), cp.Variable()
        f = X @ coef + intercept
        if kind == "lasso":
            loss = cp.sum_squares(y - f)
        elif kind == "svm2":
            loss = cp.sum_squares(cp.pos(1 - cp.multiply(y, f)))
        else:
            loss = cp.sum(cp.pos(1 - cp.multiply(y, f)))
        penalty = self.lam * cp.sum(cp.multiply(weights, cp.abs(coef)))
        self.problem = cp.Problem(cp.Minimize(loss + penalty))

    def optimum(self, lam):
        """The optimal value at lam, and whether the solver reached full accuracy.

        At lam = 0 on separable data the optimum (0) is attained on an unbounded
        set and interior-point solvers may stop at "optimal_inaccurate".
        """
        self.lam.value = lam
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Solution may be inaccurate")
            self.problem.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10)
        assert self.problem.status in ("optimal", "optimal_inaccurate"), self.problem.status
        return self.problem.value, self.problem.status == "optimal"


def sample_lams(path, n_points=None):
    """Breakpoints and midpoints between them (all of them when n_points is None)."""
    lams = path.lams
    indices = np.arange(len(lams))
    if n_points is not None and len(lams) > n_points:
        indices = np.unique(np.linspace(0, len(lams) - 1, n_points).round().astype(int))
    points = [lams[k] for k in indices]
    points += [0.5 * (lams[k] + lams[k + 1]) for k in indices if k + 1 < len(lams)]
    return points


def kkt_violation(kind, X, y, coef, intercept, lam, weights, *, elbow_tolerance=1e-7):
    """Largest violation of the optimality conditions, relative to lam_max-sized gradients.

    Lasso and SVM2 (differentiable loss): the loss gradient g = X' h, with
    h = 2 (y - f) or 2 y max(0, 1 - y f), must satisfy sum(h) = 0,
    g_j = lam w_j sign(coef_j) where coef_j != 0 and |g_j| <= lam w_j elsewhere.
    1-norm SVM: there must be multipliers a_i = 1 left of the elbow (y f < 1),
    0 right of it and in [0, 1] on it, with the same conditions for h = a * y;
    a small LP finds the a on the elbow that minimises the violation.
    """
    f = X @ coef + intercept
    if kind == "lasso":
        h = 2.0 * (y - f)
    elif kind == "svm2":
        h = 2.0 * y * np.maximum(0.0, 1.0 - y * f)
    else:
        return _hinge_kkt_violation(X, y, f, coef, lam, weights, elbow_tolerance)
    return _gradient_violation(X.T @ h, h.sum(), coef, lam, weights)


def _gradient_violation(gradient, intercept_gradient, coef, lam, weights):
    nonzero = coef != 0
    bound = lam * weights
    violation = max(
        abs(intercept_gradient),
        np.max(np.abs(gradient[nonzero] - bound[nonzero] * np.sign(coef[nonzero])), initial=0),
        np.max(np.abs(gradient[~nonzero]) - bound[~nonzero], initial=0),
    )
    return violation


def _hinge_kkt_violation(X, y, f, coef, lam, weights, elbow_tolerance):
    margins = y * f
    elbow = np.abs(margins - 1.0) <= elbow_tolerance
    left = margins < 1.0 - elbow_tolerance
    fixed = np.where(left, y, 0.0)  # a_i y_i off the elbow
    Xe = X[elbow] * y[elbow, None]  # rows a_i multiplies on the elbow
    nonzero = coef != 0
    bound = lam * weights
    m = int(elbow.sum())
    # Variables: a_E in [0, 1], t >= 0; minimise t subject to every condition within t.
    rows, rhs = [], []

    def within(row_a, target):  # |row_a . a_E - target| <= t
        rows.append(np.append(row_a, -1.0))
        rhs.append(target)
        rows.append(np.append(-row_a, -1.0))
        rhs.append(-target)

    g0 = X.T @ fixed
    within(y[elbow], -fixed.sum())
    for j in np.flatnonzero(nonzero):
        within(Xe[:, j], bound[j] * np.sign(coef[j]) - g0[j])
    for j in np.flatnonzero(~nonzero):  # |g_j| <= bound_j + t
        rows.append(np.append(Xe[:, j], -1.0))
        rhs.append(bound[j] - g0[j])
        rows.append(np.append(-Xe[:, j], -1.0))
        rhs.append(bound[j] + g0[j])
    cost = np.zeros(m + 1)
    cost[-1] = 1.0
    result = linprog(
        cost, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=[(0, 1)] * m + [(0, None)]
    )
    assert result.status == 0, result.message
    return result.fun


PATH_FUNCTIONS = {"lasso": lasso_path, "svm2": svm2_path, "l1_svm": l1_svm_path}
DATASETS = datasets()


# -- optimality -----------------------------------------------------------------


@cache
def weighted_path(kind, name):
    X, y = DATASETS[name]
    weights = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[1])
    return X, y, weights, PATH_FUNCTIONS[kind](X, y, weights)


def _check_objectives(kind, name, n_points):
    X, y, weights, path = weighted_path(kind, name)
    reference = Reference(kind, X, y, weights)
    for lam in sample_lams(path, n_points):
        coef, intercept = path.at(lam)
        ours = objective(kind, X, y, coef, intercept, lam, weights)
        best, accurate = reference.optimum(lam)
        tolerance = 1e-6 * max(abs(best), 1.0)
        if accurate:
            assert abs(ours - best) <= tolerance, (lam, ours, best)
        else:  # only an upper bound on the optimum
            assert ours <= best + tolerance, (lam, ours, best)


@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("kind", KINDS)
def test_objective_matches_cvxpy(kind, name):
    _check_objectives(kind, name, n_points=8)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("kind", KINDS)
def test_objective_matches_cvxpy_at_every_breakpoint(kind, name):
    _check_objectives(kind, name, n_points=None)


@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("kind", KINDS)
def test_kkt_at_every_breakpoint(kind, name):
    X, y, weights, path = weighted_path(kind, name)
    scale = path.lams[0]
    for lam, coef, intercept in zip(path.lams, path.coefs, path.intercepts, strict=True):
        violation = kkt_violation(kind, X, y, coef, intercept, lam, weights)
        assert violation <= 1e-7 * scale, (lam, violation)


@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("kind", KINDS)
def test_path_shape(kind, name):
    X, y, weights, path = weighted_path(kind, name)
    assert np.all(np.diff(path.lams) < 0)
    assert path.lams[-1] == 0.0
    assert path.coefs.shape == (len(path.lams), X.shape[1])
    assert path.intercepts.shape == (len(path.lams),)
    assert len(path.active_sets) == len(path.lams)
    np.testing.assert_array_equal(path.coefs[0], 0.0)
    # lam_max is the smallest lam with every coefficient zero: just below it one is not.
    coef, _ = path.at(path.lams[0] * (1 - 1e-6))
    assert np.any(coef != 0) or kind == "l1_svm"
    for coef, active in zip(path.coefs, path.active_sets, strict=True):
        assert set(np.flatnonzero(coef)) <= set(active)


@pytest.mark.parametrize("kind", KINDS)
def test_sparse_input_gives_the_same_path(kind):
    X, y, weights, path = weighted_path(kind, "bhattacharyya")
    sparse_path = PATH_FUNCTIONS[kind](sp.csr_matrix(X), y, weights)
    np.testing.assert_allclose(sparse_path.lams, path.lams, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(sparse_path.coefs, path.coefs, rtol=1e-7, atol=1e-9)


def test_l1_svm_is_constant_between_breakpoints():
    X, y, weights, path = weighted_path("l1_svm", "ionosphere")
    for k in range(0, len(path.lams) - 1, 25):
        inside = np.linspace(path.lams[k + 1], path.lams[k], 5)[1:-1]
        for lam in inside:
            np.testing.assert_array_equal(path.at(lam)[0], path.coefs[k + 1])


# -- lasso_path against scikit-learn lars_path --------------------------------
# lars_path(method="lasso") minimises ||y - X b||^2 / (2 n) + alpha ||b||_1 without an
# intercept; on centered data this is our objective with lam = 2 n alpha.


def _lars_reference(X, y):
    alphas, _, coefs = lars_path(X - X.mean(axis=0), y - y.mean(), method="lasso")
    return 2 * X.shape[0] * alphas, coefs.T


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_unit_weights_match_lars_path(name):
    X, y = DATASETS[name]
    y = y + np.random.default_rng(3).standard_normal(y.shape[0])  # a non-binary target too
    lams, coefs = _lars_reference(X, y)
    path = lasso_path(X, y)
    np.testing.assert_allclose(path.lams, lams, rtol=1e-9, atol=1e-9 * lams[0])
    np.testing.assert_allclose(path.coefs, coefs, rtol=1e-8, atol=1e-9)
    # The unpenalised intercept is what centering removes.
    np.testing.assert_allclose(path.intercepts, y.mean() - coefs @ X.mean(axis=0), atol=1e-9)


def test_weights_are_a_rescaling_of_the_columns():
    """Weighted lasso (004 eq. 3) = lasso on X_j / w_j, coefficients divided by w_j."""
    X, y = DATASETS["ionosphere"]
    weights = np.random.default_rng(2).uniform(0.5, 2.0, X.shape[1])
    lams, coefs = _lars_reference(X / weights, y)
    path = lasso_path(X, y, weights)
    np.testing.assert_allclose(path.lams, lams, rtol=1e-9)
    np.testing.assert_allclose(path.coefs, coefs / weights, rtol=1e-8, atol=1e-9)


def test_csr_input_matches_lars_path():
    X, y = DATASETS["bhattacharyya"]
    X = np.where(np.abs(X) > 1.0, X, 0.0)
    lams, coefs = _lars_reference(X, y)
    path = lasso_path(sp.csr_matrix(X), y)
    np.testing.assert_allclose(path.lams, lams, rtol=1e-9, atol=1e-9 * lams[0])
    np.testing.assert_allclose(path.coefs, coefs, rtol=1e-8, atol=1e-9)


def test_at_interpolates_between_lars_breakpoints():
    X, y = DATASETS["ionosphere"]
    lams, coefs = _lars_reference(X, y)
    path = lasso_path(X, y)
    for k in range(len(lams) - 1):
        lam = 0.3 * lams[k] + 0.7 * lams[k + 1]
        np.testing.assert_allclose(path.at(lam)[0], 0.3 * coefs[k] + 0.7 * coefs[k + 1], atol=1e-9)


# -- degenerate inputs and stop criteria ---------------------------------------


def _assert_optimal(kind, X, y, path, weights=None):
    """Objectives match CVXPY at sampled lams and KKT holds at every breakpoint.

    Features of infinite weight must stay zero; the reference drops them.
    """
    weights = np.ones(X.shape[1]) if weights is None else weights
    finite = np.isfinite(weights)
    np.testing.assert_array_equal(path.coefs[:, ~finite], 0.0)
    X, weights = X[:, finite], weights[finite]
    reference = Reference(kind, X, y, weights)
    for lam in sample_lams(path, n_points=6):
        coef, intercept = path.at(lam)
        ours = objective(kind, X, y, coef[finite], intercept, lam, weights)
        best, accurate = reference.optimum(lam)
        tolerance = 1e-6 * max(abs(best), 1.0)
        assert ours <= best + tolerance and (not accurate or ours >= best - tolerance)
    for lam, coef, intercept in zip(path.lams, path.coefs, path.intercepts, strict=True):
        violation = kkt_violation(kind, X, y, coef[finite], intercept, lam, weights)
        assert violation <= 1e-6 * path.lams[0]


def _small_data(seed=0, n=30, d=8):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] - X[:, 1] + rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("kind", KINDS)
def test_duplicate_and_zero_columns(kind):
    X, y = _small_data()
    X = np.column_stack((X, X[:, 0], -X[:, 1], np.zeros(X.shape[0])))
    path = PATH_FUNCTIONS[kind](X, y)
    assert path.lams[-1] == 0.0
    np.testing.assert_array_equal(path.coefs[:, -1], 0.0)
    _assert_optimal(kind, X, y, path)


@pytest.mark.parametrize("kind", KINDS)
def test_many_ties_binary_features(kind):
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(24, 10)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + rng.integers(0, 2, 24) >= 2, 1.0, -1.0)
    path = PATH_FUNCTIONS[kind](X, y)
    _assert_optimal(kind, X, y, path)


@pytest.mark.parametrize("kind", ["svm2", "l1_svm"])
def test_balanced_classes(kind):
    """n_+ = n_-: the intercept at lam_max is not unique (any b in [-1, 1] for the hinge)."""
    X, y = _small_data(seed=5, n=20)
    y = np.repeat([-1.0, 1.0], 10)
    X[:, 0] += y
    path = PATH_FUNCTIONS[kind](X, y)
    _assert_optimal(kind, X, y, path)


@pytest.mark.parametrize("kind", KINDS)
def test_more_features_than_samples(kind):
    rng = np.random.default_rng(6)
    X = rng.standard_normal((12, 40))
    y = np.where(rng.standard_normal(12) > 0, 1.0, -1.0)
    path = PATH_FUNCTIONS[kind](X, y)
    assert max(len(a) for a in path.active_sets) <= 12
    _assert_optimal(kind, X, y, path)


@pytest.mark.parametrize("kind", KINDS)
def test_infinite_weight_excludes_a_feature(kind):
    X, y = _small_data()
    weights = np.ones(X.shape[1])
    weights[0] = np.inf  # the most useful feature
    path = PATH_FUNCTIONS[kind](X, y, weights)
    np.testing.assert_array_equal(path.coefs[:, 0], 0.0)
    _assert_optimal(kind, X, y, path, weights)


@pytest.mark.parametrize("kind", KINDS)
def test_lam_min_ends_the_path_there(kind):
    X, y = _small_data()
    full = PATH_FUNCTIONS[kind](X, y)
    lam_min = 0.5 * (full.lams[3] + full.lams[4])
    path = PATH_FUNCTIONS[kind](X, y, lam_min=lam_min)
    assert path.lams[-1] == lam_min
    np.testing.assert_allclose(path.at(lam_min)[0], full.at(lam_min)[0], atol=1e-10)
    with pytest.raises(ValueError, match="below the end of this path"):
        path.at(0.5 * lam_min)


@pytest.mark.parametrize("kind", KINDS)
def test_max_features(kind):
    X, y = _small_data()
    path = PATH_FUNCTIONS[kind](X, y, max_features=2)
    assert max(np.count_nonzero(c) for c in path.coefs) <= 2
    assert len(path.active_sets[-1]) == 3 and path.lams[-1] > 0


@pytest.mark.parametrize("kind", KINDS)
def test_max_steps_warns_with_the_lam_reached(kind):
    X, y = _small_data()
    with pytest.warns(PathWarning, match=r"stopped at lam=\S+ .*max_steps=3"):
        path = PATH_FUNCTIONS[kind](X, y, max_steps=3)
    assert len(path.lams) == 3


def _degenerate_data(seed):
    """Small data, mostly with exact ties: integer-valued, duplicated or mostly-zero columns."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(5, 40)), int(rng.integers(1, 50))
    style = seed % 4
    if style == 0:
        X = rng.standard_normal((n, d))
    elif style == 1:
        X = rng.integers(-1, 2, (n, d)).astype(float)
    elif style == 2:
        X = rng.standard_normal((n, d))
        X[:, rng.integers(0, d, d // 2)] = X[:, rng.integers(0, d, d // 2)]
    else:
        X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.3)
    y = np.where(rng.random(n) < rng.uniform(0.2, 0.8), 1.0, -1.0)
    if np.all(y == y[0]):
        y[0] = -y[0]
    weights = rng.uniform(0.3, 3, d) if seed % 3 == 0 else np.ones(d)
    return X, y, weights


# Seeds of a random search that once broke a path: simultaneous joins with a
# wrong-signed direction (277, 469), drift or cycles along duplicated columns
# (26, 78, 102, 362, 434, 550), lam_max within rounding of zero (156).
@pytest.mark.parametrize("seed", [26, 78, 102, 156, 277, 362, 434, 469, 550])
@pytest.mark.parametrize("kind", KINDS)
def test_ties_from_random_search(kind, seed):
    X, y, weights = _degenerate_data(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = PATH_FUNCTIONS[kind](X, y, weights)
    assert path.lams[-1] == 0.0
    for lam, coef, intercept in zip(path.lams, path.coefs, path.intercepts, strict=True):
        violation = kkt_violation(kind, X, y, coef, intercept, lam, weights)
        assert violation <= 1e-7 * max(path.lams[0], 1.0)


def test_svm2_stops_with_a_warning_when_the_solution_stops_being_unique():
    """Integer data where several samples reach the margin at once (seed 293)."""
    X, y, weights = _degenerate_data(293)
    with pytest.warns(PathWarning, match=r"stopped at lam=\S+ .*Gram matrix .*not unique"):
        path = svm2_path(X, y, weights)
    assert path.lams[-1] > 0
    for lam, coef, intercept in zip(path.lams, path.coefs, path.intercepts, strict=True):
        assert kkt_violation("svm2", X, y, coef, intercept, lam, weights) <= 1e-7 * path.lams[0]
    with pytest.raises(ValueError, match="below the end of this path"):
        path.at(0.5 * path.lams[-1])
