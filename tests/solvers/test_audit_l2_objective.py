"""SVMDual's ``objective_`` is the optimum within the certificate, whichever backend answers.

With a column that dwarfs the others the CVXPY backends solve the primal, and
``alpha_`` are the multipliers of its margin constraints. ``objective_`` was
``1'a - 1/2 ||w||^2`` with the primal's w in place of ``X'Ya``: 20.2887 where the
optimum is 20.2839 (2.4e-4 relative, with a certificate that holds at 5e-7). The
reference is the primal optimum by CLARABEL in unit-norm coordinates, and the
primal objective recomputed in NumPy at the returned (w, b).
"""

import cvxpy as cp
import numpy as np
import pytest

from solvers import SVMDual


def _data():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((40, 6))
    y = np.where(X[:, 0] + 0.3 * X[:, 2] > 0, 1, 0)
    X[:, 1] *= 3000.0
    return X, y, 10.0 ** rng.uniform(-3, 3, 40)


@pytest.mark.parametrize("solver", [None, "ECOS"])
def test_objective_is_the_optimum_with_a_primal_backend(solver):
    X, y, s = _data()
    C = 1e6
    signs = np.where(y == 1, 1.0, -1.0)
    norms = np.linalg.norm(X, axis=0)
    v, b = cp.Variable(6), cp.Variable()
    hinge = cp.pos(1 - cp.multiply(signs, (X / norms) @ v + b))
    reference = cp.Problem(
        cp.Minimize(
            0.5 * cp.sum_squares(cp.multiply(1 / norms, v)) + C * cp.sum(cp.multiply(s, hinge))
        )
    )
    reference.solve(solver="CLARABEL", tol_gap_abs=1e-13, tol_gap_rel=1e-13, tol_feas=1e-13)
    clf = SVMDual(C=C, solver=solver).fit(X, y, sample_weight=s)
    w, b0 = clf.coef_[0], clf.intercept_[0]
    primal = 0.5 * w @ w + C * s @ np.maximum(0.0, 1.0 - signs * (X @ w + b0))
    np.testing.assert_allclose(clf.objective_, reference.value, rtol=2e-6)
    assert clf.objective_ <= primal * (1 + 1e-9)  # a dual value: below the primal's
