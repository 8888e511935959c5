"""The certified fallback chain: an attempt counts only when optimal *and* certified.

The optima compared with are computed here by CVXPY problems written in this file
(Clarabel at 1e-10) or by scikit-learn, never read from the estimators.
"""

import subprocess
import sys
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso

import solvers
from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    AdaptiveLasso,
    PathWarning,
    RidgeRegression,
    SolverError,
    SVMDual,
    WeightedLasso,
    available_backends,
)
from solvers.backends._cvxpy_solvers import ACCURACY_OPTIONS, DEFAULT_TIME_LIMIT, TIME_LIMIT_OPTIONS
from solvers.certificates import GAP_TOLERANCE, Certificate, lasso_certificate, svm2_certificate
from solvers.path import lasso_path

ROOT = Path(__file__).parents[2]
LOOSE_SCS = {"SCS": {"eps_abs": 1e-3, "eps_rel": 1e-3}}
TIGHT = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}


def _svm2_optimum(X, y, lam):
    """SVM2 (004 eq. 7) by CVXPY/Clarabel, written here: (value, coef, intercept)."""
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    hinge = cp.pos(1 - cp.multiply(y, X @ w + b))
    problem = cp.Problem(cp.Minimize(cp.sum_squares(hinge) + lam * cp.norm1(w)))
    problem.solve(solver="CLARABEL", **TIGHT)
    assert problem.status == "optimal"
    h = np.maximum(0, 1 - y * (X @ w.value + b.value))
    return h @ h + lam * np.abs(w.value).sum(), w.value, float(b.value)


# -- a backend that says "optimal" above the optimum -----------------------------------


def test_loose_scs_says_optimal_above_the_optimum_and_the_chain_moves_on(ionosphere):
    X, y = ionosphere
    optimum, coef, intercept = _svm2_optimum(X, y, 1.0)
    est = SVM2(lam=1.0, solver=["SCS", "CLARABEL"], solver_options=LOOSE_SCS).fit(X, y)
    assert est.backend_ == "CLARABEL"
    scs, clarabel = est.solve_attempts_
    assert scs["backend"] == "SCS" and scs["status"] == "optimal"
    failed = scs["certificate"]
    assert isinstance(failed, Certificate) and not failed.holds
    # SCS's "optimal" point is measurably above the optimum, and the certificate
    # brackets the optimum.
    assert failed.primal > optimum * (1 + 10 * GAP_TOLERANCE)
    assert failed.dual <= optimum * (1 + 1e-9)
    assert failed.relative_gap > GAP_TOLERANCE
    assert "certificate fails" in scs["message"] and "relative duality gap" in scs["message"]
    assert clarabel["status"] == "optimal" and clarabel["certificate"].holds
    assert est.certificate_ is clarabel["certificate"]
    assert est.dual_gap_ == est.certificate_.relative_gap <= GAP_TOLERANCE
    assert est.objective_ == pytest.approx(optimum, rel=1e-7)
    np.testing.assert_allclose(np.ravel(est.coef_), coef, atol=1e-5)


def test_loose_scs_alone_is_a_solver_error_listing_its_certificate(ionosphere):
    X, y = ionosphere
    with pytest.raises(SolverError) as info:
        SVM2(lam=1.0, solver="SCS", solver_options=LOOSE_SCS).fit(X, y)
    (attempt,) = info.value.attempts
    assert attempt["backend"] == "SCS" and attempt["status"] == "optimal"
    assert not attempt["certificate"].holds
    message = str(info.value)
    assert "SCS: optimal (svm2 certificate fails: relative duality gap" in message
    assert "What to try" in message


