"""SVM estimators against scikit-learn's SVC/LinearSVC and scipy's linprog."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC, LinearSVC

from solvers import L1SVM, L2SVM, SVM2, SVMDual
from tests.solvers.test_formulations import _hinge_objective, _l1_svm_linprog


def _svc(X, y, C):
    return SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)


def _dual_objective(X, y, alpha):
    v = X.T @ (y * alpha)
    return alpha.sum() - 0.5 * v @ v


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_svm_dual_matches_svc(data, C):
    X, y = data
    svc = _svc(X, y, C)
    est = SVMDual(C=C).fit(X, y)
    svc_alpha = np.zeros(len(y))
    svc_alpha[svc.support_] = np.abs(svc.dual_coef_.ravel())
    np.testing.assert_allclose(est.objective_, _dual_objective(X, y, svc_alpha), rtol=1e-4)
    np.testing.assert_allclose(est.objective_, _dual_objective(X, y, est.alpha_), rtol=1e-7)
    np.testing.assert_allclose(est.margin_, 1 / np.linalg.norm(svc.coef_), rtol=1e-3)
    np.testing.assert_array_equal(est.predict(X), svc.predict(X))
    np.testing.assert_allclose(
        est.intercept_[0], svc.intercept_[0], atol=1e-3 * max(1, abs(est.intercept_[0]))
    )
    assert est.alpha_.shape == (len(y),)
    assert set(svc.support_) <= set(est.support_) | set(np.flatnonzero(svc_alpha < 1e-6 * C))


def test_svm_dual_keeps_any_two_labels(ionosphere):
    X, y = ionosphere
    labels = np.where(y > 0, "good", "bad")
    est = SVMDual().fit(X, labels)
    assert list(est.classes_) == ["bad", "good"]
    np.testing.assert_array_equal(est.predict(X), _svc(X, labels, 1.0).predict(X))


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_l2svm_hinge_matches_svc_and_the_dual(data, C):
    X, y = data
    est = L2SVM(C=C).fit(X, y)
    dual = SVMDual(C=C).fit(X, y)
    primal = (
        0.5 * est.coef_[0] @ est.coef_[0]
        + C * np.maximum(0, 1 - y * (X @ est.coef_[0] + est.intercept_[0])).sum()
    )
    # primal form (n > d): objective_ is the primal at coef_; dual form (d > n): the dual
    np.testing.assert_allclose(
        est.objective_, primal, rtol=1e-7 if X.shape[0] > X.shape[1] else 1e-5
    )
    np.testing.assert_allclose(est.objective_, dual.objective_, rtol=1e-5)  # strong duality
    np.testing.assert_allclose(est.margin_, 1 / np.linalg.norm(_svc(X, y, C).coef_), rtol=1e-3)
    # the margin-constraint multipliers are the dual solution: w = X'Y a
    np.testing.assert_allclose(
        X.T @ (y * est.alpha_), est.coef_[0], atol=1e-4 * np.abs(est.coef_[0]).max()
    )


def test_l2svm_squared_hinge_matches_linearsvc(data):
    X, y = data
    C = 0.5
    est = L2SVM(C=C, loss="squared_hinge").fit(X, y)

    def objective(w, b):
        return 0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w + b)) @ np.maximum(
            0, 1 - y * (X @ w + b)
        )

    # liblinear penalises the intercept as a weight on a constant feature; a large
    # intercept_scaling makes that penalty negligible, so the two problems agree.
    ref = LinearSVC(
        C=C, loss="squared_hinge", dual=False, tol=1e-12, intercept_scaling=100.0, max_iter=100000
    ).fit(X, y)
    theirs = objective(ref.coef_.ravel(), ref.intercept_[0])
    np.testing.assert_allclose(
        est.objective_, objective(est.coef_[0], est.intercept_[0]), rtol=1e-5
    )
    assert est.objective_ <= theirs * (1 + 1e-7)
    np.testing.assert_allclose(est.objective_, theirs, rtol=1e-4)
    np.testing.assert_allclose(est.coef_[0], ref.coef_.ravel(), atol=1e-2)


@pytest.mark.parametrize("lam", [0.1, 1.0])
def test_l1svm_matches_linprog(data, lam):
    X, y = data
    est = L1SVM(lam=lam).fit(X, y)
    reference = _l1_svm_linprog(X, y, lam)
    np.testing.assert_allclose(
        _hinge_objective(X, y, est.coef_[0], est.intercept_[0], lam), reference, rtol=1e-6
    )
    np.testing.assert_allclose(est.objective_, reference, rtol=1e-6)


def test_l1svm_weights_are_a_rescaling_of_the_columns(ionosphere):
    """lam sum W_j |w_j| on X equals the unweighted problem on X_j / W_j."""
    X, y = ionosphere
    W = np.linspace(0.5, 2.0, X.shape[1])
    weighted = L1SVM(lam=0.3, weights=W).fit(X, y)
    plain = L1SVM(lam=0.3).fit(X / W, y)
    np.testing.assert_allclose(weighted.objective_, plain.objective_, rtol=1e-7)


def test_svm2_matches_linearsvc_l1(ionosphere):
    X, y = ionosphere
    lam = 2.0
    est = SVM2(lam=lam).fit(X, y)

    def objective(w, b):  # 004 eq. (7)
        slack = np.maximum(0, 1 - y * (X @ w + b))
        return slack @ slack + lam * np.abs(w).sum()

    # LinearSVC(penalty="l1", C) minimises ||w||_1 + C sum loss_i^2, i.e. eq. (7) / lam with
    # C = 1 / lam; intercept_scaling makes its penalty on the intercept negligible.
    ref = LinearSVC(
        penalty="l1",
        loss="squared_hinge",
        dual=False,
        C=1 / lam,
        tol=1e-8,
        intercept_scaling=100.0,
        max_iter=100000,
    ).fit(X, y)
    theirs = objective(ref.coef_.ravel(), ref.intercept_[0])
    np.testing.assert_allclose(
        est.objective_, objective(est.coef_[0], est.intercept_[0]), rtol=1e-7
    )
    assert est.objective_ <= theirs * (1 + 1e-7)
    np.testing.assert_allclose(est.objective_, theirs, rtol=1e-4)
    # alpha_ = 2 * squared-hinge slack (the KKT map)
    slack = np.maximum(0, 1 - y * (X @ est.coef_[0] + est.intercept_[0]))
    np.testing.assert_allclose(est.alpha_, 2 * slack, atol=1e-5)


def test_l1_penalties_give_sparse_coefficients(bhattacharyya):
    X, y = bhattacharyya
    for est in (L1SVM(lam=1.0), SVM2(lam=5.0)):
        est.fit(X, y)
        assert 0 < (np.abs(est.coef_[0]) > 1e-6).sum() < X.shape[1] // 4


@pytest.mark.parametrize(
    "Est, param", [(SVMDual, "C"), (L2SVM, "C"), (L1SVM, "lam"), (SVM2, "lam")]
)
def test_refit_with_new_hyperparameter_reuses_the_compiled_problem(ionosphere, Est, param):
    X, y = ionosphere
    # A CVXPY backend named: the planned chain may start with one of the library's own.
    solver = "HIGHS" if Est is L1SVM else "CLARABEL"
    est = Est(**{param: 1.0}, solver=solver).fit(X, y)
    problem, compiled = est.problem_, est.problem_._cache.param_prog
    est.set_params(**{param: 0.25}).fit(X, y)
    # the same problem, and CVXPY reused its compiled parametric program (DPP)
    assert est.problem_ is problem and est.problem_._cache.param_prog is compiled
    fresh = Est(**{param: 0.25}, solver=solver).fit(X, y)
    np.testing.assert_allclose(est.objective_, fresh.objective_, rtol=1e-6)
    np.testing.assert_allclose(
        est.coef_[0], fresh.coef_[0], atol=1e-5 * max(1, np.abs(fresh.coef_[0]).max())
    )


def test_new_data_or_structure_rebuilds_the_problem(ionosphere):
    X, y = ionosphere
    est = L2SVM(solver="CLARABEL").fit(X, y)
    problem = est.problem_
    est.fit(X[:300], y[:300])
    assert est.problem_ is not problem
    problem = est.problem_
    est.set_params(loss="squared_hinge").fit(X[:300], y[:300])
    assert est.problem_ is not problem


@pytest.mark.parametrize("Est", [SVMDual, L2SVM, L1SVM, SVM2])
def test_csr_and_csc_input_give_the_dense_solution(bhattacharyya, Est):
    X, y = bhattacharyya
    dense = Est().fit(X, y)
    for fmt in (sp.csr_matrix, sp.csc_matrix):
        est = Est().fit(fmt(X), y)
        np.testing.assert_allclose(est.objective_, dense.objective_, rtol=1e-6)
        np.testing.assert_array_equal(est.predict(fmt(X)), dense.predict(X))


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_l2svm_dual_form_for_d_above_n_refits_with_new_C(bhattacharyya, loss):
    X, y = bhattacharyya
    # solver named: the squared hinge's default chain starts with the Newton method
    est = L2SVM(C=1.0, loss=loss, solver="CLARABEL").fit(X, y)
    assert set(est.problem_.var_dict) == {"alpha"}  # d > n: the Gram dual
    problem = est.problem_
    est.set_params(C=0.05).fit(X, y)
    assert est.problem_ is problem
    fresh = L2SVM(C=0.05, loss=loss).fit(X, y)
    np.testing.assert_allclose(est.objective_, fresh.objective_, rtol=1e-6)
    primal = L2SVM(C=0.05, loss=loss, solver="CLARABEL").fit(X[:, : X.shape[0]], y)  # n >= d
    assert set(primal.problem_.var_dict) == {"w", "b", "xi"}
