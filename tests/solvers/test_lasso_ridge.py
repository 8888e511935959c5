"""WeightedLasso/AdaptiveLasso against Lasso; RLSC/RidgeRegression against closed forms."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Lasso, Ridge, RidgeClassifier

from solvers import RLSC, AdaptiveLasso, RidgeRegression, WeightedLasso
from solvers._centred_gram import least_squares_factor


def _lasso(X, y, lam):
    """scikit-learn's Lasso minimises 1/(2n)||.||^2 + alpha||b||_1: alpha = lam / (2n)."""
    return Lasso(alpha=lam / (2 * len(y)), tol=1e-12, max_iter=200000).fit(X, y)


@pytest.mark.parametrize("lam", [0.5, 5.0])
def test_weighted_lasso_with_unit_weights_matches_lasso(data, lam):
    X, y = data
    est = WeightedLasso(lam=lam).fit(X, y)
    ref = _lasso(X, y, lam)
    scale = max(1.0, np.abs(ref.coef_).max())
    np.testing.assert_allclose(est.coef_, ref.coef_, atol=1e-5 * scale)
    np.testing.assert_allclose(est.intercept_, ref.intercept_, atol=1e-5 * scale)


def test_weighted_lasso_matches_lasso_on_rescaled_columns(ionosphere):
    X, y = ionosphere
    W = np.random.default_rng(0).uniform(0.2, 3.0, X.shape[1])
    est = WeightedLasso(lam=2.0, weights=W).fit(X, y)
    ref = _lasso(X / W, y, 2.0)
    np.testing.assert_allclose(est.coef_, ref.coef_ / W, atol=1e-5)
    residual = y - X @ est.coef_ - est.intercept_
    np.testing.assert_allclose(
        est.objective_, residual @ residual + 2.0 * W @ np.abs(est.coef_), rtol=1e-12
    )


@pytest.mark.parametrize("offset", [0.0, 1.0, 1e6])
def test_weighted_lasso_with_many_more_samples_than_features_matches_lasso(offset):
    """n > 2 (d + 1): the lasso on a factor of the centred Gram matrix, whose means are
    subtracted from X'X when they are small beside the column norms (offset 0 and 1)
    and from X itself when they dwarf them (1e6, a timestamp-like column); columns at
    1e12 and 1e-12 with weights to match are the unit-weight problem on X / c."""
    rng = np.random.default_rng(0)
    n, lam = 200, 20.0
    unit = rng.standard_normal((n, 6))
    unit[:, 0] += offset
    y = unit @ [1.0, 0.0, -2.0, 0.5, 0.0, 1.5] + 0.5 * rng.standard_normal(n)
    c = np.array([1.0, 1.0, 1.0, 1e12, 1e-12, 1.0])
    X = unit * c
    share = n * X.mean(axis=0) ** 2 / (X**2).sum(axis=0)  # of each column's squared norm
    assert (share.max() > 0.75) == (offset > 1.0)  # the two centrings are both exercised
    # The factor's defining identity, ||r - R_X b||^2 = ||yc - Xc b / m||^2 (m: the
    # column norms), at random b, against centring in the test.
    factor = least_squares_factor(X, y)
    np.testing.assert_allclose(factor.norms, np.linalg.norm(X, axis=0), rtol=1e-12)
    for b in rng.standard_normal((3, 6)):
        centred = (y - y.mean()) - (X - X.mean(axis=0)) @ (b / factor.norms)
        reduced = factor.targets - factor.rows @ b
        np.testing.assert_allclose(reduced @ reduced, centred @ centred, rtol=1e-9)
    est = WeightedLasso(lam=lam, weights=c).fit(X, y)
    ref = _lasso(unit, y, lam)
    np.testing.assert_allclose(est.coef_ * c, ref.coef_, atol=1e-6)
    assert est.certificate_.holds
    residual = y - X @ est.coef_ - est.intercept_
    objective = residual @ residual + lam * c @ np.abs(est.coef_)
    np.testing.assert_allclose(est.objective_, objective, rtol=1e-9)
    peer = y - unit @ ref.coef_ - ref.intercept_
    assert objective <= (peer @ peer + lam * np.abs(ref.coef_).sum()) * (1 + 1e-9)


def test_zero_weight_leaves_a_feature_unpenalised(ionosphere):
    X, y = ionosphere
    W = np.ones(X.shape[1])
    W[4] = 0.0
    est = WeightedLasso(lam=1e4, weights=W).fit(X, y)
    assert abs(est.coef_[4]) > 1e-3 and np.abs(np.delete(est.coef_, 4)).max() < 1e-6


