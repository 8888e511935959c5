"""The 2-norm SVMs' polish reads the support vectors off the multipliers without a
threshold relative to C (solvers._polish.refit_svm_dual).

The polish once counted a multiplier as nonzero only above 1e-6 of its box ``C s_i``: at
a huge C (the multipliers of a hard margin scale with ``||w||^2``, not with C) or with
sample weights over decades (a heavy sample's box dwarfs its multiplier) it dropped
support vectors and solved the wrong face. The reference everywhere is the primal QP
written out here and solved by CLARABEL; its constraint multipliers (an interior point's,
with the other samples' residue at 1e-10 to 1e-4 of the largest) are what the polish is
given, and the polished point must reach CLARABEL's objective and pass the library's
certificate (:func:`solvers.certificates.svm_certificate`).
"""

import cvxpy as cp
import numpy as np
import pytest

from solvers import SVMDual
from solvers._polish import refit_svm_dual
from solvers.certificates import svm_certificate

_TIGHT = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "max_iter": 500}


def _objective(X, signs, w, b, C, s, squared):
    slack = np.maximum(0.0, 1.0 - signs * (X @ w + b))
    return 0.5 * w @ w + C * s @ (slack**2 if squared else slack)


def _clarabel(X, signs, C, s, squared):
    """The primal QP ``min 1/2 ||w||^2 + C sum_i s_i loss(xi_i)``, ``y_i f_i >= 1 - xi_i``,
    on columns of unit norm (an exact change of variables, ``w = v / norms``), divided by
    C; returns its value, the multipliers of the margin constraints (``a_i``, in the
    units of 001 eq. 2) and (w, b)."""
    norms = np.linalg.norm(X, axis=0)
    v, b, xi = cp.Variable(X.shape[1]), cp.Variable(), cp.Variable(X.shape[0])
    margins = cp.multiply(signs, (X / norms) @ v + b) >= 1 - xi
    loss = s @ cp.square(xi) if squared else s @ xi
    problem = cp.Problem(
        cp.Minimize(0.5 / C * cp.sum_squares(cp.multiply(1 / norms, v)) + loss),
        [margins] + ([] if squared else [xi >= 0]),
    )
    problem.solve(solver="CLARABEL", **_TIGHT)
    assert problem.status == "optimal"
    w = v.value / norms
    return C * problem.value, C * np.maximum(margins.dual_value, 0.0), w, float(b.value)


def _hard_margin(X, signs):
    """The hard-margin QP ``min 1/2 ||w||^2``, ``y_i f_i >= 1`` (CLARABEL): its value,
    multipliers and (w, b). At C above ``max_i a_i / s_i`` it is the 2-norm SVM's
    optimum (no sample has slack), where CLARABEL on the QP with C leaves multipliers
    that do not balance (``y'a`` at 1e-3 to 1 of the largest)."""
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    margins = cp.multiply(signs, X @ w + b) >= 1
    problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [margins])
    problem.solve(solver="CLARABEL", **_TIGHT)
    assert problem.status == "optimal"  # separable
    return problem.value, np.maximum(margins.dual_value, 0.0), w.value, float(b.value)


def _reference(X, signs, C, s, squared):
    if squared or C < 1e6:
        return _clarabel(X, signs, C, s, squared)
    value, alpha, w, b = _hard_margin(X, signs)
    assert np.all(alpha <= C * s)  # the hard margin is the optimum at C
    return value, alpha, w, b


def _data(kind, seed=0):
    rng = np.random.default_rng(seed)
    n, d = 40, 5
    X = rng.standard_normal((n, d))
    signs = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    if kind == "separable":
        signs = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1.0, -1.0)
    if kind == "duplicates":  # every support vector twice: a singular KKT system
        X, signs = np.vstack((X, X[:10])), np.concatenate((signs, signs[:10]))
    s = 10.0 ** rng.uniform(-5, 5, X.shape[0])  # ten decades
    return X, signs, s


_CS = [1e-6, 1e-2, 1.0, 1e3, 1e6, 1e10]


