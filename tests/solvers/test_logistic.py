"""SparseLogisticRegression and its CV: against scikit-learn, CVXPY written out here, theorems.

The objective (docs/architecture.md): ``sum_i s_i log(1 + exp(-y_i f_i)) + lam (l1_ratio
sum_j W_j |w_j| + (1 - l1_ratio)/2 ||w||^2)``, the intercept free; scikit-learn's
``LogisticRegression(C=1/lam, l1_ratio=l1_ratio)`` minimises it divided by lam.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from solvers import SparseLogisticRegression, SparseLogisticRegressionCV, hybrid_weights
from solvers.formulations import sparse_logistic_regression

LAM = 2.0


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((70, 12))
    X[:, 3] *= 100.0  # a column on another scale
    score = X[:, 0] - X[:, 1] + 0.01 * X[:, 3] + 0.7 * rng.standard_normal(70)
    y = np.where(score > 0.3, 1.0, -1.0)
    s = rng.uniform(0.2, 3.0, 70)
    s[:4] = 0.0  # dropped samples
    return X, y, s


def objective(X, y, coef, intercept, lam, l1_ratio=1.0, weights=None, s=None):
    """The objective written out (weights: inf where the coefficient must be 0)."""
    weights = np.ones(coef.size) if weights is None else weights
    s = np.ones(y.size) if s is None else s
    f = np.asarray(X @ coef).ravel() + intercept
    finite = np.isfinite(weights)
    assert np.all(coef[~finite] == 0)
    l1 = weights[finite] @ np.abs(coef[finite])
    return s @ np.logaddexp(0.0, -y * f) + lam * (l1_ratio * l1 + (1 - l1_ratio) / 2 * coef @ coef)


def cvxpy_optimum(X, y, lam, l1_ratio=1.0, weights=None, s=None):
    """The optimum by Clarabel on the problem written out here (excluded columns dropped)."""
    d = X.shape[1]
    weights = np.ones(d) if weights is None else np.asarray(weights, dtype=float)
    kept = np.flatnonzero(np.isfinite(weights))
    Xk = X[:, kept]
    s = np.ones(y.size) if s is None else s
    w, b = cp.Variable(kept.size), cp.Variable()
    loss = s @ cp.logistic(-cp.multiply(y, Xk @ w + b))
    penalty = l1_ratio * (weights[kept] @ cp.abs(w)) + (1 - l1_ratio) / 2 * cp.sum_squares(w)
    problem = cp.Problem(cp.Minimize(loss + lam * penalty))
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-11, tol_gap_rel=1e-11, tol_feas=1e-11)
    coef = np.zeros(d)
    coef[kept] = w.value
    return problem.value, coef, float(b.value)


def scale_of(est):
    return est.certificate_.scale


@pytest.mark.parametrize("layout", ["dense", "csr", "csc"])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "sample_weight"])
@pytest.mark.parametrize("l1_ratio", [1.0, 0.5, 0.0])
def test_objective_equals_the_cvxpy_optimum_with_zero_and_infinite_weights(
    problem, layout, weighted, l1_ratio
):
    X, y, s = problem
    s = s if weighted else None
    weights = np.ones(X.shape[1])
    weights[[2, 5]] = 0.0  # unpenalised
    weights[7] = np.inf  # excluded
    weights[3] = 0.01  # the column at scale 100
    data = {"dense": X, "csr": sp.csr_matrix(X), "csc": sp.csc_matrix(X)}[layout]
    est = SparseLogisticRegression(lam=LAM, l1_ratio=l1_ratio, weights=weights).fit(
        data, y, sample_weight=s
    )
    optimum, coef, _ = cvxpy_optimum(X, y, LAM, l1_ratio, weights, s)
    assert est.backend_ == "PROX_NEWTON" and est.certificate_.holds
    assert est.coef_[0, 7] == 0.0
    mine = objective(X, y, est.coef_[0], est.intercept_[0], LAM, l1_ratio, weights, s)
    assert mine == pytest.approx(est.objective_, rel=1e-12)
    assert abs(mine - optimum) <= 1e-6 * scale_of(est)
    # Weak duality: the certificate's dual never exceeds the optimum (beyond rounding).
    assert est.certificate_.dual <= optimum + 1e-9 * scale_of(est)
    np.testing.assert_allclose(est.coef_[0], coef, atol=1e-4 * np.abs(coef).max())


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "sample_weight"])
def test_objective_equals_scikit_learns_logistic_regression(problem, l1_ratio, weighted):
    """scikit-learn minimises the objective / lam at C = 1 / lam (its intercept is free
    with saga and lbfgs); saga at a tight tolerance."""
    X, y, s = problem
    X = X / np.linalg.norm(X, axis=0)  # saga's step needs comparable columns
    s = s if weighted else None
    peer = LogisticRegression(
        C=1.0 / LAM, l1_ratio=l1_ratio, solver="saga" if l1_ratio > 0 else "lbfgs",
        tol=1e-12, max_iter=200000,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (ConvergenceWarning, FutureWarning, UserWarning))
        peer.fit(X, y, sample_weight=s)
    est = SparseLogisticRegression(lam=LAM, l1_ratio=l1_ratio).fit(X, y, sample_weight=s)
    theirs = objective(X, y, peer.coef_[0], peer.intercept_[0], LAM, l1_ratio, s=s)
    assert est.certificate_.holds
    assert est.objective_ <= theirs + 1e-9 * scale_of(est)
    assert theirs - est.objective_ <= 1e-6 * scale_of(est)
    assert est.certificate_.dual <= theirs  # weak duality against an independent answer


def test_more_than_two_classes_one_vs_rest_as_scikit_learn(problem):
    X, y, _ = problem
    rng = np.random.default_rng(3)
    labels = np.array(["ant", "bee", "cat"])[rng.integers(0, 3, y.size)]
    est = SparseLogisticRegression(lam=LAM, l1_ratio=0.0).fit(X, labels)
    assert est.coef_.shape == (3, X.shape[1]) and all(c.holds for c in est.certificate_)
    for k, label in enumerate(est.classes_):
        signs = np.where(labels == label, 1.0, -1.0)
        optimum, _, _ = cvxpy_optimum(X, signs, LAM, 0.0)
        mine = objective(X, signs, est.coef_[k], est.intercept_[k], LAM, 0.0)
        assert abs(mine - optimum) <= 1e-6 * est.certificate_[k].scale
    probabilities = est.predict_proba(X)
    ovr = expit(est.decision_function(X))
    np.testing.assert_allclose(probabilities, ovr / ovr.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(est.classes_[probabilities.argmax(axis=1)], est.predict(X))


def test_predict_proba_is_the_logistic_of_the_decision(problem):
    X, y, _ = problem
    est = SparseLogisticRegression(lam=LAM).fit(X, y)
    np.testing.assert_allclose(est.predict_proba(X)[:, 1], expit(est.decision_function(X)))
    np.testing.assert_allclose(np.exp(est.predict_log_proba(X)), est.predict_proba(X))


@pytest.mark.parametrize("backend", ["CLARABEL", "ECOS", "SCS"])
def test_cvxpy_backends_solve_the_formulation_and_certify(problem, backend):
    X, y, s = problem
    est = SparseLogisticRegression(lam=LAM, l1_ratio=0.5, solver=backend).fit(
        X, y, sample_weight=s
    )
    reference = SparseLogisticRegression(lam=LAM, l1_ratio=0.5).fit(X, y, sample_weight=s)
    assert est.backend_ == backend and est.certificate_.holds and "problem_" in vars(est)
    assert abs(est.objective_ - reference.objective_) <= 1e-6 * scale_of(reference)
    # A new lam re-solves the compiled problem (the same Problem object).
    compiled = est.problem_
    est.set_params(lam=LAM / 2).fit(X, y, sample_weight=s)
    assert est.problem_ is compiled and est.certificate_.holds


def test_formulation_value_is_the_objective():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 4))
    y = np.where(X[:, 0] + rng.standard_normal(30) > 0, 1.0, -1.0)
    weights = np.array([1.0, 0.0, 2.0, 0.5])
    problem = sparse_logistic_regression(X, y, lam=1.5, l1_ratio=0.3, weights=weights)
    value = problem.solve(solver="CLARABEL")
    w, b = problem.var_dict["w"].value, problem.var_dict["b"].value
    assert value == pytest.approx(objective(X, y, w, b, 1.5, 0.3, weights), rel=1e-7)
    optimum, _, _ = cvxpy_optimum(X, y, 1.5, 0.3, weights)
    assert value == pytest.approx(optimum, rel=1e-7)


def test_lam_max_is_where_the_coefficients_leave_zero(problem):
    """KKT at w = 0: every penalised coefficient is 0 from lam_max up, not below."""
    X, y, s = problem
    for weights in (None, np.r_[0.0, np.ones(X.shape[1] - 1)]):
        lam_max = SparseLogisticRegression.lam_max(X, y, weights, sample_weight=s)
        penalised = slice(1, None) if weights is not None else slice(None)
        above = SparseLogisticRegression(lam=lam_max * 1.0001, weights=weights).fit(
            X, y, sample_weight=s
        )
        below = SparseLogisticRegression(lam=lam_max * 0.95, weights=weights).fit(
            X, y, sample_weight=s
        )
        assert np.all(above.coef_[0, penalised] == 0)
        assert np.any(below.coef_[0, penalised] != 0)
    # Against the written-out problem: at lam_max the CVXPY optimum has w = 0 too.
    lam_max = SparseLogisticRegression.lam_max(X, y)
    _, coef, _ = cvxpy_optimum(X, y, lam_max * 1.0001)
    assert np.abs(coef).max() <= 1e-6


def test_excluded_feature_is_the_fit_without_its_column(problem):
    X, y, s = problem
    weights = np.ones(X.shape[1])
    weights[4] = np.inf
    est = SparseLogisticRegression(lam=LAM, weights=weights).fit(X, y, sample_weight=s)
    without = SparseLogisticRegression(lam=LAM).fit(np.delete(X, 4, axis=1), y, sample_weight=s)
    assert est.coef_[0, 4] == 0.0
    np.testing.assert_allclose(np.delete(est.coef_[0], 4), without.coef_[0], atol=1e-5)


def test_integer_sample_weights_are_repeated_rows(problem):
    X, y, _ = problem
    counts = np.random.default_rng(5).integers(0, 3, y.size)
    weighted = SparseLogisticRegression(lam=LAM).fit(X, y, sample_weight=counts)
    repeated = SparseLogisticRegression(lam=LAM).fit(np.repeat(X, counts, 0), np.repeat(y, counts))
    assert weighted.objective_ == pytest.approx(repeated.objective_, rel=1e-7)
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, atol=1e-5)


def test_warm_start_on_a_grid_gives_the_cold_answers(problem):
    X, y, s = problem
    warm = SparseLogisticRegression(l1_ratio=0.5)
    for lam in (8.0, 4.0, 1.0, 0.25):
        warm.set_params(lam=lam).fit(X, y, sample_weight=s)
        cold = SparseLogisticRegression(lam=lam, l1_ratio=0.5, warm_start=False).fit(
            X, y, sample_weight=s
        )
        assert warm.certificate_.holds
        assert abs(warm.objective_ - cold.objective_) <= 1e-6 * scale_of(cold)


def test_nearly_separable_data_is_certified_at_the_optimum():
    """Small lam on separable-ish data: large coefficients, a badly conditioned Hessian."""
    rng = np.random.default_rng(2)
    X = rng.standard_normal((40, 8))
    y = np.where(X[:, 0] - X[:, 1] + 0.1 * rng.standard_normal(40) > 0, 1.0, -1.0)
    est = SparseLogisticRegression(lam=0.01).fit(X, y)
    optimum, _, _ = cvxpy_optimum(X, y, 0.01)
    assert est.certificate_.holds and np.abs(est.coef_).max() > 10
    assert abs(est.objective_ - optimum) <= 1e-6 * scale_of(est)


def test_perturbed_answers_are_not_certified_and_the_dual_stays_below(problem):
    from solvers._losses import LOGISTIC
    from solvers.certificates import certificate

    X, y, _ = problem
    est = SparseLogisticRegression(lam=LAM, l1_ratio=0.5).fit(X, y)
    optimum, _, _ = cvxpy_optimum(X, y, LAM, 0.5)
    rng = np.random.default_rng(7)
    for size in (1e-2, 1e-1):
        direction = rng.standard_normal(X.shape[1])
        coef = est.coef_[0] + size * np.linalg.norm(est.coef_) * direction / np.linalg.norm(
            direction
        )
        found = certificate(X, y, coef, est.intercept_[0], loss=LOGISTIC, lam=LAM, l1_ratio=0.5)
        assert found.dual <= optimum + 1e-9 * found.scale
        off = objective(X, y, coef, est.intercept_[0], LAM, 0.5) - optimum
        assert found.holds == (off <= 1e-6 * found.scale)
        assert not found.holds


def test_hybrid_weights_are_reachable(problem):
    """004's adaptive weights (|beta_l2|^-gamma of the best 2-norm model) as ``weights``."""
    X, y, _ = problem
    weights = hybrid_weights(X, y, base="svm2", C_grid=(1.0,))
    est = SparseLogisticRegression(lam=LAM, weights=weights).fit(X, y)
    optimum, _, _ = cvxpy_optimum(X, y, LAM, 1.0, weights)
    assert est.certificate_.holds
    assert abs(est.objective_ - optimum) <= 1e-6 * scale_of(est)