@pytest.mark.parametrize("init", ["ols", "ridge"])
def test_adaptive_lasso_is_the_weighted_lasso_with_initial_weights(ionosphere, init):
    X, y = ionosphere
    est = AdaptiveLasso(lam=3.0, gamma=0.5, init=init, init_lam=2.0).fit(X, y)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    if init == "ols":
        beta = np.linalg.lstsq(Xc, yc, rcond=None)[0]
    else:
        beta = Ridge(alpha=2.0).fit(X, y).coef_
    np.testing.assert_allclose(est.weights_, np.abs(beta) ** -0.5, rtol=1e-6)
    ref = WeightedLasso(lam=3.0, weights=est.weights_).fit(X, y)
    np.testing.assert_allclose(est.coef_, ref.coef_, atol=1e-7)


def test_adaptive_lasso_fixes_features_with_zero_initial_coefficient_at_zero(ionosphere):
    X, y = ionosphere
    X = np.hstack([X, np.zeros((X.shape[0], 1))])
    est = AdaptiveLasso(lam=1.0).fit(X, y)
    assert np.isinf(est.weights_[-1]) and est.coef_[-1] == 0.0


def _rlsc_eq2(X, y, lam):
    """000 eq. (2) with X as n x d: x = U (S^2 + lam)^-1 U'y from the full SVD of X."""
    U, s, _ = np.linalg.svd(X, full_matrices=False)
    return U @ ((U.T @ y) / (s**2 + lam))


@pytest.mark.parametrize("lam", [0.1, 10.0])
def test_rlsc_matches_eq2_and_ridge_classifier(data, lam):
    X, y = data
    est = RLSC(lam=lam).fit(X, y)
    x = _rlsc_eq2(X, y, lam)
    np.testing.assert_allclose(est.dual_coef_, x, rtol=1e-8, atol=1e-10)
    ref = RidgeClassifier(alpha=lam, fit_intercept=False, solver="svd").fit(X, y)
    np.testing.assert_allclose(est.coef_[0], ref.coef_.ravel(), rtol=1e-8, atol=1e-10)
    np.testing.assert_array_equal(est.predict(X), ref.predict(X))
    K = X @ X.T
    eq1 = np.sum((K @ x - y) ** 2) + lam * x @ K @ x
    np.testing.assert_allclose(est.objective_, eq1, rtol=1e-9)


@pytest.mark.parametrize("lam", [0.0, 1.0])
def test_rlsc_cvxpy_form_cross_checks_the_closed_form(data, lam):
    X, y = data
    closed = RLSC(lam=lam).fit(X, y)
    cvx = RLSC(lam=lam, solver="CLARABEL").fit(X, y)
    assert cvx.backend_ == "CLARABEL" and closed.backend_ == "SVD"
    np.testing.assert_allclose(cvx.objective_, closed.objective_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(cvx.decision_function(X), closed.decision_function(X), atol=1e-5)


def test_rlsc_sparse_input_uses_the_gram_route(bhattacharyya):
    X, y = bhattacharyya
    dense = RLSC(lam=0.5).fit(X, y)
    for Xs in (sp.csr_matrix(X), sp.csc_matrix(X.T[:50].T)):
        sparse = RLSC(lam=0.5).fit(Xs, y)
        ref = RLSC(lam=0.5).fit(Xs.toarray(), y)
        np.testing.assert_allclose(sparse.coef_, ref.coef_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(RLSC(lam=0.5).fit(sp.csr_matrix(X), y).coef_, dense.coef_, atol=1e-9)


@pytest.mark.parametrize("solver", ["svd", "CLARABEL"])
def test_ridge_regression_matches_sklearn_ridge_in_both_forms(data, solver):
    X, y = data
    target = X[:, :3].sum(axis=1) + 0.1 * y  # a real-valued response
    est = RidgeRegression(lam=2.0, solver=solver).fit(X, target)
    ref = Ridge(alpha=2.0, fit_intercept=False, solver="svd").fit(X, target)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(est.predict(X), ref.predict(X), rtol=1e-5, atol=1e-6)


def test_ridge_regression_primal_and_dual_forms_are_chosen_by_shape(ionosphere, bhattacharyya):
    X, y = ionosphere
    assert "beta" in RidgeRegression(solver="CLARABEL").fit(X, y).problem_.var_dict
    X, y = bhattacharyya
    est = RidgeRegression(solver="CLARABEL").fit(X, y)
    assert "x" in est.problem_.var_dict
    np.testing.assert_allclose(est.coef_, X.T @ est.dual_coef_)


def test_lasso_refit_with_new_lam_or_weights_reuses_the_compiled_problem(ionosphere):
    X, y = ionosphere
    est = WeightedLasso(lam=1.0, solver="CLARABEL").fit(X, y)  # the default is the path
    problem = est.problem_
    est.set_params(lam=3.0, weights=np.full(X.shape[1], 2.0)).fit(X, y)
    assert est.problem_ is problem
    np.testing.assert_allclose(est.coef_, WeightedLasso(lam=6.0).fit(X, y).coef_, atol=1e-6)
