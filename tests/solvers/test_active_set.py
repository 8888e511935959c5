"""The ACTIVE_SET backend (solvers._active_set) of SVM2 (004 eq. 7) and WeightedLasso (eq. 3).

Each answer is checked against something independent: scikit-learn's Lasso, the exact
paths of solvers.path (``at(lam)``), scipy.optimize on a small problem, a repeated-rows
fit for integer sample weights, closed forms above lam_max; and its certificate is
recomputed here from the data.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.linear_model import Lasso

from solvers import SVM2, WeightedLasso
from solvers._active_set import solve_active_set
from solvers.certificates import lasso_certificate, svm2_certificate
from solvers.exceptions import PathWarning
from solvers.path import lasso_path, svm2_path

FORMATS = {"dense": np.asarray, "csr": sp.csr_matrix, "csc": sp.csc_matrix}
LOSSES = {
    "squares": (lasso_path, lasso_certificate),
    "squared_hinge": (svm2_path, svm2_certificate),
}


def _data(n=40, d=300, seed=0):
    """n < d: a sparse signal on 5 features; real targets and -1/+1 labels."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    beta = np.zeros(d)
    beta[:5] = [3.0, -2.0, 1.5, 1.0, -1.0]
    target = X @ beta + 0.3 * rng.standard_normal(n) + 2.0
    labels = np.where(X @ beta + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, target, labels


def _lam_max(X, y, weights):
    correlations = np.abs(np.asarray(X.T @ (2.0 * (y - y.mean()))).ravel())
    return float(np.max(correlations / weights))


def _objective(loss, X, y, coef, intercept, lam, weights, s=None):
    fitted = np.asarray(X @ coef).ravel() + intercept
    slack = y - fitted if loss == "squares" else np.maximum(0.0, 1.0 - y * fitted)
    s = np.ones(y.size) if s is None else s
    finite = np.isfinite(weights)
    return float(s @ slack**2 + lam * weights[finite] @ np.abs(coef[finite]))


def _path_solution(loss, X, y, lam, weights):
    path_function = LOSSES[loss][0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", PathWarning)
        path = path_function(X, y, weights, lam_min=lam, return_path=False)
    return path.at(lam)


def _assert_certified(loss, X, y, coef, intercept, lam, weights, s=None):
    certificate = LOSSES[loss][1](X, y, coef, intercept, lam, weights, sample_weight=s)
    assert certificate.holds, certificate


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("loss", LOSSES)
def test_matches_the_exact_path(loss, fmt):
    X, target, labels = _data()
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    lam = 0.1 * _lam_max(X, y, weights)
    M = FORMATS[fmt](X)
    result = solve_active_set(M, y, lam, weights, loss=loss)
    assert result.certified
    _assert_certified(loss, M, y, result.coef, result.intercept, lam, weights)
    coef, intercept = _path_solution(loss, X, y, lam, weights)
    np.testing.assert_allclose(result.coef, coef, atol=1e-7 * np.abs(coef).max())
    assert result.intercept == pytest.approx(intercept, abs=1e-7)


@pytest.mark.parametrize("fmt", FORMATS)
def test_lasso_matches_sklearn(fmt):
    X, target, _ = _data(seed=1)
    n = X.shape[0]
    lam = 0.05 * _lam_max(X, target, np.ones(X.shape[1]))
    ours = WeightedLasso(lam=lam, solver="ACTIVE_SET").fit(FORMATS[fmt](X), target)
    theirs = Lasso(alpha=lam / (2 * n), tol=1e-12, max_iter=100000).fit(X, target)
    assert ours.backend_ == "ACTIVE_SET" and ours.certificate_.holds
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, abs=1e-6)


def test_svm2_matches_scipy_on_a_small_problem():
    """L-BFGS-B on (w+, w-, b), w+ and w- >= 0: the squared hinge is differentiable."""
    X, _, y = _data(n=30, d=8, seed=2)
    weights = np.array([1.0, 0.0, 1e-5, 1e5, 2.0, 0.5, 1.0, 3.0])
    lam = 2.0
    d = X.shape[1]

    def objective(z):
        w, b = z[:d] - z[d : 2 * d], z[-1]
        slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
        gradient_f = -2.0 * y * slack
        gradient_w = X.T @ gradient_f
        value = slack @ slack + lam * weights @ (z[:d] + z[d : 2 * d])
        return value, np.concatenate(
            (gradient_w + lam * weights, -gradient_w + lam * weights, [gradient_f.sum()])
        )

    bounds = [(0, None)] * (2 * d) + [(None, None)]
    reference = minimize(
        objective,
        np.zeros(2 * d + 1),
        jac=True,
        method="L-BFGS-B",
        bounds=bounds,
        options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 100000},
    )
    ours = SVM2(lam=lam, weights=weights, solver="ACTIVE_SET").fit(X, y)
    assert ours.backend_ == "ACTIVE_SET" and ours.certificate_.holds
    value = _objective("squared_hinge", X, y, ours.coef_.ravel(), ours.intercept_[0], lam, weights)
    assert value <= reference.fun * (1 + 1e-9)
    assert value == pytest.approx(reference.fun, rel=1e-6)


