"""The library's own backends, each alone, on the inputs of the numerics sweep.

Every own backend (``DUAL_CD``, ``CD``, ``COLUMN_GENERATION``, ``CG``) is run as the
whole chain on duplicate, zero, tiny (1e-12) and timestamp columns, columns spread
over twelve decades, n > d and d > n, dense and CSR, with and without sample
weights and penalty weights spanning ten decades. Its answer must be certified and
equal, within the certificate's tolerance, to the default chain's certified answer
(which may come from another backend: CVXPY's on the formulation, the exact path);
or it must fail with a SolverError, and only where a first-order method is known to
stall (:data:`STALLS`, each with its reason). Never a wrong answer.
"""

import itertools

import pytest
import scipy.sparse as sp
from sklearn.base import clone

from solvers import L1SVM, L2SVM, RLSC, SVM2, RidgeRegression, SolverError, SVMDual, WeightedLasso
from solvers.certificates import GAP_TOLERANCE

from .test_numerics_sweep import KINDS, SHAPES, _data

CASES = {
    "dual_cd-hinge": lambda w: (SVMDual(solver="DUAL_CD"), "class"),
    "dual_cd-squared": lambda w: (L2SVM(loss="squared_hinge", solver="DUAL_CD"), "class"),
    "column_generation": lambda w: (L1SVM(lam=1.0, solver="COLUMN_GENERATION"), "class"),
    "column_generation-weights": lambda w: (
        L1SVM(lam=0.5, weights=w, solver="COLUMN_GENERATION"),
        "class",
    ),
    "cd-svm2": lambda w: (SVM2(lam=1.0, solver="CD"), "class"),
    "cd-svm2-weights": lambda w: (SVM2(lam=1.0, weights=w, solver="CD"), "class"),
    "cd-lasso": lambda w: (WeightedLasso(lam=1.0, solver="CD"), "real"),
    "cd-lasso-weights": lambda w: (WeightedLasso(lam=1.0, weights=w, solver="CD"), "real"),
    "cg-rlsc": lambda w: (RLSC(lam=1.0, solver="CG"), "class"),
    "cg-ridge": lambda w: (RidgeRegression(lam=1.0, solver="CG"), "real"),
}

_ILL_CONDITIONED_DUAL = (
    "dual coordinate descent on a column that dwarfs the others (a centred timestamp "
    "at 1e5, columns over twelve decades): ||x_i||^2 is that column's, and the other "
    "directions move by steps 1e10 too small; the planner ranks it after CVXPY's "
    "backends there (its estimate grows with C ||x||^2)"
)
_NEARLY_FREE = (
    "penalty weights down to 1e-5 on d > n data: nearly unpenalised features separate "
    "the classes, the squared hinge's curvature vanishes on them and coordinate descent "
    "crawls; the default chain goes on to the exact path and CVXPY"
)
#: (case, kind, shape) -> why the backend alone may end with a SolverError there.
STALLS = {
    **{
        (case, kind, shape): _ILL_CONDITIONED_DUAL
        for case in ("dual_cd-hinge", "dual_cd-squared")
        for kind in ("timestamp", "decades")
        for shape in SHAPES
    },
    **{
        key: (
            "columns over twelve decades (1e-6..1e6): the gap is relative to the optimum, "
            "far below the constant model's loss there, and the backend alone reaches its "
            "iteration cap first; the default chain goes on to the next backend"
        )
        for key in (("cd-lasso", "decades", "n>d"), ("cg-rlsc", "decades", "d>n"))
    },
    ("dual_cd-hinge", "duplicate", "n>d"): (
        "dual coordinate descent with many more samples than features: the dual is "
        "degenerate (rank d), many free multipliers, slow convergence"
    ),
    **{
        (case, kind, "d>n"): _NEARLY_FREE
        for case in ("cd-svm2", "cd-svm2-weights")
        for kind in KINDS  # the penalty weights' draw decides, not the kind of X
    },
}


#: The runs of the default suite: every kind at n > d (about 1 s each) and the plain
#: data at d > n; the other d > n runs take 10 to 85 s each (``-m slow`` runs them).
QUICK = {("plain", "d>n")} | {(kind, "n>d") for kind in KINDS if kind != "decades"}


@pytest.mark.parametrize(
    "kind, shape",
    [
        pytest.param(kind, shape, id=f"{kind}-{shape}",
                     marks=() if (kind, shape) in QUICK else pytest.mark.slow)  # fmt: skip
        for shape in SHAPES
        for kind in KINDS
    ],
)
def test_each_own_backend_is_right_or_says_it_stalled(kind, shape):
    X, y_class, y_real, weights, sample_weight = _data(kind, shape, 0)
    wrong, stalled = [], []
    for (name, make), fmt, weighted in itertools.product(
        CASES.items(), ("dense", "csr"), (False, True)
    ):
        est, target = make(weights)
        y = y_class if target == "class" else y_real
        data = sp.csr_matrix(X) if fmt == "csr" else X
        s = sample_weight if weighted else None
        try:
            est.fit(data, y, sample_weight=s)
        except SolverError:
            stalled.append((name, kind, shape))
            continue
        assert est.certificate_.holds
        reference = clone(est).set_params(solver=None).fit(data, y, sample_weight=s)
        scale = est.certificate_.scale
        if abs(est.objective_ - reference.objective_) > 3 * GAP_TOLERANCE * scale:
            wrong.append((name, fmt, weighted, est.objective_, reference.objective_))
    assert wrong == []
    unexpected = sorted(set(stalled) - set(STALLS))
    assert unexpected == [], unexpected
