"""Tests of sparsify.datasets: the synthetic generator and the shipped/loaded data."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

from sparsify.datasets import (
    load_ionosphere,
    load_svmlight_dir,
    load_wdbc,
    make_bhattacharyya,
    make_orange,
    make_zou_bernoulli,
)

# ---------------------------------------------------------------------------
# make_bhattacharyya (000 sec. 6.3, 001 sec. 5.2)
# ---------------------------------------------------------------------------


def test_bhattacharyya_shape_and_labels():
    X, y = make_bhattacharyya(n=30, d=1000, k=90, random_state=0)
    assert X.shape == (30, 1000) and y.shape == (30,)
    assert X.dtype == np.float64
    assert set(np.unique(y)) <= {-1.0, 1.0}
    assert np.all(np.isfinite(X))


def test_bhattacharyya_reproducible():
    X1, y1 = make_bhattacharyya(n=20, d=50, k=10, random_state=42)
    X2, y2 = make_bhattacharyya(n=20, d=50, k=10, random_state=42)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = make_bhattacharyya(n=20, d=50, k=10, random_state=43)
    assert not np.array_equal(X1, X3)
    X4, y4 = make_bhattacharyya(n=20, d=50, k=10, random_state=np.random.default_rng(42))
    np.testing.assert_array_equal(X1, X4)
    np.testing.assert_array_equal(y1, y4)


def test_bhattacharyya_mean_structure():
    n, d, k = 20000, 30, 12
    X, y = make_bhattacharyya(n=n, d=d, k=k, random_state=1)
    # Both labels occur about equally often.
    assert abs(np.mean(y == 1) - 0.5) < 0.02
    for label in (-1.0, 1.0):
        Xc = X[y == label]
        m = Xc.shape[0]
        tol = 5.0 / np.sqrt(m)  # 5 standard errors of a unit-variance mean
        means = Xc.mean(axis=0)
        # relevant feature j (1-based) has class-conditional mean -j * y
        expected = np.concatenate([-np.arange(1, k + 1) * label, np.zeros(d - k)])
        np.testing.assert_allclose(means, expected, atol=tol)
        # every feature has unit variance within a class
        np.testing.assert_allclose(Xc.var(axis=0), 1.0, atol=0.1)


def test_bhattacharyya_k_zero_and_k_d():
    X, y = make_bhattacharyya(n=5, d=4, k=0, random_state=0)
    assert X.shape == (5, 4)
    X, y = make_bhattacharyya(n=5, d=4, k=4, random_state=0)
    assert X.shape == (5, 4)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"n": 0}, "n"),
        ({"d": 0}, "d"),
        ({"k": 11, "d": 10}, "k"),
        ({"k": -1}, "k"),
    ],
)
def test_bhattacharyya_bad_arguments(kwargs, name):
    with pytest.raises(ValueError, match=name):
        make_bhattacharyya(**{"n": 10, "d": 10, "k": 2, "random_state": 0, **kwargs})


# ---------------------------------------------------------------------------
# Real data
# ---------------------------------------------------------------------------


def test_load_ionosphere():
    X, y = load_ionosphere()
    assert X.shape == (351, 33) and y.shape == (351,)
    assert np.sum(y == 1) == 225 and np.sum(y == -1) == 126
    assert np.all(np.isfinite(X))
    # the constant attribute was dropped: no column is constant
    assert np.all(X.std(axis=0) > 0)


def test_load_wdbc():
    X, y = load_wdbc()
    assert X.shape == (569, 30) and y.shape == (569,)
    # 212 malignant (+1), 357 benign (-1)
    assert np.sum(y == 1) == 212 and np.sum(y == -1) == 357
    assert np.all(np.isfinite(X))


# ---------------------------------------------------------------------------
# load_svmlight_dir
# ---------------------------------------------------------------------------


def _random_sparse(rng, n, d):
    X = rng.standard_normal((n, d)).round(3)
    X[rng.random((n, d)) > 0.3] = 0.0
    X[0, 0] = 1.5  # index 0 present, so zero-based indexing is detected
    X[-1, -1] = -2.0  # last index present, so n_features is inferred as d
    return X


def test_load_svmlight_dir_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    d = 25
    X1, X2 = _random_sparse(rng, 7, d), _random_sparse(rng, 5, d)
    y1, y2 = rng.choice([-1.0, 1.0], 7), rng.choice([-1.0, 1.0], 5)
    # read in sorted name order: "a_..." before "b_..."
    dump_svmlight_file(sp.csr_matrix(X2), y2, str(tmp_path / "b_neg.svm"))
    dump_svmlight_file(X1, y1, str(tmp_path / "a_pos.dat"))
    (tmp_path / "README.md").write_text("not data\n")  # ignored: wrong extension
    (tmp_path / "sub.txt").mkdir()  # ignored: not a file
    X, y = load_svmlight_dir(tmp_path)
    assert sp.isspmatrix_csr(X) or (sp.issparse(X) and X.format == "csr")
    assert X.shape == (12, d)
    np.testing.assert_allclose(X.toarray(), np.vstack([X1, X2]))
    np.testing.assert_array_equal(y, np.concatenate([y1, y2]))
    # str path works as well as a Path
    Xs, ys = load_svmlight_dir(str(tmp_path))
    np.testing.assert_array_equal(Xs.toarray(), X.toarray())


def test_load_svmlight_dir_n_features(tmp_path):
    rng = np.random.default_rng(1)
    X1 = _random_sparse(rng, 4, 6)
    dump_svmlight_file(X1, np.ones(4), str(tmp_path / "one.txt"))
    X, _ = load_svmlight_dir(tmp_path, n_features=10)
    assert X.shape == (4, 10)
    np.testing.assert_allclose(X.toarray()[:, :6], X1)


def test_load_svmlight_dir_empty_folder_raises(tmp_path):
    with pytest.raises(ValueError, match="path"):
        load_svmlight_dir(tmp_path)
    (tmp_path / "notes.md").write_text("nothing here\n")
    with pytest.raises(ValueError, match="path"):
        load_svmlight_dir(tmp_path)


def test_load_svmlight_dir_not_a_folder(tmp_path):
    with pytest.raises(ValueError, match="path"):
        load_svmlight_dir(tmp_path / "missing")
    f = tmp_path / "file.svm"
    f.write_text("1 1:1.0\n")
    with pytest.raises(ValueError, match="path"):
        load_svmlight_dir(f)


# ---- 004 sec. 4.1: orange data and the Bernoulli models ------------------------------


@pytest.mark.parametrize("q", [0, 2, 6, 20])
def test_orange_dictionary_size_and_terms(q):
    X, y = make_orange(q, 50, random_state=q)
    m = 2 + q
    assert X.shape == (50, 2 * m + m * (m - 1) // 2)  # q = 6 gives p = 44 (004 Table 1)
    z = X[:, :m] / np.sqrt(2)
    np.testing.assert_allclose(X[:, -m:], z**2)
    j, k = np.triu_indices(m, k=1)
    np.testing.assert_allclose(X[:, m:-m], np.sqrt(2) * z[:, j] * z[:, k])
    assert set(np.unique(y)) <= {-1.0, 1.0}


def test_orange_classes_and_bayes_error():
    X, y = make_orange(2, 40000, random_state=0)
    r2 = (X[:, 0] ** 2 + X[:, 1] ** 2) / 2  # x_1^2 + x_2^2 from the sqrt(2) x_j columns
    skin = y < 0
    assert np.all((r2[skin] >= 4.5) & (r2[skin] <= 8))
    assert abs(skin.mean() - 0.5) < 0.01
    # Bayes rule 1 - 2 I(4.5 <= r2 <= 8) errs when a core point falls in the ring:
    # P = (exp(-4.5/2) - exp(-8/2)) / 2 for a chi-square with 2 degrees of freedom.
    bayes = np.where((r2 >= 4.5) & (r2 <= 8), -1.0, 1.0)
    expected = (np.exp(-2.25) - np.exp(-4.0)) / 2
    assert abs(np.mean(bayes != y) - expected) < 0.005


@pytest.mark.parametrize("model,p", [(2, 12), (3, 9), (5, 309)])
def test_zou_models_shapes_and_correlation(model, p):
    X, y = make_zou_bernoulli(model, 0.5, 20000, random_state=1)
    assert X.shape == (20000, p) and set(np.unique(y)) == {-1.0, 1.0}
    corr = np.corrcoef(X[:, :3].T)
    if model == 2:  # constant correlation rho
        np.testing.assert_allclose(corr[0, 1:], [0.5, 0.5], atol=0.03)
    else:  # rho^|i-j|
        np.testing.assert_allclose(corr[0, 1:], [0.5, 0.25], atol=0.03)
    if model == 5:  # the 300 noise features are independent of the 9 model features
        assert np.max(np.abs(np.corrcoef(X[:, [0, 100, 200]].T)[0, 1:])) < 0.03


def test_zou_model3_logistic_fit_recovers_the_support():
    from sklearn.linear_model import LogisticRegression

    X, y = make_zou_bernoulli(3, 0.0, 40000, random_state=2)
    coef = LogisticRegression(C=100.0).fit(X, y).coef_.ravel()
    # beta = (3, 2, 0, ...): the noise eps attenuates all coefficients alike
    assert coef[0] / coef[1] == pytest.approx(1.5, rel=0.1)
    assert np.max(np.abs(coef[2:])) < 0.05 * coef[0]


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: make_zou_bernoulli(4, 0.5, 10), "model"),
        (lambda: make_zou_bernoulli(2, 1.0, 10), "rho"),
        (lambda: make_orange(-1, 10), "q"),
        (lambda: make_orange(2, 0), "n"),
    ],
)
def test_synthetic_004_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()