@pytest.mark.parametrize("loss", LOSSES)
def test_weights_zero_infinite_and_spread(loss):
    """Weights 0 (unpenalised), +inf (excluded) and 1e-5..1e5, against the exact path."""
    X, target, labels = _data(n=80, d=120, seed=3)
    y = target if loss == "squares" else labels
    d = X.shape[1]
    weights = np.logspace(-5, 5, d)[np.random.default_rng(3).permutation(d)]
    weights[[0, 7]] = 0.0
    weights[[1, 8, 9]] = np.inf
    lam = 1e3  # the features of weight below about 1e-2 enter, fewer than n
    estimator = (WeightedLasso if loss == "squares" else SVM2)(
        lam=lam, weights=weights, solver="ACTIVE_SET"
    ).fit(X, y)
    coef = np.ravel(estimator.coef_)
    intercept = float(np.ravel(estimator.intercept_)[0])
    assert estimator.backend_ == "ACTIVE_SET"
    assert np.all(coef[[1, 8, 9]] == 0.0)
    _assert_certified(loss, X, y, coef, intercept, lam, weights)
    path_coef, path_intercept = _path_solution(loss, X, y, lam, weights)
    assert _objective(loss, X, y, coef, intercept, lam, weights) == pytest.approx(
        _objective(loss, X, y, path_coef, path_intercept, lam, weights), rel=1e-8
    )


@pytest.mark.parametrize("loss", LOSSES)
def test_integer_sample_weights_are_repeated_rows(loss):
    X, target, labels = _data(n=30, d=200, seed=4)
    y = target if loss == "squares" else labels
    repeats = np.random.default_rng(4).integers(0, 4, X.shape[0])
    repeats[:2] = [1, 2]  # both classes keep a positive weight
    s = repeats.astype(float)
    make = WeightedLasso if loss == "squares" else SVM2
    lam = 2.0
    weighted = make(lam=lam).fit(sp.csr_matrix(X), y, sample_weight=s)
    repeated = make(lam=lam, solver="ACTIVE_SET").fit(
        np.repeat(X, repeats, axis=0), np.repeat(y, repeats)
    )
    assert weighted.backend_ == "ACTIVE_SET"  # the default chain with sample weights
    np.testing.assert_allclose(np.ravel(weighted.coef_), np.ravel(repeated.coef_), atol=1e-7)
    coef = np.ravel(weighted.coef_)
    intercept = float(np.ravel(weighted.intercept_)[0])
    _assert_certified(loss, X, y, coef, intercept, lam, np.ones(X.shape[1]), s)


