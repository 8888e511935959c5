"""Issue 30, item 4: every backend listed for an estimator configuration answers it.

``available_backends`` is per model (a loss and a penalty): NEWTON was listed for
``L2SVM()``, which refuses it under the default hinge, and backends that ran into their
time limit on a 318 x 1263 text corpus were listed (OSQP on the 1-norm SVM's LP, HiGHS
on SVM2's QP). Every backend listed for every configuration must accept it and answer a
small problem, certified, with the objective of the problem written out here in CVXPY
and solved by Clarabel at tight tolerances.
"""

import cvxpy as cp
import numpy as np
import pytest

from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
    available_backends,
)
from solvers._registry import DEFAULT_TIME_LIMIT, NOT_DECLARED


def _data():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 8))
    score = X[:, 0] - 0.5 * X[:, 1] + 0.5 * rng.standard_normal(40)
    return X, np.where(score > 0, 1.0, -1.0), score + 2.0


X, Y, T = _data()
LAM_L1 = 3.0


def _hinge(f):
    return cp.pos(1 - cp.multiply(Y, f))


def _clarabel(objective):
    problem = cp.Problem(cp.Minimize(objective))
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-11, tol_gap_rel=1e-11, tol_feas=1e-11)
    return problem.value


def _svm_reference(squared):
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    slack = _hinge(X @ w + b)
    loss = cp.sum_squares(slack) if squared else cp.sum(slack)
    return _clarabel(0.5 * cp.sum_squares(w) + loss)


def _l1_reference(loss):
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    f = X @ w + b
    value = {
        "hinge": cp.sum(_hinge(f)),
        "squared_hinge": cp.sum_squares(_hinge(f)),
        "squares": cp.sum_squares(T - f),
    }[loss]
    return _clarabel(value + LAM_L1 * cp.norm1(w))


def _ridge_reference(target):
    w = cp.Variable(X.shape[1])
    return _clarabel(cp.sum_squares(X @ w - target) + cp.sum_squares(w))


def _ours(loss, coef, intercept, lam=LAM_L1):
    f = X @ coef + intercept
    slack = np.maximum(0.0, 1.0 - Y * f)
    return {
        "svm": 0.5 * coef @ coef + slack.sum(),
        "svm_squared": 0.5 * coef @ coef + (slack**2).sum(),
        "hinge": slack.sum() + lam * np.abs(coef).sum(),
        "squared_hinge": (slack**2).sum() + lam * np.abs(coef).sum(),
        "squares": ((T - f) ** 2).sum() + lam * np.abs(coef).sum(),
        "ridge_t": ((X @ coef - T) ** 2).sum() + coef @ coef,
        "ridge_y": ((X @ coef - Y) ** 2).sum() + coef @ coef,
    }[loss]


#: (configuration, target, our objective's kind, the CVXPY reference)
CONFIGURATIONS = [
    (SVMDual(C=1.0), "y", "svm", lambda: _svm_reference(False)),
    (L2SVM(C=1.0), "y", "svm", lambda: _svm_reference(False)),
    (L2SVM(C=1.0, loss="squared_hinge"), "y", "svm_squared", lambda: _svm_reference(True)),
    (L1SVM(lam=LAM_L1), "y", "hinge", lambda: _l1_reference("hinge")),
    (SVM2(lam=LAM_L1), "y", "squared_hinge", lambda: _l1_reference("squared_hinge")),
    (WeightedLasso(lam=LAM_L1), "t", "squares", lambda: _l1_reference("squares")),
    (RidgeRegression(lam=1.0), "t", "ridge_t", lambda: _ridge_reference(T)),
    (RLSC(lam=1.0), "y", "ridge_y", lambda: _ridge_reference(Y)),
]


def _name(estimator):
    loss = estimator.get_params().get("loss")
    return type(estimator).__name__ + (f"-{loss}" if loss and loss != "hinge" else "")


def _cases():
    for estimator, target, kind, reference in CONFIGURATIONS:
        for backend in available_backends(estimator):
            yield pytest.param(
                estimator, target, kind, reference, backend, id=f"{_name(estimator)}-{backend}"
            )


@pytest.mark.parametrize("estimator, target, kind, reference, backend", list(_cases()))
def test_every_listed_backend_answers(estimator, target, kind, reference, backend):
    fit = estimator.set_params(solver=backend).fit(X, T if target == "t" else Y)
    assert fit.backend_ == backend
    assert fit.certificate_.holds
    value = _ours(kind, fit.coef_.ravel(), float(np.ravel(fit.intercept_)[0]))
    assert value == pytest.approx(reference(), rel=2e-6, abs=1e-9)


def test_the_listing_is_per_model():
    # NEWTON solves the squared hinge only: not listed for L2SVM's default hinge.
    assert "NEWTON" not in available_backends("L2SVM")
    assert "NEWTON" not in available_backends(L2SVM)
    assert "NEWTON" in available_backends(L2SVM(loss="squared_hinge"))
    assert available_backends()["NEWTON"] == ("L2SVM(loss='squared_hinge')",)
    assert "L2SVM(loss='squared_hinge')" in available_backends()["DUAL_CD"]
    with pytest.raises(ValueError, match="NEWTON"):
        L2SVM(solver="NEWTON").fit(X, Y)
    # A class or its name lists what its default instance accepts.
    for estimator, *_ in CONFIGURATIONS:
        if estimator.get_params().get("loss") in (None, "hinge"):
            cls = type(estimator)
            assert available_backends(cls) == available_backends(cls())
            assert available_backends(cls.__name__) == available_backends(cls())


