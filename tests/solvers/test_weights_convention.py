"""The weights convention (glmnet's penalty.factor), homotopy, lam_max and rescaling.

Each weight is >= 0 or +inf: 0 leaves the feature unpenalised, +inf excludes it
(coefficient 0), NaN and negative weights are errors. References are computed here:
CVXPY problems solved by Clarabel at 1e-10, ``scipy.optimize.linprog`` (HiGHS) for the
1-norm SVM LP, the closed form of lam_max, a bisection on linprog for the 1-norm SVM.
"""

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog

from solvers import L1SVM, SVM2, AdaptiveLasso, WeightedLasso
from solvers.path import l1_svm_path, lasso_path, svm2_path

TIGHT = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}
MIXED = np.array([1.0, 0.0, np.inf, 2.0, 0.5, 1.0])
N, D = 40, 6


@pytest.fixture(scope="module")
def toy():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((N, D))
    labels = np.sign(X[:, 0] + 0.5 * rng.standard_normal(N))
    target = X @ rng.standard_normal(D) + rng.standard_normal(N)
    return X, labels, target


def _y(Est, toy):
    X, labels, target = toy
    return X, (target if Est is WeightedLasso else labels)


# -- references written here --------------------------------------------------------------


def reference(Est, X, y, lam, weights):
    """The estimator's objective in CVXPY (a free feature where W_j = 0), or linprog."""
    weights = np.ones(X.shape[1]) if weights is None else np.asarray(weights, float)
    kept = np.flatnonzero(np.isfinite(weights))
    if Est is L1SVM:
        return _l1_svm_linprog(X[:, kept], y, lam, weights[kept], kept, X.shape[1])
    w, b = cp.Variable(kept.size), cp.Variable()
    penalty = lam * cp.sum(cp.multiply(weights[kept], cp.abs(w)))
    if Est is WeightedLasso:
        loss = cp.sum_squares(y - X[:, kept] @ w - b)
    else:
        loss = cp.sum_squares(cp.pos(1 - cp.multiply(y, X[:, kept] @ w + b)))
    problem = cp.Problem(cp.Minimize(loss + penalty))
    problem.solve(solver="CLARABEL", **TIGHT)
    assert problem.status == "optimal"
    coef = np.zeros(X.shape[1])
    coef[kept] = w.value
    return coef, float(b.value)


def _l1_svm_linprog(X, y, lam, weights, kept, d_all):
    n, d = X.shape
    cost = np.concatenate((lam * weights, lam * weights, [0.0], np.ones(n)))
    YX = y[:, None] * X
    A = np.hstack((-YX, YX, -y[:, None], -np.eye(n)))
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs-ds")
    assert result.status == 0
    coef = np.zeros(d_all)
    coef[kept] = result.x[:d] - result.x[d : 2 * d]
    return coef, float(result.x[2 * d])


def objective(Est, X, y, lam, weights, coef, intercept):
    weights = np.ones(X.shape[1]) if weights is None else np.asarray(weights, float)
    finite = np.isfinite(weights)
    assert np.all(coef[~finite] == 0)
    penalty = lam * weights[finite] @ np.abs(coef[finite])
    f = X @ coef + intercept
    if Est is WeightedLasso:
        return (y - f) @ (y - f) + penalty
    h = np.maximum(0, 1 - y * f)
    return (h.sum() if Est is L1SVM else h @ h) + penalty


ESTS = [L1SVM, SVM2, WeightedLasso]
LAMS = {L1SVM: 3.0, SVM2: 8.0, WeightedLasso: 30.0}


