"""Screening in the quadratic homotopy and ``return_path=False`` change cost, not the path.

With many more features than samples the lasso and SVM2 paths follow only a set
of candidate features, certifying the others by a Cauchy-Schwarz bound; the
reference here is the same homotopy with screening switched off (every feature
followed at every step), and scikit-learn's ``lars_path`` for the lasso.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import lars_path

from solvers import PathWarning
from solvers.path import _quadratic, lasso_path, svm2_path


def _data(n, d, seed, *, sparse):
    rng = np.random.default_rng(seed)
    if sparse:
        X = sp.random(n, d, density=0.05, format="csr", random_state=seed)
        X.data = rng.poisson(2.0, X.nnz) + 1.0
    else:
        X = rng.standard_normal((n, d))
    w = np.zeros(d)
    k = min(15, d)
    w[rng.choice(d, k, replace=False)] = rng.standard_normal(k)
    score = np.asarray(X @ w).ravel() + 0.3 * rng.standard_normal(n)
    return X, score, np.where(score > np.median(score), 1.0, -1.0)


def _lam_max(path, X, target, weights=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PathWarning)  # max_steps=1 stops on purpose
        return path(X, target, weights, max_steps=1).lams[0]


def _unscreened(monkeypatch, path, *args, **kwargs):
    with monkeypatch.context() as patch:
        patch.setattr(_quadratic, "_SCREEN_MIN_FEATURES", 10**9)
        return path(*args, **kwargs)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("path", [lasso_path, svm2_path])
def test_screened_path_equals_the_unscreened_one(monkeypatch, path, sparse):
    X, score, labels = _data(40, 2500, 0, sparse=sparse)
    target = score if path is lasso_path else labels
    weights = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[1])
    weights[[3, 7]] = np.inf  # excluded
    densest = int(np.argmax(np.asarray((X != 0).sum(axis=0)).ravel()))
    weights[densest] = 0.0  # unpenalised: in every model
    lam_min = 0.05 * _lam_max(path, X, target, weights)
    screened = path(X, target, weights, lam_min=lam_min)
    reference = _unscreened(monkeypatch, path, X, target, weights, lam_min=lam_min)
    assert len(screened) == len(reference) > 10
    np.testing.assert_allclose(screened.lams, reference.lams, rtol=1e-9)
    # A sparse X's path keeps its coefficients sparse (Path.coefs is CSR beyond 2^17 entries).
    coefs, expected = (sp.csr_matrix(p.coefs).toarray() for p in (screened, reference))
    scale = np.abs(expected).max()
    np.testing.assert_allclose(coefs, expected, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(screened.intercepts, reference.intercepts, atol=1e-9)


def test_screened_lasso_path_matches_lars_path():
    X, score, _ = _data(30, 2500, 2, sparse=False)
    Xc, yc = X - X.mean(axis=0), score - score.mean()
    alphas, _, coefs = lars_path(Xc, yc, method="lasso")
    n = X.shape[0]
    path = lasso_path(X, score, lam_min=2 * n * alphas[-1] * 1.0001)
    for alpha, coef in zip(alphas[:-1], coefs.T[:-1], strict=True):
        got, _ = path.at(2 * n * alpha)
        np.testing.assert_allclose(got, coef, atol=1e-7 * np.abs(coefs).max())


@pytest.mark.parametrize("path", [lasso_path, svm2_path])
def test_return_path_false_keeps_the_end_of_the_same_path(path):
    X, score, labels = _data(40, 300, 3, sparse=False)
    target = score if path is lasso_path else labels
    lam_max = _lam_max(path, X, target)
    lam = 0.1 * lam_max
    full = path(X, target, lam_min=lam)
    end = path(X, target, lam_min=lam, return_path=False)
    assert len(end) == 2 and len(full) > 2
    np.testing.assert_allclose(end.lams, full.lams[-2:], rtol=1e-12)
    for mid in (lam, 0.5 * (end.lams[0] + end.lams[1])):
        np.testing.assert_allclose(end.at(mid)[0], full.at(mid)[0], atol=1e-12)


def test_return_path_must_be_a_flag():
    X, score, _ = _data(20, 10, 4, sparse=False)
    with pytest.raises(ValueError, match="return_path"):
        lasso_path(X, score, return_path="no")