def test_backends_that_ran_out_of_time_are_not_listed_and_say_why():
    assert "OSQP" not in available_backends("L1SVM")
    assert "HIGHS" not in available_backends("SVM2")
    assert "HIGHS" in available_backends("L1SVM")  # the LP's simplex
    # Per formulation: SCS stops short on RLSC's kernel problem, not on ridge's.
    assert "SCS" not in available_backends("RLSC")
    assert "SCS" in available_backends("RidgeRegression")
    assert "RLSC" not in available_backends()["SCS"]
    assert all(reason for reason in NOT_DECLARED.values())
    with pytest.raises(ValueError, match="optimal_inaccurate"):
        L1SVM(solver="OSQP").fit(X, Y)
    with pytest.raises(ValueError, match="time limit"):
        SVM2(solver="HIGHS").fit(X, Y)
    with pytest.raises(ValueError, match="singular"):
        RLSC(solver="SCS").fit(X, Y)
    assert DEFAULT_TIME_LIMIT == 60.0


def test_the_exact_l1_svm_path_is_declared_up_to_a_size():
    # 26 s on the sweep's 2000 x 20000 text where COLUMN_GENERATION takes 0.2 s: above
    # its size limit, named it says why, and the planned chain leaves it out.
    from benchmarks._text import text_like
    from solvers._planner import ProblemStats, plan

    X, y = text_like(2000, 20000, seed=0)
    with pytest.raises(ValueError, match="not declared for L1SVM problems of this size"):
        L1SVM(lam=1.0, solver="HOMOTOPY").fit(X, y)
    stats = ProblemStats("l1_svm", 2000, 20000, X.nnz, True, 2.0)
    assert "HOMOTOPY" not in [step.backend for step in plan(stats, estimator="L1SVM")]
    small = ProblemStats("l1_svm", 318, 1263, 12720, True, 2.0)
    assert "HOMOTOPY" in [step.backend for step in plan(small, estimator="L1SVM")]


def test_newton_is_declared_where_its_dense_blocks_fit():
    # Newton's method forms dense blocks (the n x n Gram matrix when d > n): on sparse
    # text whose blocks would take more than twice X it is not declared at that size,
    # and says so before running; on the same data dense, or on a small sparse X, it
    # answers, certified, at the squared-hinge SVM's optimum (CLARABEL's, in the test).
    from benchmarks._text import text_like
    from solvers._planner import ProblemStats, plan

    X, y = text_like(600, 3000, words_per_document=10, seed=1)  # 36e4 entries > 2^17
    with pytest.raises(ValueError, match="NEWTON' is not declared for L2SVM problems of this"):
        L2SVM(loss="squared_hinge", solver="NEWTON").fit(X, y)
    stats = ProblemStats("svm_squared_hinge", 600, 3000, X.nnz, True, 2.0)
    assert "NEWTON" not in [step.backend for step in plan(stats, estimator="L2SVM")]
    dense = ProblemStats("svm_squared_hinge", 600, 3000, 600 * 3000, False, 2.0)
    assert "NEWTON" in [step.backend for step in plan(dense, estimator="L2SVM")]
    small_X, small_y = X[:200], y[:200]  # 200^2 entries: within 2^17
    newton = L2SVM(loss="squared_hinge", solver="NEWTON").fit(small_X, small_y)
    reference = L2SVM(loss="squared_hinge", solver="CLARABEL").fit(small_X, small_y)
    assert newton.certificate_.holds
    np.testing.assert_allclose(newton.objective_, reference.objective_, rtol=1e-6)


def test_a_cvxpy_fallback_that_would_not_fit_in_memory_is_not_run(monkeypatch):
    # Issue 32: a planned chain runs a CVXPY backend only when its memory, estimated
    # from n, d and nnz, fits in MEMORY_SHARE of the machine; else the SolverError says so.
    import solvers._planner as planner
    from solvers.exceptions import SolverError

    hard = {"DUAL_CD": {"max_epochs": 1}}  # the own backend stops short
    fit = SVMDual(C=1.0, solver_options=hard).fit(X, Y)
    assert fit.backend_ != "DUAL_CD" and fit.certificate_.holds
    needed = planner.cvxpy_memory(planner.ProblemStats("svm", 40, 8, 320, False, 1.0))
    assert needed == 8.0 * (2 * 8**2 + 10 * (320 + 40 + 8))
    monkeypatch.setattr(planner, "machine_memory", lambda: needed)  # share 0.5: too big
    with pytest.raises(SolverError, match="skipped .not run: it would need about") as error:
        SVMDual(C=1.0, solver_options=hard).fit(X, Y)
    statuses = {a["backend"]: a["status"] for a in error.value.attempts}
    assert all(statuses[name] == "skipped" for name in ("CLARABEL", "ECOS", "OSQP"))
    # Named, it runs.
    assert SVMDual(C=1.0, solver="CLARABEL").fit(X, Y).certificate_.holds
