"""Ridge regression and RLSC at lam down to 1e-14, against the exact rational solution.

The reference is independent of floating point: the normal equations of the smaller
Gram matrix (``(XX' + lam I) x = y``, ``b = X'x`` when d > n; ``(X'X + lam I) b = X'y``
otherwise) solved by Gauss-Jordan elimination in :class:`fractions.Fraction`, from
the float64 data and lam taken exactly. Every fit must be certified and right: its
objective within the certificate's tolerance of the exact optimum, measured on the
certificate's own scale (the optimum, floored at the rounding level of ``||y||^2``);
on data of unit columns also its coefficients, to 1e-9 of the largest.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from solvers import RLSC, RidgeRegression
from solvers.certificates import GAP_TOLERANCE, gap_scale, ridge_certificate

LAMS = [1e-6, 1e-8, 1e-10, 1e-11, 1e-12, 1e-14]
SHAPES = {"d>n": (6, 15), "n>d": (15, 6), "square": (8, 8)}


def _exact_ridge(X, y, lam):
    """The exact ridge solution, rounded to float64 at the end."""
    n, d = X.shape
    rows = [[Fraction(value) for value in row] for row in X.tolist()]
    targets = [Fraction(value) for value in y.tolist()]
    columns = [list(column) for column in zip(*rows, strict=True)]
    if d > n:  # (XX' + lam I) x = y
        vectors, rhs = rows, targets
    else:  # (X'X + lam I) b = X'y
        vectors, rhs = columns, [_dot(column, targets) for column in columns]
    gram = [[_dot(u, v) + (Fraction(lam) if u is v else 0) for v in vectors] for u in vectors]
    solution = _gauss_jordan(gram, rhs)
    if d > n:
        solution = [_dot(column, solution) for column in columns]
    return np.array([float(value) for value in solution])


def _dot(u, v):
    return sum(a * b for a, b in zip(u, v, strict=True))


def _gauss_jordan(matrix, rhs):
    """Solve a nonsingular rational system exactly."""
    m = len(matrix)
    matrix, rhs = [list(row) for row in matrix], list(rhs)
    for c in range(m):
        pivot = next(r for r in range(c, m) if matrix[r][c] != 0)
        matrix[c], matrix[pivot] = matrix[pivot], matrix[c]
        rhs[c], rhs[pivot] = rhs[pivot], rhs[c]
        for r in range(m):
            if r != c and matrix[r][c] != 0:
                factor = matrix[r][c] / matrix[c][c]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[c], strict=True)]
                rhs[r] -= factor * rhs[c]
    return [rhs[i] / matrix[i][i] for i in range(m)]


def _objective(X, y, coef, lam):
    residual = y - X @ coef
    return residual @ residual + lam * coef @ coef


def test_the_rational_reference_solves_the_normal_equations():
    """The reference itself, on a case with a closed form: X = I (b = y / (1 + lam))."""
    y = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(_exact_ridge(np.eye(3), y, 1e-12), y / (1 + 1e-12), rtol=1e-15)
    X = np.hstack((np.eye(3), np.eye(3)))  # d > n: b = [y, y] / (2 + lam)
    np.testing.assert_allclose(_exact_ridge(X, y, 0.5), np.tile(y, 2) / 2.5, rtol=1e-15)


@pytest.mark.parametrize(("shape", "spread"), itertools.product(SHAPES, [0.0, 3.0]))
@pytest.mark.parametrize("lam", LAMS)
def test_small_lam_is_certified_and_right(shape, spread, lam):
    """Columns of unit scale (``spread`` 0) or spanning 1e-3..1e3: no SolverError (the
    issue's fault: 12 of 15 fits at lam = 1e-10 raised it), the objective within the
    tolerance of the exact optimum, and on unit columns the exact coefficients."""
    for seed in range(3):
        n, d = SHAPES[shape]
        rng = np.random.default_rng([seed, n, d])
        X = rng.standard_normal((n, d)) * 10.0 ** rng.uniform(-spread, spread, d)
        y = rng.standard_normal(n)
        labels = np.where(y > 0, 1.0, -1.0)
        for est, target in ((RidgeRegression(lam=lam), y), (RLSC(lam=lam), labels)):
            est.fit(X, target)
            exact = _exact_ridge(X, target, lam)
            optimum = _objective(X, target, exact, lam)
            coef = np.ravel(est.coef_)
            assert est.certificate_.holds
            excess = _objective(X, target, coef, lam) - optimum
            assert excess <= GAP_TOLERANCE * gap_scale(optimum, optimum, target @ target)
            if spread == 0.0:
                np.testing.assert_allclose(coef, exact, rtol=0, atol=1e-9 * np.abs(exact).max())


@pytest.mark.parametrize("sparse", [False, True])
def test_a_timestamp_column_at_lam_1e_12_is_certified_within_rounding(sparse):
    """n > d with a column at 1.7e9 and lam = 1e-12: evaluating the gradient of even the
    exact answer in float64 leaves a duality gap above the optimum, so the certificate
    discounts each entry's rounding level; an answer off beyond rounding still fails."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((40, 8))
    X[:, 0] = 1.7e9 + 1e5 * rng.standard_normal(40)
    y = X[:, 3] + 0.1 * rng.standard_normal(40)
    lam = 1e-12
    exact = _exact_ridge(X, y, lam)
    optimum = _objective(X, y, exact, lam)
    est = RidgeRegression(lam=lam).fit(sp.csr_matrix(X) if sparse else X, y)
    assert est.certificate_.holds
    excess = _objective(X, y, est.coef_, lam) - optimum
    assert excess <= GAP_TOLERANCE * gap_scale(optimum, optimum, y @ y)
    assert ridge_certificate(X, y, exact, lam).holds
    off = exact + 1e-3 * np.eye(8)[1]  # 1e-4 of the optimum above it
    assert _objective(X, y, off, lam) - optimum > 10 * GAP_TOLERANCE * optimum
    assert not ridge_certificate(X, y, off, lam).holds