def test_max_iter_keeps_the_last_answer_with_a_warning(problem):
    X, y, _ = problem
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        est = SparseLogisticRegression(lam=0.05, max_iter=1, solver="PROX_NEWTON").fit(X, y)
    assert not est.certificate_.holds


@pytest.mark.parametrize(
    "params, match",
    [
        ({"l1_ratio": 1.5}, "'l1_ratio' parameter"),
        ({"lam": 0.0}, "'lam' parameter"),
        ({"weights": -np.ones(12)}, "weights must be >= 0"),
        ({"solver": "CD"}, "solver='CD' does not solve SparseLogisticRegression"),
    ],
)
def test_bad_parameters_are_value_errors_naming_them(problem, params, match):
    X, y, _ = problem
    with pytest.raises(ValueError, match=match):
        SparseLogisticRegression(**params).fit(X, y)


# ---- SparseLogisticRegressionCV -------------------------------------------------------


def test_cv_scores_are_those_of_each_fold_refitted(problem):
    """The warm-started fold grids score as cold fits at each fold's lam (lam n_k / n)."""
    X, y, _ = problem
    folds = StratifiedKFold(3)
    model = SparseLogisticRegressionCV(cv=folds, lams=5, l1_ratio=0.5).fit(X, y)
    assert model.cv_scores_.shape == (3, 5) and model.certificate_.holds
    for k, (train, test) in enumerate(folds.split(X, y)):
        for i, lam in enumerate(model.cv_lams_):
            fold = SparseLogisticRegression(lam=lam * train.size / y.size, l1_ratio=0.5)
            fold.fit(X[train], y[train])
            assert model.cv_scores_[k, i] == pytest.approx(fold.score(X[test], y[test]))
    best = model.cv_mean_[model.cv_lams_ == model.lam_min_][0]
    assert best == model.cv_mean_.max()
    refit = SparseLogisticRegression(lam=model.lam_, l1_ratio=0.5).fit(X, y)
    np.testing.assert_allclose(model.coef_, refit.coef_, atol=1e-6)


