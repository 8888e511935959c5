"""Working-set coordinate descent (solvers._coordinate_descent) for the lasso and SVM2.

Each answer is checked against something independent: scikit-learn's Lasso (with and
without sample weights), the SVM2 problem (004 eq. 7) written out in CVXPY here and
solved by Clarabel with tight tolerances, LinearSVC (approximately: its intercept is a
penalised feature), a repeated-rows fit for integer sample weights, the closed form
above lam_max; and its certificate (solvers.certificates) is recomputed from the data.
"""

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Lasso
from sklearn.svm import LinearSVC

from benchmarks._text import text_like, text_regression_target
from solvers._coordinate_descent import l1_coordinate_descent
from solvers.certificates import lasso_certificate, svm2_certificate

LAYOUTS = {
    "dense F": np.asfortranarray,
    "dense C": np.ascontiguousarray,
    "csc": sp.csc_matrix,
    "csr": sp.csr_matrix,
}
SHAPES = {"n > d": (80, 30), "d > n": (30, 120)}
CERTIFICATES = {"squares": lasso_certificate, "squared_hinge": svm2_certificate}
# Clarabel's tolerances for the reference solutions.
TIGHT = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11, "max_iter": 500}


def _data(n, d, seed=0):
    """Gaussian X with a sparse signal on 5 features; real targets and -1/+1 labels."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    beta = np.zeros(d)
    beta[:5] = [3.0, -2.0, 1.5, 1.0, -1.0]
    target = X @ beta + 0.3 * rng.standard_normal(n) + 2.0
    labels = np.where(X @ beta + 1.0 + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, target, labels


def _text(n=60, d=400):
    """Nonnegative sparse tf-idf rows (the columns the centred steps are for)."""
    X, labels = text_like(n, d, words_per_document=30)
    return X.toarray(), text_regression_target(X), labels


def _lam_max(X, y, weights, s=None):
    """``max_j |2 X_j'S (y - mean_s(y))| / W_j`` over the penalised features."""
    s = np.ones(y.size) if s is None else s
    correlations = np.abs(np.asarray(X.T @ (2.0 * s * (y - np.average(y, weights=s)))).ravel())
    penalised = (weights > 0) & np.isfinite(weights)
    return float(np.max(correlations[penalised] / weights[penalised]))


def _objective(loss, X, y, coef, intercept, lam, weights, s=None):
    fitted = np.asarray(X @ coef).ravel() + intercept
    slack = y - fitted if loss == "squares" else np.maximum(0.0, 1.0 - y * fitted)
    s = np.ones(y.size) if s is None else s
    finite = np.isfinite(weights)
    return float(s @ slack**2 + lam * weights[finite] @ np.abs(coef[finite]))


def _cvxpy(loss, X, y, lam, weights, s=None):
    """The problem written out in CVXPY (excluded features dropped), solved by Clarabel."""
    n, d = X.shape
    s = np.ones(n) if s is None else s
    kept = np.flatnonzero(np.isfinite(weights))
    w, b = cp.Variable(kept.size), cp.Variable()
    fitted = X[:, kept] @ w + b
    slack = y - fitted if loss == "squares" else cp.pos(1.0 - cp.multiply(y, fitted))
    penalty = lam * cp.sum(cp.multiply(weights[kept], cp.abs(w)))
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(s, cp.square(slack))) + penalty))
    problem.solve(solver=cp.CLARABEL, **TIGHT)
    coef = np.zeros(d)
    coef[kept] = w.value
    return coef, float(b.value), float(problem.value)


