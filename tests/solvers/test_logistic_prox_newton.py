"""The proximal Newton kernel of SparseLogisticRegression (solvers._logistic_cd) on the
cases issue 32's real text made hard: against CVXPY (Clarabel) written out in
tests/solvers/test_logistic.py.

- near-copies of a document with the other label, fitted far on the wrong side: the
  Newton model had no curvature there (a step of 1e16, the line search gave up at a
  relative gap of 0.98); its weights are now bounded (``MIN_WEIGHT``);
- a face step that walks through many zeros (its closed form from one Cholesky factor
  against the optimum);
- the working sets padded with the features nearest to violating: the answer is the
  optimum's, with fewer working sets than features entering one at a time.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from solvers._logistic_cd import _face_step, _working_set, logistic_prox_newton
from tests.solvers.test_logistic import cvxpy_optimum, objective


def _copies_with_other_labels(seed, n=150, d=40):
    """Word counts with five documents each repeated with the other label; their own
    words (the last five columns) occur only in each pair."""
    rng = np.random.default_rng(seed)
    X = rng.poisson(0.2, (n, d)).astype(float)
    y = np.where(X[:, :6] @ rng.standard_normal(6) + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    own = np.zeros((n, 5))
    for k in range(5):
        own[2 * k, k] = own[2 * k + 1, k] = 1.0 + k
        X[2 * k + 1] = X[2 * k]
        y[2 * k + 1] = -y[2 * k]
    return sp.csr_matrix(np.hstack([X, own])), y


@pytest.mark.parametrize("seed", [0, 1])
def test_a_start_far_on_the_wrong_side_of_copies_converges_to_the_optimum(seed):
    X, y = _copies_with_other_labels(seed)
    lam = 0.5
    start = np.zeros(X.shape[1])
    start[-5:] = 40.0  # each pair's own word: f about 40 on both, one of them wrong
    result = logistic_prox_newton(X, y, lam, np.ones(X.shape[1]), coef=start)
    optimum, coef, _ = cvxpy_optimum(X.toarray(), y, lam)
    assert result.converged
    value = objective(X, y, result.coef, result.intercept, lam)
    assert value - optimum <= 1e-7 * abs(optimum)
    np.testing.assert_allclose(result.coef, coef, atol=1e-4)


def _model_value(X, g, h, coef, step, delta_b, thresholds):
    """The quadratic model of _solve_working_set at ``coef + step`` (``step`` and the
    intercept's change ``delta_b`` from 0), written out."""
    r = X @ step + delta_b
    return g @ r + 0.5 * r @ (h * r) + thresholds @ np.abs(coef + step)


def test_the_face_step_is_the_models_minimum_on_the_face_it_ends_on():
    """After the walk, the coefficients it kept nonzero keep their signs, and on that
    face (the others fixed at 0) its point minimises the model: the face's reduced
    system written out with NumPy; and the model went down."""
    rng = np.random.default_rng(3)
    n, d = 80, 30
    X = np.asfortranarray(rng.standard_normal((n, d)))
    g = rng.standard_normal(n)
    h = rng.uniform(0.05, 0.25, n)
    thresholds = np.full(d, 2.0)
    coef = rng.standard_normal(d)  # signs that the minimum does not keep: a long walk
    step = np.zeros(d)
    z = np.zeros(n)
    change, taken = _face_step(X.ravel(order="F"), np.zeros(0, np.int32), np.zeros(0, np.int32),
                               True, np.arange(d), n, coef, step, z, 0.0, g, h, thresholds,
                               0.0, 10**6)  # fmt: skip
    assert taken
    u = coef + step
    kept = np.flatnonzero(u != 0)
    assert 0 < kept.size < d  # it walked through zeros
    assert np.all(np.sign(u[kept]) == np.sign(coef[kept]))
    np.testing.assert_allclose(z, X @ step, atol=1e-10)
    # The face's minimum: [X_K 1]' H [X_K 1] e = -(gradient at u) with the signs' terms.
    A = np.hstack([X[:, kept], np.ones((n, 1))])
    r = X @ step + change
    gradient = A.T @ (g + h * r)
    gradient[:-1] += thresholds[kept] * np.sign(u[kept])
    assert np.abs(gradient).max() <= 1e-8 * np.abs(A.T @ g).max()
    assert _model_value(X, g, h, coef, step, change, thresholds) < _model_value(
        X, g, h, coef, np.zeros(d), 0.0, thresholds
    )


def test_working_sets_are_padded_with_the_features_nearest_to_violating():
    gradient = np.array([5.0, 0.5, 2.9, 3.5, 2.0, -3.2, 0.0, 9.0])
    coef = np.zeros(8)
    coef[6] = 1.0  # the support
    movable = np.ones(8, dtype=bool)
    movable[7] = False
    weights = np.ones(8)
    norms = np.ones(8)
    last = np.array([0, 6], dtype=np.int64)
    working, outside = _working_set(
        gradient, coef, weights, 3.0, movable, norms, 4, last, np.zeros(0, np.int64)
    )
    # The support (6) and the 3 of largest |grad_j| - 3 among the others: 0 (violating,
    # in the last set), 3 and 5 (violating, outside it), 2 (nearest to violating) not.
    np.testing.assert_array_equal(working, [0, 3, 5, 6])
    assert outside == 2


@pytest.mark.parametrize("lam", [2.0, 0.5])
def test_text_like_answers_are_the_optimum(lam):
    from benchmarks._text import text_like

    X, y = text_like(150, 600, words_per_document=15, seed=4)
    result = logistic_prox_newton(X, y, lam, np.ones(X.shape[1]))
    optimum, _, _ = cvxpy_optimum(X.toarray(), y, lam)
    assert result.converged
    assert objective(X, y, result.coef, result.intercept, lam) - optimum <= 1e-7 * abs(optimum)


def test_a_warm_start_whose_working_set_holds_the_violators_takes_one_working_set():
    """From the answer at a nearby lam and its working set, when no feature outside it
    violates its conditions the first working set is solved to the final target: one
    working set (a cold start takes two here), and the optimum's objective."""
    from benchmarks._text import text_like

    X, y = text_like(400, 3000, seed=3)
    weights = np.ones(X.shape[1])
    last = logistic_prox_newton(X, y, 0.5, weights)
    warm = logistic_prox_newton(X, y, 0.4, weights, coef=last.coef, intercept=last.intercept,
                                working_set=last.working_set)  # fmt: skip
    cold = logistic_prox_newton(X, y, 0.4, weights)
    assert warm.converged and cold.converged
    assert warm.iterations == 1 < cold.iterations
    optimum, _, _ = cvxpy_optimum(X.toarray(), y, 0.4)
    assert objective(X, y, warm.coef, warm.intercept, 0.4) - optimum <= 1e-7 * abs(optimum)


@pytest.mark.parametrize("layout", ["csr", "csc", "dense"])
def test_the_column_norms_it_hands_the_certificate_are_xs(layout):
    """PROX_NEWTON's backend certifies with the column norms the descent computed: they
    are X's (by NumPy on the dense matrix), and the fit is certified with them."""
    from solvers import SparseLogisticRegression

    rng = np.random.default_rng(3)
    dense = rng.random((80, 40)) * (rng.random((80, 40)) < 0.3)
    dense[:, 5] = 0.0  # a zero column
    y = np.where(dense[:, 0] - dense[:, 1] + 0.1 * rng.standard_normal(80) > 0, 1.0, -1.0)
    X = {"csr": sp.csr_matrix, "csc": sp.csc_matrix, "dense": np.asarray}[layout](dense)
    result = logistic_prox_newton(X, y, 0.5, np.ones(40))
    np.testing.assert_allclose(result.norms, np.linalg.norm(dense, axis=0), rtol=1e-13)
    fitted = SparseLogisticRegression(lam=0.5).fit(X, y)
    attempt = fitted.solve_attempts_[-1]
    assert attempt["backend"] == "PROX_NEWTON" and attempt["certificate"].holds


def _edge_columns(seed=5, n=60, d=150):
    """Unit-scale counts beside columns at 1e-12 and 1e12, a duplicated and a zero column
    (the last four); more features than a first working set holds."""
    rng = np.random.default_rng(seed)
    base = rng.poisson(0.3, (n, d)).astype(float)
    y = np.where(base[:, 0] - base[:, 1] + 0.4 * rng.standard_normal(n) > 0, 1.0, -1.0)
    tiny = 1e-12 * rng.poisson(0.5, n)
    huge = 1e12 * rng.poisson(0.5, n)
    dense = np.column_stack([base, tiny, huge, base[:, 0], np.zeros(n)])
    return dense, y


@pytest.mark.parametrize("layout", ["csr", "csc", "dense", "fortran"])
def test_the_class_correlations_are_numpys(layout):
    """``X_j'Ya`` over each class (the CSC pass without a branch on the class, the CSR
    pass by rows, BLAS on dense X) against NumPy, with sample weights, on columns over
    24 decades, a duplicated and a zero column."""
    from solvers._logistic_cd import _class_correlations

    dense, y = _edge_columns()
    rng = np.random.default_rng(1)
    s, p = rng.uniform(0.5, 2.0, y.size), rng.uniform(0.0, 1.0, y.size)
    X = {"csr": sp.csr_matrix, "csc": sp.csc_matrix, "dense": np.ascontiguousarray,
         "fortran": np.asfortranarray}[layout](dense)  # fmt: skip
    positive, negative = np.empty(dense.shape[1]), np.empty(dense.shape[1])
    _class_correlations(X, y, s, p, positive, negative)
    a = y * s * p
    expected_positive = dense.T @ np.where(y > 0, a, 0.0)
    expected_negative = dense.T @ np.where(y > 0, 0.0, a)
    np.testing.assert_allclose(positive, expected_positive, rtol=1e-13, atol=0)
    np.testing.assert_allclose(negative, expected_negative, rtol=1e-13, atol=0)


@pytest.mark.parametrize("layout", ["csc", "fortran", "csr", "dense"])
@pytest.mark.parametrize("lam", [0.3, 3.0, "above lam_max"])
def test_columns_read_in_place_or_copied_give_the_optimum(layout, lam):
    """A CSC matrix and a Fortran-ordered array are read where they are stored (the
    working set's columns by their positions in X), CSR and C-ordered arrays through a
    copy of the working set's columns: every layout reaches the optimum written out for
    CVXPY, on columns at 1e-12 and 1e12 beside unit ones, a duplicated and a zero column;
    above lam_max the answer is 0 with the intercept of the class frequencies."""
    from solvers import SparseLogisticRegression

    dense, y = _edge_columns()
    above = lam == "above lam_max"
    if above:
        lam = 1.5 * SparseLogisticRegression.lam_max(dense, y)
    X = {"csr": sp.csr_matrix, "csc": sp.csc_matrix, "dense": np.ascontiguousarray,
         "fortran": np.asfortranarray}[layout](dense)  # fmt: skip
    result = logistic_prox_newton(X, y, lam, np.ones(dense.shape[1]))
    assert result.converged
    fitted = SparseLogisticRegression(lam=lam).fit(X, y)
    assert fitted.certificate_.holds
    if above:  # the closed form: no feature, the log-odds of the classes
        assert not result.coef.any()
        np.testing.assert_allclose(result.intercept, np.log(np.sum(y > 0) / np.sum(y < 0)),
                                   rtol=1e-9)  # fmt: skip
        return
    # The reference on unit-scale columns: with X' = X D^-1 and v = D w the penalty on
    # v_j is lam / D_j. The 1e12 column's becomes 1e-12 lam; the 1e-12 column's
    # coefficient is 0 (|X_j'r| <= 1e-12 n < lam), so it is dropped.
    scales = np.ones(dense.shape[1])
    scales[-4:-2] = 1e-12, 1e12
    weights = 1.0 / scales
    weights[-4] = np.inf
    optimum, _, _ = cvxpy_optimum(dense / scales, y, lam, weights=weights)
    value = objective(dense, y, result.coef, result.intercept, lam)
    assert value - optimum <= 1e-7 * abs(optimum)
    assert result.coef[-4] == result.coef[-1] == 0.0  # the 1e-12 column, the zero column
