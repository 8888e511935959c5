"""The formulations: DPP, names, and each against an independent reference."""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.utils._param_validation import InvalidParameterError

from solvers import available_backends
from solvers.formulations import (
    enclosing_ball,
    l1_svm,
    ridge,
    rlsc,
    svm2,
    svm_dual,
    svm_primal,
    weighted_lasso,
)
from sparsify import Selection

BUILDERS = {
    "svm_dual": lambda X, y: svm_dual(X, y, 0.5),
    "svm_dual_sq": lambda X, y: svm_dual(X, y, 0.5, loss="squared_hinge"),
    "svm_primal": lambda X, y: svm_primal(X, y, 0.5),
    "svm_primal_sq": lambda X, y: svm_primal(X, y, 0.5, loss="squared_hinge"),
    "l1_svm": lambda X, y: l1_svm(X, y, 0.5),
    "svm2": lambda X, y: svm2(X, y, 0.5),
    "weighted_lasso": lambda X, y: weighted_lasso(X, y, 0.5),
    "ridge": lambda X, y: ridge(X, y, 0.5),
    "ridge_dual": lambda X, y: ridge(X, y, 0.5, form="dual"),
    "rlsc": lambda X, y: rlsc(X, y, 0.5),
}


@pytest.mark.parametrize("name", BUILDERS)
def test_every_parametrised_formulation_is_dpp_on_both_paths(name, data):
    """Not DPP on either path means every re-solve with a new lam/C recompiles."""
    X, y = data
    problem = BUILDERS[name](X, y)
    assert problem.is_dcp() and problem.is_dpp()
    assert problem.is_dpp("dcp", quad_form_dpp="qp")  # the path of QP-capable backends
    assert problem.parameters(), "the hyperparameter must be a cvxpy.Parameter"


