"""sample_weight and class_weight: an integer weight is the row repeated, 0 the row dropped.

The independent references: the same estimator fitted on the rows repeated as many
times as their weight (weights 0 drop rows), scikit-learn's SVC, Ridge and Lasso with
``sample_weight`` where their objectives map to ours, the unweighted formulation of
:mod:`solvers.formulations` on repeated rows solved by CVXPY, and the weighted
objective written out in this file.
"""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone, is_classifier
from sklearn.linear_model import Lasso, Ridge
from sklearn.svm import SVC
from sklearn.utils.class_weight import compute_sample_weight

from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    AdaptiveLasso,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
)
from solvers import formulations as F
from solvers.certificates import (
    l1_svm_certificate,
    lasso_certificate,
    ridge_certificate,
    svm2_certificate,
    svm_certificate,
)

ESTIMATORS = [
    SVMDual(C=0.5),
    L2SVM(C=0.5),
    L2SVM(C=0.5, loss="squared_hinge"),
    L1SVM(lam=0.5),
    SVM2(lam=2.0),
    WeightedLasso(lam=2.0),
    AdaptiveLasso(lam=2.0),
    RidgeRegression(lam=0.7),
    RLSC(lam=0.7),
]


def _ids(est):
    return type(est).__name__ + ("-sq" if getattr(est, "loss", "") == "squared_hinge" else "")


def _data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    labels = np.where(X[:, 0] - X[:, 1] + 0.8 * rng.standard_normal(n) > 0, 1.0, -1.0)
    target = X[:, :3] @ np.array([1.5, -2.0, 1.0]) + 0.5 * rng.standard_normal(n)
    weights = rng.integers(0, 4, n).astype(float)  # 0 drops a row
    return X, labels, target, weights


def _xy(est, X, labels, target):
    return (X, labels) if is_classifier(est) else (X, target)


def _assert_same_fit(weighted, repeated, rtol=1e-6):
    np.testing.assert_allclose(weighted.objective_, repeated.objective_, rtol=rtol)
    scale = max(1.0, np.abs(np.ravel(repeated.coef_)).max())
    np.testing.assert_allclose(
        np.ravel(weighted.coef_), np.ravel(repeated.coef_), atol=1e-4 * scale
    )
    np.testing.assert_allclose(
        np.ravel(weighted.intercept_)[0], np.ravel(repeated.intercept_)[0], atol=1e-4 * scale
    )
    assert weighted.certificate_.holds


# n > d (primal forms, feature-space Newton) and d > n (duals, sample-space Newton).
@pytest.mark.parametrize("shape", [(40, 5), (16, 30)], ids=["n>d", "d>n"])
@pytest.mark.parametrize("est", ESTIMATORS, ids=_ids)
def test_integer_weights_equal_repeated_rows(est, shape):
    X, labels, target, s = _data(*shape)
    X, y = _xy(est, X, labels, target)
    repeat = s.astype(int)
    weighted = clone(est).fit(X, y, sample_weight=s)
    repeated = clone(est).fit(np.repeat(X, repeat, axis=0), np.repeat(y, repeat))
    _assert_same_fit(weighted, repeated)
    if hasattr(weighted, "alpha_"):  # multipliers: 0 for the dropped rows
        assert weighted.alpha_.shape == (X.shape[0],)
        assert np.all(weighted.alpha_[s == 0] == 0)
        assert np.all(s[weighted.support_] > 0)


@pytest.mark.parametrize("est", ESTIMATORS, ids=_ids)
def test_zero_weights_equal_dropped_rows_and_sparse_the_dense(est):
    X, labels, target, s = _data(30, 6, seed=1)
    X, y = _xy(est, X, labels, target)
    s = s + 0.5 * (s > 0)  # non-integer positive weights beside zeros
    kept = s > 0
    weighted = clone(est).fit(X, y, sample_weight=s)
    dropped = clone(est).fit(X[kept], y[kept], sample_weight=s[kept])
    _assert_same_fit(weighted, dropped)
    sparse = clone(est).fit(sp.csr_matrix(X), y, sample_weight=s)
    _assert_same_fit(sparse, weighted)


