"""The direct face step of the 2-norm SVMs' dual coordinate descent (solvers._dual_cd).

On a small face the face's Newton step comes from a Cholesky factor of the Gram matrix of
its rows instead of conjugate residuals. The references are independent of it: the Gram
matrix formed densely by NumPy, the face's optimality (KKT) system solved by
``numpy.linalg.lstsq``, the primal written out in CVXPY (Clarabel), and the
certificate of every answer.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import solvers._dual_cd as dual_cd
from benchmarks._text import text_like
from solvers._dual_cd import (
    _count_columns,
    _direct_cost,
    _face_factor,
    _face_gradient,
    _face_gram,
    _face_newton,
    _factor_without,
    dual_coordinate_descent,
)
from tests.solvers.test_dual_cd import LOSSES, assert_same_solution, cvxpy_svm, overlapping, solve


def _rows(X):
    if sp.issparse(X):
        return (X.data, X.indices.view(np.uint32), X.indptr)
    n, d = X.shape
    return (X.reshape(-1), np.empty(0, dtype=np.uint32), np.arange(n + 1) * d)


def _kkt_step(A, labels, ridge, gradient):
    """The minimiser of ``1/2 p'Hp + g'p`` on ``y_F'p = 0`` from the bordered system
    ``[[H, y_F], [y_F', 0]]`` by least squares (its minimum-norm solution)."""
    m = labels.size
    H = A @ A.T + np.diag(ridge)
    kkt = np.block([[H, labels[:, None]], [labels[None, :], np.zeros((1, 1))]])
    return np.linalg.lstsq(kkt, np.append(-gradient, 0.0), rcond=None)[0][:m]


def _direct(X, free, labels, ridge, gradient, counts=None):
    factor = _face_factor(X, _rows(X), free, ridge, counts)
    return _face_newton(_rows(X), free, labels, gradient, factor, X.shape[1])


def _face(X, y, loss, seed):
    """A face of a dual point in the box: its free samples, labels, ridge and gradient."""
    n = X.shape[0]
    rng = np.random.default_rng(seed)
    alpha = rng.uniform(0.0, 1.0, n)
    alpha[rng.random(n) < 0.3] = 0.0
    diagonal = np.full(n, 0.5) if loss == "squared_hinge" else np.zeros(n)
    w = X.T @ (y * alpha)
    free = np.flatnonzero(alpha > 0)
    gradient = _face_gradient(_rows(X), y, diagonal, alpha, np.asarray(w), free)
    return free, y[free], diagonal[free], gradient


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_the_face_gram_matrix_is_x_f_x_f_transposed(sparse):
    X, _ = text_like(60, 400, words_per_document=12, seed=1)
    X = X if sparse else X.toarray()
    free = np.array([3, 7, 8, 20, 41, 59])
    ridge = np.linspace(0.1, 0.6, free.size)
    block = X[free].toarray() if sparse else X[free]
    reference = block @ block.T + np.diag(ridge)
    if sparse:
        counts = np.zeros(X.shape[1], dtype=np.int64)
        _count_columns(_rows(X), free, 1, counts)
        np.testing.assert_array_equal(counts, (block != 0).sum(axis=0))
        gram = _face_gram(_rows(X), free, counts, ridge)
        # The upper triangle, as LAPACK reads it from the transposed (Fortran) view.
        np.testing.assert_allclose(np.triu(gram), np.triu(reference), rtol=1e-14, atol=1e-14)
        assert not np.tril(gram, -1).any()


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_the_direct_step_solves_the_face_s_kkt_system(loss, sparse):
    # A face of 40-odd multipliers on 300 features: H nonsingular; the step is the
    # bordered system's solution (to the shift of 1e-8 of H's mean diagonal), on
    # y_F'p = 0, with its image X_F'Y_F p.
    X, y = text_like(60, 300, words_per_document=20, seed=2)
    X = X if sparse else X.toarray()
    free, labels, ridge, gradient = _face(X, y, loss, seed=2)
    counts = _direct_cost(_rows(X), free, 0, X.shape[1])[1]
    step, moved = _direct(X, free, labels, ridge, gradient, counts)
    block = X[free].toarray() if sparse else X[free]
    A = labels[:, None] * block
    reference = _kkt_step(A, labels, ridge, gradient)
    np.testing.assert_allclose(step, reference, rtol=0, atol=1e-7 * np.abs(reference).max())
    assert abs(labels @ step) <= 1e-12 * np.abs(step).sum()
    np.testing.assert_allclose(moved, A.T @ step, rtol=0, atol=1e-12 * np.abs(moved).max())


def test_a_singular_face_gives_a_descent_direction_along_its_null_space():
    # Two copies of a row with opposite labels and more free multipliers than features
    # (30 of them on 8 features): H is singular. Where -P g has a part in H's null
    # space the objective is linear and unbounded along it: the step is a descent
    # direction whose curvature per unit length is negligible next to H's scale (the
    # projected search follows it to the box); the face's change of w along the rest
    # of the step is bounded.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 8))
    X[1] = X[0]
    y = np.where(np.arange(30) % 2 == 0, 1.0, -1.0)
    free = np.arange(30)
    labels = y
    gradient = rng.standard_normal(30)
    step, moved = _direct(X, free, labels, np.zeros(30), gradient)
    assert gradient @ step < 0.0
    assert abs(labels @ step) <= 1e-12 * np.abs(step).sum()
    typical = np.mean(np.sum(X * X, axis=1))
    assert moved @ moved <= 1e-6 * typical * (step @ step)
    # Where -P g lies in H's range the problem has a minimum: the step reaches it (its
    # image X_F'Y_F p is the least-squares solution's, unique).
    A = labels[:, None] * X
    projection = np.eye(30) - np.outer(labels, labels) / 30
    consistent = -projection @ A @ A.T @ rng.standard_normal(30)
    step, moved = _direct(X, free, labels, np.zeros(30), -consistent)
    reference = _kkt_step(A, labels, np.zeros(30), -consistent)
    np.testing.assert_allclose(moved, A.T @ reference, rtol=0,
                               atol=1e-6 * np.linalg.norm(A.T @ reference))  # fmt: skip


def test_a_factor_without_some_samples_is_the_factor_of_the_rest():
    # Deleting samples from a Cholesky factor by rank-one updates gives the factor
    # NumPy computes afresh for the Gram matrix of the rest.
    rng = np.random.default_rng(9)
    A = rng.standard_normal((40, 60))
    K = A @ A.T + 0.1 * np.eye(40)
    kept = rng.random(40) < 0.8
    kept[0] = kept[-1] = False
    factor, shift = _factor_without((np.asfortranarray(np.linalg.cholesky(K)), 0.5), kept)
    assert shift == 0.5
    reference = np.linalg.cholesky(K[np.ix_(kept, kept)])
    np.testing.assert_allclose(factor, reference, rtol=0, atol=1e-12 * np.abs(reference).max())


def _spy(monkeypatch):
    calls = []
    original = dual_cd._face_newton

    def spied(rows, free, *args):
        calls.append(free.size)
        return original(rows, free, *args)

    monkeypatch.setattr(dual_cd, "_face_newton", spied)
    return calls


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_small_problems_take_a_direct_face_step_and_reach_the_optimum(loss, sparse, monkeypatch):
    # Fewer samples than features, many free multipliers: a direct face step finishes
    # the solve, at Clarabel's optimum, in no more sweeps than without it (conjugate
    # residuals only).
    X, y = text_like(150, 1000, words_per_document=20, seed=4)
    X = X if sparse else X.toarray()
    C = 10.0
    coef, intercept, value = cvxpy_svm(X.toarray() if sparse else X, y, C, loss)
    calls = _spy(monkeypatch)
    result = solve(X, y, C, loss, tol=1e-10)
    assert calls and result.face_steps >= 1
    assert result.primal == pytest.approx(value, rel=1e-7)
    assert_same_solution(result, coef, intercept, rtol=1e-4)
    monkeypatch.setattr(dual_cd, "_direct_cost", lambda *args: (np.inf, None))
    without = solve(X, y, C, loss, tol=1e-10)
    assert result.epochs <= without.epochs


@pytest.mark.parametrize("loss", LOSSES)
def test_rows_repeated_with_both_labels_on_fewer_features_than_free(loss, monkeypatch):
    # Rows repeated with their label and with the other label, on fewer features than
    # free multipliers: with the hinge, singular faces (the squared hinge's are not, and
    # its conjugate residuals cost less there). Every answer certifies, at the optimum.
    X, y = overlapping(120, 6, seed=5)
    X = np.vstack((X, X[:20], X[20:30]))
    y = np.concatenate((y, y[:20], -y[20:30]))
    coef, intercept, value = cvxpy_svm(X, y, 5.0, loss)
    calls = _spy(monkeypatch)
    for rows in (X, sp.csr_matrix(X)):
        result = solve(rows, y, 5.0, loss, tol=1e-10, max_epochs=20000)
        assert result.primal == pytest.approx(value, rel=1e-7)
        assert_same_solution(result, coef, intercept, rtol=1e-3)
    assert calls or loss == "squared_hinge"


@pytest.mark.parametrize("loss", LOSSES)
def test_a_warm_start_at_its_own_solution_does_no_sweep(loss):
    # The warm start's gap is checked before any sweep: at its own solution it is
    # within tol at once, with the certificate's gap.
    X, y = text_like(100, 800, words_per_document=15, seed=6)
    first = solve(X, y, 1.0, loss, tol=1e-10)
    again = solve(X, y, 1.0, loss, alpha=first.alpha, intercept=first.intercept,
                  representative=first.representative)  # fmt: skip
    assert again.epochs == 0 and again.face_steps == 0


def test_cold_and_warm_answers_agree_at_a_new_C():
    # The first batch's rate measured from the start (a relative gap of 1 from zeros, the
    # checked gap of a warm start) may decide a direct step: either road certifies the
    # same optimum as CVXPY.
    X, y = text_like(120, 900, words_per_document=20, seed=7)
    start = solve(X, y, 4.0, "squared_hinge")
    coef, intercept, value = cvxpy_svm(X.toarray(), y, 2.0, "squared_hinge")
    for options in ({}, {"alpha": start.alpha, "intercept": start.intercept}):
        result = solve(X, y, 2.0, "squared_hinge", tol=1e-10, **options)
        assert result.primal == pytest.approx(value, rel=1e-7)
        assert_same_solution(result, coef, intercept, rtol=1e-4)


def test_a_direct_step_too_large_for_memory_is_not_taken():
    # A face whose Gram matrix would hold more entries than X stores (and than 256^2)
    # is left to conjugate residuals.
    X, y = text_like(400, 2000, words_per_document=3, seed=8)
    rows = _rows(X)
    free = np.arange(300)
    cost, counts = _direct_cost(rows, free, int(np.diff(X.indptr)[free].sum()), X.shape[1])
    assert 300**2 > max(256**2, X.nnz)
    assert cost == np.inf and counts is None
    result = dual_coordinate_descent(X, y, np.full(400, 1.0))
    assert result.converged


def test_column_pairs_sum_in_64_bits():
    """The direct step's pair count from 32-bit column counts, against the sum in
    Python integers: 200 000 columns of up to 20 000 entries overflow 32 bits."""
    from solvers._dual_cd import _column_pairs

    rng = np.random.default_rng(0)
    counts = rng.integers(0, 20_000, 200_000).astype(np.int32)
    expected = sum(int(c) * (int(c) + 1) // 2 for c in counts.tolist())
    assert expected > 2**31
    assert int(_column_pairs(counts)) == expected