def _l1_svm_linprog(X, y, lam):
    """The 1-norm SVM LP written out for scipy: variables [w+, w-, b, xi]."""
    n, d = X.shape
    c = np.concatenate([np.full(2 * d, lam), [0.0], np.ones(n)])
    YX = y[:, None] * X
    A_ub = np.hstack([-YX, YX, -y[:, None], -np.eye(n)])  # y(Xw + b) >= 1 - xi
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    res = linprog(c, A_ub=A_ub, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert res.status == 0
    return res.fun


def _hinge_objective(X, y, w, b, lam):
    return np.maximum(0.0, 1.0 - y * (X @ w + b)).sum() + lam * np.abs(w).sum()


LP_BACKENDS = [b for b, c in available_backends().items() if "LP" in c and b != "OSQP"]


@pytest.mark.parametrize("backend", LP_BACKENDS)
def test_l1_svm_with_every_lp_backend_matches_linprog(backend, data):
    """Regression test: the hinge written with cvxpy.pos came back wrong on HIGHS/SCIPY.

    OSQP is left out: it stops at optimal_inaccurate on this LP (test_backends).
    """
    X, y = data
    lam = 0.5
    problem = l1_svm(X, y, lam)
    options = {"eps_abs": 1e-9, "eps_rel": 1e-9} if backend == "SCS" else {}
    problem.solve(solver=backend, **options)
    assert problem.status == "optimal"
    v = problem.var_dict
    w, b = v["w_pos"].value - v["w_neg"].value, v["b"].value
    reference = _l1_svm_linprog(X, y, lam)
    rtol = 1e-5 if backend == "SCS" else 1e-6
    np.testing.assert_allclose(_hinge_objective(X, y, w, b, lam), reference, rtol=rtol)
    np.testing.assert_allclose(problem.value, reference, rtol=rtol)


def test_svm_dual_with_selection_is_eq3_of_001(bhattacharyya):
    X, y = bhattacharyya
    sel = Selection(np.array([3, 0, 7, 11]), np.array([1.5, 0.5, 2.0, 1.0]), X.shape[1])
    a = svm_dual(X, y, 1.0, selection=sel)
    b = svm_dual(X @ sel.matrix().toarray(), y, 1.0)
    a.solve(solver="CLARABEL")
    b.solve(solver="CLARABEL")
    np.testing.assert_allclose(a.value, b.value, rtol=1e-7)


def test_svm_dual_gram_and_factor_forms_agree(ionosphere):
    """n > d uses sum_squares(X'Ya); the same data transposed-in-size uses the Gram."""
    X, y = ionosphere
    factor = svm_dual(X, y, 1.0)  # n = 351 > d = 33
    padded = np.hstack([X, np.zeros((X.shape[0], X.shape[0]))])  # n <= d: Gram form
    gram_form = svm_dual(padded, y, 1.0)
    factor.solve(solver="CLARABEL")
    gram_form.solve(solver="CLARABEL")
    np.testing.assert_allclose(factor.value, gram_form.value, rtol=1e-7)


def test_sparse_data_gives_the_same_problem_value(bhattacharyya):
    X, y = bhattacharyya
    for build in (BUILDERS["svm_dual"], BUILDERS["l1_svm"], BUILDERS["weighted_lasso"]):
        dense, sparse = build(X, y), build(sp.csr_matrix(X), y)
        dense.solve(solver="CLARABEL")
        sparse.solve(solver="CLARABEL")
        np.testing.assert_allclose(dense.value, sparse.value, rtol=1e-7)


def test_enclosing_ball_against_points_on_a_sphere():
    rng = np.random.default_rng(0)
    U = rng.standard_normal((40, 3))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    center = np.array([1.0, -2.0, 0.5])
    problem = enclosing_ball(2.0 * U + center)
    problem.solve(solver="CLARABEL")
    np.testing.assert_allclose(problem.value, 2.0, rtol=1e-6)
    np.testing.assert_allclose(problem.var_dict["center"].value, center, atol=1e-5)


def test_enclosing_ball_radius_is_the_largest_distance_from_its_center(bhattacharyya):
    X, _ = bhattacharyya
    problem = enclosing_ball(sp.csr_matrix(X))
    problem.solve(solver="CLARABEL")
    c = problem.var_dict["center"].value
    np.testing.assert_allclose(np.linalg.norm(X - c, axis=1).max(), problem.value, rtol=1e-6)
    assert problem.value <= np.linalg.norm(X - X.mean(axis=0), axis=1).max()


@pytest.mark.parametrize("bad", [0.0, -1.0, np.nan, np.inf])
def test_nonpositive_hyperparameters_are_rejected(ionosphere, bad):
    X, y = ionosphere
    with pytest.raises(InvalidParameterError, match="'C' parameter of svm_dual"):
        svm_dual(X, y, bad)
    with pytest.raises(InvalidParameterError, match="'lam' parameter of ridge"):
        ridge(X, y, bad)


# Bad arguments fail with an error naming the argument before any CVXPY object is built:
# cvxpy.Variable is patched to fail, so an error raised by CVXPY itself would not match.
X4 = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.5]])
Y4 = np.array([-1.0, -1.0, 1.0, 1.0])
BAD_ARGUMENTS = [
    (l1_svm, {"lam": -1.0}, "'lam' parameter of l1_svm"),
    (l1_svm, {"lam": "1"}, "'lam' parameter of l1_svm"),
    (l1_svm, {"weights": "abc"}, "'weights' parameter of l1_svm"),
    (l1_svm, {"weights": [1.0, -1.0]}, "weights must be >= 0"),
    (l1_svm, {"weights": [1.0, 1.0, 1.0]}, r"weights must have shape \(2,\)"),
    (svm2, {"lam": 0.0}, "'lam' parameter of svm2"),
    (svm2, {"sample_weight": "abc"}, "'sample_weight' parameter of svm2"),
    (svm2, {"sample_weight": [1.0, 1.0]}, "sample_weight must hold 4"),
    (svm_dual, {"C": 0}, "'C' parameter of svm_dual"),
    (svm_dual, {"loss": "l1"}, "'loss' parameter of svm_dual"),
    (svm_dual, {"selection": np.arange(2)}, "'selection' parameter of svm_dual"),
    (svm_primal, {"C": -0.5}, "'C' parameter of svm_primal"),
    (svm_primal, {"loss": "logistic"}, "'loss' parameter of svm_primal"),
    (weighted_lasso, {"lam": -1.0}, "'lam' parameter of weighted_lasso"),
    (ridge, {"form": "x"}, "'form' parameter of ridge"),
    (ridge, {"lam": 0.0}, "'lam' parameter of ridge"),
    (rlsc, {"lam": -1e-3}, "'lam' parameter of rlsc"),
    (rlsc, {"sample_weight": [1.0, -1.0, 1.0, 1.0]}, "sample_weight must hold 4"),
]


