"""BSS (Algorithm 1 of 000): Lemma 1 on every accepted input, Algorithm 1 step by step, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import solve_triangular
from sklearn.utils._param_validation import InvalidParameterError

from sparsify import Selection, bss, bss_bounds, spectral_distortion
from sparsify._validation import check_X


def orthonormal(d, ell, seed, row_scales=None):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((d, ell))
    if row_scales is not None:
        M *= row_scales[:, None]
    return np.linalg.qr(M)[0]


def assert_lemma1(V, selection, r):
    """Lemma 1 of 000: every eigenvalue of V'RR'V within ((1 -+ sqrt(ell/r))^2)."""
    ell = V.shape[1]
    B = V[selection.indices].T * selection.scales
    eig = np.linalg.eigvalsh(B @ B.T)
    lower, upper = (1 - np.sqrt(ell / r)) ** 2, (1 + np.sqrt(ell / r)) ** 2
    assert eig.min() >= lower * (1 - 1e-9), (eig.min(), lower)
    assert eig.max() <= upper * (1 + 1e-9), (eig.max(), upper)
    # Lemma 2 of 000 follows: ||I - V'RR'V|| <= 3 sqrt(ell / r).
    assert spectral_distortion(V, selection) <= 3 * np.sqrt(ell / r) + 1e-12


@settings(max_examples=60, deadline=None)
@given(
    d=st.integers(2, 60),
    ell_frac=st.floats(0.0, 1.0),
    r_extra=st.integers(1, 150),
    seed=st.integers(0, 2**31 - 1),
    gamma=st.sampled_from([0.0, 0.01, 1.0]),
)
def test_lemma1_random_orthonormal(d, ell_frac, r_extra, seed, gamma):
    ell = 1 + int(ell_frac * (d - 1))
    V = orthonormal(d, ell, seed)
    r = ell + r_extra
    sel = bss(V, r, gamma=gamma)
    assert sel.n_selected <= min(r, d)
    assert_lemma1(V, sel, r)


@st.composite
def awkward_orthonormal(draw):
    """V = Q of a QR of M, where M has zero rows, duplicate rows and row norms over decades.

    Q = M R^-1 keeps those patterns: zero rows of M stay zero in Q, duplicates
    stay duplicates, and row norms keep their spread.
    """
    ell = draw(st.integers(1, 6))
    n_base = draw(st.integers(ell, 20))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((n_base, ell))
    base *= 10.0 ** rng.uniform(-draw(st.floats(0, 8)), draw(st.floats(0, 8)), (n_base, 1))
    n_dup = draw(st.integers(0, n_base))
    n_zero = draw(st.integers(0, 10))
    M = np.vstack([base, base[rng.integers(0, n_base, n_dup)], np.zeros((n_zero, ell))])
    M = M[rng.permutation(M.shape[0])]
    if np.linalg.matrix_rank(M) < ell:
        M[:ell] += np.eye(ell)  # keep full column rank
    return np.linalg.qr(M)[0]


@settings(max_examples=60, deadline=None)
@given(V=awkward_orthonormal(), r_extra=st.sampled_from([1, 2, 5, 30]))
def test_lemma1_awkward_orthonormal_hypothesis(V, r_extra):
    r = V.shape[1] + r_extra  # includes r = ell + 1
    sel = bss(V, r)
    assert_lemma1(V, sel, r)
    assert np.all(np.linalg.norm(V[sel.indices], axis=1) > 0)


def awkward_inputs():
    rng = np.random.default_rng(7)
    # zero rows: an orthonormal block padded with zero rows
    Z = np.zeros((40, 4))
    Z[::3] = orthonormal(14, 4, 1)
    yield "zero rows", Z
    # duplicate rows: [U; U] / sqrt(2) is orthonormal with every row twice
    U = orthonormal(15, 5, 2)
    yield "duplicate rows", np.vstack([U, U]) / np.sqrt(2)
    # rows of very different norms
    yield "norms over 12 decades", orthonormal(50, 6, 3, row_scales=10.0 ** rng.uniform(-6, 6, 50))
    # one dominant row (a coordinate direction) and the rest nearly orthogonal to it
    E = orthonormal(30, 3, 4, row_scales=np.r_[1e8, np.ones(29)])
    yield "one dominant row", E
    # d == ell: the identity's columns
    yield "square identity", np.eye(5)
    # a single column
    yield "single column", orthonormal(20, 1, 5)


@pytest.mark.parametrize("case", list(awkward_inputs()), ids=lambda c: c[0])
@pytest.mark.parametrize("r_kind", ["ell+1", "2ell", "3d"])
def test_lemma1_awkward_inputs(case, r_kind):
    _, V = case
    d, ell = V.shape
    r = {"ell+1": ell + 1, "2ell": 2 * ell + 1, "3d": 3 * d}[r_kind]
    sel = bss(V, r)
    assert_lemma1(V, sel, r)
    # zero rows are never picked (000 sec. 6.1)
    assert np.all(np.linalg.norm(V[sel.indices], axis=1) > 0)


def test_duplicate_rows_prefer_unpicked_copies():
    U = orthonormal(15, 5, 2)
    V = np.vstack([U, U]) / np.sqrt(2)
    sel = bss(V, 12)
    # 12 picks over 30 rows: every pick is a row not picked before
    assert sel.n_selected == 12


def test_first_pick_is_largest_norm_row():
    # At tau = 0, A = 0 and every nonzero row is admissible: sec. 6.1 picks the
    # row of largest norm.
    V = orthonormal(40, 4, 11)
    sel = bss(V, 10)
    assert sel.indices[0] == np.argmax(np.linalg.norm(V, axis=1))


def reference_bss(V, r, gamma=0.0):
    """Algorithm 1 of 000 written out with explicit inverses and a loop over candidates.

    Same choice as sec. 6.1 (admissible, not picked before if possible, largest
    norm, lowest index) and the same regularisation: while A is ill-conditioned
    (cond > 1e8, or A = 0) and the barriers enclose the spectrum of A + gamma I,
    the step (i, t) is computed on A + gamma I and kept if it satisfies the
    barrier conditions ``U(v_i) <= 1/t <= L(v_i)`` of A itself. Returns picks and
    raw weights t.
    """
    d, ell = V.shape
    dL, dU = 1.0, (1 + np.sqrt(ell / r)) / (1 - np.sqrt(ell / r))
    eye = np.eye(ell)
    A = np.zeros((ell, ell))
    picks, ts = [], []

    def scores(B, L, U):
        """L(v) and U(v) of every row v of V for the matrix B and barriers L, U."""
        ML = np.linalg.inv(B - (L + dL) * eye)
        MU = np.linalg.inv((U + dU) * eye - B)
        step_L = np.trace(ML) - np.trace(np.linalg.inv(B - L * eye))
        step_U = np.trace(np.linalg.inv(U * eye - B)) - np.trace(MU)
        Lv = np.array([v @ ML @ ML @ v / step_L - v @ ML @ v for v in V])
        Uv = np.array([v @ MU @ MU @ v / step_U + v @ MU @ v for v in V])
        return Lv, Uv

    def choose(Lv, Uv):
        keys = [
            ((i not in picks), V[i] @ V[i], -i) for i in range(d) if np.any(V[i]) and Uv[i] <= Lv[i]
        ]
        return -max(keys)[2] if keys else None

    for tau in range(r):
        L, U = tau - np.sqrt(r * ell), dU * (tau + np.sqrt(r * ell))
        eig = np.linalg.eigvalsh(A)
        Lv, Uv = scores(A, L, U)
        best = None
        if (
            gamma > 0
            and (eig[-1] == 0 or eig[0] * 1e8 < eig[-1])
            and L + dL < eig[0] + gamma
            and eig[-1] + gamma < U
        ):
            Lr, Ur = scores(A + gamma * eye, L, U)
            best = choose(Lr, Ur)
            if best is not None:
                inv_t = (Lr[best] + Ur[best]) / 2
                if not (Uv[best] <= inv_t <= Lv[best]):
                    best = None
        if best is None:
            best = choose(Lv, Uv)
            inv_t = (Lv[best] + Uv[best]) / 2
        A = A + np.outer(V[best], V[best]) / inv_t
        picks.append(best)
        ts.append(1 / inv_t)
    return np.array(picks), np.array(ts)


def duplicated(d, ell, seed):
    """[U; U] / sqrt(2): orthonormal, every row twice (ties broken by index)."""
    U = orthonormal(d // 2, ell, seed)
    return np.vstack([U, U]) / np.sqrt(2)


@pytest.mark.parametrize(
    "V,r,gamma",
    [
        (orthonormal(12, 3, 19), 4, 0.0),
        (orthonormal(20, 4, 33), 9, 0.0),
        (orthonormal(8, 3, 31), 20, 0.0),  # r > d: repeats merge
        (orthonormal(30, 5, 1), 12, 0.01),
        (orthonormal(40, 6, 2), 15, 1.0),
        (orthonormal(25, 4, 3), 60, 0.01),  # r > d with the regulariser
        (orthonormal(60, 2, 4), 7, 0.01),
        (duplicated(24, 3, 5), 14, 0.01),
        (orthonormal(50, 6, 6, row_scales=10.0 ** np.linspace(-3, 3, 50)), 13, 0.01),
        (orthonormal(120, 10, 7), 40, 0.01),  # the benchmark's small-ell shape, scaled down
        (orthonormal(90, 10, 8), 40, 0.0),
        (orthonormal(80, 34, 9), 40, 0.01),  # ell > 32: divide and conquer (dsyevd)
    ],
    ids=[
        "r=4",
        "r=9",
        "r>d",
        "gamma",
        "gamma=1",
        "r>d gamma",
        "ell=2",
        "duplicates",
        "spread",
        "ell=10 gamma",
        "ell=10",
        "ell=34",
    ],
)
def test_matches_algorithm1_written_out(V, r, gamma):
    d, ell = V.shape
    picks, ts = reference_bss(V, r, gamma)
    expected = Selection.from_picks(picks, ts * (1 - np.sqrt(ell / r)) / r, d)
    got = bss(V, r, gamma=gamma)
    np.testing.assert_array_equal(got.indices, expected.indices)
    np.testing.assert_allclose(got.scales, expected.scales, rtol=1e-8)
    assert_lemma1(V, got, r)


@pytest.mark.parametrize("ell", [1, 3, 10, 40])
def test_barrier_weights_give_the_scores_of_explicit_inverses(ell):
    # w_L @ (Q'v)**2 and w_U @ (Q'v)**2 are L(v) and U(v) of 000 sec. 4, written
    # with the inverses of A - L'I, A - LI, U'I - A and U I - A; two quadruples
    # (A's barriers and those of A + gamma I) at once, as bss computes them.
    from sparsify.bss import _barrier_weights

    rng = np.random.default_rng(ell)
    G = rng.standard_normal((ell, ell))
    A = G @ G.T
    lam, Q = np.linalg.eigh(A)
    low, up = lam[0] - 0.5, lam[-1] + 2.0  # L' and U: the barriers enclose lam
    quadruples = [(low, up + 1.5, low - 1.0, up), (low - 0.01, up + 1.49, low - 1.01, up - 0.01)]
    weights = _barrier_weights(lam, np.array(quadruples))
    eye = np.eye(ell)
    V = rng.standard_normal((5, ell))
    for i, (lower_p, upper_p, lower, upper) in enumerate(quadruples):
        ML, MU = np.linalg.inv(A - lower_p * eye), np.linalg.inv(upper_p * eye - A)
        step_L = np.trace(ML) - np.trace(np.linalg.inv(A - lower * eye))
        step_U = np.trace(np.linalg.inv(upper * eye - A)) - np.trace(MU)
        expected_L = [v @ ML @ ML @ v / step_L - v @ ML @ v for v in V]
        expected_U = [v @ MU @ MU @ v / step_U + v @ MU @ v for v in V]
        Z2 = (V @ Q) ** 2
        np.testing.assert_allclose(Z2 @ weights[2 * i], expected_L, rtol=1e-10)
        np.testing.assert_allclose(Z2 @ weights[2 * i + 1], expected_U, rtol=1e-10)


def test_scale_is_sqrt_t_times_constant_not_inverse():
    # Read against Lemma 1: the literal "D = 1/sqrt(t)" of Algorithm 1 would put
    # the eigenvalues near zero; the weights A accumulates give Lemma 1.
    V = orthonormal(30, 3, 0)
    r = 12
    picks, ts = reference_bss(V, r)
    literal = Selection.from_picks(picks, (1 / ts) * (1 - np.sqrt(3 / r)) / r, 30)
    B = V[literal.indices].T * literal.scales
    assert np.linalg.eigvalsh(B @ B.T).min() < bss_bounds(3, r)[0]
    assert_lemma1(V, bss(V, r, gamma=0.0), r)


def test_bit_identical_across_runs():
    V = orthonormal(300, 8, 3)
    a, b = bss(V, 40), bss(V.copy(), 40)
    np.testing.assert_array_equal(a.indices, b.indices)
    assert a.scales.tobytes() == b.scales.tobytes()


def test_repeats_merge_when_r_exceeds_d():
    V = orthonormal(6, 2, 9)
    r = 40
    sel = bss(V, r)
    assert sel.n_selected <= 6
    assert len(set(sel.indices.tolist())) == sel.n_selected
    assert_lemma1(V, sel, r)


def test_bss_bounds_closed_form():
    lo, hi = bss_bounds(4, 16)
    assert lo == pytest.approx(0.25) and hi == pytest.approx(2.25)
    with pytest.raises(ValueError, match="r"):
        bss_bounds(4, 4)


@pytest.mark.parametrize(
    "ell, r, name",
    [(0, 5, "ell"), (2.5, 5, "ell"), ("3", 5, "ell"), (None, 5, "ell"), (3, 0, "r"), (3, 7.0, "r")],
)
def test_bss_bounds_bad_argument_raises_invalid_parameter_error_naming_it(ell, r, name):
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter of bss_bounds"):
        bss_bounds(ell, r)


def test_bss_bounds_r_must_exceed_ell_and_no_bools():
    # The bound that ties r to ell (Lemma 1 needs r > ell) is checked after validate_params.
    with pytest.raises(ValueError, match="r must be an integer > 3; got r=3"):
        bss_bounds(3, 3)
    with pytest.raises(TypeError, match="ell must be an integer"):
        bss_bounds(True, 5)


def test_input_not_modified():
    V = orthonormal(20, 3, 1)
    V0 = V.copy()
    bss(V, 8)
    np.testing.assert_array_equal(V, V0)


@pytest.mark.parametrize(
    "V,r,exc,match",
    [
        (np.ones((5, 2)), 3, ValueError, "orthonormal"),
        (np.eye(4)[:, :2], 2, ValueError, "r must be"),
        (np.eye(4)[:, :2], 1, ValueError, "r must be"),
        (np.eye(4)[:, :2], 2.5, TypeError, "r must be an integer"),
        (np.array([1.0, 0.0]), 3, ValueError, "V must be 2-D"),
        (np.zeros((2, 2, 2)), 3, ValueError, "V must be 2-D"),
        (np.full((3, 1), np.nan), 3, ValueError, "V"),
        (np.full((3, 1), np.inf), 3, ValueError, "V"),
        (np.zeros((0, 2)), 3, ValueError, "V"),
        (np.eye(4)[:, :2].T, 3, ValueError, "n_rows >= n_cols"),
        (np.array([["a", "b"]]), 3, TypeError, "V must hold numbers"),
    ],
)
def test_bad_input(V, r, exc, match):
    with pytest.raises(exc, match=match):
        bss(V, r)


def test_orthonormality_is_the_spectral_norm_not_frobenius():
    # V'V - I = diag(e, e, e, e) has 2-norm e and Frobenius norm 2e: with
    # e = 0.8 atol, V is accepted (the check is ||V'V - I||_2 <= atol) although
    # its Frobenius norm exceeds atol; with e = 1.2 atol it is rejected.
    atol = 1e-8
    Q = orthonormal(30, 4, 11)
    accepted = Q * np.sqrt(1 + 0.8 * atol)
    assert np.linalg.norm(accepted.T @ accepted - np.eye(4)) > atol
    assert_lemma1(accepted, bss(accepted, 9), 9)
    with pytest.raises(ValueError, match=r"V'V - I\|\|_2 = 1.2e-08"):
        bss(Q * np.sqrt(1 + 1.2 * atol), 9)


@pytest.mark.parametrize("bad", [np.nan, np.inf, 1e200])
def test_non_finite_or_huge_entry_rejected(bad):
    # One bad entry in an otherwise orthonormal float64 V: NaN and inf are named
    # as such, a finite entry that overflows V'V fails the orthonormality check.
    V = orthonormal(20, 3, 12)
    V[7, 1] = bad
    match = {"nan": "NaN", "inf": "infinity"}.get(str(bad), "orthonormal columns")
    with pytest.raises(ValueError, match=match):
        bss(V, 6)


@pytest.mark.filterwarnings("error")
def test_input_check_warns_on_nothing():
    # The fast path of the input check sums X; an overflowing sum of finite
    # entries must not leak a RuntimeWarning (the full check then accepts X).
    big = np.full((3, 3), 1e308)
    assert check_X(big) is big


def test_negative_gamma_rejected():
    with pytest.raises(ValueError, match="gamma"):
        bss(np.eye(3)[:, :1], 3, gamma=-1.0)


def tiny_row_orthonormal(d, ell, seed, tiny_rows):
    """V = M R^-1 (M = QR) for an M whose rows ``tiny_rows`` (index -> scale) are scaled down.

    Computed as a triangular solve, each row of V is its row of M times R^-1, so
    a row scaled by 1e-160 keeps a norm of about 1e-160: its squares underflow
    to subnormals (1e-160) or to zero (1e-300). (Householder's Q would bury such
    a row under rounding errors of order 1e-17.)
    """
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((d, ell))
    for row, scale in tiny_rows.items():
        M[row] *= scale
    R = np.linalg.qr(M, mode="r")
    V = solve_triangular(R, M.T, trans="T").T
    assert np.linalg.norm(V.T @ V - np.eye(ell), 2) < 1e-12
    for row, scale in tiny_rows.items():
        assert 0 < np.linalg.norm(V[row] / scale) < 10  # the row really is that small
    return V


@pytest.mark.parametrize(
    "tiny_rows",
    [{5: 1e-160}, {0: 1e-300}, {3: 1e-160, 7: 1e-300, 11: 1e-200}],
    ids=["1e-160", "1e-300", "mixed"],
)
@pytest.mark.parametrize("r_extra", [1, 3, 10, 27, 80])
@pytest.mark.parametrize("gamma", [0.0, 0.01])
def test_lemma1_rows_of_underflowing_norm(tiny_rows, r_extra, gamma):
    # Issue 7: squares of a row of norm 1e-160 underflow; BSS used to raise
    # "lost its barrier invariant" or "scales must be finite" on such V.
    V = tiny_row_orthonormal(20, 3, 0, tiny_rows)
    r = 3 + r_extra
    sel = bss(V, r, gamma=gamma)
    assert np.all(np.isfinite(sel.scales))
    assert_lemma1(V, sel, r)


def test_tiny_rows_are_picked_like_their_unscaled_direction():
    # The barrier scores are homogeneous of degree 2 in v (000 sec. 4), so a
    # row of norm 1e-160 is admissible exactly when its direction is; once every
    # other row has been picked, the tiny row is picked too, with a scale of
    # order 1e160 that makes its column of V'R of order 1.
    V = tiny_row_orthonormal(12, 2, 3, {4: 1e-160})
    r = 60
    sel = bss(V, r)
    assert 4 in sel.indices
    B = V[sel.indices].T * sel.scales
    assert np.linalg.norm(B[:, list(sel.indices).index(4)]) > 1e-3
    assert_lemma1(V, sel, r)


def test_rows_of_subnormal_entries_count_as_zero_rows():
    # A row with no entry of at least the smallest normal float cannot be
    # rescaled without overflow; it adds nothing measurable to V'V.
    V = np.zeros((10, 2))
    V[:2] = np.eye(2)
    V[5] = 1e-310  # subnormal
    sel = bss(V, 12)
    assert 5 not in sel.indices
    assert_lemma1(V, sel, 12)