@pytest.mark.parametrize("est", [e for e in ESTIMATORS if is_classifier(e)], ids=_ids)
@pytest.mark.parametrize("class_weight", ["balanced", {-1.0: 3.0, 1.0: 0.5}])
def test_class_weight_multiplies_the_sample_weights(est, class_weight):
    X, y, _, s = _data(30, 6, seed=2)
    expected = compute_sample_weight(class_weight, y) * s
    with_class = clone(est).set_params(class_weight=class_weight).fit(X, y, sample_weight=s)
    explicit = clone(est).fit(X, y, sample_weight=expected)
    _assert_same_fit(with_class, explicit, rtol=1e-9)


def test_all_ones_is_the_unweighted_fit():
    X, y, _, _ = _data(30, 6)
    plain = SVMDual().fit(X, y)
    ones = SVMDual().fit(X, y, sample_weight=np.ones(30))
    np.testing.assert_array_equal(np.ravel(ones.coef_), np.ravel(plain.coef_))


# -- scikit-learn's peers ----------------------------------------------------------------


def test_svm_dual_matches_svc_with_sample_weight():
    X, y, _, s = _data(40, 5, seed=3)
    ours = SVMDual(C=0.8).fit(X, y, sample_weight=s)
    svc = SVC(kernel="linear", C=0.8, tol=1e-10).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(np.ravel(ours.coef_), np.ravel(svc.coef_), atol=1e-5)
    np.testing.assert_allclose(np.ravel(ours.intercept_)[0], svc.intercept_[0], atol=1e-5)
    # The weighted primal written out here, at SVC's point, is not below ours.
    hinge = np.maximum(0.0, 1.0 - y * svc.decision_function(X))
    theirs = 0.5 * np.ravel(svc.coef_) @ np.ravel(svc.coef_) + 0.8 * s @ hinge
    assert ours.objective_ <= theirs * (1 + 1e-7)


def test_ridge_regression_matches_sklearn_ridge_with_sample_weight():
    X, _, t, s = _data(40, 5, seed=4)
    ours = RidgeRegression(lam=0.7).fit(X, t, sample_weight=s)
    theirs = Ridge(alpha=0.7, fit_intercept=False, solver="cholesky").fit(X, t, sample_weight=s)
    np.testing.assert_allclose(np.ravel(ours.coef_), np.ravel(theirs.coef_), rtol=1e-9, atol=1e-12)


def test_weighted_lasso_matches_sklearn_lasso_with_sample_weight():
    # scikit-learn rescales the weights to sum to n and minimises
    # 1/(2n) sum_i s'_i r_i^2 + alpha ||b||_1, i.e. ours divided by 2 sum(s) with
    # alpha = lam / (2 sum(s)).
    X, _, t, s = _data(40, 5, seed=5)
    lam = 5.0
    ours = WeightedLasso(lam=lam).fit(X, t, sample_weight=s)
    theirs = Lasso(alpha=lam / (2 * s.sum()), tol=1e-12, max_iter=100000)
    theirs.fit(X, t, sample_weight=s)
    np.testing.assert_allclose(np.ravel(ours.coef_), np.ravel(theirs.coef_), atol=1e-7)
    np.testing.assert_allclose(
        np.ravel(ours.intercept_)[0], np.ravel(theirs.intercept_)[0], atol=1e-7
    )


# -- internal solvers with weights -------------------------------------------------------


def test_newton_and_lasso_factor_take_the_weights():
    X, labels, target, s = _data(200, 4, seed=6)
    repeat = s.astype(int)
    svm = L2SVM(loss="squared_hinge", solver="NEWTON").fit(X, labels, sample_weight=s)
    reference = L2SVM(loss="squared_hinge").fit(np.repeat(X, repeat, 0), np.repeat(labels, repeat))
    _assert_same_fit(svm, reference, rtol=1e-9)
    # n > 2 (d + 1): the factor of the weighted Gram matrix is an unweighted problem,
    # which the (unweighted) exact path solves.
    lasso = WeightedLasso(lam=5.0, solver="HOMOTOPY").fit(X, target, sample_weight=s)
    reference = WeightedLasso(lam=5.0).fit(np.repeat(X, repeat, 0), np.repeat(target, repeat))
    _assert_same_fit(lasso, reference, rtol=1e-9)


