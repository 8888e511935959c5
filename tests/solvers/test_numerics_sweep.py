"""Every estimator on the inputs users bring, certified or a clear SolverError.

Columns duplicated, zero, at 1e-12, a Unix timestamp (mean 1.7e9, spread 1e5), a
target with the offset of a timestamp (y = 1.7e9 + signal), n > d and d > n, dense
and CSR, with and without sample weights, penalty weights spanning ten decades, lam
above lam_max, ridge at lam = 1e-12. Each fit must end with a certificate that holds: weak
duality (a primal value within the tolerance of a feasible dual point's value), a
theorem's inequality computed from the data alone by :mod:`solvers.certificates`.
"""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    AdaptiveLasso,
    RidgeRegression,
    SVMDual,
    WeightedLasso,
)
from solvers.exceptions import SolverError

KINDS = ["plain", "duplicate", "zero", "timestamp", "tiny", "decades", "offset_target"]
SHAPES = {"n>d": (40, 8), "d>n": (25, 60)}


def _data(kind, shape, seed):
    rng = np.random.default_rng([KINDS.index(kind), seed, *SHAPES[shape]])
    n, d = SHAPES[shape]
    X = rng.standard_normal((n, d))
    if kind == "duplicate":
        X[:, 1] = X[:, 0]
    elif kind == "zero":
        X[:, 2] = 0.0
    elif kind == "timestamp":
        X[:, 0] = 1.7e9 + 1e5 * rng.standard_normal(n)
    elif kind == "tiny":
        X[:, 0] *= 1e-12
    elif kind == "decades":
        X *= 10.0 ** rng.uniform(-6, 6, d)
    y_class = np.where(X[:, 3] + 0.3 * rng.standard_normal(n) > 0, 1, 0)
    y_real = X[:, 3] + 0.1 * rng.standard_normal(n)
    if kind == "offset_target":  # a Unix timestamp as the target: y = 1.7e9 + signal
        y_real = 1.7e9 + y_real
    weights = 10.0 ** rng.uniform(-5, 5, d)
    sample_weight = rng.uniform(0.1, 3.0, n)
    return X, y_class, y_real, weights, sample_weight


def _fits(X, y_class, y_real, weights):
    yield SVMDual(), y_class
    yield L2SVM(), y_class
    yield L2SVM(loss="squared_hinge"), y_class
    yield L1SVM(lam=1.0), y_class
    yield L1SVM(lam=0.5, weights=weights), y_class
    yield SVM2(lam=1.0), y_class
    yield SVM2(lam=1e6), y_class  # above lam_max: the closed form
    yield WeightedLasso(lam=1.0), y_real
    yield WeightedLasso(lam=1.0, weights=weights), y_real
    yield WeightedLasso(lam=1e9), y_real  # above lam_max
    yield AdaptiveLasso(), y_real
    yield RLSC(lam=1.0), y_class
    yield RidgeRegression(lam=1.0), y_real
    yield RLSC(lam=1e-12), y_class  # nearly least squares (interpolation when d > n)
    yield RidgeRegression(lam=1e-12), y_real


def _failures(kind, shape, fmt):
    X, y_class, y_real, weights, sample_weight = _data(kind, shape, 0)
    data = sp.csr_matrix(X) if fmt == "csr" else X
    failures = []
    for (est, y), s in itertools.product(_fits(X, y_class, y_real, weights), (None, 1)):
        name = f"{type(est).__name__}({est.get_params()}), sample_weight={s is not None}"
        try:
            est.fit(data, y, sample_weight=None if s is None else sample_weight)
        except SolverError as error:
            failures.append(f"{name}: SolverError {str(error).splitlines()[0]}")
            continue
        certificates = est.certificate_
        if not isinstance(certificates, list):
            certificates = [certificates]
        if not all(c.holds for c in certificates):
            failures.append(f"{name}: {certificates}")
    return failures


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    "kind",
    [
        *(kind for kind in KINDS if kind != "decades"),
        pytest.param(
            "decades",
            marks=[pytest.mark.slow, pytest.mark.xfail(
                strict=False,
                reason="every column at its own scale in 1e-6..1e6 (and penalty weights "
                "in 1e-5..1e5 on top): effective weights spanning 22 decades; some fits "
                "end 1e-6..1e-2 above the gap tolerance and raise SolverError",
            )],  # 11-35 s each: run with -m slow
        ),
    ],
)
def test_every_estimator_is_certified(kind, shape, fmt):
    assert _failures(kind, shape, fmt) == []