@pytest.mark.parametrize(
    ("C", "squared"),
    [(C, False) for C in _CS] + [(C, True) for C in _CS[:-1]],  # CLARABEL: inaccurate at
)  # 1e10 with a squared slack weighed 1e15
@pytest.mark.parametrize("kind", ["noisy", "separable", "duplicates"])
def test_polish_of_clarabels_multipliers_reaches_its_optimum(kind, C, squared):
    X, signs, s = _data(kind)
    value, alpha, _, _ = _reference(X, signs, C, s, squared)
    refitted = refit_svm_dual(X, signs, alpha, C, squared=squared, sample_weight=s)
    assert refitted is not None
    a, w, b = refitted
    loss = "squared_hinge" if squared else "hinge"
    certificate = svm_certificate(X, signs, w, b, C, loss=loss, sample_weight=s)
    assert certificate.holds, certificate
    assert np.all(a >= 0) and (squared or np.all(a <= C * s * (1 + 1e-12)))
    if not squared and C >= 1e6:  # the hard margin: every margin at least 1, ||w||^2 / 2
        assert np.min(signs * (X @ w + b)) >= 1.0 - 1e-12
        np.testing.assert_allclose(0.5 * w @ w, value, rtol=1e-8)
        return
    # No worse than CLARABEL's point (beyond its own tolerance), and not below the
    # optimum: the certificate's dual value is a lower bound.
    ours = _objective(X, signs, w, b, C, s, squared)
    assert ours <= value * (1 + 1e-7)
    assert ours >= certificate.dual * (1 - 1e-12)


@pytest.mark.parametrize("C", [1e6, 1e8, 1e10])
def test_hard_margin_with_weights_over_ten_decades_keeps_every_support_vector(C):
    """The case that failed: separable data at a huge C, weights over ten decades, the
    multipliers an interior point's (the hard-margin QP's, the optimum at these C: none
    has slack). They are of the order of ``||w||^2`` (1 to 30 here), below 1e-6 of the
    box ``C s_i`` of every sample heavier than 1e-4 to 1e-8: the old rule dropped most
    support vectors and solved the wrong face (a certificate failing by far). The polish
    must give the hard margin's ``||w||^2 / 2`` with every margin at least 1."""
    X, signs, s = _data("separable", seed=3)
    value, alpha, _, _ = _reference(X, signs, C, s, squared=False)
    a, w, b = refit_svm_dual(X, signs, alpha, C, squared=False, sample_weight=s)
    assert np.count_nonzero(a) >= 2
    assert np.min(signs * (X @ w + b)) >= 1.0 - 1e-12
    np.testing.assert_allclose(0.5 * w @ w, value, rtol=1e-8)
    assert svm_certificate(X, signs, w, b, C, sample_weight=s).holds


def test_polish_with_a_timestamp_column_through_its_column_scale():
    """A Unix timestamp (1.7e9 + seconds) beside unit columns: the KKT system is solved
    with the column scaled to the others (``column_scale``, as the CVXPY backend passes
    it), weights over ten decades; CLARABEL's multipliers on centred columns are the
    same problem's (the intercept absorbs the offset)."""
    X, signs, s = _data("noisy", seed=1)
    X[:, 2] = 1.7e9 + np.random.default_rng(4).integers(0, 1000, X.shape[0])
    C = 10.0
    centred = X - X.mean(axis=0)
    value, alpha, _, _ = _clarabel(centred, signs, C, s, squared=False)
    scale = np.ones(X.shape[1])
    scale[2] = np.linalg.norm(X[:, 2]) / np.median(np.linalg.norm(np.delete(X, 2, 1), axis=0))
    a, w, b = refit_svm_dual(X, signs, alpha, C, squared=False, sample_weight=s,
                             column_scale=scale)  # fmt: skip
    certificate = svm_certificate(X, signs, w, b, C, sample_weight=s)
    assert certificate.holds, certificate
    np.testing.assert_allclose(_objective(X, signs, w, b, C, s, False), value, rtol=1e-6)


@pytest.mark.parametrize("C", [1e-6, 1e-2, 1e8])
def test_svmdual_with_a_timestamp_column_and_duplicate_rows_matches_clarabel(C):
    """Through the estimator: a timestamp column, duplicated rows and weights over ten
    decades; the answer certified, its objective CLARABEL's on centred columns (at
    C = 1e8 on separable rows, the hard margin's ``||w||^2 / 2``)."""
    X, signs, s = _data("duplicates" if C < 1e6 else "separable", seed=2)
    X[:, 3] = 1.7e9 + np.random.default_rng(5).integers(0, 1000, X.shape[0])
    value, _, _, _ = _reference(X - X.mean(axis=0), signs, C, s, squared=False)
    clf = SVMDual(C=C).fit(X, signs, sample_weight=s)
    w, b = clf.coef_[0], clf.intercept_[0]
    assert clf.certificate_.holds
    if C >= 1e6:
        np.testing.assert_allclose(0.5 * w @ w, value, rtol=1e-6)
    else:
        np.testing.assert_allclose(_objective(X, signs, w, b, C, s, False), value, rtol=1e-6)