def test_cv_grid_starts_at_lam_max_and_takes_given_lams(problem):
    X, y, s = problem
    model = SparseLogisticRegressionCV(cv=3, lams=4, lam_min_ratio=0.1).fit(X, y, sample_weight=s)
    lam_max = SparseLogisticRegression.lam_max(X, y, sample_weight=s)
    np.testing.assert_allclose(model.cv_lams_, np.geomspace(lam_max, 0.1 * lam_max, 4))
    given = SparseLogisticRegressionCV(cv=3, lams=[1.0, 3.0, 2.0], scoring="neg_log_loss")
    given.fit(X, y)
    np.testing.assert_array_equal(given.cv_lams_, [3.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="lams must be"):
        SparseLogisticRegressionCV(lams=[1.0, -1.0]).fit(X, y)


def duplicated_text_like(seed, n=120, base=80):
    """Word counts (sparse, nonnegative; five frequent words nearly collinear with the
    constant), 30 of them duplicated exactly and 30 again up to a relative 1e-3."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(0.15, (n, base)).astype(float)
    counts[:, :5] += rng.poisson(2.0, (n, 5))
    near = counts[:, :30] * (1.0 + 1e-3 * rng.standard_normal((n, 30)))
    X = np.hstack([counts, counts[:, :30], near])
    score = counts[:, :10] @ rng.standard_normal(10) + 0.5 * rng.standard_normal(n)
    return sp.csr_matrix(X), np.where(score > np.median(score), 1.0, -1.0)


@pytest.mark.parametrize("seed, lam, l1_ratio", [(0, 0.2, 1.0), (1, 1.0, 1.0), (2, 0.05, 1.0)])
def test_duplicated_and_nearly_collinear_columns_take_few_passes(seed, lam, l1_ratio):
    """Issue 32: coordinate descent on the quadratic model crawls along duplicated and
    nearly collinear columns (before the face steps: 70 109, 77 030 and 73 456 passes;
    now under 200); the answer is CVXPY's, its decision function (unique: the loss
    is strictly convex in it) too."""
    from solvers._logistic_cd import logistic_prox_newton

    X, y = duplicated_text_like(seed)
    result = logistic_prox_newton(X, y, lam, np.ones(X.shape[1]), l1_ratio=l1_ratio)
    assert result.converged and result.epochs <= 500
    est = SparseLogisticRegression(lam=lam, l1_ratio=l1_ratio).fit(X, y)
    optimum, coef, intercept = cvxpy_optimum(X.toarray(), y, lam, l1_ratio)
    assert est.certificate_.holds
    assert abs(est.objective_ - optimum) <= 1e-6 * scale_of(est)
    assert abs(objective(X, y, result.coef, result.intercept, lam, l1_ratio) - optimum) <= (
        1e-6 * scale_of(est)
    )
    decision = est.decision_function(X)
    reference = X @ coef + intercept
    assert np.abs(decision - reference).max() <= 1e-3 * max(1.0, np.abs(reference).max())
