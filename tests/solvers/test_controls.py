"""The controls scikit-learn users know: tol, max_iter, verbose, warm_start, n_iter_.

Each control must change what it says it changes: ``tol`` the certificate's tolerance
(and how far the iterative backends go: the gap is recomputed by
:mod:`solvers.certificates` from the fitted attributes, not read from the backend);
``max_iter`` the iterations of whichever backend runs (stopped short, the last answer
is kept with a ConvergenceWarning and a certificate that fails); ``verbose`` what is
printed; ``warm_start`` where the next fit on the same data starts.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from benchmarks._text import text_like, text_regression_target
from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    SVM2CV,
    AdaptiveLasso,
    HybridSVM,
    RidgeRegression,
    SparseLogisticRegression,
    SVMDual,
    WeightedLasso,
)
from solvers.certificates import l1_svm_certificate
from solvers.exceptions import SolverError


@pytest.fixture(scope="module")
def text():
    X, y = text_like(400, 3000, seed=3)
    return X, y, text_regression_target(X)


#: (estimator, its iterative backend, target kind): each library backend that iterates.
ITERATIVE = [
    (SVMDual(C=10.0), "DUAL_CD", "labels"),
    (L2SVM(C=10.0, loss="squared_hinge"), "DUAL_CD", "labels"),
    (SVM2(lam=0.5), "CD", "labels"),
    (WeightedLasso(lam=0.05), "CD", "target"),
    (RidgeRegression(lam=0.01), "CG", "target"),
    (SparseLogisticRegression(lam=0.5), "PROX_NEWTON", "labels"),
    (L1SVM(lam=0.5), "COLUMN_GENERATION", "labels"),
    (SVM2(lam=0.5), "HOMOTOPY", "labels"),
]


def _target(kind, text):
    X, y, t = text
    return X, (y if kind == "labels" else t)


@pytest.mark.parametrize(("est", "name", "kind"), ITERATIVE, ids=lambda v: str(v)[:40])
def test_max_iter_stops_the_backend_with_a_convergence_warning(est, name, kind, text):
    X, y = _target(kind, text)
    full = clone(est).set_params(solver=name).fit(X, y)
    assert full.certificate_.holds and full.n_iter_ > 1
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        stopped = clone(est).set_params(solver=name, max_iter=1).fit(X, y)
    assert stopped.n_iter_ == 1 and stopped.backend_ == name
    assert not stopped.certificate_.holds  # the kept answer is not called optimal
    assert np.ravel(stopped.coef_).shape == np.ravel(full.coef_).shape


def test_max_iter_reaches_the_cvxpy_solver(text):
    """Clarabel with one iteration stops short; without a library backend's answer to
    keep, that is a SolverError naming it."""
    X, y, _ = text
    with pytest.raises(SolverError, match="CLARABEL"):
        SVMDual(solver="CLARABEL", max_iter=1).fit(X[:100], y[:100])
    fit = SVMDual(solver="CLARABEL").fit(X[:100], y[:100])
    assert fit.certificate_.holds and fit.n_iter_ > 1


@pytest.mark.parametrize(("est", "name", "kind"), ITERATIVE[:6], ids=lambda v: str(v)[:40])
def test_tol_sets_the_certificate_and_how_far_the_backend_goes(est, name, kind, text):
    X, y = _target(kind, text)
    loose = clone(est).set_params(solver=name, tol=1e-2).fit(X, y)
    tight = clone(est).set_params(solver=name, tol=1e-10).fit(X, y)
    assert loose.certificate_.tolerance == 1e-2 and loose.dual_gap_ <= 1e-2
    assert tight.certificate_.tolerance == 1e-10
    assert tight.dual_gap_ <= max(1e-10, tight.certificate_.resolution)
    assert _cost(loose) <= _cost(tight)


def _cost(fit):
    """How far the backend went: its iterations, or for DUAL_CD the entries of X it read
    (a face step replaces many epochs, so a tighter tol may take fewer epochs)."""
    return fit.solve_attempts_[-1].get("work", fit.n_iter_)


def test_tol_is_the_certificates_own_tolerance_on_the_fitted_answer():
    """The certificate of the answer recomputed from the data with the same tolerance."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 8))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1, -1)
    fit = L1SVM(lam=1.0, tol=1e-3).fit(X, y)
    again = l1_svm_certificate(X, y, fit.coef_[0], fit.intercept_[0], lam=1.0, tolerance=1e-3)
    assert fit.certificate_.tolerance == again.tolerance == 1e-3
    assert fit.certificate_.holds == again.holds