# -- the convention --------------------------------------------------------------------------


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_unit_weights_equal_no_weights(Est, toy):
    X, y = _y(Est, toy)
    plain = Est(lam=LAMS[Est]).fit(X, y)
    ones = Est(lam=LAMS[Est], weights=np.ones(D)).fit(X, y)
    np.testing.assert_allclose(np.ravel(ones.coef_), np.ravel(plain.coef_), atol=1e-10)
    assert np.ravel(ones.intercept_)[0] == pytest.approx(np.ravel(plain.intercept_)[0], abs=1e-10)


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_infinite_weight_excludes_the_feature(Est, toy):
    X, y = _y(Est, toy)
    weights = np.ones(D)
    weights[0] = np.inf  # the most useful feature of the toy data
    fit = Est(lam=LAMS[Est], weights=weights).fit(X, y)
    assert np.ravel(fit.coef_)[0] == 0.0
    without = Est(lam=LAMS[Est]).fit(X[:, 1:], y)
    np.testing.assert_allclose(np.ravel(fit.coef_)[1:], np.ravel(without.coef_), atol=1e-7)
    assert np.ravel(fit.intercept_)[0] == pytest.approx(np.ravel(without.intercept_)[0], abs=1e-7)
    assert fit.certificate_.holds


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_zero_weight_leaves_the_feature_unpenalised(Est, toy):
    """Compared with a model written here in which the feature is free."""
    X, y = _y(Est, toy)
    weights = np.ones(D)
    weights[1] = 0.0
    lam = 5 * Est.lam_max(X, y)  # every penalised coefficient is 0, the free one is not
    fit = Est(lam=lam, weights=weights).fit(X, y)
    coef, intercept = reference(Est, X, y, lam, weights)
    assert np.ravel(fit.coef_)[1] != 0.0
    np.testing.assert_allclose(np.ravel(fit.coef_), coef, atol=1e-6)
    assert fit.certificate_.holds
    assert objective(
        Est, X, y, lam, weights, np.ravel(fit.coef_), np.ravel(fit.intercept_)[0]
    ) == pytest.approx(objective(Est, X, y, lam, weights, coef, intercept), rel=1e-7)


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_mixed_weights_default_and_homotopy_equal_the_reference(Est, toy):
    X, y = _y(Est, toy)
    lam = LAMS[Est]
    coef, intercept = reference(Est, X, y, lam, MIXED)
    optimum = objective(Est, X, y, lam, MIXED, coef, intercept)
    default = Est(lam=lam, weights=MIXED).fit(X, y)
    homotopy = Est(lam=lam, weights=MIXED, solver="homotopy").fit(X, y)
    assert homotopy.backend_ == "HOMOTOPY"
    for fit in (default, homotopy):
        assert np.ravel(fit.coef_)[2] == 0.0 and fit.certificate_.holds
        np.testing.assert_allclose(np.ravel(fit.coef_), coef, atol=1e-6)
        value = objective(Est, X, y, lam, MIXED, np.ravel(fit.coef_), np.ravel(fit.intercept_)[0])
        assert value == pytest.approx(optimum, rel=1e-7)
    np.testing.assert_allclose(np.ravel(homotopy.coef_), np.ravel(default.coef_), atol=1e-6)


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_homotopy_is_a_backend_of_the_chain(Est, toy):
    X, y = _y(Est, toy)
    fit = Est(lam=LAMS[Est], solver=["homotopy", "CLARABEL"]).fit(X, y)
    assert fit.backend_ == "HOMOTOPY" and fit.certificate_.holds
    assert [a["backend"] for a in fit.solve_attempts_] == ["HOMOTOPY"]
    assert not hasattr(fit, "problem_")


@pytest.mark.parametrize("Est", ESTS + [AdaptiveLasso], ids=lambda e: e.__name__)
@pytest.mark.parametrize(
    "bad", [[1, np.nan, 1, 1, 1, 1], [1, -1.0, 1, 1, 1, 1]], ids=["nan", "negative"]
)
def test_nan_or_negative_weights_are_rejected_naming_weights(Est, bad, toy):
    X, y = _y(Est, toy)
    if Est is AdaptiveLasso:  # computes its own weights: no weights parameter
        assert "weights" not in Est().get_params()
        return
    with pytest.raises(ValueError, match="weights"):
        Est(weights=np.array(bad)).fit(X, y)
    with pytest.raises(ValueError, match="weights"):
        Est.path(X, y, np.array(bad))


@pytest.mark.parametrize("path", [lasso_path, svm2_path, l1_svm_path])
def test_the_path_functions_reject_bad_weights_too(path, toy):
    X, labels, target = toy
    y = target if path is lasso_path else labels
    with pytest.raises(ValueError, match="weights"):
        path(X, y, [1, 1, 1, -0.5, 1, 1])