@pytest.mark.parametrize("Est", [L1SVM, SVM2])
def test_feature_working_set_takes_the_weights(Est):
    X, labels, _, s = _data(24, 600, seed=7)  # d >= 500 and d > 2n: a working set
    repeat = s.astype(int)
    weighted = Est(lam=1.0).fit(X, labels, sample_weight=s)
    repeated = Est(lam=1.0).fit(np.repeat(X, repeat, 0), np.repeat(labels, repeat))
    _assert_same_fit(weighted, repeated)


def test_sample_working_set_takes_the_weights():
    X, labels, _, s = _data(2100, 3, seed=8)  # n >= 2000 and n > 10 d: a working set
    s = s + 1.0  # no row dropped: all 2100 stay
    weighted = L1SVM(lam=1.0).fit(X, labels, sample_weight=s)
    repeat = s.astype(int)
    repeated = L1SVM(lam=1.0).fit(np.repeat(X, repeat, 0), np.repeat(labels, repeat))
    _assert_same_fit(weighted, repeated)


@pytest.mark.parametrize("Est", [SVM2, L1SVM, WeightedLasso])
def test_homotopy_with_integer_weights_is_the_fit_on_repeated_rows(Est):
    """The exact path takes sample weights (it was a ValueError): integer weights are rows
    repeated that many times."""
    X, labels, target, _ = _data(30, 5)
    y = target if Est is WeightedLasso else labels
    counts = np.random.default_rng(7).integers(0, 4, 30)
    X_repeated, y_repeated = np.repeat(X, counts, axis=0), np.repeat(y, counts)
    lam = 0.2 * Est.lam_max(X_repeated, y_repeated)
    weighted = Est(lam=lam, solver="HOMOTOPY").fit(X, y, sample_weight=counts)
    repeated = Est(lam=lam, solver="HOMOTOPY").fit(X_repeated, y_repeated)
    assert weighted.backend_ == "HOMOTOPY" and weighted.certificate_.holds
    np.testing.assert_allclose(weighted.objective_, repeated.objective_, rtol=1e-9)
    np.testing.assert_allclose(np.ravel(weighted.coef_), np.ravel(repeated.coef_), atol=1e-7)


# -- bad weights ------------------------------------------------------------------------


@pytest.mark.parametrize("est", ESTIMATORS, ids=_ids)
def test_bad_sample_weights_are_rejected(est):
    X, labels, target, _ = _data(20, 4)
    X, y = _xy(est, X, labels, target)
    cases = [
        (-np.ones(20), "Negative values"),
        (np.r_[np.nan, np.ones(19)], "NaN"),
        (np.r_[np.inf, np.ones(19)], "sample_weight"),
        (np.ones(19), r"sample_weight.shape"),
        (np.zeros(20), "non-zero"),
    ]
    for weights, message in cases:
        with pytest.raises(ValueError, match=message):
            clone(est).fit(X, y, sample_weight=weights)


def test_a_class_without_weight_is_rejected():
    X, y, _, _ = _data(20, 4)
    with pytest.raises(ValueError, match="every class needs a positive weight"):
        SVMDual().fit(X, y, sample_weight=(y > 0).astype(float))
    with pytest.raises(ValueError, match="every class needs a positive weight"):
        SVMDual(class_weight={-1.0: 0.0, 1.0: 1.0}).fit(X, y)


# -- DPP: new weights re-solve the compiled problem --------------------------------------


def test_formulations_with_sample_weight_are_dpp():
    X, y, t, s = _data(12, 4)
    problems = [
        F.svm_dual(X, y, sample_weight=s),
        F.svm_dual(X, y, loss="squared_hinge", sample_weight=s + 1),
        F.svm_primal(X, y, sample_weight=s),
        F.svm_primal(X, y, loss="squared_hinge", sample_weight=s),
        F.l1_svm(X, y, sample_weight=s),
        F.svm2(X, y, sample_weight=s),
        F.weighted_lasso(X, t, sample_weight=s),
        F.ridge(X, t, sample_weight=s),
        F.rlsc(X, y, sample_weight=s),
    ]
    assert all(problem.is_dpp() for problem in problems)


