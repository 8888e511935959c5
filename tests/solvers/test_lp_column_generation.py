"""The 1-norm SVM LP (004 eq. 6) by HiGHS with column generation (solvers._lp_column_generation).

Every answer is checked against scipy.optimize.linprog on the full primal LP, written out
here (variables ``[u, v, b, xi]`` with ``w = u - v``; the columns of X divided by their
norms, which leaves the LP's value unchanged), to 1e-9 relative in the objective, and
its certificate is recomputed from the data. lam_max is checked against the exact path's
first breakpoint (solvers.L1SVM.lam_max).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

import solvers._lp_column_generation as column_generation
from benchmarks._text import text_like
from solvers import L1SVM
from solvers._lp_column_generation import l1_svm_column_generation, l1_svm_lam_max
from solvers.certificates import l1_svm_certificate

FORMATS = {"dense": np.asarray, "csr": sp.csr_matrix}
#: The objectives must agree to this, relative to the problem's scale.
OBJECTIVE_RTOL = 1e-9


def _gaussian(n, d, seed=0):
    """Gaussian X with labels from 5 features and noise (overlapping classes)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    score = X[:, :5] @ np.array([2.0, -1.5, 1.0, 1.0, -0.5]) + 0.7 * rng.standard_normal(n)
    return X, np.where(score > 0.3, 1.0, -1.0)


def _text(n=150, d=1500):
    X, y = text_like(n, d, words_per_document=30)
    return X, y