def test_verbose_prints_the_plan_and_each_attempt(text, capsys):
    X, y, _ = text
    SVM2(lam=0.5).fit(X, y)
    assert capsys.readouterr().out == ""
    SVM2(lam=0.5, verbose=1).fit(X, y)
    out = capsys.readouterr().out
    assert out.startswith("SVM2: planned ") and "relative gap" in out and "(certified)" in out
    SVMDual(solver="CLARABEL", verbose=2).fit(X[:60], y[:60])
    assert "Clarabel" in capsys.readouterr().out  # the solver's own log


@pytest.mark.parametrize(("est", "name", "kind"), ITERATIVE[:6], ids=lambda v: str(v)[:40])
def test_warm_start_starts_from_the_last_answer_on_the_same_data(est, name, kind, text):
    """A second fit at a nearby penalty: from the last answer it costs less (`_cost`);
    with warm_start=False as many as a first fit. Both certified."""
    X, y = _target(kind, text)
    penalty = "C" if "C" in est.get_params() else "lam"
    value = est.get_params()[penalty]
    counts = {}
    for warm in (True, False):
        model = clone(est).set_params(solver=name, warm_start=warm).fit(X, y)
        model.set_params(**{penalty: value * 0.8}).fit(X, y)
        assert model.certificate_.holds
        counts[warm] = _cost(model)
    cold = clone(est).set_params(solver=name, **{penalty: value * 0.8}).fit(X, y)
    assert counts[False] == _cost(cold)
    assert counts[True] < counts[False]


@pytest.mark.parametrize(
    "est", [SVMDual(), L2SVM(), L1SVM(), SVM2(), WeightedLasso(), AdaptiveLasso(), RLSC(),
            RidgeRegression(), SparseLogisticRegression()],  # fmt: skip
    ids=lambda e: type(e).__name__,
)
def test_every_estimator_has_the_controls_and_n_iter(est, text):
    params = est.get_params()
    assert {"tol", "max_iter", "verbose", "warm_start"} <= set(params)
    X, y, t = text
    target = t if type(est).__name__ in ("WeightedLasso", "AdaptiveLasso", "RidgeRegression") else y
    fit = est.fit(X[:80, :200], target[:80])
    assert isinstance(fit.n_iter_, int | np.integer) and fit.n_iter_ >= 1


def test_wrappers_pass_the_controls_to_their_final_fit(text):
    X, y, _ = text
    cv = SVM2CV(cv=3, lams=4, tol=1e-3).fit(X[:90, :100], y[:90])
    assert cv.estimator_.tol == 1e-3 and cv.certificate_.tolerance == 1e-3
    hybrid = HybridSVM(base="svm2", C_grid=(1.0,), lam=1.0, max_iter=500, verbose=0)
    hybrid.fit(X[:90, :100], y[:90])
    assert hybrid.estimator_.max_iter == 500 and hybrid.n_iter_ >= 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert hybrid.certificate_.holds


@pytest.mark.parametrize(
    "est", [SVMDual(), L2SVM(), L1SVM(), SVM2(), WeightedLasso(), AdaptiveLasso(), RLSC(),
            RidgeRegression(), SparseLogisticRegression()],  # fmt: skip
    ids=lambda e: type(e).__name__,
)
def test_one_name_per_road(est, text):
    """``backend_`` is the name the answering attempt has in ``solve_attempts_``, a name
    ``solver=`` accepts; that name as ``solver`` gives the same answer, and None is the
    default."""
    from solvers import available_backends

    X, y, t = text
    target = t if type(est).__name__ in ("WeightedLasso", "AdaptiveLasso", "RidgeRegression") else y
    X, target = X[:150, :400], target[:150]
    default = clone(est).fit(X, target)
    answered = [a for a in default.solve_attempts_ if a["status"] == "optimal"][-1]
    assert default.backend_ == answered["backend"]
    if default.backend_ != "closed_form":  # lam above lam_max: no backend ran
        assert default.backend_ in available_backends(est)
        named = clone(est).set_params(solver=default.backend_).fit(X, target)
        assert named.backend_ == default.backend_
        np.testing.assert_allclose(named.coef_, default.coef_, rtol=1e-6, atol=1e-9)
    assert clone(est).set_params(solver=None).fit(X, target).backend_ == default.backend_