def test_a_loose_answer_is_polished_into_the_certified_optimum(ionosphere):
    """SCS at 1e-2 on the lasso: its raw point fails, the fit is the exact optimum.

    The estimator keeps SCS's answer only after polishing it (the exact solution on
    the support SCS found): the fit matches scikit-learn's Lasso far below 1e-2.
    """
    X, y = ionosphere
    lam, n = 0.1, X.shape[0]
    loose = {"eps_abs": 1e-2, "eps_rel": 1e-2}
    b, b0 = cp.Variable(X.shape[1]), cp.Variable()
    cp.Problem(cp.Minimize(cp.sum_squares(y - X @ b - b0) + lam * cp.norm1(b))).solve(
        solver="SCS", **loose
    )
    assert not lasso_certificate(X, y, b.value, float(b0.value), lam).holds
    est = WeightedLasso(lam=lam, solver="SCS", solver_options={"SCS": loose}).fit(X, y)
    assert est.backend_ == "SCS" and est.certificate_.holds
    assert est.dual_gap_ < 1e-9
    sk = Lasso(alpha=lam / (2 * n), tol=1e-14, max_iter=1_000_000).fit(X, y)
    np.testing.assert_allclose(np.ravel(est.coef_), np.ravel(sk.coef_), atol=1e-7)
    assert np.ravel(est.intercept_)[0] == pytest.approx(np.ravel(sk.intercept_)[0], abs=1e-7)


# -- exceptions and time limits move the chain on ---------------------------------------


def test_an_unknown_backend_option_is_a_value_error_naming_the_valid_ones(ionosphere):
    X, y = ionosphere
    options = {"CLARABEL": {"not_an_option": 1}}
    with pytest.raises(ValueError, match="'not_an_option'.* is not an option of CLARABEL") as info:
        SVM2(lam=1.0, solver=["CLARABEL", "ECOS"], solver_options=options).fit(X, y)
    assert "tol_gap_abs" in str(info.value)


@pytest.mark.parametrize(
    "options, words", [({"CLARABEL": {"max_iter": "many"}}, "max_iter")], ids=["wrong-type"]
)
def test_a_bad_backend_option_moves_the_chain_on(ionosphere, options, words):
    X, y = ionosphere
    est = SVM2(lam=1.0, solver=["CLARABEL", "ECOS"], solver_options=options).fit(X, y)
    assert est.backend_ == "ECOS"
    first, second = est.solve_attempts_
    assert first["backend"] == "CLARABEL" and first["status"] == "error"
    assert words in first["message"]
    assert "certificate" not in first
    assert second["status"] == "optimal" and second["certificate"].holds
    optimum, _, _ = _svm2_optimum(X, y, 1.0)
    assert est.objective_ == pytest.approx(optimum, rel=1e-6)


def test_a_bad_highs_option_moves_the_lp_chain_on(ionosphere):
    X, y = ionosphere
    est = L1SVM(
        lam=1.0, solver=["HIGHS", "CLARABEL"], solver_options={"HIGHS": {"presolve": 3}}
    ).fit(X, y)
    assert est.backend_ == "CLARABEL"
    assert est.solve_attempts_[0]["status"] == "error"
    assert est.certificate_.holds


@pytest.mark.parametrize("first", ["CLARABEL", "OSQP"])
def test_the_time_limit_stops_a_backend_and_the_chain_moves_on(ionosphere, first):
    """1e-6 s: Clarabel and OSQP stop with "user_limit"; ECOS (no time option) solves."""
    X, y = ionosphere
    est = SVM2(lam=1.0, solver=[first, "ECOS"], solver_options={"time_limit": 1e-6}).fit(X, y)
    assert est.backend_ == "ECOS"
    stopped, solved = est.solve_attempts_
    assert stopped["backend"] == first and stopped["status"] == "user_limit"
    assert solved["status"] == "optimal" and est.certificate_.holds
    assert all(a["wall_time"] >= 0 for a in est.solve_attempts_)


def test_the_time_limit_applies_to_every_backend_of_the_chain(ionosphere):
    X, y = ionosphere
    with pytest.raises(SolverError) as info:
        L1SVM(solver=["HIGHS", "CLARABEL"], solver_options={"time_limit": 1e-6}).fit(X, y)
    assert [a["status"] for a in info.value.attempts] == ["user_limit", "user_limit"]


