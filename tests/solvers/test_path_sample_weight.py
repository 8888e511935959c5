"""Sample weights on the exact paths: repeated rows, scikit-learn's weighted Lasso and CVXPY.

Three independent references: integer weights are the same data with each row
repeated ``s_i`` times (the weighted path must be that path, breakpoint for
breakpoint); scikit-learn's ``Lasso(alpha=lam / (2 sum s)).fit(X, y, sample_weight=s)``;
and the weighted formulation solved by Clarabel through the estimators
(``solver="CLARABEL"``), with each breakpoint's certificate.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Lasso

from solvers import L1SVM, SVM2, WeightedLasso
from solvers.certificates import l1_svm_certificate, svm2_certificate
from solvers.path import l1_svm_path, lasso_path, svm2_path

PATHS = {"lasso": lasso_path, "svm2": svm2_path, "l1_svm": l1_svm_path}
ESTIMATORS = {"lasso": WeightedLasso, "svm2": SVM2, "l1_svm": L1SVM}


def _data(kind, seed, n=36, d=6):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if kind == "lasso":
        coef = rng.standard_normal(d) * (rng.random(d) < 0.5)
        return X, X @ coef + rng.standard_normal(n) + 4
    return X, np.where(X[:, 0] - 0.5 * X[:, 1] + 0.5 * rng.standard_normal(n) > 0, 1, -1)


@pytest.mark.parametrize("kind", PATHS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integer_weights_are_repeated_rows(kind, seed):
    X, y = _data(kind, seed)
    counts = np.random.default_rng(seed + 10).integers(0, 4, y.size)
    weighted = PATHS[kind](X, y, sample_weight=counts.astype(float))
    repeated = PATHS[kind](np.repeat(X, counts, axis=0), np.repeat(y, counts))
    assert len(weighted.lams) == len(repeated.lams)
    scale = max(1.0, weighted.lams[0])
    np.testing.assert_allclose(weighted.lams, repeated.lams, rtol=1e-9, atol=1e-12 * scale)
    lams = repeated.lams[repeated.lams > 0]
    for lam in np.sqrt(lams[1:] * lams[:-1]):  # between breakpoints (the 1-norm SVM ties at them)
        (coef_w, b_w), (coef_r, b_r) = weighted.at(lam), repeated.at(lam)
        np.testing.assert_allclose(coef_w, coef_r, atol=1e-8 * max(1.0, np.abs(coef_r).max()))
        np.testing.assert_allclose(b_w, b_r, atol=1e-8 * max(1.0, abs(b_r)))


@pytest.mark.parametrize("fmt", [np.asarray, sp.csr_matrix])
def test_weighted_lasso_path_is_sklearns_weighted_lasso(fmt):
    X, y = _data("lasso", 3)
    s = np.random.default_rng(3).uniform(0.1, 5.0, y.size)
    s[:2] = 0.0
    path = lasso_path(fmt(X), y, sample_weight=s)
    for lam in np.geomspace(path.lams[0] * 0.9, path.lams[0] * 1e-3, 6):
        coef, intercept = path.at(lam)
        peer = Lasso(alpha=lam / (2 * s.sum()), tol=1e-14, max_iter=10**6)
        peer.fit(X, y, sample_weight=s)
        np.testing.assert_allclose(coef, peer.coef_, atol=1e-7 * max(1.0, np.abs(coef).max()))
        np.testing.assert_allclose(intercept, peer.intercept_, atol=1e-7 * abs(intercept))


@pytest.mark.parametrize("kind", ["svm2", "l1_svm"])
def test_weighted_classifier_paths_are_certified_and_clarabels_optimum(kind):
    X, y = _data(kind, 4)
    s = 10.0 ** np.random.default_rng(4).uniform(-2, 2, y.size)  # four decades
    path = PATHS[kind](X, y, sample_weight=s)
    certify = svm2_certificate if kind == "svm2" else l1_svm_certificate
    for lam in np.geomspace(path.lams[0] * 0.9, max(path.lams[-1], path.lams[0] * 1e-3), 5):
        coef, intercept = path.at(lam)
        certificate = certify(X, y, coef, intercept, lam=lam, sample_weight=s)
        assert certificate.holds, certificate
        reference = ESTIMATORS[kind](lam=lam, solver="CLARABEL").fit(X, y, sample_weight=s)
        np.testing.assert_allclose(certificate.primal, reference.objective_, rtol=1e-6)


@pytest.mark.parametrize("kind", PATHS)
def test_lam_max_with_weights_is_the_weighted_paths_first_breakpoint(kind):
    X, y = _data(kind, 5)
    s = np.random.default_rng(5).uniform(0.1, 3.0, y.size)
    path = PATHS[kind](X, y, sample_weight=s)
    lam_max = ESTIMATORS[kind].lam_max(X, y, sample_weight=s)
    assert lam_max == pytest.approx(path.lams[0], rel=1e-9)
    coef, _ = path.at(lam_max)
    assert not np.any(coef)
    inside = ESTIMATORS[kind](lam=0.9 * lam_max).fit(X, y, sample_weight=s)
    assert np.any(inside.coef_)


def test_bad_sample_weight_names_itself():
    X, y = _data("lasso", 6)
    for bad in (np.ones(3), -np.ones(y.size), np.zeros(y.size), np.full(y.size, np.nan)):
        with pytest.raises(ValueError, match="sample_weight"):
            lasso_path(X, y, sample_weight=bad)


def test_weighted_validation_scores_are_sklearns_weighted_metrics():
    """Path.scores with sample_weight: R^2 and accuracy as scikit-learn weighs them."""
    from sklearn.metrics import accuracy_score, r2_score

    X, y = _data("lasso", 7)
    s = np.random.default_rng(7).uniform(0.0, 2.0, y.size)
    path = lasso_path(X[:24], y[:24])
    scores = path.scores(X[24:], y[24:], sample_weight=s[24:])
    expected = [r2_score(y[24:], X[24:] @ c + b, sample_weight=s[24:])
                for c, b in zip(path.coefs, path.intercepts, strict=True)]  # fmt: skip
    np.testing.assert_allclose(scores, expected, rtol=1e-12)
    X, labels = _data("svm2", 7)
    path = svm2_path(X[:24], labels[:24])
    scores = path.scores(X[24:], labels[24:], sample_weight=s[24:])
    predictions = [np.where(X[24:] @ c + b > 0, 1, -1)
                   for c, b in zip(path.coefs, path.intercepts, strict=True)]  # fmt: skip
    expected = [accuracy_score(labels[24:], p, sample_weight=s[24:]) for p in predictions]
    np.testing.assert_allclose(scores, expected, rtol=1e-12)
    with pytest.raises(ValueError, match="sample_weight"):
        path.scores(X[24:], labels[24:], sample_weight=np.zeros(12))