# -- lam_max ---------------------------------------------------------------------------------


@pytest.mark.parametrize("Est", [SVM2, WeightedLasso], ids=lambda e: e.__name__)
@pytest.mark.parametrize("weights", [None, np.array([1.0, 2.0, 0.5, 3.0, 1.0, 0.25])])
def test_lam_max_closed_form(Est, weights, toy):
    """``max_j |2 X_j'(y - mean y)| / W_j`` (labels +-1 for SVM2)."""
    X, y = _y(Est, toy)
    W = np.ones(D) if weights is None else weights
    expected = np.max(np.abs(2 * X.T @ (y - y.mean())) / W)
    assert Est.lam_max(X, y, weights) == pytest.approx(expected, rel=1e-12)


def _l1_svm_zero(X, y, lam, weights):
    coef, _ = _l1_svm_linprog(X, y, lam, weights, np.arange(X.shape[1]), X.shape[1])
    return np.all(np.abs(coef[weights > 0]) <= 1e-9)


@pytest.mark.parametrize("weights", [None, np.array([1.0, 0.0, 2.0, 0.5, 1.0, 1.0])])
def test_l1_svm_lam_max_is_where_linprog_first_gives_zero(weights, toy):
    X, y, _ = toy
    W = np.ones(D) if weights is None else weights
    lo, hi = 0.0, 1.0
    while not _l1_svm_zero(X, y, hi, W):
        hi *= 2
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if _l1_svm_zero(X, y, mid, W) else (mid, hi)
    assert L1SVM.lam_max(X, y, weights) == pytest.approx(hi, rel=1e-8)


@pytest.mark.parametrize("Est", [SVM2, WeightedLasso], ids=lambda e: e.__name__)
@pytest.mark.parametrize("factor", [1.0 + 1e-9, 2.0, "1e8", "1e12"])
def test_above_lam_max_the_closed_form_zero_solution(Est, factor, toy):
    X, y = _y(Est, toy)
    lam = float(factor) if isinstance(factor, str) else factor * Est.lam_max(X, y)
    fit = Est(lam=lam).fit(X, y)
    assert fit.backend_ == "closed_form"
    assert np.all(np.ravel(fit.coef_) == 0.0)
    assert np.ravel(fit.intercept_)[0] == pytest.approx(y.mean(), abs=1e-15)
    assert fit.certificate_.holds and fit.dual_gap_ <= 1e-12
    assert not hasattr(fit, "problem_")


def test_below_lam_max_is_not_closed_form(toy):
    X, _, y = toy
    fit = WeightedLasso(lam=0.999 * WeightedLasso.lam_max(X, y)).fit(X, y)
    assert fit.backend_ != "closed_form"
    assert (
        np.count_nonzero(np.abs(np.ravel(fit.coef_)) > 1e-9) == 1
    )  # interior point: 1e-12 elsewhere


def test_lasso_lam_max_with_an_unpenalised_feature(toy):
    """The residual of y on the intercept and the free column, correlated with the others."""
    X, _, y = toy
    weights = np.array([1.0, 0.0, 2.0, 0.5, np.inf, 1.0])
    Z = np.column_stack((np.ones(N), X[:, 1]))
    r = y - Z @ np.linalg.lstsq(Z, y, rcond=None)[0]
    penalised = np.isfinite(weights) & (weights > 0)
    expected = np.max(np.abs(2 * X[:, penalised].T @ r) / weights[penalised])
    assert WeightedLasso.lam_max(X, y, weights) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("lam", [1e3, 1e8, 1e12])
def test_adaptive_lasso_far_above_lam_max_is_zero_and_certified(lam, toy):
    X, _, y = toy
    fit = AdaptiveLasso(lam=lam).fit(X, y)
    assert np.all(np.ravel(fit.coef_) == 0.0)
    assert np.ravel(fit.intercept_)[0] == pytest.approx(y.mean())
    assert fit.certificate_.holds