def test_time_limit_and_accuracy_tables():
    assert DEFAULT_TIME_LIMIT == 60.0
    assert "ECOS" not in TIME_LIMIT_OPTIONS  # bounded by its iteration cap instead
    for name in ("CLARABEL", "OSQP", "SCS", "HIGHS"):
        assert name in TIME_LIMIT_OPTIONS and name in available_backends()
    for name, options in ACCURACY_OPTIONS.items():
        assert name in available_backends() and options


def test_explicit_options_override_the_accuracy_defaults(ionosphere):
    """A user's tolerance beats ACCURACY_OPTIONS: loose SCS stops early (above)."""
    X, y = ionosphere
    tight = SVM2(lam=1.0, solver="SCS").fit(X, y)  # ACCURACY_OPTIONS: 1e-9
    assert tight.certificate_.holds
    with pytest.raises(SolverError):
        SVM2(lam=1.0, solver="SCS", solver_options=LOOSE_SCS).fit(X, y)


# -- every estimator is certified after fit --------------------------------------------


ESTIMATORS = [
    SVMDual(C=1.0),
    L2SVM(C=1.0),
    L2SVM(C=1.0, loss="squared_hinge"),
    L1SVM(lam=1.0),
    SVM2(lam=1.0),
    WeightedLasso(lam=1.0),
    AdaptiveLasso(lam=1.0),
    RLSC(lam=1.0),
    RidgeRegression(lam=1.0),
    RidgeRegression(lam=1.0, solver="CLARABEL"),
]


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_every_estimator_sets_a_certificate_that_holds(est, data):
    X, y = data
    est.fit(X, y)
    assert isinstance(est.certificate_, Certificate)
    assert est.certificate_.holds, str(est.certificate_)
    assert est.dual_gap_ == est.certificate_.relative_gap
    assert 0.0 <= est.dual_gap_ <= max(GAP_TOLERANCE, est.certificate_.resolution)


def test_dual_gap_bounds_the_true_suboptimality(ionosphere):
    """The estimator's primal objective is within its dual gap of an independent optimum."""
    X, y = ionosphere
    for lam in (0.5, 4.0):
        optimum, _, _ = _svm2_optimum(X, y, lam)
        est = SVM2(lam=lam).fit(X, y)
        assert est.certificate_.dual <= optimum * (1 + 1e-9)
        excess = est.certificate_.primal - optimum
        assert excess <= est.certificate_.gap + 1e-9 * optimum
        assert est.certificate_.primal == pytest.approx(optimum, rel=2 * GAP_TOLERANCE)
        recomputed = svm2_certificate(X, y, np.ravel(est.coef_), np.ravel(est.intercept_)[0], lam)
        assert recomputed.primal == pytest.approx(est.certificate_.primal, rel=1e-12)


# -- exceptions module -------------------------------------------------------------------


def test_path_warning_is_a_convergence_warning():
    assert issubclass(PathWarning, ConvergenceWarning)
    assert solvers.PathWarning is solvers.exceptions.PathWarning
    assert issubclass(SolverError, RuntimeError)
    assert SolverError("x", [{"backend": "A"}]).attempts == [{"backend": "A"}]
    X = np.random.default_rng(0).standard_normal((30, 8))
    y = X[:, 0] + X[:, 1]
    # A filter on scikit-learn's ConvergenceWarning catches a path that stops early.
    with pytest.warns(ConvergenceWarning, match="lam"):
        lasso_path(X, y, max_steps=1)


PROBE = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("exc", "solvers/exceptions.py")
spec.loader.exec_module(importlib.util.module_from_spec(spec))
alone = "cvxpy" in sys.modules
import solvers.exceptions, solvers.path
print(alone, "cvxpy" in sys.modules)
"""


@pytest.fixture(scope="module")
def imported():
    """Whether loading solvers/exceptions.py alone, then ``import solvers.exceptions,
    solvers.path``, import cvxpy, in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return dict(
        zip(
            ("alone_cvxpy", "package_cvxpy"), (w == "True" for w in out), strict=True
        )
    )


def test_the_exceptions_module_does_not_import_cvxpy(imported):
    assert not imported["alone_cvxpy"]


def test_importing_solvers_exceptions_does_not_import_cvxpy(imported):
    assert not imported["package_cvxpy"]
