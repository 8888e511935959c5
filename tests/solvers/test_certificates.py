"""The certificates of solvers.certificates are valid bounds on the optimum.

Every optimum here is computed independently of the code under test: a CVXPY problem
written in this file and solved by Clarabel at 1e-11, ``scipy.optimize.linprog``
(HiGHS simplex, an exact vertex) for the 1-norm SVM LP, scikit-learn's ``Lasso`` and
``SVC``, and the ridge normal equations solved by least squares. For the optimum and
for perturbed points the certificate must bracket the optimum
(``dual <= optimum <= primal``), its gap must be at least the true suboptimality,
and ``holds`` must be True at the optimum and False 1e-3 away from it.

Columns at 1e-12 and 1e12 beside unit columns are solved by the references on the
unit-scale problem (column ``X_j / c_j``, weight ``W_j / c_j``, coefficient
``c_j b_j``: the same problem, the same optimal value) and mapped back.
"""

import cvxpy as cp
import numpy as np
import pytest
from scipy.linalg import solve
from scipy.optimize import linprog
from sklearn.linear_model import Lasso
from sklearn.svm import SVC

from solvers.certificates import (
    GAP_TOLERANCE,
    Certificate,
    l1_svm_certificate,
    lasso_certificate,
    ridge_certificate,
    svm2_certificate,
    svm_certificate,
)
from sparsify.datasets import load_ionosphere

TIGHT = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11, "max_iter": 500}
# Relative slack for comparing with a reference optimum (Clarabel at 1e-11, float64).
SLACK = 1e-9
SCALES = np.array([1.0, 1.0, 1e-12, 1e12, 1.0, 1.0])
MIXED = np.array([1.0, 0.0, 1.0, 1.0, np.inf, 0.5])


# -- data ---------------------------------------------------------------------------


def _random(seed=0, n=40):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, SCALES.size))
    labels = np.where(X[:, 0] - X[:, 4] + 0.7 * rng.standard_normal(n) > 0, 1.0, -1.0)
    target = X @ np.array([1.5, -2.0, 0.0, 1.0, 0.5, 0.0]) + 0.5 * rng.standard_normal(n)
    return X, labels, target


def _ionosphere():
    X, y = load_ionosphere()
    return X, y, y.copy()


# -- independent references -----------------------------------------------------------


def _clarabel(objective, constraints=()):
    problem = cp.Problem(cp.Minimize(objective), list(constraints))
    problem.solve(solver="CLARABEL", **TIGHT)
    if problem.status != "optimal":  # 1e-11 is out of reach: 1e-10 is enough here
        problem.solve(solver="CLARABEL", **{k: max(v, 1e-10) for k, v in TIGHT.items()})
    assert problem.status == "optimal"


def _unit(X, scales, weights):
    """The same problem on unit-scale columns: X_j / c_j, weight W_j / c_j."""
    weights = np.ones(X.shape[1]) if weights is None else np.asarray(weights, float)
    return X / scales, weights / scales


def ref_l1_hinge(X, y, lam, weights, scales, *, squared):
    """``sum hinge(^2) + lam sum W_j |w_j|`` by CVXPY/Clarabel on the unit-scale problem."""
    U, W = _unit(X, scales, weights)
    kept = np.isfinite(W)
    w, b = cp.Variable(int(kept.sum())), cp.Variable()
    hinge = cp.pos(1 - cp.multiply(y, U[:, kept] @ w + b))
    loss = cp.sum_squares(hinge) if squared else cp.sum(hinge)
    _clarabel(loss + lam * cp.sum(cp.multiply(W[kept], cp.abs(w))))
    coef = np.zeros(X.shape[1])
    coef[kept] = w.value / scales[kept]
    return coef, float(b.value)


def ref_l1_svm_lp(X, y, lam, weights, scales=None):
    """The 1-norm SVM LP by linprog (HiGHS simplex): variables w+, w-, b, xi."""
    scales = np.ones(X.shape[1]) if scales is None else scales
    U, W = _unit(X, scales, weights)
    kept = np.flatnonzero(np.isfinite(W))
    U, W = U[:, kept], W[kept]
    n, d = U.shape
    cost = np.concatenate((lam * W, lam * W, [0.0], np.ones(n)))
    YU = y[:, None] * U
    # xi_i >= 1 - y_i (u_i'(w+ - w-) + b)
    A = np.hstack((-YU, YU, -y[:, None], -np.eye(n)))
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs-ds")
    assert result.status == 0
    coef = np.zeros(X.shape[1])
    coef[kept] = (result.x[:d] - result.x[d : 2 * d]) / scales[kept]
    return coef, float(result.x[2 * d])