def _linprog_objective(X, y, lam, weights=None, sample_weight=None):
    """The optimum of the full primal LP by HiGHS through scipy, tight tolerances."""
    X = X.toarray() if sp.issparse(X) else np.asarray(X)
    n, d = X.shape
    weights = np.ones(d) if weights is None else weights
    s = np.ones(n) if sample_weight is None else sample_weight
    norms = np.linalg.norm(X, axis=0)
    kept = np.isfinite(weights) & (norms > 0)
    YX = y[:, None] * X[:, kept] / norms[kept]
    k = YX.shape[1]
    cost = np.concatenate((np.tile(lam * weights[kept] / norms[kept], 2), [0.0], s))
    A = np.hstack((-YX, YX, -y[:, None], -np.eye(n)))
    bounds = [(0, None)] * (2 * k) + [(None, None)] + [(0, None)] * n
    result = linprog(
        cost,
        A_ub=A,
        b_ub=-np.ones(n),
        bounds=bounds,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    assert result.status == 0
    return result.fun


def _check(result, X, y, lam, weights=None, sample_weight=None):
    """Converged, certified here, and of linprog's objective."""
    assert result.converged
    certificate = l1_svm_certificate(
        X,
        y,
        result.coef,
        result.intercept,
        lam,
        weights,
        alpha=result.alpha,
        sample_weight=sample_weight,
    )
    assert certificate.holds and certificate.relative_gap <= 1e-7
    expected = _linprog_objective(X, y, lam, weights, sample_weight)
    # Relative to the problem's scale (the objective of w = 0), as the certificate's gap.
    assert certificate.primal == pytest.approx(expected, abs=OBJECTIVE_RTOL * certificate.scale)
    s = np.ones(y.size) if sample_weight is None else sample_weight
    assert np.all((result.alpha >= 0) & (result.alpha <= s))
    return certificate


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", [(300, 40), (60, 400)], ids=["n>d", "d>n"])
@pytest.mark.parametrize("ratio", [0.1, 0.01])
def test_matches_linprog_on_the_full_lp(fmt, shape, ratio):
    X, y = _gaussian(*shape)
    X = FORMATS[fmt](X)
    lam = ratio * l1_svm_lam_max(X, y)
    result = l1_svm_column_generation(X, y, lam)
    _check(result, X, y, lam)
    assert result.rounds >= 1 and result.iterations > 0


@pytest.mark.parametrize("ratio", [0.1, 0.01])
def test_text_like_data_grows_the_working_set(ratio):
    X, y = _text()
    lam = ratio * l1_svm_lam_max(X, y)
    result = l1_svm_column_generation(X, y, lam)
    _check(result, X, y, lam)
    assert np.all(np.isin(np.flatnonzero(result.coef), result.working))


def test_unpenalised_and_excluded_features():
    X, y = _gaussian(120, 60, seed=1)
    weights = np.ones(60)
    weights[[0, 7]] = 0.0  # unpenalised: always in the working set
    weights[[1, 2, 30]] = np.inf  # excluded: coefficient 0
    weights[40:] = np.logspace(-2, 2, 20)  # weights spanning decades
    lam = 2.0
    result = l1_svm_column_generation(sp.csr_matrix(X), y, lam, weights)
    _check(result, X, y, lam, weights)
    assert np.all(result.coef[[1, 2, 30]] == 0.0)
    assert {0, 7} <= set(result.working.tolist())
    assert not {1, 2, 30} & set(result.working.tolist())


@pytest.mark.parametrize("fmt", FORMATS)
def test_integer_sample_weights_equal_repeated_rows(fmt):
    X, y = _gaussian(80, 200, seed=2)
    s = np.random.default_rng(2).integers(0, 4, size=80).astype(float)
    repeated = np.repeat(np.arange(80), s.astype(int))
    lam = 0.05 * l1_svm_lam_max(X, y, sample_weight=s)
    weighted = l1_svm_column_generation(FORMATS[fmt](X), y, lam, sample_weight=s)
    certificate = _check(weighted, X, y, lam, sample_weight=s)
    plain = l1_svm_column_generation(FORMATS[fmt](X[repeated]), y[repeated], lam)
    assert plain.converged
    assert plain.certificate.primal == pytest.approx(certificate.primal, rel=OBJECTIVE_RTOL)
    assert np.all(weighted.alpha[s == 0] == 0.0)


def test_sample_and_penalty_weights_spanning_decades():
    X, y = _gaussian(90, 150, seed=6)
    rng = np.random.default_rng(6)
    s = 10.0 ** rng.uniform(-2, 2, 90)
    weights = 10.0 ** rng.uniform(-3, 3, 150)
    lam = 0.05 * l1_svm_lam_max(X, y, weights, sample_weight=s)
    result = l1_svm_column_generation(sp.csr_matrix(X), y, lam, weights, sample_weight=s)
    _check(result, X, y, lam, weights, s)


def test_awkward_columns():
    """A zero column, a duplicate, columns at 1e-6 and 1e4 beside unit ones."""
    X, y = _gaussian(150, 30, seed=3)
    X = X / np.linalg.norm(X, axis=0)
    X[:, 5] = 0.0
    X[:, 6] = X[:, 0]
    X[:, 7] *= 1e-6
    X[:, 8] *= 1e4
    X[:, 9] = 1e-6 * X[:, 1]
    for fmt in FORMATS.values():
        lam = 0.05 * l1_svm_lam_max(fmt(X), y)
        result = l1_svm_column_generation(fmt(X), y, lam)
        _check(result, X, y, lam)
        assert result.coef[5] == 0.0
        assert 5 not in result.working


def test_above_lam_max_every_coefficient_is_zero():
    X, y = _text(100, 800)
    lam_max = l1_svm_lam_max(X, y)
    result = l1_svm_column_generation(X, y, 1.001 * lam_max)
    assert np.all(result.coef == 0.0)
    _check(result, X, y, 1.001 * lam_max)
    below = l1_svm_column_generation(X, y, 0.99 * lam_max)
    assert np.any(below.coef != 0.0)


@pytest.mark.parametrize("weighted", [False, True])
def test_lam_max_is_the_paths_first_breakpoint(weighted):
    X, y = _gaussian(61, 25, seed=4)  # unbalanced classes
    weights = np.random.default_rng(4).uniform(0.5, 2.0, 25) if weighted else None
    expected = L1SVM.lam_max(X, y, weights)
    assert l1_svm_lam_max(X, y, weights) == pytest.approx(expected, rel=1e-9)
    assert l1_svm_lam_max(sp.csr_matrix(X), y, weights) == pytest.approx(expected, rel=1e-9)


def test_lam_max_with_sample_weights_leaves_zero_optimal():
    X, y = _gaussian(50, 20, seed=5)
    s = np.random.default_rng(5).uniform(0.1, 3.0, 50)
    lam_max = l1_svm_lam_max(X, y, sample_weight=s)
    above = l1_svm_column_generation(X, y, 1.0001 * lam_max, sample_weight=s)
    assert above.converged and np.all(above.coef == 0.0)
    below = l1_svm_column_generation(X, y, 0.999 * lam_max, sample_weight=s)
    assert np.any(below.coef != 0.0)
    with pytest.raises(ValueError, match="> 0"):
        l1_svm_lam_max(X, y, np.r_[0.0, np.ones(19)])


def test_warm_start_from_the_previous_working_set():
    X, y = _text()
    lam_max = l1_svm_lam_max(X, y)
    first = l1_svm_column_generation(X, y, 0.05 * lam_max)
    lam = 0.02 * lam_max
    cold = l1_svm_column_generation(X, y, lam)
    warm = l1_svm_column_generation(X, y, lam, working=first.working, basis=first.basis)
    _check(warm, X, y, lam)
    assert warm.certificate.primal == pytest.approx(cold.certificate.primal, rel=OBJECTIVE_RTOL)
    assert warm.working[: first.working.size].tolist() == first.working.tolist()
    # The working set alone (no basis), and one with an excluded feature: dropped.
    weights = np.ones(X.shape[1])
    weights[first.working[0]] = np.inf
    alone = l1_svm_column_generation(X, y, lam, weights, working=first.working, basis=first.basis)
    _check(alone, X, y, lam, weights)
    assert first.working[0] not in alone.working


def test_too_few_rounds_is_not_converged():
    X, y = _text()
    lam = 0.01 * l1_svm_lam_max(X, y)
    result = l1_svm_column_generation(X, y, lam, working=[0], max_rounds=1)
    assert not result.converged and result.rounds == 1
    certificate = l1_svm_certificate(X, y, result.coef, result.intercept, lam, alpha=result.alpha)
    assert not certificate.holds


def test_a_gap_above_the_tolerance_tightens_highs_once_then_reports_it(monkeypatch):
    """With no violator left but the gap above INNER_TOLERANCE (forced here to 0), HiGHS
    re-solves once with tighter tolerances; a gap still above it is not converged."""
    X, y = _gaussian(80, 40, seed=7)
    lam = 0.05 * l1_svm_lam_max(X, y)
    plain = l1_svm_column_generation(X, y, lam)
    monkeypatch.setattr(column_generation, "INNER_TOLERANCE", 0.0)
    tightened = []
    original = column_generation._DualLP.tighten
    monkeypatch.setattr(
        column_generation._DualLP,
        "tighten",
        lambda self: tightened.append(True) or original(self),
    )
    result = l1_svm_column_generation(X, y, lam)
    assert tightened == [True] and result.rounds == plain.rounds + 1
    assert not result.converged or result.certificate.relative_gap == 0.0
    assert result.certificate.holds
