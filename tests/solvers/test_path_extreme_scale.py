"""svm2_path and lasso_path with a column at 1e-12, penalty and sample weights over ten
decades: every point the path returns is certified, or the path stops before it.

Twenty decades below lam_max the correlations of the active features had drifted from
lam to up to 5e7 lam while the path's own check, relative to each correlation's size
(``2 ||X_j|| (||r_E|| + ||r_E at lam_max||)``), still read 1e-13: the path ran to
lam = 3.6e-12 and its last point was 2.3% above CLARABEL's objective there (CSR input).
The reference is the problem written out in CVXPY on centred columns of unit norm (an
exact change of variables) and solved by CLARABEL, and the library's certificate
(:func:`solvers.certificates.svm2_certificate`, :func:`~solvers.certificates.lasso_certificate`)
computed on the caller's data.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

from solvers.certificates import lasso_certificate, svm2_certificate
from solvers.path import PathWarning, lasso_path, svm2_path

_TIGHT = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11, "max_iter": 500}


def _data():
    rng = np.random.default_rng(0)
    n, d = 40, 8
    X = rng.standard_normal((n, d))
    X[:, 0] *= 1e-12
    signal = X[:, 1] + X[:, 3]
    target = signal + 0.3 * rng.standard_normal(n)
    labels = np.where(signal + 0.7 * rng.standard_normal(n) > 0, 1.0, -1.0)
    rng = np.random.default_rng(1)
    weights = 10.0 ** rng.uniform(-5, 5, d)
    s = 10.0 ** rng.uniform(-5, 5, n)
    s[::5] = 0.0
    return X, target, labels, weights, s


def _objective(X, y, w, b, lam, weights, s, squared_hinge):
    f = X @ w + b
    loss = np.maximum(0.0, 1.0 - y * f) ** 2 if squared_hinge else (y - f) ** 2
    return s @ loss + lam * weights @ np.abs(w)


def _clarabel(X, y, lam, weights, s, squared_hinge):
    """The minimiser by CLARABEL on centred unit-norm columns, mapped back."""
    mean = X.mean(axis=0)
    norms = np.linalg.norm(X - mean, axis=0)
    u, b = cp.Variable(X.shape[1]), cp.Variable()
    f = ((X - mean) / norms) @ u + b
    residual = cp.pos(1 - cp.multiply(y, f)) if squared_hinge else y - f
    problem = cp.Problem(cp.Minimize(s @ cp.square(residual) + lam * (weights / norms) @ cp.abs(u)))
    problem.solve(solver="CLARABEL", **_TIGHT)
    w = u.value / norms
    return w, float(b.value) - mean @ w


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("model", ["svm2", "lasso"])
def test_every_point_of_an_extreme_path_is_certified_and_matches_clarabel(model, sparse):
    X, target, labels, weights, s = _data()
    squared_hinge = model == "svm2"
    y = labels if squared_hinge else target
    path_function, certify = (
        (svm2_path, svm2_certificate) if squared_hinge else (lasso_path, lasso_certificate)
    )
    data = sp.csr_matrix(X) if sparse else X
    with warnings.catch_warnings(record=True) as caught:  # a stop early: a PathWarning
        warnings.simplefilter("always")
        path = path_function(data, y, weights, sample_weight=s)
    assert all(issubclass(w.category, PathWarning) for w in caught)
    lams = path.lams[path.lams > 0]
    # The last point, and points spread over the decades of the path, breakpoints and
    # between them.
    picked = np.unique(np.concatenate((lams[:: max(1, lams.size // 6)], lams[-1:])))
    between = np.sqrt(lams[:-1] * lams[1:])[:: max(1, lams.size // 4)]
    for lam in np.concatenate((picked, between)):
        w, b = path.at(lam)
        certificate = certify(X, y, w, b, lam, weights, sample_weight=s)
        assert certificate.holds, (lam, certificate)
        if lam > 1e3:  # lam times the 1e-12 column's weight per unit norm: 1e20, where
            continue  # CLARABEL fails
        ours = _objective(X, y, w, b, lam, weights, s, squared_hinge)
        w_ref, b_ref = _clarabel(X, y, lam, weights, s, squared_hinge)
        reference = _objective(X, y, w_ref, b_ref, lam, weights, s, squared_hinge)
        assert ours <= reference * (1 + 1e-7), (lam, ours, reference)
        if certify(X, y, w_ref, b_ref, lam, weights, sample_weight=s).holds:
            np.testing.assert_allclose(ours, reference, rtol=1e-6)
