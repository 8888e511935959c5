"""The 1-norm SVM path on a wide sparse X: memory O(nnz + n + d + sum of the active sets).

Issue 30 item 1: the path stored every breakpoint's coefficients densely (breakpoints x
d: 11 GiB asked by `HybridSVM()` at 20000 x 200000) and formed the rows of the samples
on the elbow densely (a whole class of them at lam_max: |E| x d). tracemalloc's peak
must stay below :data:`PEAK_FACTOR` times the CSR's bytes plus 8 (n + d), as in
``test_issue30_memory.py``, plus :data:`ACTIVE_BYTES` per entry of the path's active
sets and :data:`BREAKPOINT_BYTES` per breakpoint (the path stores each breakpoint's
model: its coefficients and active set); either dense array would exceed it many
times over. The answers are checked against
the LP solved by scipy's HiGHS, written out here with sparse matrices.
"""

import tracemalloc
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

import solvers
from benchmarks._text import text_like
from solvers.path import _steps, l1_svm_path
from tests.solvers.test_l1svm_path import objective

PEAK_FACTOR = 8.0
#: Bytes per entry of the active sets: the recorder's value (8) and sorted model (8,
#: also the Path's active set), the Path's CSR index and value (4 + 8), with room.
ACTIVE_BYTES = 40
#: Bytes per breakpoint: two small arrays (about 100 bytes each) and a few numbers.
BREAKPOINT_BYTES = 512


def _bound(X, active, breakpoints):
    return PEAK_FACTOR * _size(X) + ACTIVE_BYTES * active + BREAKPOINT_BYTES * breakpoints


def _size(X):
    n, d = X.shape
    return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + 8 * (n + d)


def _lp_optimum(X, y, lam, weights):
    """004 eq. 6 at lam by linprog: min 1'xi + lam W'(w+ + w-), Y(X(w+ - w-) + b) + xi >= 1."""
    kept = np.flatnonzero(np.isfinite(weights))
    n, k = X.shape[0], kept.shape[0]
    YX = sp.diags(y) @ sp.csr_matrix(X)[:, kept]
    A = sp.hstack((-YX, YX, -y[:, None], -sp.identity(n)), format="csr")
    cost = np.concatenate((lam * weights[kept], lam * weights[kept], [0.0], np.ones(n)))
    bounds = [(0, None)] * (2 * k) + [(None, None)] + [(0, None)] * n
    result = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert result.status == 0, result.message
    return result.fun


def _traced(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tracemalloc.start()
        try:
            result = fit()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return peak, result


def test_l1_svm_path_on_a_wide_csr_stays_sparse():
    X, y = text_like(300, 20000, words_per_document=15)
    l1_svm_path(X[:40], y[:40])  # loads the code
    peak, path = _traced(lambda: l1_svm_path(X, y))
    bound = _bound(X, sum(a.shape[0] for a in path.active_sets), len(path))
    assert peak <= bound, f"{peak / 1e6:.1f} MB > {bound / 1e6:.1f} MB ({len(path)} knots)"
    # Either dense form would have broken the bound many times over.
    assert 8 * len(path) * X.shape[1] > 10 * bound
    assert sp.issparse(path.coefs) and path.coefs.shape == (len(path), X.shape[1])
    k = len(path) // 2
    np.testing.assert_array_equal(path.coefs[k].toarray()[0], path.at(path.lams[k])[0])
    lams = path.lams[path.lams > 0]
    weights = np.ones(X.shape[1])
    for lam in lams[[len(lams) // 10, len(lams) // 2, len(lams) - 1]]:
        ours = objective(X, y, *path.at(lam), lam, weights)
        best = _lp_optimum(X, y, lam, weights)
        assert abs(ours - best) <= 1e-7 * max(best, 1.0), (lam, ours, best)


def test_hybrid_svm_default_on_a_wide_csr(monkeypatch):
    """HybridSVM() chooses lam on the exact path of its weighted 1-norm SVM (below the
    registry's size limit, as here), each breakpoint scored on the held-out share as it
    is recorded: bounded by the data alone (no term for the path's active sets; storing
    the path's models took 8.8 times it at 100 words a document), and its model is the
    LP's optimum there.

    At 20 words a document, where an array of d numbers is a quarter of the data: the
    path held three copies of X (the problem's CSC, a scaled CSC, its CSR), the step LP
    HiGHS's basis as Python lists (64 bytes a column, two columns a feature) and the
    dense elbow matrix three times; 10.3 times the data before (issue 30), 7.0 now."""
    X, y = text_like(400, 4000, words_per_document=20)
    sizes = []
    record = _steps.PathRecorder.path

    def spy(recorder):
        sizes.append((recorder.n_steps, len(recorder.lams)))
        return record(recorder)

    solvers.HybridSVM(random_state=0).fit(X[:60], y[:60])  # loads the code
    monkeypatch.setattr(_steps.PathRecorder, "path", spy)
    peak, model = _traced(lambda: solvers.HybridSVM(random_state=0).fit(X, y))
    assert len(sizes) == 1  # one path: the weighted model's
    n_steps, kept = sizes[0]
    assert kept <= 2  # only the last two breakpoints (return_path=False)
    bound = PEAK_FACTOR * _size(X)
    assert peak <= bound, f"{peak / 1e6:.1f} MB > {bound / 1e6:.1f} MB ({n_steps} knots)"
    # Its coefficients stored densely would have broken the bound.
    assert 8 * n_steps * X.shape[1] > 5 * bound
    assert model.certificate_.holds
    ours = objective(X, y, model.coef_.ravel(), model.intercept_[0], model.lam_, model.weights_)
    best = _lp_optimum(X, y, model.lam_, model.weights_)
    assert abs(ours - best) <= 1e-7 * max(best, 1.0), (ours, best)
