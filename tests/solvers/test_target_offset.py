"""A regression target with a large offset (a Unix timestamp as y): the lasso's
intercept is free, so y = offset + signal must give the fit of the signal with the
intercept moved by the offset, for every offset, against scikit-learn."""

import numpy as np
import pytest
from sklearn.linear_model import Lasso, LassoCV
from sklearn.model_selection import KFold

from solvers import WeightedLasso, WeightedLassoCV
from solvers.path import lasso_path
from solvers.weights import rs_weights

OFFSETS = [0.0, 1e3, 1e6, 1.7e9, 1e12]


def _data(n, d, offset, seed=0):
    """X, the target ``y = offset + signal`` and the signal as y holds it: ``y - offset``
    is exact (Sterbenz), and it is the reference's target, since the last digits of
    the signal are lost when the offset is added (1e-4 at 1e12)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    coef = np.zeros(d)
    coef[:3] = [1.0, -2.0, 0.5]
    y = offset + (X @ coef + 0.1 * rng.standard_normal(n))
    return X, y, y - offset


def _objective(X, y, coef, intercept, lam):
    """004 eq. 3 at unit weights, on the centred target (no cancellation)."""
    return np.sum((y - X @ coef - intercept) ** 2) + lam * np.abs(coef).sum()


def _sklearn(X, signal, lam):
    n = X.shape[0]
    return Lasso(alpha=lam / (2 * n), tol=1e-12, max_iter=100000).fit(X, signal)


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("shape", [(100, 10), (60, 2000)], ids=["n>d", "d>n"])
def test_weighted_lasso_fits_the_signal_under_an_offset(offset, shape):
    X, y, signal = _data(*shape, offset)
    lam = 10.0
    model = WeightedLasso(lam=lam).fit(X, y)
    ref = _sklearn(X, signal, lam)
    assert model.certificate_.holds
    np.testing.assert_allclose(model.coef_, ref.coef_, atol=1e-6)
    # The intercept is known to the offset's rounding (its last digits).
    assert model.intercept_ - offset == pytest.approx(ref.intercept_, abs=1e-6 + 1e-14 * offset)
    ours = _objective(X, signal, model.coef_, model.intercept_ - offset, lam)
    assert ours <= _objective(X, signal, ref.coef_, ref.intercept_, lam) * (1 + 1e-6)


@pytest.mark.parametrize("offset", OFFSETS)
def test_lasso_path_is_the_path_of_the_signal(offset):
    X, y, signal = _data(60, 200, offset)
    reference = lasso_path(X, signal)
    path = lasso_path(X, y)
    # Not a constant target: the same breakpoints, to the offset's rounding.
    assert len(path.lams) == len(reference.lams) > 3
    np.testing.assert_allclose(path.lams, reference.lams, rtol=1e-9)
    for lam in (10.0, 1.0):
        ref = _sklearn(X, signal, lam)
        coef, intercept = path.at(lam)
        np.testing.assert_allclose(coef, ref.coef_, atol=1e-6)
        assert _objective(X, signal, coef, intercept - offset, lam) <= _objective(
            X, signal, ref.coef_, ref.intercept_, lam
        ) * (1 + 1e-6) + 1e-9


@pytest.mark.parametrize("offset", [0.0, 1.7e9])
def test_weighted_lasso_cv_chooses_as_lasso_cv(offset):
    X, y, signal = _data(60, 200, offset)
    folds = KFold(5, shuffle=True, random_state=0)
    model = WeightedLassoCV(cv=folds).fit(X, y)
    ref = LassoCV(cv=folds, tol=1e-10, max_iter=100000).fit(X, y)
    # The same data up to the offset: the choice does not move, and it is far below
    # lam_max (LassoCV's MSE at its alpha is that of a real fit).
    unshifted = WeightedLassoCV(cv=folds).fit(X, signal)
    assert model.lam_ == pytest.approx(unshifted.lam_, rel=1e-6)
    assert model.lam_ < 0.2 * WeightedLasso.lam_max(X, signal)
    np.testing.assert_allclose(model.coef_[:3], ref.coef_[:3], rtol=0.05)


def test_rs_weights_of_the_lasso_ignore_the_offset():
    X, y, signal = _data(60, 200, 1.7e9)
    kwargs = {"base": "lasso", "block_size": 20, "n_blocks": 10, "random_state": 0}
    np.testing.assert_array_equal(
        rs_weights(X, y, **kwargs), rs_weights(X, signal, **kwargs)
    )
