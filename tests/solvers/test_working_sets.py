"""Working sets give the full problem's solution: features (d >> n), samples (n >> d), Gram.

References: the exact paths (`solver="homotopy"`), scikit-learn's Lasso and SVC, and
the same estimator with the working set switched off (the formulation on all the data).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Lasso
from sklearn.svm import SVC

import solvers.backends._working_sets as working_sets
from solvers import L1SVM, L2SVM, SVM2, SVMDual, WeightedLasso


def _working_set(fitted, which):
    """The working set the CVXPY backend last used (``which``: "features" or "samples")."""
    return fitted._warm_states["CVXPY"][1][which][1]


def _wide(seed=0, n=40, d=600):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    signal = X[:, :4] @ np.array([2.0, -1.5, 1.0, 0.5])
    y = np.where(signal + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y, signal + 0.1 * rng.standard_normal(n)


@pytest.mark.parametrize(
    "est, regression",
    # The library's own backends grow their own working sets: CVXPY's use this one.
    [
        (WeightedLasso(lam=4.0, solver="CLARABEL"), True),
        (SVM2(lam=4.0, solver="CLARABEL"), False),
        (L1SVM(lam=1.0, solver="HIGHS"), False),
    ],
    ids=["lasso", "svm2", "l1svm"],
)
def test_feature_working_set_equals_the_exact_path(est, regression):
    X, labels, target = _wide()
    y = target if regression else labels
    weights = np.ones(X.shape[1])
    weights[5] = 0.0  # unpenalised: always in the working set
    weights[:2] = [0.5, np.inf]
    fitted = est.set_params(weights=weights).fit(X, y)
    working = _working_set(fitted, "features")  # indices among the 599 kept features
    assert working.size < X.shape[1] and 4 in working.tolist()  # feature 5, after 1 is dropped
    assert fitted.certificate_.holds and np.ravel(fitted.coef_)[1] == 0.0
    exact = type(est)(lam=est.lam, weights=weights, solver="homotopy").fit(X, y)
    np.testing.assert_allclose(np.ravel(fitted.coef_), np.ravel(exact.coef_), atol=1e-6)
    np.testing.assert_allclose(fitted.objective_, exact.objective_, rtol=1e-7)


def test_feature_working_set_grows_when_the_start_misses_a_feature(monkeypatch):
    # A start of 2 features cannot hold the solution: the loop must add violators.
    monkeypatch.setattr(working_sets, "_WS_MIN_FEATURES", 10)
    X, _, target = _wide(seed=1, n=30, d=80)
    fitted = WeightedLasso(lam=1.0, solver="CLARABEL").fit(X, target)
    assert fitted.certificate_.holds
    exact = WeightedLasso(lam=1.0, solver="homotopy").fit(X, target)
    np.testing.assert_allclose(np.ravel(fitted.coef_), np.ravel(exact.coef_), atol=1e-6)


def _separable(seed=0, n=3000, d=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ np.arange(1.0, d + 1) + 0.2 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize(
    "est",
    [
        SVMDual(C=1.0, solver="CLARABEL"),
        L2SVM(C=1.0, solver="CLARABEL"),
        L2SVM(C=1.0, loss="squared_hinge", solver="CLARABEL"),
        SVM2(lam=1.0, solver="CLARABEL"),
    ],
    ids=["dual", "hinge", "squared", "svm2"],
)
def test_sample_working_set_equals_the_full_problem(est, monkeypatch):
    X, y = _separable()
    fitted = est.fit(X, y)
    working = _working_set(fitted, "samples")
    assert working.size < X.shape[0]  # few samples are inside the margin
    assert fitted.certificate_.holds and fitted.alpha_.shape == (X.shape[0],)
    monkeypatch.setattr(working_sets, "_WS_MIN_SAMPLES", 10**9)  # the formulation on all rows
    full = type(est)(**est.get_params()).fit(X, y)
    np.testing.assert_allclose(np.ravel(fitted.coef_), np.ravel(full.coef_), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fitted.objective_, full.objective_, rtol=1e-7)


def test_svm_dual_working_set_against_svc():
    X, y = _separable(seed=1)
    ours = SVMDual(C=1.0, solver="CLARABEL").fit(X, y)
    svc = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(np.ravel(ours.coef_), np.ravel(svc.coef_), rtol=1e-3, atol=1e-4)
    np.testing.assert_array_equal(ours.predict(X), svc.predict(X))


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_lasso_through_the_gram_factor_equals_sklearn(sparse):
    rng = np.random.default_rng(2)
    n, d = 1500, 12
    X = rng.standard_normal((n, d)) + 3.0  # uncentred columns: the intercept matters
    y = X[:, :3] @ np.array([1.0, -2.0, 0.5]) + 7.0 + rng.standard_normal(n)
    lam = 200.0
    ours = WeightedLasso(lam=lam, solver="CLARABEL").fit(sp.csr_matrix(X) if sparse else X, y)
    reference = Lasso(alpha=lam / (2 * n), tol=1e-12, max_iter=100000).fit(X, y)
    assert ours.certificate_.holds
    np.testing.assert_allclose(np.ravel(ours.coef_), np.ravel(reference.coef_), atol=1e-6)
    np.testing.assert_allclose(
        np.ravel(ours.intercept_)[0], np.ravel(reference.intercept_)[0], atol=1e-6
    )
    # The problem CVXPY solved has 2 (d + 1) rows, not n.
    assert ours.problem_.var_dict["beta"].shape == (d,)
    assert ours.problem_.size_metrics.num_scalar_data < n * d


def _timestamp_data(seed=3, n=60, d=8):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[:, 2] = 1.7e9 + rng.uniform(0, 3e7, n)  # a Unix timestamp
    X[:, 3] *= 1e12
    X[:, 4] *= 1e-12
    y = np.where(X[:, 0] - X[:, 5] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y, X[:, 0] - 2 * X[:, 5] + 0.3 * rng.standard_normal(n)


@pytest.mark.parametrize("model", ["lasso", "svm2"])
def test_columns_at_1e12_and_a_timestamp_against_cvxpy_on_unit_columns(model):
    """The reference: the same problem written in the test on unit-norm columns
    (c_j = s_j b_j, weights 1 / s_j), solved by Clarabel at its default accuracy."""
    import cvxpy as cp

    X, labels, target = _timestamp_data()
    y = target if model == "lasso" else labels
    scales = np.linalg.norm(X, axis=0)
    c, b0 = cp.Variable(X.shape[1]), cp.Variable()
    fitted = (X / scales) @ c + b0
    loss = (
        cp.sum_squares(y - fitted)
        if model == "lasso"
        else cp.sum_squares(cp.pos(1 - cp.multiply(y, fitted)))
    )
    penalty = 2.0 * cp.norm1(cp.multiply(1.0 / scales, c))
    reference = cp.Problem(cp.Minimize(loss + penalty))
    reference.solve(solver="CLARABEL")
    assert reference.status == "optimal"
    est = (WeightedLasso if model == "lasso" else SVM2)(lam=2.0).fit(X, y)
    assert est.certificate_.holds
    # The objective pins the optimum; coefficients only to the conditioning.
    assert est.objective_ <= reference.value * (1 + 1e-9)
    np.testing.assert_allclose(est.objective_, reference.value, rtol=1e-6)
    np.testing.assert_allclose(np.ravel(est.coef_) * scales, c.value, rtol=1e-3, atol=1e-4)