def ref_lasso(X, y, lam, weights, scales):
    U, W = _unit(X, scales, weights)
    kept = np.isfinite(W)
    b, b0 = cp.Variable(int(kept.sum())), cp.Variable()
    _clarabel(
        cp.sum_squares(y - U[:, kept] @ b - b0) + lam * cp.sum(cp.multiply(W[kept], cp.abs(b)))
    )
    coef = np.zeros(X.shape[1])
    coef[kept] = b.value / scales[kept]
    return coef, float(b0.value)


def ref_svm(X, y, C, *, squared):
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    hinge = cp.pos(1 - cp.multiply(y, X @ w + b))
    _clarabel(0.5 * cp.sum_squares(w) + C * (cp.sum_squares(hinge) if squared else cp.sum(hinge)))
    return w.value, float(b.value)


def ref_ridge(X, y, lam):
    """The normal equations ``(X'X + lam I) b = X'y``, equilibrated (``D^-1 A D^-1``,
    ``D = sqrt(diag A)``) so that columns at 1e-12 and 1e12 are solved to full
    relative accuracy."""
    A = X.T @ X + lam * np.eye(X.shape[1])
    s = np.sqrt(np.diag(A))
    return solve(A / np.outer(s, s), (X.T @ y) / s, assume_a="pos") / s


# -- objectives evaluated here, in NumPy -----------------------------------------------


def _hinge(X, y, coef, intercept):
    return np.maximum(0.0, 1.0 - y * (X @ coef + intercept))


def _l1(lam, weights, coef):
    weights = np.ones(coef.size) if weights is None else np.asarray(weights, float)
    if np.any(coef[np.isinf(weights)] != 0):
        return np.inf
    finite = np.isfinite(weights)
    return lam * float(weights[finite] @ np.abs(coef[finite]))


def objective(model, X, y, coef, intercept, hyper, weights):
    if model == "svm" or model == "svm_squared":
        h = _hinge(X, y, coef, intercept)
        return 0.5 * coef @ coef + hyper * (h @ h if model == "svm_squared" else h.sum())
    if model == "l1_svm":
        return _hinge(X, y, coef, intercept).sum() + _l1(hyper, weights, coef)
    if model == "svm2":
        h = _hinge(X, y, coef, intercept)
        return h @ h + _l1(hyper, weights, coef)
    if model == "lasso":
        r = y - X @ coef - intercept
        return r @ r + _l1(hyper, weights, coef)
    r = y - X @ coef
    return r @ r + hyper * coef @ coef


def certify(model, X, y, coef, intercept, hyper, weights):
    if model in ("svm", "svm_squared"):
        loss = "squared_hinge" if model == "svm_squared" else "hinge"
        return svm_certificate(X, y, coef, intercept, hyper, loss=loss)
    if model == "l1_svm":
        return l1_svm_certificate(X, y, coef, intercept, hyper, weights)
    if model == "svm2":
        return svm2_certificate(X, y, coef, intercept, hyper, weights)
    if model == "lasso":
        return lasso_certificate(X, y, coef, intercept, hyper, weights)
    return ridge_certificate(X, y, coef, hyper)


def reference(model, X, y, hyper, weights, scales):
    if model in ("svm", "svm_squared"):
        return ref_svm(X, y, hyper, squared=model == "svm_squared")
    if model == "l1_svm":
        return ref_l1_svm_lp(X, y, hyper, weights, scales)
    if model == "svm2":
        return ref_l1_hinge(X, y, hyper, weights, scales, squared=True)
    if model == "lasso":
        return ref_lasso(X, y, hyper, weights, scales)
    return ref_ridge(X, y, hyper), 0.0


# (model, data, hyperparameter, weights, column scales)
CASES = [
    ("svm", "random", 1.0, None, False),
    ("svm", "ionosphere", 1.0, None, False),
    ("svm_squared", "random", 0.5, None, False),
    ("svm_squared", "ionosphere", 0.1, None, False),
    ("l1_svm", "random", 2.0, None, False),
    ("l1_svm", "random", 1.0, MIXED, False),
    ("l1_svm", "random", 1.0, MIXED, True),
    ("l1_svm", "ionosphere", 1.0, None, False),
    ("svm2", "random", 5.0, None, False),
    ("svm2", "random", 3.0, MIXED, False),
    ("svm2", "random", 3.0, MIXED, True),
    ("svm2", "ionosphere", 2.0, None, False),
    ("lasso", "random", 10.0, None, False),
    ("lasso", "random", 10.0, MIXED, False),
    ("lasso", "random", 10.0, MIXED, True),
    ("lasso", "ionosphere", 5.0, None, False),
    ("ridge", "random", 1.0, None, False),
    ("ridge", "random", 1.0, None, True),
    ("ridge", "ionosphere", 1.0, None, False),
]