@pytest.mark.parametrize("loss", LOSSES)
def test_above_lam_max_the_zero_solution(loss):
    """Every weight positive: coef 0 and intercept mean(y) (004 eq. 3 and 7 at w = 0);
    with an unpenalised feature: least squares of y on [1, that feature]."""
    X, target, labels = _data(n=30, d=100, seed=5)
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    result = solve_active_set(X, y, 1.01 * _lam_max(X, y, weights), weights, loss=loss)
    assert result.certified and np.all(result.coef == 0.0)
    assert result.intercept == pytest.approx(y.mean(), abs=1e-12)
    weights[3] = 0.0
    result = solve_active_set(X, y, 1e8, weights, loss=loss)
    assert np.all(np.delete(result.coef, 3) == 0.0)
    Z = np.column_stack((np.ones(y.size), X[:, 3]))
    if loss == "squares":
        (intercept, slope), *_ = np.linalg.lstsq(Z, y, rcond=None)
        assert result.coef[3] == pytest.approx(slope, rel=1e-9)
        assert result.intercept == pytest.approx(intercept, rel=1e-9)
    _assert_certified(loss, X, y, result.coef, result.intercept, 1e8, weights)


@pytest.mark.parametrize("loss", LOSSES)
def test_duplicate_and_zero_columns(loss):
    X, target, labels = _data(n=30, d=60, seed=6)
    y = target if loss == "squares" else labels
    X = np.column_stack((X, X[:, :3], np.zeros(30)))  # columns 0-2 twice, a zero column
    weights = np.ones(X.shape[1])
    lam = 0.2 * _lam_max(X, y, weights)
    result = solve_active_set(sp.csc_matrix(X), y, lam, weights, loss=loss)
    assert result.coef[-1] == 0.0
    _assert_certified(loss, X, y, result.coef, result.intercept, lam, weights)
    path_coef, path_intercept = _path_solution(loss, X, y, lam, weights)
    assert _objective(loss, X, y, result.coef, result.intercept, lam, weights) == pytest.approx(
        _objective(loss, X, y, path_coef, path_intercept, lam, weights), rel=1e-8
    )


@pytest.mark.parametrize("loss", LOSSES)
def test_columns_scaled_1e_6_to_1e6(loss):
    """Scaling column j by c_j with weight W_j is the problem on X with weight W_j / c_j."""
    X, target, labels = _data(n=60, d=20, seed=7)
    y = target if loss == "squares" else labels
    scales = np.logspace(-6, 6, X.shape[1])
    lam = 0.1 * _lam_max(X, y, np.ones(X.shape[1]))
    make = WeightedLasso if loss == "squares" else SVM2
    scaled = make(lam=lam, solver="ACTIVE_SET").fit(X * scales, y)
    reference = _path_solution(loss, X, y, lam, 1.0 / scales)
    np.testing.assert_allclose(
        np.ravel(scaled.coef_) * scales, reference[0], atol=1e-7 * np.abs(reference[0]).max()
    )
    assert scaled.certificate_.holds


def test_default_chain_and_refit():
    """Many features: ACTIVE_SET heads the default chain; a re-fit at a new lam on the
    same data (warm-started) gives what a fresh fit gives."""
    X, _, y = _data(n=40, d=600, seed=8)
    X = sp.csr_matrix(X)
    lam = 0.1 * _lam_max(X, y, np.ones(X.shape[1]))
    estimator = SVM2(lam=lam).fit(X, y)
    assert estimator.backend_ == "ACTIVE_SET"
    estimator.set_params(lam=lam / 2).fit(X, y)
    fresh = SVM2(lam=lam / 2, solver="HOMOTOPY").fit(X, y)
    ours, theirs = (
        _objective("squared_hinge", X, y, e.coef_.ravel(), e.intercept_[0], lam / 2, np.ones(600))
        for e in (estimator, fresh)
    )
    assert ours == pytest.approx(theirs, rel=1e-9)
    assert estimator.certificate_.holds


def test_unknown_loss_is_a_value_error():
    X, target, _ = _data(n=10, d=5)
    with pytest.raises(ValueError, match="loss must be one of"):
        solve_active_set(X, target, 1.0, np.ones(5), loss="hinge")
