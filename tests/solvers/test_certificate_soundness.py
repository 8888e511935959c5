"""The certificate cannot lie: weak duality for every candidate, against CVXPY optima.

For every loss x penalty (and the papers' models), with penalty weights holding 0
(unpenalised) and +inf (excluded), sample weights holding 0, dense and CSR X, n > d
and d > n: candidates near the optimum (perturbed in random directions by 1e-9 to 1e-1
of its norm) are certified only when their objective is within the tolerance of the
optimum, which two CVXPY backends that agree compute here from the objective written
out; and the certificate's dual never exceeds that optimum (nor its own primal) by
more than rounding.
"""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

from solvers import SVM2
from solvers.certificates import (
    GAP_TOLERANCE,
    certificate,
    l1_svm_certificate,
    lasso_certificate,
    svm2_certificate,
    svm_certificate,
)

# Rounding allowance of weak duality, relative to the certificate's scale.
ROUNDING = 1e-9
SCALES = np.logspace(-9, -1, 9)


def _data(n, d, seed, *, sparse, labels):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    truth = np.zeros(d)
    truth[: max(2, d // 5)] = rng.standard_normal(max(2, d // 5))
    f = X @ truth + 0.5 * rng.standard_normal(n)
    y = np.where(f > np.median(f), 1.0, -1.0) if labels else f + 3.0
    weights = rng.uniform(0.5, 2.0, d)
    weights[1] = 0.0
    weights[-1] = np.inf
    s = rng.uniform(0.2, 3.0, n)
    s[0] = 0.0
    return (sp.csr_matrix(X) if sparse else X), y, weights, s


def _objective(loss, X, y, s, w, b, lam, weights, l1_ratio):
    f = X @ w + b
    terms = {
        "squares": lambda: cp.square(y - f),
        "hinge": lambda: cp.pos(1 - cp.multiply(y, f)),
        "squared_hinge": lambda: cp.square(cp.pos(1 - cp.multiply(y, f))),
        "logistic": lambda: cp.logistic(-cp.multiply(y, f)),
    }[loss]()
    finite = np.where(np.isfinite(weights), weights, 0.0)
    penalty = l1_ratio * cp.norm1(cp.multiply(finite, w)) + (1 - l1_ratio) / 2 * cp.sum_squares(w)
    return s @ terms + lam * penalty


def _optimum(loss, X, y, s, lam, weights, l1_ratio):
    """The optimum by two CVXPY backends that must agree; and the solution."""
    Xd = X.toarray() if sp.issparse(X) else X
    w, b = cp.Variable(Xd.shape[1]), cp.Variable()
    problem = cp.Problem(
        cp.Minimize(_objective(loss, Xd, y, s, w, b, lam, weights, l1_ratio)),
        [w[np.flatnonzero(np.isinf(weights))] == 0],
    )
    values = []
    for solver in ("CLARABEL", "ECOS"):
        problem.solve(solver=solver)
        values.append(problem.value)
    assert values[0] == pytest.approx(values[1], rel=1e-6, abs=1e-8), values
    problem.solve(solver="CLARABEL")
    coef = np.where(np.isinf(weights), 0.0, w.value)
    return min(values), coef, float(b.value)


def _primal(loss, X, y, s, coef, b, lam, weights, l1_ratio):
    Xd = X.toarray() if sp.issparse(X) else X
    f = Xd @ coef + b
    z = y * f
    terms = {
        "squares": (y - f) ** 2,
        "hinge": np.maximum(0, 1 - z),
        "squared_hinge": np.maximum(0, 1 - z) ** 2,
        "logistic": np.logaddexp(0, -z),
    }[loss]
    if np.any(coef[np.isinf(weights)] != 0):
        return np.inf
    finite = np.where(np.isfinite(weights), weights, 0.0)
    return s @ terms + lam * (
        l1_ratio * finite @ np.abs(coef) + (1 - l1_ratio) / 2 * coef @ coef
    )


def _check(found, optimum, value):
    """Weak duality, and: certified only within the tolerance of the optimum."""
    assert found.dual <= optimum + ROUNDING * found.scale, (str(found), optimum)
    assert found.dual <= found.primal + ROUNDING * found.scale, str(found)
    if found.holds:
        assert value - optimum <= (found.tolerance + ROUNDING) * found.scale, (
            str(found), optimum, value,
        )  # fmt: skip


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("shape", [(40, 8), (16, 30)], ids=["n>d", "d>n"])
@pytest.mark.parametrize("l1_ratio", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("loss", ["squares", "hinge", "squared_hinge", "logistic"])
def test_random_candidates_certify_only_near_the_optimum(loss, l1_ratio, shape, sparse):
    n, d = shape
    X, y, weights, s = _data(n, d, seed=n + d, sparse=sparse, labels=loss != "squares")
    lam = 0.5
    optimum, coef, b = _optimum(loss, X, y, s, lam, weights, l1_ratio)
    rng = np.random.default_rng(0)
    size = max(np.linalg.norm(np.r_[coef, b]), 1e-3)
    certified = 0
    for scale in np.r_[0.0, SCALES]:
        direction = rng.standard_normal(d + 1)
        direction[:-1][np.isinf(weights)] = 0.0
        step = scale * size * direction / np.linalg.norm(direction)
        candidate, intercept = coef + step[:-1], b + step[-1]
        found = certificate(
            X, y, candidate, intercept, loss=loss, lam=lam, weights=weights,
            l1_ratio=l1_ratio, sample_weight=s,
        )  # fmt: skip
        value = _primal(loss, X, y, s, candidate, intercept, lam, weights, l1_ratio)
        assert found.primal == pytest.approx(value, rel=1e-9, abs=1e-12)
        _check(found, optimum, value)
        certified += found.holds
    # The certificate is not vacuous either way: far candidates fail.
    assert not found.holds


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("model", ["svm", "l1_svm", "svm2", "lasso"])
def test_the_papers_models_certify_only_near_the_optimum(model, sparse):
    X, y, weights, s = _data(30, 12, seed=7, sparse=sparse, labels=model != "lasso")
    if model == "svm":
        C = 2.0
        loss, lam, l1_ratio, factor = "hinge", 1.0 / C, 0.0, C
        weights = np.ones(12)

        def certify(w, b):
            return svm_certificate(X, y, w, b, C, sample_weight=s)
    else:
        loss = {"l1_svm": "hinge", "svm2": "squared_hinge", "lasso": "squares"}[model]
        lam, l1_ratio, factor = 0.8, 1.0, 1.0
        function = {
            "l1_svm": l1_svm_certificate, "svm2": svm2_certificate, "lasso": lasso_certificate,
        }[model]  # fmt: skip

        def certify(w, b):
            return function(X, y, w, b, lam, weights, sample_weight=s)

    optimum, coef, b = _optimum(loss, X, y, s, lam, weights, l1_ratio)
    rng = np.random.default_rng(1)
    size = max(np.linalg.norm(np.r_[coef, b]), 1e-3)
    for scale in np.r_[0.0, SCALES]:
        direction = rng.standard_normal(13)
        direction[:-1][np.isinf(weights)] = 0.0
        step = scale * size * direction / np.linalg.norm(direction)
        found = certify(coef + step[:-1], b + step[-1])
        value = factor * _primal(loss, X, y, s, coef + step[:-1], b + step[-1], lam, weights,
                                 l1_ratio)  # fmt: skip
        _check(found, factor * optimum, value)
    assert not found.holds


def test_the_svm2_reproducer_with_unpenalised_features():
    """Issue reproducer: SVM2 with seven unpenalised features; the old certificate's dual
    (4.508601346) was above the optimum (4.5083828699)."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((40, 8))
    f = X[:, 0] - X[:, 1] + X[:, 4] + 0.5 * rng.standard_normal(40)
    y = np.where(f > np.median(f), 1.0, -1.0)
    weights = np.r_[np.zeros(7), 1.0]
    optimum, coef, b = _optimum("squared_hinge", X, y, np.ones(40), 5.0, weights, 1.0)
    fit = SVM2(lam=5.0, weights=weights, solver="CD").fit(X, y)
    assert fit.certificate_.holds
    assert fit.objective_ - optimum <= GAP_TOLERANCE * fit.certificate_.scale
    rng = np.random.default_rng(5)
    for scale in SCALES:
        step = scale * np.linalg.norm(coef) * rng.standard_normal(9) / 3.0
        found = svm2_certificate(X, y, coef + step[:-1], b + step[-1], 5.0, weights)
        value = _primal("squared_hinge", X, y, np.ones(40), coef + step[:-1], b + step[-1],
                        5.0, weights, 1.0)  # fmt: skip
        _check(found, optimum, value)


def test_the_zero_optimum_of_the_1_norm_svm():
    """An unpenalised feature separates the classes: the optimum is 0, and a point of
    objective 1e-6 above it is not certified."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 6))
    y = np.where(rng.random(40) < 0.5, -1.0, 1.0)
    X[:, 0] = 3.0 * y + 0.1 * rng.random(40)
    weights = np.r_[0.0, np.ones(5)]
    exact = np.r_[1.0, np.zeros(5)]
    assert l1_svm_certificate(X, y, exact, -0.05, 1.0, weights).holds
    # Shrink the separating rule until a few hinges are just above 0.
    margins = y * (X @ exact - 0.05)
    shrink = (1.0 - 1e-6 / 3) / margins.min()
    near = l1_svm_certificate(X, y, shrink * exact, -0.05 * shrink, 1.0, weights)
    assert near.primal > 0 and near.dual <= ROUNDING * near.scale
    assert near.holds == (near.primal <= GAP_TOLERANCE * near.scale)
    slightly_off = l1_svm_certificate(X, y, 0.25 * exact, -0.0125, 1.0, weights)
    assert slightly_off.primal > 1e-3 and not slightly_off.holds


@pytest.mark.parametrize("model", ["svm2", "l1_svm", "lasso"])
def test_scs_answers_at_loose_tolerances(model):
    """SCS at eps 1e-3 says "optimal" about points that are not: they are certified only
    if they are within the tolerance of the optimum."""
    X, y, weights, s = _data(50, 10, seed=3, sparse=False, labels=model != "lasso")
    loss = {"l1_svm": "hinge", "svm2": "squared_hinge", "lasso": "squares"}[model]
    function = {
        "l1_svm": l1_svm_certificate, "svm2": svm2_certificate, "lasso": lasso_certificate,
    }[model]  # fmt: skip
    optimum, _, _ = _optimum(loss, X, y, s, 0.5, weights, 1.0)
    w, b = cp.Variable(10), cp.Variable()
    problem = cp.Problem(
        cp.Minimize(_objective(loss, X, y, s, w, b, 0.5, weights, 1.0)),
        [w[np.flatnonzero(np.isinf(weights))] == 0],
    )
    for eps in (1e-2, 1e-3, 1e-4):
        problem.solve(solver="SCS", eps_abs=eps, eps_rel=eps)
        coef = np.where(np.isinf(weights), 0.0, w.value)
        found = function(X, y, coef, float(b.value), 0.5, weights, sample_weight=s)
        value = _primal(loss, X, y, s, coef, float(b.value), 0.5, weights, 1.0)
        _check(found, optimum, value)