@pytest.fixture
def no_cvxpy(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a CVXPY variable was built before the arguments were checked")

    monkeypatch.setattr(cp, "Variable", refuse)


@pytest.mark.parametrize(
    "build, kwargs, match",
    BAD_ARGUMENTS,
    ids=[f"{b.__name__}-{next(iter(k))}" for b, k, _ in BAD_ARGUMENTS],
)
def test_bad_hyperparameters_name_the_argument_before_cvxpy(build, kwargs, match, no_cvxpy):
    with pytest.raises(ValueError, match=match):
        build(X4, Y4, **kwargs)


SUPERVISED = [svm_dual, svm_primal, l1_svm, svm2, weighted_lasso, ridge, rlsc]


@pytest.mark.parametrize("build", SUPERVISED)
def test_bad_data_names_the_argument_before_cvxpy(build, no_cvxpy):
    with pytest.raises(ValueError, match="X"):
        build(np.where(X4 == 0, np.nan, X4), Y4)  # NaN in X
    with pytest.raises(ValueError, match="X"):
        build(X4[:, 0], Y4)  # 1-D X
    with pytest.raises(ValueError, match="X"):
        build(None, Y4)
    with pytest.raises(ValueError, match=r"y must have shape \(4,\)"):
        build(X4, Y4[:3])  # one label short
    with pytest.raises(ValueError, match="y"):
        build(X4, None)
    with pytest.raises(ValueError, match="y contains NaN"):
        build(X4, np.array([-1.0, np.nan, 1.0, 1.0]))
    with pytest.raises(ValueError, match="X"):
        build(sp.csr_matrix(np.where(X4 == 0, np.inf, X4)), Y4)  # inf in a sparse X


@pytest.mark.parametrize("build", [svm_dual, svm_primal, l1_svm, svm2])
def test_classifiers_need_both_labels_minus_one_and_plus_one(build, no_cvxpy):
    with pytest.raises(ValueError, match="y must hold the labels -1 and \\+1"):
        build(X4, np.array([0.0, 0.0, 1.0, 1.0]))  # 0/1 labels
    with pytest.raises(ValueError, match="both present"):
        build(X4, np.ones(4))  # one class


def test_regression_formulations_take_any_real_targets():
    y = np.array([0.5, -2.0, 3.0, 0.0])
    for build in (weighted_lasso, ridge, rlsc, lambda X, y: ridge(X, y, form="dual")):
        assert build(X4, y).is_dcp()


def test_enclosing_ball_checks_its_points(no_cvxpy):
    with pytest.raises(ValueError, match="X"):
        enclosing_ball(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError, match="'X' parameter of enclosing_ball"):
        enclosing_ball(None)


def test_rlsc_allows_lam_zero(ionosphere):
    X, y = ionosphere
    assert rlsc(X, y, 0.0).param_dict["lam"].value == 0.0


def test_resolve_with_new_parameter_skips_compilation(ionosphere):
    X, y = ionosphere
    problem = l1_svm(X, y, 1.0)
    problem.solve(solver="CLARABEL")
    compiled = problem._cache.param_prog
    problem.param_dict["lam_w"].value = np.full(X.shape[1], 0.1)
    problem.solve(solver="CLARABEL")
    assert problem._cache.param_prog is compiled  # reused, not recompiled
    fresh = l1_svm(X, y, 0.1)
    fresh.solve(solver="CLARABEL")
    np.testing.assert_allclose(problem.value, fresh.value, rtol=1e-7)


def test_names_of_variables_and_parameters(bhattacharyya):
    X, y = bhattacharyya
    assert set(svm_dual(X, y).var_dict) == {"alpha"}
    assert set(l1_svm(X, y).var_dict) == {"w_pos", "w_neg", "b", "xi"}
    assert set(svm2(X, y).var_dict) == {"w", "b", "xi", "l1"}
    assert set(l1_svm(X, y).param_dict) == {"lam_w"}
    assert set(weighted_lasso(X, y).var_dict) == {"beta", "beta0", "l1"}
    assert set(ridge(X, y).var_dict) == {"beta"} and set(rlsc(X, y).var_dict) == {"x"}
    assert isinstance(svm_primal(X, y).constraints[0], cp.constraints.Inequality)