def _case_id(case):
    model, data, hyper, weights, scaled = case
    parts = [model, data, f"{hyper:g}", "mixed" if weights is not None else "unit"]
    return "-".join(parts + (["scaled"] if scaled else []))


def _setup(case):
    model, data, hyper, weights, scaled = case
    X, labels, target = _ionosphere() if data == "ionosphere" else _random()
    scales = np.ones(X.shape[1])
    if scaled:
        scales = SCALES.copy()
        X = X * scales
    if weights is not None and scaled:
        # The weights follow the column: W_j = c_j keeps feature j in the game
        # (the unit-scale problem has weight 1 for it), except 0 and +inf.
        weights = np.where((weights == 0) | np.isinf(weights), weights, weights * scales)
    y = target if model in ("lasso", "ridge") else labels
    return model, X, y, hyper, weights, scales


@pytest.fixture(scope="module", params=CASES, ids=[_case_id(c) for c in CASES])
def solved(request):
    model, X, y, hyper, weights, scales = _setup(request.param)
    coef, intercept = reference(model, X, y, hyper, weights, scales)
    optimum = objective(model, X, y, coef, intercept, hyper, weights)
    return model, X, y, hyper, weights, coef, intercept, optimum


def _perturbations(coef, intercept, model):
    yield "coef x (1 + 1e-3)", coef * (1 + 1e-3), intercept
    if model != "ridge":
        yield "intercept + 1e-3", coef, intercept + 1e-3


def _check_bounds(certificate, optimum, primal):
    """dual <= optimum <= primal; gap >= primal - optimum (with float64 slack)."""
    tiny = SLACK * max(abs(optimum), 1.0)
    assert isinstance(certificate, Certificate)
    assert certificate.dual <= optimum + tiny, (certificate, optimum)
    assert certificate.primal >= optimum - tiny, (certificate, optimum)
    assert certificate.primal == pytest.approx(primal, rel=1e-10, abs=1e-12)
    assert certificate.gap >= primal - optimum - tiny, (certificate, optimum)
    assert certificate.gap == pytest.approx(certificate.primal - certificate.dual, abs=tiny)


def test_certificate_holds_at_the_independent_optimum(solved):
    model, X, y, hyper, weights, coef, intercept, optimum = solved
    certificate = certify(model, X, y, coef, intercept, hyper, weights)
    _check_bounds(certificate, optimum, optimum)
    assert certificate.tolerance == GAP_TOLERANCE
    assert certificate.holds, str(certificate)
    # The ridge certificate with a column at 1e12 accepts the float64 resolution of
    # the answer (the gap that rounding b by a few ulps causes) when it is larger.
    assert certificate.relative_gap <= max(GAP_TOLERANCE, certificate.resolution)
    if model != "ridge":
        assert certificate.resolution == 0.0


def test_certificate_brackets_the_optimum_and_fails_at_perturbed_points(solved):
    """1e-3 away from the optimum the certificate bounds the optimum and fails.

    A point whose true suboptimality is above the tolerance must fail (the gap is a
    valid bound); along a smooth direction (the lasso's intercept, the scaling of a
    smooth model's coefficients) a 1e-3 step costs only O(1e-6) of the objective, so
    there the certificate may hold, but every case has a perturbation that fails.
    """
    model, X, y, hyper, weights, coef, intercept, optimum = solved
    verdicts = []
    for what, c, b in _perturbations(coef, intercept, model):
        primal = objective(model, X, y, c, b, hyper, weights)
        certificate = certify(model, X, y, c, b, hyper, weights)
        _check_bounds(certificate, optimum, primal)
        # The tolerance is relative to the problem's scale (at least |primal|, to
        # rounding): a point that far above the optimum must fail.
        assert certificate.scale >= abs(primal) * (1 - 1e-12)
        if (primal - optimum) > GAP_TOLERANCE * certificate.scale:
            assert not certificate.holds, (what, str(certificate))
        verdicts.append(certificate.holds)
    assert not all(verdicts), verdicts


