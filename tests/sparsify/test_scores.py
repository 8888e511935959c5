"""Tests of sparsify.scores against independent brute-force references."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.feature_selection import mutual_info_classif

from sparsify.scores import document_frequency, information_gain, weight_scores

FORMATS = {
    "dense": np.asarray,
    "csr": sp.csr_matrix,
    "csc": sp.csc_matrix,
}


# ---------------------------------------------------------------------------
# Independent references: explicit Python loops, no vectorisation.
# ---------------------------------------------------------------------------


def ig_loop(X, y):
    """Eq. (24) of 003 with loops over features, classes and presence/absence."""
    X = np.asarray(X)
    n, d = X.shape
    labels = list(y)
    classes = []
    for v in labels:
        if v not in classes:
            classes.append(v)
    out = []
    for j in range(d):
        present = [X[i, j] != 0 for i in range(n)]
        total = 0.0
        for c in classes:
            p_c = sum(1 for v in labels if v == c) / n
            for e in (True, False):
                p_e = sum(1 for p in present if p == e) / n
                p_ec = sum(1 for i in range(n) if present[i] == e and labels[i] == c) / n
                if p_ec > 0:
                    total += p_ec * math.log(p_ec / (p_e * p_c))
        out.append(total)
    return np.array(out)


def df_loop(X):
    X = np.asarray(X)
    n, d = X.shape
    return np.array([sum(1 for i in range(n) if X[i, j] != 0) for j in range(d)])


def weight_loop(X):
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    col = [sum(X[i, j] ** 2 for i in range(n)) for j in range(d)]
    fro = sum(col)
    return np.array([c / fro for c in col])


def sparse_int_matrix(rng, n, d, density=0.4):
    X = rng.integers(-3, 4, size=(n, d)).astype(float)
    X[rng.random((n, d)) > density] = 0.0
    return X


# ---------------------------------------------------------------------------
# information_gain
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_information_gain_matches_loop_and_sklearn(n_classes):
    rng = np.random.default_rng(n_classes)
    X = sparse_int_matrix(rng, 40, 12)
    X[:, 0] = 0.0  # a feature never present
    X[:, 1] = 1.0  # a feature always present
    y = rng.integers(0, n_classes, size=40)
    y[:n_classes] = np.arange(n_classes)
    ig = information_gain(X, y)
    np.testing.assert_allclose(ig, ig_loop(X, y), rtol=1e-12, atol=1e-14)
    # Same quantity (mutual information in nats) as scikit-learn on the binarised data.
    mi = mutual_info_classif((X != 0).astype(int), y, discrete_features=True)
    np.testing.assert_allclose(ig, mi, rtol=1e-10, atol=1e-14)
    assert ig[0] == 0.0 and ig[1] == 0.0
    assert np.all(ig >= 0)


def test_information_gain_perfect_feature_equals_class_entropy():
    y = np.array([0, 0, 1, 1, 1, 1])
    X = np.zeros((6, 3))
    X[y == 1, 0] = 2.5  # present exactly in class 1
    X[:, 1] = 1.0
    X[0, 2] = -1.0
    ig = information_gain(X, y)
    h = -(1 / 3) * math.log(1 / 3) - (2 / 3) * math.log(2 / 3)
    assert ig[0] == pytest.approx(h, rel=1e-12)
    assert ig[1] == 0.0
    assert 0 < ig[2] < h


@pytest.mark.parametrize(
    "relabel",
    [
        lambda c: c,
        lambda c: np.array(["neg", "pos", "zzz", "mid"])[c],
        lambda c: np.array([-1.0, 1.0, 7.5, 0.25])[c],
        lambda c: np.array([True, False, 3, "x"], dtype=object)[c],
    ],
    ids=["int", "str", "float", "object"],
)
def test_information_gain_any_label_values(relabel):
    rng = np.random.default_rng(7)
    X = sparse_int_matrix(rng, 30, 8)
    codes = rng.integers(0, 4, size=30)
    codes[:4] = np.arange(4)
    ref = information_gain(X, codes)
    # Relabelling permutes the classes, so only the summation order (rounding) changes.
    np.testing.assert_allclose(information_gain(X, relabel(codes)), ref, rtol=1e-14, atol=1e-16)


def test_information_gain_mixed_hashable_labels():
    rng = np.random.default_rng(8)
    X = sparse_int_matrix(rng, 24, 5)
    y = np.array([1, "a", (2, 3)] * 8, dtype=object)
    np.testing.assert_allclose(information_gain(X, y), ig_loop(X, list(y)), rtol=1e-12)
    # A list of labels works as well as an array.
    np.testing.assert_allclose(information_gain(X, list(y)), ig_loop(X, list(y)), rtol=1e-12)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_information_gain_dense_and_sparse_identical(fmt):
    rng = np.random.default_rng(3)
    X = sparse_int_matrix(rng, 50, 20, density=0.2)
    y = rng.integers(0, 3, size=50)
    np.testing.assert_array_equal(information_gain(FORMATS[fmt](X), y), information_gain(X, y))


def test_information_gain_explicit_sparse_zeros_are_absent():
    X = sp.csr_matrix(
        (np.array([0.0, 1.0, 0.0, 2.0]), np.array([0, 1, 0, 1]), np.array([0, 2, 4])),
        shape=(2, 2),
    )
    assert X.nnz == 4
    y = np.array([0, 1])
    np.testing.assert_array_equal(information_gain(X, y), information_gain(X.toarray(), y))
    np.testing.assert_array_equal(document_frequency(X), [0, 2])


@pytest.mark.parametrize(
    "func, reference",
    [
        (lambda X, y: information_gain(X, y), ig_loop),
        (lambda X, y: document_frequency(X), lambda X, y: df_loop(X)),
        (lambda X, y: weight_scores(X), lambda X, y: weight_loop(X)),
    ],
    ids=["information_gain", "document_frequency", "weight_scores"],
)
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_scores_never_densify_sparse(monkeypatch, func, reference, fmt):
    rng = np.random.default_rng(4)
    X = sp.random(30, 200, density=0.05, format=fmt, random_state=rng)
    y = rng.integers(0, 2, size=30)
    expected = reference(X.toarray(), y)
    # Record every densification; the small d x C count matrix may be densified, X may not.
    shapes = []
    for cls in (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix):
        for name in ("toarray", "todense"):
            orig = getattr(cls, name)

            def spy(self, *args, _orig=orig, **kwargs):
                shapes.append(self.shape)
                return _orig(self, *args, **kwargs)

            monkeypatch.setattr(cls, name, spy)
    got = func(X, y)
    monkeypatch.undo()
    assert all(shape[0] != X.shape[0] for shape in shapes), shapes
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    X=arrays(
        np.int8, st.tuples(st.integers(2, 12), st.integers(1, 6)), elements=st.integers(-2, 2)
    ),
    data=st.data(),
)
def test_information_gain_property(X, data):
    n = X.shape[0]
    y = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    if np.unique(y).size < 2:
        with pytest.raises(ValueError, match="y"):
            information_gain(X, y)
        return
    X0 = X.copy()
    ig = information_gain(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_allclose(ig, ig_loop(X, y), rtol=1e-10, atol=1e-13)
    # 0 <= IG <= H(class)
    p = np.bincount(y) / n
    p = p[p > 0]
    h = -np.sum(p * np.log(p))
    assert np.all(ig >= 0) and np.all(ig <= h + 1e-12)
    np.testing.assert_array_equal(information_gain(sp.csr_matrix(X), y), ig)
    # Only the pattern of nonzeros matters.
    np.testing.assert_array_equal(information_gain((X != 0) * 3.7, y), ig)


def test_information_gain_bad_y():
    X = np.eye(4)
    with pytest.raises(ValueError, match="y"):
        information_gain(X, [0, 0, 0, 0])  # one class
    with pytest.raises(ValueError, match="y"):
        information_gain(X, [0, 1, 0])  # wrong length
    with pytest.raises(ValueError, match="y"):
        information_gain(X, np.zeros((4, 2)))  # 2-D labels
    with pytest.raises(ValueError, match="y"):
        information_gain(X, [0.0, 1.0, np.nan, 1.0])
    with pytest.raises(ValueError, match="y"):
        information_gain(X, np.array([0, 1, None, 1], dtype=object))
    with pytest.raises(ValueError, match="y"):
        information_gain(X, None)
    unhashable = np.empty(4, dtype=object)
    unhashable[:] = [[0], "a", [0], "a"]
    with pytest.raises(TypeError, match="y"):
        information_gain(X, unhashable)


def test_information_gain_inputs_not_modified():
    rng = np.random.default_rng(5)
    X = sparse_int_matrix(rng, 10, 4)
    y = rng.integers(0, 2, size=10)
    y[:2] = [0, 1]
    Xs = sp.csr_matrix(X)
    X0, y0, data0 = X.copy(), y.copy(), Xs.data.copy()
    information_gain(X, y)
    information_gain(Xs, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(Xs.data, data0)


# ---------------------------------------------------------------------------
# document_frequency
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_document_frequency_matches_loop(fmt):
    rng = np.random.default_rng(11)
    X = sparse_int_matrix(rng, 25, 9)
    X[:, 2] = 0
    df = document_frequency(FORMATS[fmt](X))
    np.testing.assert_array_equal(df, df_loop(X))
    assert df.shape == (9,) and df.dtype.kind == "i"
    assert df[2] == 0


@settings(max_examples=40, deadline=None)
@given(
    X=arrays(
        np.float64,
        st.tuples(st.integers(1, 10), st.integers(1, 8)),
        elements=st.sampled_from([0.0, 0.0, 1.0, -2.5, 1e-300, 1e300]),
    )
)
def test_document_frequency_property(X):
    X0 = X.copy()
    df = document_frequency(X)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(df, df_loop(X))
    np.testing.assert_array_equal(document_frequency(sp.csr_matrix(X)), df)
    np.testing.assert_array_equal(document_frequency(sp.csc_matrix(X)), df)


# ---------------------------------------------------------------------------
# weight_scores
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_weight_scores_matches_loop(fmt):
    rng = np.random.default_rng(12)
    X = rng.standard_normal((15, 7))
    X[:, 3] = 0.0
    p = weight_scores(FORMATS[fmt](X))
    np.testing.assert_allclose(p, weight_loop(X), rtol=1e-12)
    assert p.sum() == pytest.approx(1.0, abs=1e-14)
    assert p[3] == 0.0


@pytest.mark.parametrize("fmt", ["dense", "csr", "csc"])
def test_weight_scores_subnormal_entries(fmt):
    # The largest entry is subnormal: 1 / max|X| overflows, X / max|X| does not.
    # Column shares of ||X||_F^2: 2.2^2 / (2.2^2 + 4.4^2) = 0.2, and 0.8.
    X = np.array([[2.2e-313, 0.0], [0.0, 4.4e-313]])
    np.testing.assert_allclose(weight_scores(FORMATS[fmt](X)), [0.2, 0.8], rtol=1e-2)


def test_weight_scores_dense_sparse_agree_and_no_overflow():
    rng = np.random.default_rng(13)
    X = sparse_int_matrix(rng, 20, 10) * 1e200  # squares overflow without rescaling
    p = weight_scores(X)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p, weight_loop(X / 1e200), rtol=1e-12)
    for fmt in ("csr", "csc"):
        np.testing.assert_allclose(weight_scores(FORMATS[fmt](X)), p, rtol=1e-14)


@settings(max_examples=40, deadline=None)
@given(
    X=arrays(
        np.float64,
        st.tuples(st.integers(1, 10), st.integers(1, 8)),
        elements=st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    )
)
def test_weight_scores_property(X):
    if not np.any(X):
        with pytest.raises(ValueError, match="X"):
            weight_scores(X)
        return
    X0 = X.copy()
    p = weight_scores(X)
    np.testing.assert_array_equal(X, X0)
    assert np.all(p >= 0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    # invariant to scaling X
    np.testing.assert_allclose(weight_scores(-3.0 * X), p, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(weight_scores(sp.csc_matrix(X)), p, rtol=1e-12, atol=1e-300)


def test_weight_scores_all_zero_raises():
    with pytest.raises(ValueError, match="X"):
        weight_scores(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="X"):
        weight_scores(sp.csr_matrix((3, 4)))


# ---------------------------------------------------------------------------
# bad X for all three scores
# ---------------------------------------------------------------------------

BAD_X = [
    (np.array([[1.0, np.nan], [0.0, 1.0]]), ValueError),
    (np.array([[1.0, np.inf], [0.0, 1.0]]), ValueError),
    (np.array([1.0, 0.0, 2.0]), ValueError),  # 1-D
    (np.ones((2, 2, 2)), ValueError),  # 3-D
    (np.zeros((0, 3)), ValueError),  # no samples
    (np.zeros((3, 0)), ValueError),  # no features
    (np.array([["a", "b"], ["c", "d"]]), TypeError),  # non-numeric
    (None, ValueError),
]


@pytest.mark.parametrize("X, exc", BAD_X)
@pytest.mark.parametrize(
    "func",
    [
        document_frequency,
        weight_scores,
        lambda X: information_gain(X, [0, 1]),
    ],
    ids=["document_frequency", "weight_scores", "information_gain"],
)
def test_bad_X_raises_naming_X(func, X, exc):
    with pytest.raises(exc, match="X"):
        func(X)


def test_sparse_nan_raises():
    X = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, np.nan]]))
    for func in (document_frequency, weight_scores, lambda X: information_gain(X, [0, 1])):
        with pytest.raises(ValueError, match="X"):
            func(X)
