"""The planner and the registry: the default chain, the reasons, budgets, options.

References: scikit-learn's Lasso and SVC for the answers; the cost models of
``solvers._costs`` themselves for the order the planner must follow.
"""

import math

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import Lasso

import solvers._costs as costs
import solvers.backends._answers as answers
from benchmarks._text import text_like, text_regression_target
from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    RidgeRegression,
    SolverError,
    SparseLogisticRegression,
    SVMDual,
    WeightedLasso,
    available_backends,
)
from solvers._planner import ProblemStats, estimate, plan
from solvers._registry import COMMON_OPTIONS, backend, backends_for


def _lasso_data(seed=0, n=50, d=200):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, X[:, :5] @ np.ones(5) + rng.standard_normal(n)


def test_the_planned_chain_is_ordered_by_the_cost_estimates():
    stats = ProblemStats("lasso", 2000, 20000, 200000, True, math.log(10.0))
    steps = plan(stats, estimator="WeightedLasso")
    estimates = [estimate(step.backend, stats) for step in steps]
    assert estimates == sorted(estimates)
    assert {step.backend for step in steps} <= set(backends_for("lasso"))
    for rank, step in enumerate(steps, start=1):
        assert step.reason.startswith(f"planned {rank} of {len(steps)}: estimated")


def test_a_cheaper_cost_model_moves_its_backend_first(monkeypatch):
    X, y = _lasso_data()
    # Solves of e^-20 and e^-30 s: the fixed cost, the same for both, does not decide.
    cheap = (-20.0, 0, 0, 0, 0, 0, 0, 0, 0)
    monkeypatch.setitem(costs.COSTS, ("lasso", "HOMOTOPY"), cheap)
    fit = WeightedLasso(lam=1.0).fit(X, y)
    assert fit.backend_ == "HOMOTOPY"
    assert fit.solve_attempts_[0]["reason"].startswith("planned 1 of")
    monkeypatch.setitem(costs.COSTS, ("lasso", "CLARABEL"), (-30.0, 0, 0, 0, 0, 0, 0, 0, 0))
    assert WeightedLasso(lam=1.0).fit(X, y).backend_ == "CLARABEL"


@pytest.mark.parametrize("Est", [WeightedLasso, SVM2, L1SVM])
def test_a_weighted_fit_may_run_the_exact_path(Est):
    """Every backend takes sample weights: the weighted exact path gives the answer that
    CVXPY's formulation gives (and it is planned for weighted fits too)."""
    X, y = _lasso_data()
    target = y if Est is WeightedLasso else np.where(y > np.median(y), 1, -1)
    s = np.random.default_rng(3).uniform(0.1, 3.0, y.size)
    s[:4] = 0.0
    lam = 0.3 * Est.lam_max(X, target, sample_weight=s)
    path_fit = Est(lam=lam, solver="HOMOTOPY").fit(X, target, sample_weight=s)
    cvxpy_fit = Est(lam=lam, solver="CLARABEL").fit(X, target, sample_weight=s)
    assert path_fit.backend_ == "HOMOTOPY" and path_fit.certificate_.holds
    np.testing.assert_allclose(path_fit.objective_, cvxpy_fit.objective_, rtol=1e-7)
    model = {WeightedLasso: "lasso", SVM2: "svm2", L1SVM: "l1_svm"}[Est]
    stats = ProblemStats(model, 200, 50, 10000, False, 1.0, weighted=True)
    assert "HOMOTOPY" in [step.backend for step in plan(stats, estimator=Est.__name__)]


def test_a_backend_out_of_budget_hands_its_last_point_to_the_next():
    """The exact path stopped after 3 breakpoints; the next backend starts from there."""
    X, y = _lasso_data(1)
    fit = WeightedLasso(
        lam=1.0, solver=["HOMOTOPY", "CD"], solver_options={"HOMOTOPY": {"max_steps": 3}}
    ).fit(X, y)
    stopped, finished = fit.solve_attempts_
    assert stopped["status"] == "max_iter" and "max_steps=3" in stopped["message"]
    assert finished["warm_start"] == "HOMOTOPY" and fit.backend_ == "CD"
    peer = Lasso(alpha=1.0 / (2 * X.shape[0]), tol=1e-12, max_iter=100000).fit(X, y)
    np.testing.assert_allclose(fit.coef_, peer.coef_, atol=1e-6)


# -- every option of every one of the library's own backends does what it says ---------