def test_excluded_feature_with_a_nonzero_coefficient_has_an_infinite_primal():
    X, labels, target = _random()
    coef = np.zeros(X.shape[1])
    coef[4] = 1e-3  # MIXED[4] = +inf
    for certificate in (
        l1_svm_certificate(X, labels, coef, 0.0, 1.0, MIXED),
        svm2_certificate(X, labels, coef, 0.0, 1.0, MIXED),
        lasso_certificate(X, target, coef, 0.0, 1.0, MIXED),
    ):
        assert certificate.primal == np.inf
        assert not certificate.holds


def test_lasso_certificate_against_scikit_learn_lasso():
    """lam = 2 n alpha: sklearn's optimum (coordinate descent to 1e-14) is certified."""
    X, _, y = _random(3, n=60)
    X = X / SCALES  # unit columns
    n = X.shape[0]
    for lam in (1.0, 20.0, 80.0):
        fit = Lasso(alpha=lam / (2 * n), tol=1e-14, max_iter=1_000_000).fit(X, y)
        value = objective("lasso", X, y, fit.coef_, fit.intercept_, lam, None)  # >= optimum
        certificate = lasso_certificate(X, y, fit.coef_, fit.intercept_, lam)
        assert certificate.holds, str(certificate)
        assert certificate.primal == pytest.approx(value, rel=1e-12)
        assert certificate.dual <= value
        # 1e-3 off in the coefficients of the features sklearn selected: truly
        # suboptimal by more than the tolerance, so the certificate must fail.
        worse = fit.coef_ + 1e-3 * np.sign(fit.coef_)
        excess = objective("lasso", X, y, worse, fit.intercept_, lam, None) - value
        assert excess > 2 * GAP_TOLERANCE * value
        assert not lasso_certificate(X, y, worse, fit.intercept_, lam).holds


def test_svm_certificate_against_scikit_learn_svc():
    """SVC(kernel="linear") brackets the optimum by its own primal and dual values."""
    X, y, _ = _ionosphere()
    C = 1.0
    svc = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
    a = np.zeros(X.shape[0])
    a[svc.support_] = np.abs(svc.dual_coef_.ravel())
    w_dual = X.T @ (y * a)
    svc_dual = a.sum() - 0.5 * w_dual @ w_dual  # a feasible dual point: a lower bound
    svc_primal = objective("svm", X, y, svc.coef_.ravel(), svc.intercept_[0], C, None)
    assert svc_dual <= svc_primal
    certificate = svm_certificate(X, y, svc.coef_.ravel(), svc.intercept_[0], C, alpha=a)
    assert certificate.dual <= svc_primal + SLACK * svc_primal
    assert certificate.primal >= svc_dual - SLACK * svc_primal
    coef, intercept = ref_svm(X, y, C, squared=False)
    ours = svm_certificate(X, y, coef, intercept, C)
    assert svc_dual - SLACK * svc_primal <= ours.primal
    assert ours.dual <= svc_primal + SLACK * svc_primal
    assert ours.holds, str(ours)


def test_l1_svm_lp_reference_agrees_with_clarabel():
    """The two references of the 1-norm SVM agree (the LP optimum is unique in value)."""
    X, y, _ = _random(1)
    for weights in (None, MIXED):
        lp = ref_l1_svm_lp(X, y, 1.0, weights)
        qp = ref_l1_hinge(X, y, 1.0, weights, np.ones(X.shape[1]), squared=False)
        values = [objective("l1_svm", X, y, *ref, 1.0, weights) for ref in (lp, qp)]
        assert values[0] == pytest.approx(values[1], rel=1e-9)


def test_certificate_is_frozen_and_prints_its_verdict():
    X, y, _ = _random()
    coef, intercept = ref_l1_svm_lp(X, y, 1.0, None)
    certificate = l1_svm_certificate(X, y, coef, intercept, 1.0)
    with pytest.raises(AttributeError):
        certificate.gap = 0.0
    assert "holds" in str(certificate)
    bad = l1_svm_certificate(X, y, coef * 1.01, intercept, 1.0)
    assert "fails" in str(bad)


@pytest.mark.parametrize("weights", [[1.0, np.nan, 1, 1, 1, 1], [1.0, -1.0, 1, 1, 1, 1]])
def test_certificates_reject_nan_or_negative_weights_naming_weights(weights):
    X, y, target = _random()
    coef = np.zeros(X.shape[1])
    for fn, yy in ((l1_svm_certificate, y), (svm2_certificate, y), (lasso_certificate, target)):
        with pytest.raises(ValueError, match="weights"):
            fn(X, yy, coef, 0.0, 1.0, weights)