@pytest.mark.parametrize(
    "est",
    [SVMDual(solver="CLARABEL"), SVM2(solver="CLARABEL"), RidgeRegression(solver="CLARABEL")],
    ids=_ids,
)
def test_refit_with_new_weights_resolves_the_compiled_problem(est):
    X, labels, target, _ = _data(30, 5)
    X, y = _xy(est, X, labels, target)
    rng = np.random.default_rng(9)
    first, second = rng.uniform(0.5, 2.0, 30), rng.uniform(0.5, 2.0, 30)
    model = clone(est).fit(X, y, sample_weight=first)
    compiled = model.problem_
    model.fit(X, y, sample_weight=second)
    assert model.problem_ is compiled
    fresh = clone(est).fit(X, y, sample_weight=second)
    np.testing.assert_allclose(model.objective_, fresh.objective_, rtol=1e-7)


@pytest.mark.parametrize(
    "build, labels, value",
    [
        (lambda X, y, s: F.svm_dual(X, y, 0.7, sample_weight=s), True, "alpha"),
        (lambda X, y, s: F.svm_dual(X, y, 0.7, loss="squared_hinge", sample_weight=s), True, ""),
        (lambda X, y, s: F.svm_primal(X, y, 0.7, sample_weight=s), True, ""),
        (lambda X, y, s: F.l1_svm(X, y, 0.5, sample_weight=s), True, ""),
        (lambda X, y, s: F.svm2(X, y, 0.5, sample_weight=s), True, ""),
        (lambda X, y, s: F.weighted_lasso(X, y, 0.5, sample_weight=s), False, ""),
        (lambda X, y, s: F.ridge(X, y, 0.5, sample_weight=s), False, ""),
        (lambda X, y, s: F.rlsc(X, y, 0.5, sample_weight=s), True, ""),
    ],
)
def test_weighted_formulation_value_is_the_repeated_rows_value(build, labels, value):
    X, y, t, s = _data(20, 4, seed=10)
    s = s + 1.0  # positive: the squared-hinge dual needs it
    y = y if labels else t
    repeat = s.astype(int)
    weighted = build(X, y, s)
    repeated = build(np.repeat(X, repeat, 0), np.repeat(y, repeat), None)
    weighted.solve(solver="CLARABEL")
    repeated.solve(solver="CLARABEL")
    np.testing.assert_allclose(weighted.value, repeated.value, rtol=1e-6)


# -- certificates ------------------------------------------------------------------------


def _weighted_certificates():
    return [
        (
            "svm",
            lambda X, y, c, b, s: svm_certificate(X, y, c, b, 0.7, sample_weight=s),
            SVMDual(C=0.7),
        ),
        (
            "svm_sq",
            lambda X, y, c, b, s: svm_certificate(
                X, y, c, b, 0.7, loss="squared_hinge", sample_weight=s
            ),
            L2SVM(C=0.7, loss="squared_hinge"),
        ),
        (
            "l1_svm",
            lambda X, y, c, b, s: l1_svm_certificate(X, y, c, b, 0.5, sample_weight=s),
            L1SVM(lam=0.5),
        ),
        (
            "svm2",
            lambda X, y, c, b, s: svm2_certificate(X, y, c, b, 2.0, sample_weight=s),
            SVM2(lam=2.0),
        ),
        (
            "lasso",
            lambda X, y, c, b, s: lasso_certificate(X, y, c, b, 2.0, sample_weight=s),
            WeightedLasso(lam=2.0),
        ),
        (
            "ridge",
            lambda X, y, c, b, s: ridge_certificate(X, y, c, 0.7, sample_weight=s),
            RidgeRegression(lam=0.7),
        ),
    ]