@pytest.mark.parametrize("lam", [1e8, 1e12])
def test_l1_svm_with_a_huge_lam(lam, toy):
    X, y, _ = toy
    fit = L1SVM(lam=lam).fit(X, y)
    assert np.all(np.ravel(fit.coef_) == 0.0) and fit.certificate_.holds


@pytest.mark.parametrize(
    "Est, lam",
    [(SVM2, 1e8), (SVM2, 1e12), (WeightedLasso, 1e12)],
    ids=["SVM2-1e8", "SVM2-1e12", "WeightedLasso-1e12"],
)
def test_huge_lam_with_an_unpenalised_feature(Est, lam, toy):
    X, y = _y(Est, toy)
    fit = Est(lam=lam, weights=MIXED).fit(X, y)
    coef, _ = reference(Est, X, y, 1e3 * Est.lam_max(X, y, MIXED), MIXED)
    np.testing.assert_allclose(np.ravel(fit.coef_), coef, atol=1e-6)


@pytest.mark.parametrize("Est", [SVM2, WeightedLasso], ids=lambda e: e.__name__)
@pytest.mark.parametrize("lam", [1e8, 1e12])
def test_huge_lam_with_an_unpenalised_feature_by_homotopy(Est, lam, toy):
    X, y = _y(Est, toy)
    fit = Est(lam=lam, weights=MIXED, solver="homotopy").fit(X, y)
    coef, _ = reference(Est, X, y, 1e3 * Est.lam_max(X, y, MIXED), MIXED)
    np.testing.assert_allclose(np.ravel(fit.coef_), coef, atol=1e-6)
    assert fit.certificate_.holds


# -- rescaling ------------------------------------------------------------------------------


def _rescaled(Est, k, solver, toy):
    X, y = _y(Est, toy)
    base = Est(lam=LAMS[Est]).fit(X, y)
    s = 10.0**k
    # ||y - (s X) b'||, lam' |b'| with b' = b / s and lam' = s lam: the same problem.
    fit = Est(lam=LAMS[Est] * s, solver=solver).fit(X * s, y)
    assert fit.certificate_.holds
    np.testing.assert_allclose(np.ravel(fit.coef_) * s, np.ravel(base.coef_), atol=1e-6)
    np.testing.assert_allclose(fit.predict(X * s), base.predict(X), atol=1e-6)


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
@pytest.mark.parametrize("k", [-8, 8])
def test_rescaled_data_by_homotopy(Est, k, toy):
    _rescaled(Est, k, "homotopy", toy)


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_rescaled_data_up_by_the_default_chain(Est, toy):
    _rescaled(Est, 8, None, toy)


@pytest.mark.parametrize("Est", ESTS, ids=lambda e: e.__name__)
def test_rescaled_data_down_by_the_default_chain(Est, toy):
    _rescaled(Est, -8, None, toy)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("estimator", [L1SVM, SVM2, WeightedLasso], ids=lambda e: e.__name__)
def test_every_weight_inf_gives_the_best_constant_model(estimator, sparse):
    """No feature left is a valid model: coef_ 0 and the best intercept, with a warning
    (against a brute-force minimisation of the loss over the constant)."""
    from scipy.optimize import minimize_scalar
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 4))
    if estimator is WeightedLasso:
        y = rng.standard_normal(30) + 5.0
        loss = lambda b: np.sum((y - b) ** 2)  # noqa: E731
    else:
        y = np.where(rng.standard_normal(30) > 0.3, 1.0, -1.0)
        power = 1 if estimator is L1SVM else 2
        loss = lambda b: np.sum(np.maximum(0.0, 1.0 - y * b) ** power)  # noqa: E731
    with pytest.warns(UserWarning, match="keeps no feature"):
        fit = estimator(weights=np.full(4, np.inf)).fit(csr_matrix(X) if sparse else X, y)
    assert np.all(fit.coef_ == 0) and fit.certificate_.holds
    best = minimize_scalar(loss, bounds=(-10, 10), method="bounded", options={"xatol": 1e-12})
    intercept = float(np.ravel(fit.intercept_)[0])
    assert loss(intercept) <= best.fun + 1e-9