@pytest.fixture(scope="module")
def text():
    """A text-like corpus large enough that no first-order answer is polished (the
    polish's dense block would exceed 1e6 entries): tol shows in the gap."""
    X, y = text_like(1000, 5000)
    return X, y, text_regression_target(X)


OPTION_CASES = [
    (SVMDual(C=10.0), "DUAL_CD", {"max_epochs": 1}, "not converged in 1 epochs"),
    (L2SVM(C=10.0, loss="squared_hinge"), "DUAL_CD", {"tol": 1e-3}, None),
    (SVM2(lam=0.5), "CD", {"max_iter": 1}, "not converged"),
    (SVM2(lam=0.5), "CD", {"max_epochs": 1}, "not converged"),
    (WeightedLasso(lam=0.005), "CD", {"tol": 1e-3}, None),
    (WeightedLasso(lam=0.05), "HOMOTOPY", {"max_steps": 1}, "max_steps=1"),
    (L1SVM(lam=0.5), "COLUMN_GENERATION", {"max_rounds": 1}, "not converged in 1 rounds"),
    (RidgeRegression(lam=1e-6), "CG", {"max_iter": 1}, "not converged in 1"),
    (RLSC(lam=1.0), "CG", {"tol": 1e-3}, None),
    (SparseLogisticRegression(lam=0.5), "PROX_NEWTON", {"max_iter": 1}, "not converged in 1"),
    (SparseLogisticRegression(lam=0.5), "PROX_NEWTON", {"max_epochs": 1}, "not converged"),
    (SparseLogisticRegression(lam=0.5), "PROX_NEWTON", {"tol": 1e-3}, None),
]


@pytest.mark.parametrize("est, name, options, words", OPTION_CASES, ids=lambda v: str(v))
def test_each_own_option_changes_what_the_backend_does(
    est, name, options, words, text, monkeypatch
):
    """A budget too small stops the backend (its attempt says so); a loose tol stops it
    at a larger gap than the default's (the exact polish of small answers switched off,
    so that the backend's own answer shows)."""
    monkeypatch.setattr(answers, "CHEAP_POLISH", 0)
    X, labels, target = text
    y = target if type(est) in (WeightedLasso, RidgeRegression) else labels
    default = clone(est).set_params(solver=name).fit(X, y)
    limited = clone(est).set_params(solver=name, solver_options={name: options})
    try:
        limited.fit(X, y)
        attempts = limited.solve_attempts_
    except SolverError as error:
        attempts = error.attempts
    (attempt,) = attempts
    if words is not None:
        assert words in attempt["message"]
    else:
        assert attempt["certificate"].relative_gap > 10 * default.dual_gap_


def test_every_declared_option_is_covered_here():
    """OPTION_CASES exercises each own backend's every option (time_limit aside)."""
    covered = {(name, option) for _, name, options, _ in OPTION_CASES for option in options}
    for name in set(available_backends()):
        declared = backend(name)
        if declared.cvxpy:
            continue
        for option in declared.options:
            assert (name, option) in covered, (name, option)
    assert set(COMMON_OPTIONS) == {"time_limit"}


def test_the_time_limit_is_accepted_by_every_backend(text):
    X, y, _ = text
    X, y = X[:300], y[:300]  # acceptance needs no large fit (the whole corpus: 33 s)
    for est in (SVMDual(), L2SVM(loss="squared_hinge"), L1SVM(lam=1.0), SVM2(), RLSC()):
        for name in available_backends(est):
            if backend(name).cvxpy:
                continue
            fit = est.set_params(solver=name, solver_options={"time_limit": 100.0}).fit(X, y)
            assert fit.certificate_.holds


def test_a_path_planned_first_gets_a_budget_and_hands_over(monkeypatch):
    """The path ahead of CD runs at most max(100, 2 (n + min(n, d))) breakpoints."""
    monkeypatch.setitem(costs.COSTS, ("lasso", "HOMOTOPY"), (-50.0, 0, 0, 0, 0, 0, 0, 0, 0))
    stats = ProblemStats("lasso", 60, 300, 18000, False, math.log(100.0))
    first, *rest = plan(stats, estimator="WeightedLasso")
    assert first.backend == "HOMOTOPY" and first.options == {"max_steps": 240}
    assert "a budget of 240 breakpoints" in first.reason
    assert any(step.backend == "CD" for step in rest)
    # Named by the user, the path runs as asked.
    (named,) = plan(stats, "HOMOTOPY", estimator="WeightedLasso")
    assert named.options == {}