def _assert_certified(loss, X, y, result, lam, weights, s=None):
    certificate = CERTIFICATES[loss](
        X, y, result.coef, result.intercept, lam, weights, sample_weight=s
    )
    assert result.converged
    assert certificate.holds, certificate
    # The solver's own gap is the certificate's (the same dual point, made feasible
    # the same way), so its stopping rule is the check that follows it.
    assert result.relative_gap == pytest.approx(certificate.relative_gap, rel=1e-3, abs=1e-12)
    return certificate


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_lasso_matches_sklearn(layout, shape):
    X, y, _ = _data(*SHAPES[shape])
    n, d = X.shape
    weights = np.ones(d)
    lam = 0.05 * _lam_max(X, y, weights)
    M = LAYOUTS[layout](X)
    result = l1_coordinate_descent(M, y, lam, weights, tol=1e-12)
    _assert_certified("squares", M, y, result, lam, weights)
    peer = Lasso(alpha=lam / (2 * n), tol=1e-12, max_iter=100000).fit(X, y)
    np.testing.assert_allclose(result.coef, peer.coef_, atol=1e-6)
    assert result.intercept == pytest.approx(peer.intercept_, abs=1e-6)


@pytest.mark.parametrize("layout", ["dense F", "csc"])
def test_lasso_sample_weight_matches_sklearn(layout):
    X, y, _ = _data(50, 80)
    s = np.random.default_rng(1).uniform(0.2, 3.0, X.shape[0])
    weights = np.ones(X.shape[1])
    lam = 0.05 * _lam_max(X, y, weights, s)
    M = LAYOUTS[layout](X)
    result = l1_coordinate_descent(M, y, lam, weights, sample_weight=s, tol=1e-12)
    _assert_certified("squares", M, y, result, lam, weights, s)
    peer = Lasso(alpha=lam / (2 * s.sum()), tol=1e-12, max_iter=100000)
    peer.fit(X, y, sample_weight=s)
    np.testing.assert_allclose(result.coef, peer.coef_, atol=1e-6)
    assert result.intercept == pytest.approx(peer.intercept_, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", ["dense F", "csc", "csr"])
def test_svm2_matches_cvxpy(layout, shape):
    X, _, y = _data(*SHAPES[shape])
    weights = np.ones(X.shape[1])
    lam = 0.05 * _lam_max(X, y, weights)
    M = LAYOUTS[layout](X)
    result = l1_coordinate_descent(M, y, lam, weights, loss="squared_hinge", tol=1e-12)
    _assert_certified("squared_hinge", M, y, result, lam, weights)
    coef, intercept, value = _cvxpy("squared_hinge", X, y, lam, weights)
    np.testing.assert_allclose(result.coef, coef, atol=1e-5)
    assert result.intercept == pytest.approx(intercept, abs=1e-5)
    found = _objective("squared_hinge", X, y, result.coef, result.intercept, lam, weights)
    assert found <= value * (1 + 1e-9)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_svm2_near_linearsvc():
    """LinearSVC penalises its intercept as a feature: with intercept_scaling 1e3 the
    penalty on it is 1e-3 of lam |b|, and the answers agree to that."""
    X, _, y = _data(80, 30)
    weights = np.ones(X.shape[1])
    lam = 0.05 * _lam_max(X, y, weights)
    result = l1_coordinate_descent(X, y, lam, weights, loss="squared_hinge")
    _assert_certified("squared_hinge", X, y, result, lam, weights)
    peer = LinearSVC(
        penalty="l1", loss="squared_hinge", dual=False, C=1 / lam, intercept_scaling=1e3,
        tol=1e-10, max_iter=100000, random_state=0,
    ).fit(X, y)
    np.testing.assert_allclose(result.coef, peer.coef_.ravel(), atol=1e-3)
    assert result.intercept == pytest.approx(peer.intercept_[0], abs=1e-3)
    ours = _objective("squared_hinge", X, y, result.coef, result.intercept, lam, weights)
    theirs = _objective("squared_hinge", X, y, peer.coef_.ravel(), peer.intercept_[0], lam,
                        weights)
    assert ours <= theirs * (1 + 1e-7)


@pytest.mark.parametrize("layout", ["dense F", "csc"])
@pytest.mark.parametrize("loss", CERTIFICATES)
def test_text_data(loss, layout):
    """Nonnegative tf-idf columns (the centred steps), against CVXPY.

    Rare words that occur in the same documents make identical columns, so the
    coefficients are not unique: the objective and the fitted values are compared.
    """
    X, target, labels = _text()
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    lam = 0.02 * _lam_max(X, y, weights)
    M = LAYOUTS[layout](X)
    result = l1_coordinate_descent(M, y, lam, weights, loss=loss, tol=1e-12)
    _assert_certified(loss, M, y, result, lam, weights)
    coef, intercept, value = _cvxpy(loss, X, y, lam, weights)
    found = _objective(loss, X, y, result.coef, result.intercept, lam, weights)
    assert found == pytest.approx(value, rel=1e-8)
    np.testing.assert_allclose(X @ result.coef + result.intercept, X @ coef + intercept,
                               atol=1e-5)


@pytest.mark.parametrize("layout", ["dense F", "csc"])
@pytest.mark.parametrize("loss", CERTIFICATES)
def test_unpenalised_and_excluded_features(loss, layout):
    X, target, labels = _data(60, 40)
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    weights[[0, 7, 8]] = 0.0  # unpenalised (0 carries the signal)
    weights[[1, 9]] = np.inf  # excluded (1 carries the signal)
    weights[10:20] = np.linspace(0.5, 3.0, 10)
    lam = 0.1 * _lam_max(X, y, weights)
    M = LAYOUTS[layout](X)
    result = l1_coordinate_descent(M, y, lam, weights, loss=loss, tol=1e-10)
    certificate = _assert_certified(loss, M, y, result, lam, weights)
    assert certificate.dual_infeasibility <= 1e-6
    assert result.coef[1] == 0.0 and result.coef[9] == 0.0
    assert np.all(result.coef[[0, 7, 8]] != 0.0)
    assert {0, 7, 8} <= set(result.working_set.tolist())
    assert not {1, 9} & set(result.working_set.tolist())
    coef, intercept, value = _cvxpy(loss, X, y, lam, weights)
    np.testing.assert_allclose(result.coef, coef, atol=1e-5)
    found = _objective(loss, X, y, result.coef, result.intercept, lam, weights)
    assert found == pytest.approx(value, rel=1e-8)


@pytest.mark.parametrize("loss", CERTIFICATES)
def test_unpenalised_features_fitting_everything(loss):
    """More unpenalised features than samples: the optimum is 0 (the classes or targets
    are fitted exactly) and the certificate's scale is the constant model's loss."""
    X, target, labels = _data(20, 40)
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    weights[:25] = 0.0
    lam = 0.5 * _lam_max(X, y, np.ones(X.shape[1]))
    result = l1_coordinate_descent(X, y, lam, weights, loss=loss)
    _assert_certified(loss, X, y, result, lam, weights)
    assert _objective(loss, X, y, result.coef, result.intercept, lam, weights) < 1e-6


@pytest.mark.parametrize("layout", ["dense F", "csc"])
@pytest.mark.parametrize("loss", CERTIFICATES)
def test_integer_sample_weights_equal_repeated_rows(loss, layout):
    X, target, labels = _data(40, 60)
    y = target if loss == "squares" else labels
    counts = np.random.default_rng(2).integers(1, 4, X.shape[0])
    weights = np.ones(X.shape[1])
    lam = 0.05 * _lam_max(X, y, weights, counts.astype(float))
    weighted = l1_coordinate_descent(
        LAYOUTS[layout](X), y, lam, weights, loss=loss, sample_weight=counts.astype(float),
        tol=1e-12,
    )
    rows = np.repeat(np.arange(X.shape[0]), counts)
    repeated = l1_coordinate_descent(
        LAYOUTS[layout](X[rows]), y[rows], lam, weights, loss=loss, tol=1e-12
    )
    _assert_certified(loss, X, y, weighted, lam, weights, counts.astype(float))
    np.testing.assert_allclose(weighted.coef, repeated.coef, atol=1e-6)
    assert weighted.intercept == pytest.approx(repeated.intercept, abs=1e-6)


@pytest.mark.parametrize("layout", ["dense F", "csc"])
@pytest.mark.parametrize("loss", CERTIFICATES)
def test_awkward_columns(loss, layout):
    """A zero, a duplicate, a constant column, and columns at 1e-6 and 1e4 beside unit ones.

    Scaling column j by c with weight W_j is the unscaled problem with weight W_j / c and
    coefficient c w_j: the answer is compared, so mapped, with CVXPY's on unit columns
    (where Clarabel is well conditioned).
    """
    X, target, labels = _data(60, 30)
    y = target if loss == "squares" else labels
    scales = np.ones(X.shape[1])
    scales[[2, 3]] = [1e-6, 1e4]
    X[:, 5] = 0.0
    X[:, 6] = X[:, 4]
    X[:, 7] = 3.0
    weights = np.ones(X.shape[1])
    lam = 0.05 * _lam_max(X, y, weights)
    awkward = X * scales
    result = l1_coordinate_descent(LAYOUTS[layout](awkward), y, lam, weights, loss=loss,
                                   tol=1e-12)
    _assert_certified(loss, LAYOUTS[layout](awkward), y, result, lam, weights)
    assert result.coef[5] == 0.0 and result.coef[7] == 0.0
    coef, intercept, value = _cvxpy(loss, X, y, lam, weights / scales)
    found = _objective(loss, awkward, y, result.coef, result.intercept, lam, weights)
    assert found == pytest.approx(value, rel=1e-8)
    # The duplicate pair is determined only in its sum.
    mapped = result.coef * scales
    mapped[4], coef[4] = mapped[4] + mapped[6], coef[4] + coef[6]
    mapped[6] = coef[6] = 0.0
    np.testing.assert_allclose(mapped, coef, atol=1e-5)


@pytest.mark.parametrize("loss", CERTIFICATES)
def test_above_lam_max_gives_zero(loss):
    X, target, labels = _data(40, 60)
    y = target if loss == "squares" else labels
    s = np.random.default_rng(3).uniform(0.5, 2.0, X.shape[0])
    weights = np.random.default_rng(4).uniform(0.5, 2.0, X.shape[1])
    lam_max = _lam_max(X, y, weights, s)
    above = l1_coordinate_descent(X, y, 1.001 * lam_max, weights, loss=loss, sample_weight=s)
    assert above.converged and above.iterations == 0
    assert not np.any(above.coef)
    # The best constant: the weighted mean of the targets, or of the labels (the
    # squared hinge's minimiser is (S+ - S-) / (S+ + S-)).
    assert above.intercept == pytest.approx(np.average(y, weights=s), abs=1e-12)
    below = l1_coordinate_descent(X, y, 0.99 * lam_max, weights, loss=loss, sample_weight=s)
    assert np.count_nonzero(below.coef) >= 1


@pytest.mark.parametrize("loss", CERTIFICATES)
def test_warm_start_at_a_new_lam(loss):
    X, target, labels = _text(80, 600)
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    lam_max = _lam_max(X, y, weights)
    M = sp.csc_matrix(X)
    first = l1_coordinate_descent(M, y, 0.1 * lam_max, weights, loss=loss)
    cold = l1_coordinate_descent(M, y, 0.05 * lam_max, weights, loss=loss)
    warm = l1_coordinate_descent(
        M, y, 0.05 * lam_max, weights, loss=loss, coef=first.coef.copy(),
        intercept=first.intercept, working_set=first.working_set,
    )
    _assert_certified(loss, M, y, warm, 0.05 * lam_max, weights)
    # Fewer working sets (the epochs of the last one, most of them, vary with the
    # extrapolations that happen to be kept).
    assert warm.iterations < cold.iterations
    # (Identical columns of rare words: the coefficients are not unique.)
    values = [_objective(loss, X, y, r.coef, r.intercept, 0.05 * lam_max, weights)
              for r in (warm, cold)]
    assert values[0] == pytest.approx(values[1], rel=1e-6)
    # Without the intercept: the best one for the given coefficients.
    again = l1_coordinate_descent(M, y, 0.05 * lam_max, weights, loss=loss,
                                  coef=warm.coef.copy())
    assert again.converged and again.iterations <= 1


@pytest.mark.parametrize("loss", CERTIFICATES)
def test_too_few_iterations_is_not_converged(loss):
    X, target, labels = _text(80, 600)
    y = target if loss == "squares" else labels
    weights = np.ones(X.shape[1])
    lam = 0.01 * _lam_max(X, y, weights)
    for limits in ({"max_iter": 1}, {"max_epochs": 10}):
        result = l1_coordinate_descent(X, y, lam, weights, loss=loss, **limits)
        assert not result.converged
        certificate = CERTIFICATES[loss](X, y, result.coef, result.intercept, lam, weights)
        # The reported gap is the true one: it fails the target, and bounds the
        # distance to the optimum as the certificate's does.
        assert result.relative_gap > 1e-7
        assert result.relative_gap == pytest.approx(certificate.relative_gap, rel=1e-3)


def test_input_is_not_modified():
    X, y, _ = _data(30, 50)
    M = sp.csr_matrix(X)
    coef = np.ones(50)
    before = (M.data.copy(), coef.copy())
    l1_coordinate_descent(M, y, 1.0, np.ones(50), coef=coef)
    np.testing.assert_array_equal(M.data, before[0])
    np.testing.assert_array_equal(coef, before[1])


def test_unknown_loss():
    with pytest.raises(ValueError, match="loss must be one of"):
        l1_coordinate_descent(np.eye(3), np.ones(3), 1.0, np.ones(3), loss="hinge")


# ---- Anderson's weights and the schedule of the working set's gap ----------------------


def test_anderson_weights_solve_the_regularised_system():
    """``c = z / 1'z`` with ``(U U' + r I) z = 1``, U the differences of the iterates and
    r the ridge times the largest diagonal entry, against NumPy's solve."""
    from solvers._coordinate_descent import ANDERSON_K, ANDERSON_RIDGE, _anderson_weights

    history = np.random.default_rng(5).standard_normal((ANDERSON_K + 1, 40))
    U = np.diff(history, axis=0)
    gram = U @ U.T
    z = np.linalg.solve(gram + ANDERSON_RIDGE * gram.diagonal().max() * np.eye(ANDERSON_K),
                        np.ones(ANDERSON_K))  # fmt: skip
    np.testing.assert_allclose(_anderson_weights(history), z / z.sum(), rtol=1e-10)


def test_anderson_extrapolates_a_linear_convergence_along_one_direction():
    """Iterates ``x* + rho^k v`` (one slow direction, as coordinate descent's last epochs
    on near-duplicate columns): their differences are parallel, ``U U'`` has rank 1,
    and the regularised weights still give x* (Aitken's extrapolation is exact on a
    geometric sequence); iterates that do not move give no extrapolation."""
    from solvers._coordinate_descent import ANDERSON_K, _anderson_weights

    rng = np.random.default_rng(6)
    limit, direction = rng.standard_normal(30), rng.standard_normal(30)
    history = np.array([limit + 0.88**k * direction for k in range(ANDERSON_K + 1)])
    assert np.linalg.matrix_rank(np.diff(history, axis=0), tol=1e-12) == 1
    weights = _anderson_weights(history)
    before = np.linalg.norm(history[-1] - limit)
    np.testing.assert_allclose(weights @ history[1:], limit, atol=1e-6 * before)
    assert _anderson_weights(np.ones((ANDERSON_K + 1, 30))).size == 0


@pytest.mark.parametrize(
    ("gap", "target", "last_gap", "spent", "expected"),
    [
        (1e-2, 2e-5, 1.0, 2, 3),  # 10x an epoch: 2.7 more epochs to 2e-5
        (1e-2, 1e-5, 1e-1, 5, 10),  # 10x in 5 epochs: 15 more, capped at 10
        (1e-2, 9e-3, 1.0, 2, 1),  # at least one epoch
        (1e-2, 1e-5, 1e-2, 2, 10),  # not falling: the most
        (1e-2, 0.0, 1.0, 2, 10),  # no positive target: the most
    ],
)
def test_epochs_ahead_follow_the_gap_s_rate(gap, target, last_gap, spent, expected):
    """Epochs to the next evaluation: ``ceil(log(target / gap) / rate)`` with the rate of
    the last ``spent`` epochs, clamped to [1, CHECK_EVERY] (worked by hand)."""
    from solvers._coordinate_descent import CHECK_EVERY, _epochs_ahead

    assert CHECK_EVERY == 10
    assert _epochs_ahead(gap, target, last_gap, spent) == expected


def _check_working_set(working, correlations, coef, thresholds, lipschitz, movable, free,
                       size, given):  # fmt: skip
    """skglm's rule written out: the support, the free and given (movable) features, and
    the ``max(size, 2 |penalised support|) - |penalised support|`` others of largest
    score (any of those tied at the last score)."""
    kept = set(np.flatnonzero(coef)) | set(free) | {j for j in given if movable[j]}
    penalised = np.count_nonzero(coef) - np.count_nonzero(coef[free])
    extra = max(size, 2 * penalised) - penalised
    scores = {}
    for j in range(coef.size):
        if j in kept or not movable[j]:
            continue
        distance = (abs(correlations[j] - thresholds[j] * np.sign(coef[j])) if coef[j]
                    else abs(correlations[j]) - thresholds[j])  # fmt: skip
        scores[j] = distance / np.sqrt(lipschitz[j])
    assert list(working) == sorted(set(working))
    chosen = set(working) - kept
    assert kept <= set(working) and chosen <= set(scores)
    assert len(chosen) == min(extra, len(scores))
    left = set(scores) - chosen
    if chosen and left:
        assert min(scores[j] for j in chosen) >= max(scores[j] for j in left)


def test_working_set_is_skglm_s_rule():
    """The choice of features meets the rule written out, on random scores with ties,
    features that cannot move, free features and a given set."""
    from solvers._coordinate_descent import _working_set

    rng = np.random.default_rng(7)
    for trial in range(200):
        d = int(rng.integers(1, 120))
        correlations = rng.integers(-3, 4, d).astype(float)  # many ties
        coef = np.where(rng.random(d) < 0.1, rng.standard_normal(d), 0.0)
        thresholds = rng.choice([0.5, 1.0], d)
        lipschitz = rng.choice([1.0, 4.0], d)
        movable = rng.random(d) < 0.9
        coef[~movable] = 0.0
        free = np.flatnonzero(movable & (rng.random(d) < 0.05))
        thresholds[free] = 0.0
        given = np.flatnonzero(rng.random(d) < 0.2) if trial % 2 else np.zeros(0, np.int64)
        size = int(rng.integers(0, 30))
        args = (correlations, coef, thresholds, lipschitz, movable, free, size, given)
        _check_working_set(_working_set(*args), *args)


@pytest.mark.parametrize("free", [[], [3, 7]])
def test_free_basis_spans_the_constant_and_the_free_columns(free):
    """The lasso's basis projects off the span of ``sqrt(S) [1, X_F]``: its projector
    equals the one of NumPy's least squares on those columns (with and without free
    features; the constant alone is written out, not factored)."""
    from solvers._coordinate_descent import _free_basis

    rng = np.random.default_rng(8)
    X = sp.random(40, 12, density=0.3, random_state=9, format="csc")
    s = rng.uniform(0.1, 3.0, 40)
    free = np.array(free, dtype=np.int64)
    basis = _free_basis(X, np.zeros(40), s, True, free)
    Z = np.sqrt(s)[:, None] * np.column_stack((np.ones(40), X[:, free].toarray()))
    v = rng.standard_normal(40)
    projected = v - Z @ np.linalg.lstsq(Z, v, rcond=None)[0]
    np.testing.assert_allclose(v - basis.T @ (basis @ v), projected, atol=1e-12)
    assert basis.shape == (1 + free.size, 40) and basis.flags.c_contiguous