@pytest.mark.parametrize(
    "name, certify, est", _weighted_certificates(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_weighted_certificate_holds_at_the_repeated_rows_optimum_and_fails_off_it(
    name, certify, est
):
    X, labels, target, s = _data(40, 5, seed=11)
    y = labels if is_classifier(est) else target
    repeat = s.astype(int)
    optimum = clone(est).fit(np.repeat(X, repeat, 0), np.repeat(y, repeat))
    coef, b = np.ravel(optimum.coef_), np.ravel(optimum.intercept_)[0]
    certificate = certify(X, y, coef, b, s)
    assert certificate.holds, certificate
    # Its primal is the weighted objective (the repeated rows' value, to that fit's own
    # certified gap: SVMDual's objective_ is its dual value), its dual below it.
    np.testing.assert_allclose(
        certificate.primal, optimum.objective_, rtol=optimum.certificate_.relative_gap + 1e-9
    )
    assert certificate.dual <= optimum.objective_ * (1 + 1e-9)
    off = certify(X, y, coef * 1.01 + 1e-2, b, s)
    assert not off.holds and off.gap >= off.primal - optimum.objective_ * (1 + 1e-9)


@pytest.mark.parametrize(
    "seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))]  # 12-20 s each
)
def test_svm_on_duplicated_rows_with_weights_over_six_decades(seed):
    """60 x 20000 (d >> n) with every row twice and sample weights from 1e-3 to 7e2, 13 of
    them 0: SVMDual and L2SVM are certified and reach the dual optimum written out in
    CVXPY on the Gram matrix (001 eq. 2 with the box 0 <= a_i <= C s_i)."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((30, 20000))
    X = np.vstack([base, base])
    labels = np.where(rng.standard_normal(30) > 0, 1.0, -1.0)
    y = np.concatenate([labels, labels])
    s = 10 ** rng.uniform(-3, np.log10(700), 60)
    s[rng.choice(60, 13, replace=False)] = 0.0
    a = cp.Variable(60)
    K = (X * y[:, None]) @ (X * y[:, None]).T
    reference = cp.Problem(
        cp.Maximize(cp.sum(a) - 0.5 * cp.quad_form(a, cp.psd_wrap(K))),
        [a >= 0, a <= s, y @ a == 0],
    )
    reference.solve(solver="CLARABEL")
    for estimator in (SVMDual(C=1.0), L2SVM(C=1.0)):
        fit = estimator.fit(X, y, sample_weight=s)
        assert fit.certificate_.holds
        w = fit.coef_.ravel()
        hinge = np.maximum(0.0, 1.0 - y * (X @ w + fit.intercept_[0]))
        primal = 0.5 * w @ w + s @ hinge
        assert primal == pytest.approx(reference.value, rel=1e-6)


def test_every_estimator_of_solvers_takes_sample_weight():
    """docs/solvers.md: "every estimator's fit(X, y, sample_weight=None)"."""
    import inspect

    import solvers

    estimators = [
        getattr(solvers, name)
        for name in solvers.__all__
        if inspect.isclass(getattr(solvers, name)) and hasattr(getattr(solvers, name), "fit")
    ]
    assert len(estimators) >= 15
    for cls in estimators:
        if cls.__name__ == "SupportVectorSelector":  # a selector: fit(X, y) picks features
            continue
        assert "sample_weight" in inspect.signature(cls.fit).parameters, cls.__name__


@pytest.mark.parametrize("est", [SVMDual(), L2SVM()], ids=["SVMDual", "L2SVM"])
def test_weights_equal_repeated_rows_at_the_default_tolerance(est):
    """scikit-learn's sample-weight equivalence checks pass for the hinge SVMs with their
    defaults: the dual coordinate descent merges repeated rows of one label into one
    sample of their summed cost, so a weight of 2 and a repeated row are the same
    problem to the kernel (they were expected failures while the answers agreed only
    to the certificate's tolerance)."""
    from sklearn.utils.estimator_checks import (
        check_sample_weight_equivalence_on_dense_data,
        check_sample_weight_equivalence_on_sparse_data,
    )

    assert not hasattr(est, "_expected_failed_checks")
    check_sample_weight_equivalence_on_dense_data(type(est).__name__, est)
    check_sample_weight_equivalence_on_sparse_data(type(est).__name__, est)
