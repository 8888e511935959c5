"""Ridge regression / RLSC by conjugate gradients (solvers._ridge_cg).

Checked against NumPy's solve of the (weighted) normal equations, scikit-learn's Ridge
and RidgeClassifier (at tight tolerances), repeated rows for integer sample weights,
and the certificate recomputed here from the data.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Ridge, RidgeClassifier

from benchmarks._text import text_like
from solvers._ridge_cg import INNER_TOLERANCE, ridge_cg
from solvers.certificates import ridge_certificate

FORMATS = {"dense": np.asarray, "csr": sp.csr_matrix}
SHAPES = {"n>d": (120, 30), "d>n": (30, 120)}


def _data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.3)
    y = X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n)
    return X, y


def _exact(X, y, lam, s=None):
    """``(X'SX + lam I)^-1 X'Sy`` by NumPy."""
    s = np.ones(y.size) if s is None else s
    return np.linalg.solve(X.T @ (s[:, None] * X) + lam * np.eye(X.shape[1]), X.T @ (s * y))


def _objective(X, y, coef, lam, s=None):
    s = np.ones(y.size) if s is None else s
    residual = y - X @ coef
    return float(s @ residual**2 + lam * coef @ coef)


def _certified(result, X, y, lam, s=None):
    """Converged, certified here, and within its certificate of the exact optimum.

    The objective is lam-strongly convex, so ``lam ||b - b*||^2 <= f(b) - f* <= gap``.
    RLSC's x: the dual point ``u = lam S^(-1/2) x`` has ``||u - u*||^2 <= f(b) - D(u)``
    (the dual is 2-strongly concave in u), so ``||x - x*|| <= sqrt(max s (f(b) -
    D(u))) / lam``, with D written out here.
    """
    assert result.converged
    certificate = ridge_certificate(
        X, y, result.coef, lam, dual_coef=result.dual_coef, sample_weight=s
    )
    assert certificate.holds
    assert certificate.relative_gap <= max(INNER_TOLERANCE, certificate.resolution)
    exact = _exact(X, y, lam, s)
    optimum = _objective(X, y, exact, lam, s)
    gap = max(certificate.gap, 0.0) + 1e-12 * certificate.scale
    assert optimum - 1e-12 * certificate.scale <= certificate.primal <= optimum + gap
    assert np.linalg.norm(result.coef - exact) <= np.sqrt(gap / lam)
    s = np.ones(y.size) if s is None else s
    root = np.sqrt(s)
    u = lam * np.divide(result.dual_coef, root, out=np.zeros(y.size), where=root > 0)
    rows, targets = root[:, None] * X, root * y
    dual_value = 2 * u @ targets - u @ u - np.sum((rows.T @ u) ** 2) / lam
    gap_x = certificate.primal - dual_value + 1e-12 * certificate.scale
    exact_x = s * (y - X @ exact) / lam
    assert np.linalg.norm(result.dual_coef - exact_x) <= np.sqrt(s.max() * gap_x) / lam
    return certificate


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_matches_the_normal_equations_and_ridge(fmt, shape):
    X, y = _data(*SHAPES[shape])
    lam = 2.0
    result = ridge_cg(FORMATS[fmt](X), y, lam)
    certificate = _certified(result, X, y, lam)
    peer = Ridge(alpha=lam, fit_intercept=False, solver="cholesky").fit(X, y)
    assert _objective(X, y, peer.coef_, lam) == pytest.approx(
        certificate.primal, abs=INNER_TOLERANCE * certificate.scale
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_rlsc_on_text_matches_ridge_classifier(fmt):
    X, labels = text_like(100, 1000, words_per_document=20)
    lam = 0.5
    result = ridge_cg(FORMATS[fmt](X.toarray()), labels, lam)
    certificate = _certified(result, X.toarray(), labels, lam)
    peer = RidgeClassifier(alpha=lam, fit_intercept=False, tol=1e-12).fit(X, labels)
    assert _objective(X, labels, peer.coef_.ravel(), lam) == pytest.approx(
        certificate.primal, abs=INNER_TOLERANCE * certificate.scale
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_sample_weights(fmt, shape):
    X, y = _data(*SHAPES[shape], seed=1)
    s = np.random.default_rng(1).integers(0, 4, size=y.size).astype(float)
    lam = 1.5
    result = ridge_cg(FORMATS[fmt](X), y, lam, sample_weight=s)
    certificate = _certified(result, X, y, lam, s)
    peer = Ridge(alpha=lam, fit_intercept=False, solver="cholesky").fit(X, y, sample_weight=s)
    assert _objective(X, y, peer.coef_, lam, s) == pytest.approx(
        certificate.primal, abs=INNER_TOLERANCE * certificate.scale
    )
    # Integer weights are repeated rows.
    rows = np.repeat(np.arange(y.size), s.astype(int))
    repeated = ridge_cg(FORMATS[fmt](X[rows]), y[rows], lam)
    assert repeated.certificate.primal == pytest.approx(
        certificate.primal, abs=INNER_TOLERANCE * certificate.scale
    )
    assert np.all(result.dual_coef[s == 0] == 0.0)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("relative_lam", [1e-6, 1e-3, 1.0, 1e3, 1e6])
def test_lam_over_twelve_decades(shape, relative_lam):
    X, y = _data(*SHAPES[shape], seed=2)
    lam = relative_lam * np.linalg.norm(X, 2) ** 2
    result = ridge_cg(sp.csr_matrix(X), y, lam)
    _certified(result, X, y, lam)


def test_small_lam_needs_more_iterations_and_max_iter_is_honest():
    X, y = _data(*SHAPES["d>n"], seed=3)
    scale = np.linalg.norm(X, 2) ** 2
    easy = ridge_cg(X, y, scale)
    hard = ridge_cg(X, y, 1e-6 * scale)
    assert hard.iterations > easy.iterations
    cut = ridge_cg(X, y, 1e-6 * scale, max_iter=3)
    assert not cut.converged and cut.iterations == 3
    certificate = ridge_certificate(X, y, cut.coef, 1e-6 * scale, dual_coef=cut.dual_coef)
    assert not certificate.holds
    assert cut.certificate.relative_gap == pytest.approx(certificate.relative_gap)


@pytest.mark.parametrize("fmt", FORMATS)
def test_awkward_columns(fmt):
    """A zero column, a duplicate, columns at 1e-6 and 1e4 beside unit ones."""
    X, y = _data(80, 20, seed=4)
    X /= np.linalg.norm(X, axis=0)
    X[:, 0] = 0.0
    X[:, 1] = X[:, 2]
    X[:, 3] *= 1e-6
    X[:, 4] *= 1e4
    for lam in (1e-2, 1.0):
        for columns in (slice(None), np.r_[np.arange(20), np.arange(20), np.arange(20)]):
            Xc = X[:, columns]  # also each column three times (60 > 20 columns)
            result = ridge_cg(FORMATS[fmt](Xc), y, lam)
            _certified(result, Xc, y, lam)
            assert result.coef[0] == 0.0


@pytest.mark.parametrize("shape", SHAPES)
def test_warm_start_from_an_earlier_lam(shape):
    X, y = _data(*SHAPES[shape], seed=5)
    s = np.random.default_rng(5).uniform(0.5, 2.0, y.size)
    first = ridge_cg(X, y, 1.0, sample_weight=s)
    cold = ridge_cg(X, y, 1.1, sample_weight=s)
    start = {"coef": first.coef, "dual_coef": first.dual_coef}  # each system takes its own
    warm = ridge_cg(X, y, 1.1, sample_weight=s, **start)
    _certified(warm, X, y, 1.1, s)
    assert warm.iterations < cold.iterations
    same = ridge_cg(X, y, 1.1, sample_weight=s, coef=warm.coef, dual_coef=warm.dual_coef)
    assert same.converged and same.iterations <= 1


def test_zero_targets():
    X, _ = _data(40, 10)
    result = ridge_cg(sp.csr_matrix(X), np.zeros(40), 1.0)
    assert result.converged and result.iterations == 0
    assert np.all(result.coef == 0.0) and np.all(result.dual_coef == 0.0)
