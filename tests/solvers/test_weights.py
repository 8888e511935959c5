"""solvers.weights: hybrid weights against scikit-learn / scipy L2 fits, RS weights (004
Algorithm 1) against a brute-force selection on scikit-learn's LARS path, bad input."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from joblib import parallel_config
from scipy.optimize import minimize
from sklearn.linear_model import Ridge, lars_path
from sklearn.svm import SVC

from solvers.weights import hybrid_weights, rs_weights


def _signal_data(n=120, d=8, informative=(1, 4), noise=0.3, random_state=0):
    """X standard normal; y from the informative features only (labels 0/1, or real)."""
    rng = np.random.default_rng(random_state)
    X = rng.standard_normal((n, d))
    score = X[:, list(informative)] @ np.array([2.0, -1.5])
    return X, score + noise * rng.standard_normal(n)


def _classes(score):
    return np.where(score > 0, 1, 0)


# ---- rs_weights -------------------------------------------------------------------------


@pytest.mark.parametrize("base", ["l1", "svm2", "lasso"])
def test_rs_weights_features_every_block_selects_get_the_smallest_weight(base):
    X, score = _signal_data(n=40 if base == "l1" else 120)
    y = score if base == "lasso" else _classes(score)
    K = 4
    W = rs_weights(X, y, base=base, block_size=len(y) // 2, n_blocks=K, random_state=0)
    assert W.shape == (X.shape[1],)
    finite = W[np.isfinite(W)]
    # W = K / count: 1 for a feature selected in every block, K / c otherwise.
    assert np.all(finite >= 1) and np.allclose(K / finite, np.round(K / finite))
    np.testing.assert_array_equal(W[[1, 4]], 1.0)
    assert W.min() == 1.0


def test_rs_weights_equal_a_brute_force_selection_on_sklearns_lars_path():
    """One block holding every row, validation data given: W = 1 on the features of the
    best breakpoint of the lasso path (R^2 on the validation data), +inf elsewhere."""
    X, y = _signal_data(n=80, noise=1.0, random_state=1)
    X_val, y_val = _signal_data(n=40, noise=1.0, random_state=2)
    W = rs_weights(X, y, base="lasso", block_size=80, n_blocks=1, X_val=X_val, y_val=y_val)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    _, _, coefs = lars_path(Xc, yc, method="lasso")
    best, support = -np.inf, None
    for coef in coefs.T:  # from lam_max down: ties keep the sparser model
        intercept = y.mean() - X.mean(axis=0) @ coef
        residual = y_val - X_val @ coef - intercept
        r2 = 1 - residual @ residual / np.sum((y_val - y_val.mean()) ** 2)
        if r2 > best + 1e-12:
            best, support = r2, coef != 0
    np.testing.assert_array_equal(W, np.where(support, 1.0, np.inf))


def test_rs_weights_are_reproducible_and_do_not_depend_on_n_jobs():
    X, score = _signal_data(n=80)
    y = _classes(score)
    kwargs = dict(base="svm2", block_size=30, n_blocks=6)
    W1 = rs_weights(X, y, **kwargs, random_state=3)
    np.testing.assert_array_equal(rs_weights(X, y, **kwargs, random_state=3), W1)
    # Threads, so that the test needs no worker processes; blocks finish out of order.
    with parallel_config(backend="threading"):
        for n_jobs in (2, 3):
            np.testing.assert_array_equal(
                rs_weights(X, y, **kwargs, random_state=3, n_jobs=n_jobs), W1
            )
    gen = rs_weights(X, y, **kwargs, random_state=np.random.default_rng(3))
    np.testing.assert_array_equal(gen, W1)  # an int seeds the same generator


def test_rs_weights_of_sparse_input_equal_the_dense_ones():
    X, score = _signal_data(n=80)
    y = _classes(score)
    kwargs = dict(base="svm2", block_size=30, n_blocks=4, random_state=0)
    np.testing.assert_array_equal(
        rs_weights(sp.csr_matrix(X), y, **kwargs), rs_weights(X, y, **kwargs)
    )


def test_rs_weights_cap_replaces_only_the_infinite_weights():
    X, y = _signal_data(n=80, d=30)
    kwargs = dict(base="lasso", block_size=20, n_blocks=3, random_state=0)
    W = rs_weights(X, y, **kwargs)
    assert np.isinf(W).any()
    capped = rs_weights(X, y, **kwargs, cap=10.0)
    np.testing.assert_array_equal(capped[np.isfinite(W)], W[np.isfinite(W)])
    np.testing.assert_array_equal(capped[np.isinf(W)], 10.0)


def test_one_warning_counts_the_redrawn_single_class_blocks():
    X, score = _signal_data(n=40)
    y = np.zeros(40, dtype=int)
    y[:3] = 1  # 3 positives in 40: most blocks of 6 hold one class
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rs_weights(X, y, base="svm2", block_size=6, n_blocks=5, random_state=0)
    redraws = [w for w in caught if "redrawn" in str(w.message)]
    assert len(redraws) == 1
    # The same generator, drawn by hand: how many blocks of 6 held one class.
    rng, rejected = np.random.default_rng(0), 0
    for _ in range(5):
        while np.unique(y[rng.choice(40, 6, replace=False)]).size < 2:
            rejected += 1
    assert f"{rejected} block(s)" in str(redraws[0].message)


# ---- hybrid_weights ---------------------------------------------------------------------


def test_hybrid_weights_for_the_1norm_svm_are_those_of_sklearn_svc():
    X, score = _signal_data(n=60)
    y = _classes(score)
    W = hybrid_weights(X, y, base="l1", gamma=2.0, C_grid=(0.5,))
    beta = SVC(kernel="linear", C=0.5, tol=1e-10).fit(X, y).coef_.ravel()
    np.testing.assert_allclose(W, np.abs(beta) ** -2.0, rtol=1e-4)


def test_hybrid_weights_for_svm2_minimise_the_squared_hinge_svm():
    X, score = _signal_data(n=60)
    y = _classes(score)
    y_pm = 2.0 * y - 1
    C = 2.0

    def objective(v):
        slack = np.maximum(0.0, 1.0 - y_pm * (X @ v[:-1] + v[-1]))
        gradient = -2.0 * C * (slack * y_pm)
        return 0.5 * v[:-1] @ v[:-1] + C * slack @ slack, np.append(
            v[:-1] + X.T @ gradient, gradient.sum()
        )

    v = minimize(
        objective,
        np.zeros(X.shape[1] + 1),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10000},
    ).x
    W = hybrid_weights(X, y, base="svm2", gamma=1.0, C_grid=(C,))
    np.testing.assert_allclose(W, np.abs(v[:-1]) ** -1.0, rtol=1e-5)


def test_hybrid_weights_for_the_lasso_are_those_of_sklearn_ridge():
    X, y = _signal_data(n=60)
    C = 0.5  # 1/2 ||b||^2 + C ||y - X b - b0||^2: Ridge(alpha = 1 / (2 C))
    W = hybrid_weights(X, y, base="lasso", gamma=0.5, C_grid=(C,))
    beta = Ridge(alpha=1.0 / (2 * C)).fit(X, y).coef_
    np.testing.assert_allclose(W, np.abs(beta) ** -0.5, rtol=1e-8)


def test_hybrid_weights_take_the_c_that_scores_best_on_the_validation_data():
    X, score = _signal_data(n=80, noise=2.0)
    y = _classes(score)
    X_val, score_val = _signal_data(n=60, noise=2.0, random_state=5)
    y_val = _classes(score_val)
    grid = (0.001, 0.01, 1.0)
    fits = [SVC(kernel="linear", C=C, tol=1e-10).fit(X, y) for C in grid]
    best = fits[int(np.argmax([f.score(X_val, y_val) for f in fits]))]  # first of ties
    W = hybrid_weights(X, y, base="l1", C_grid=grid, X_val=X_val, y_val=y_val)
    np.testing.assert_allclose(W, 1.0 / np.abs(best.coef_.ravel()), rtol=1e-4)


def test_hybrid_weights_are_infinite_where_the_l2_coefficient_is_zero():
    X, y = _signal_data(n=60)
    X[:, 2] = 0.0  # a zero column has a zero ridge coefficient
    W = hybrid_weights(X, y, base="lasso", C_grid=(1.0,))
    assert np.isinf(W[2]) and np.all(np.isfinite(np.delete(W, 2)))


def test_hybrid_weights_hold_out_a_stratified_share_reproducibly():
    X, score = _signal_data(n=60)
    y = _classes(score)
    W = hybrid_weights(X, y, base="svm2", C_grid=(0.1, 1.0), random_state=0)
    np.testing.assert_array_equal(
        hybrid_weights(X, y, base="svm2", C_grid=(0.1, 1.0), random_state=0), W
    )
    # The chosen C is refitted on all rows: the weights are those of one of the grid's fits.
    singles = [hybrid_weights(X, y, base="svm2", C_grid=(C,)) for C in (0.1, 1.0)]
    assert any(np.allclose(W, s, rtol=1e-6) for s in singles)


@pytest.mark.parametrize("backend", ["threading", "loky"])
@pytest.mark.parametrize("validation", ["held out", "given"])
def test_hybrid_weights_do_not_depend_on_n_jobs(backend, validation):
    """The costs are independent joblib jobs, scored in the order of the grid (ties to
    the first): the same weights, bitwise, for any n_jobs, in threads or processes."""
    X, score = _signal_data(n=80, noise=2.0)
    y = _classes(score)
    kwargs = dict(base="svm2", C_grid=(0.001, 0.01, 0.1, 1.0), random_state=3)
    if validation == "given":
        X_val, score_val = _signal_data(n=40, noise=2.0, random_state=5)
        kwargs |= dict(X_val=X_val, y_val=_classes(score_val))
    W1 = hybrid_weights(X, y, **kwargs)
    with parallel_config(backend=backend):
        for n_jobs in (2, -1):
            np.testing.assert_array_equal(hybrid_weights(X, y, **kwargs, n_jobs=n_jobs), W1)


# ---- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(base="l2"), "base"),
        (dict(block_size=41), "block_size"),
        (dict(block_size=40), "block_size"),  # nothing left out for validation
        (dict(block_size=1), "block_size"),
        (dict(n_blocks=0), "n_blocks"),
        (dict(cap=0.0), "cap"),
        (dict(X_val=np.zeros((5, 8))), "y_val"),
        (dict(X_val=np.zeros((5, 7)), y_val=np.ones(5)), "X_val"),
        (dict(X_val=np.zeros((5, 8)), y_val=np.full(5, 7)), "y_val"),
    ],
)
def test_rs_weights_bad_input_names_the_argument(kwargs, match):
    X, score = _signal_data(n=40)
    args = dict(base="svm2", block_size=10, n_blocks=2) | kwargs
    with pytest.raises(ValueError, match=match):
        rs_weights(X, _classes(score), **args)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(base="lasso2"), "base"),
        (dict(gamma=0.0), "gamma"),
        (dict(gamma=-1.0), "gamma"),
        (dict(C_grid=()), "C_grid"),
        (dict(C_grid=(1.0, -2.0)), "C_grid"),
        (dict(validation_fraction=1.5), "validation_fraction"),
        (dict(C_grid=(1.0,), X_val=np.zeros((5, 8))), "y_val"),
    ],
)
def test_hybrid_weights_bad_input_names_the_argument(kwargs, match):
    X, score = _signal_data(n=40)
    with pytest.raises(ValueError, match=match):
        hybrid_weights(X, _classes(score), **(dict(base="svm2") | kwargs))


def test_one_class_labels_are_rejected():
    X, _ = _signal_data(n=40)
    with pytest.raises(ValueError, match="two classes"):
        rs_weights(X, np.ones(40), base="l1", block_size=10, n_blocks=2)
