"""Issue 30, items 6 and 7: the same data in another form gives the same model.

Item 6: a CSR or CSC matrix that stores an entry twice (valid in SciPy: the two add
up) is the same matrix as its canonical form; every estimator, with every backend
it declares, gives the same answer on both (or fails the same way), and leaves the
caller's arrays as they were.

Item 7: sample weights of ones are the unweighted problem; every estimator gives
the unweighted fit bit for bit (with a fixed ``random_state`` where it draws rows).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone, is_classifier

from solvers import (
    L1SVM,
    L1SVMCV,
    L2SVM,
    RLSC,
    SVM2,
    SVM2CV,
    AdaptiveLasso,
    HybridSVM,
    RidgeRegression,
    RSWeightedLasso,
    RSWeightedSVM,
    SupportVectorSelector,
    SVMDual,
    WeightedLasso,
    WeightedLassoCV,
    available_backends,
)
from solvers._registry import backend
from solvers.path import l1_svm_path, lasso_path, svm2_path
from solvers.weights import hybrid_weights, rs_weights
from tests.sparsify.test_issue30_inputs import duplicated_entries

#: Every public estimator (both losses of L2SVM, both bases of the hybrid SVM).
ESTIMATORS = [
    SVMDual(),
    L2SVM(),
    L2SVM(loss="squared_hinge"),
    L1SVM(lam=2.0),
    SVM2(lam=2.0),
    RLSC(lam=1.0),
    RidgeRegression(lam=1.0),
    WeightedLasso(lam=2.0),
    AdaptiveLasso(),
    HybridSVM(base="l1", random_state=0),
    HybridSVM(base="svm2", random_state=0),
    RSWeightedSVM(base="svm2", n_blocks=4, random_state=0),
    RSWeightedLasso(n_blocks=4, random_state=0),
    WeightedLassoCV(cv=3),
    L1SVMCV(cv=3),
    SVM2CV(cv=3),
]
#: The estimators whose ``solver`` picks a backend of their own model.
_OWN_MODEL = (SVMDual, L2SVM, L1SVM, SVM2, RLSC, RidgeRegression, WeightedLasso, AdaptiveLasso)


def _name(est):
    extra = [f"{k}={v}" for k, v in (("loss", getattr(est, "loss", "hinge")),
                                     ("base", getattr(est, "base", None))) if v not in
             ("hinge", None)]  # fmt: skip
    return type(est).__name__ + "".join(f"[{e}]" for e in extra)


def data(est, n=40, d=12):
    """Sparse data (two dense columns) with labels or targets for ``est``."""
    rng = np.random.default_rng(3)
    X = sp.random(n, d, density=0.35, random_state=4).toarray()
    X[:, :2] = rng.standard_normal((n, 2))
    signal = X[:, 0] - X[:, 1] + 0.5 * X[:, 2] + 0.3 * rng.standard_normal(n)
    return X, (np.where(signal > 0, 1, -1) if is_classifier(est) else signal)


def outcome(est, X, y, **fit):
    """``(coef_, intercept_)`` of a fit, or the name of the error it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fitted = clone(est).fit(X, y, **fit)
        except Exception as exc:  # a backend that cannot answer fails on both forms
            return type(exc).__name__
    return np.asarray(fitted.coef_), np.asarray(fitted.intercept_)


def assert_same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
        return
    for got, expected in zip(a, b, strict=True):
        np.testing.assert_array_equal(got, expected)


def _backend_cases():
    """Every estimator's default chain, and every backend it declares: the library's
    own in the default run, CVXPY's (compiling a problem each) with ``-m slow``."""
    cases = []
    for est in ESTIMATORS:
        cases.append(pytest.param(est, None, id=f"{_name(est)}-default"))
        if isinstance(est, _OWN_MODEL):
            for name in available_backends(est):
                slow = pytest.mark.slow if backend(name).cvxpy else ()
                cases.append(pytest.param(est, name, id=f"{_name(est)}-{name}", marks=slow))
    return cases


@pytest.mark.parametrize("est, backend", _backend_cases())
def test_duplicate_entries_give_the_canonical_answer(est, backend):
    X, y = data(est)
    if backend is not None:
        est = clone(est).set_params(solver=backend)
    for fmt in ("csr", "csc") if backend is None else ("csr",):
        M = duplicated_entries(X, fmt)
        before = (M.data.copy(), M.indices.copy(), M.indptr.copy())
        got = outcome(est, M, y)
        for kept, now in zip(before, (M.data, M.indices, M.indptr), strict=True):
            assert kept.tobytes() == now.tobytes()  # the caller's matrix is untouched
        assert_same(got, outcome(est, sp.csr_matrix(X).asformat(fmt), y))
    if backend == "COLUMN_GENERATION":  # the case of the issue: it crashed, now it answers
        assert not isinstance(got, str)


def test_duplicate_entries_in_the_support_vector_selector_and_in_predict():
    est = L1SVM(lam=2.0, solver="COLUMN_GENERATION")
    X, y = data(est)
    M = duplicated_entries(X, "csr")
    fitted = clone(est).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(
        fitted.decision_function(M), fitted.decision_function(sp.csr_matrix(X))
    )
    selector = SupportVectorSelector().fit(M, y)
    reference = SupportVectorSelector().fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(selector.support_vectors_, reference.support_vectors_)
    np.testing.assert_array_equal(selector.get_support(), reference.get_support())


@pytest.mark.parametrize("est", ESTIMATORS, ids=_name)
@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_sample_weights_of_ones_are_the_unweighted_fit(est, fmt):
    X, y = data(est, n=60)
    X = X if fmt == "dense" else sp.csr_matrix(X)
    unweighted = outcome(est, X, y)
    assert not isinstance(unweighted, str)
    assert_same(outcome(est, X, y, sample_weight=np.ones(60)), unweighted)
    assert_same(outcome(est, X, y, sample_weight=[1] * 60), unweighted)  # ints, a list


def test_sample_weights_of_ones_in_the_weight_functions_and_the_paths():
    X, y = data(SVM2(), n=60)
    ones = np.ones(60)
    for base in ("l1", "svm2"):
        np.testing.assert_array_equal(
            hybrid_weights(X, y, base=base, random_state=0, sample_weight=ones),
            hybrid_weights(X, y, base=base, random_state=0),
        )
        blocks = {"base": base, "block_size": 20, "n_blocks": 4, "random_state": 0}
        np.testing.assert_array_equal(
            rs_weights(X, y, **blocks, sample_weight=ones), rs_weights(X, y, **blocks)
        )
    target = X @ np.arange(12.0)
    for path, t in ((l1_svm_path, y), (svm2_path, y), (lasso_path, target)):
        a, b = path(X, t), path(X, t, sample_weight=ones)
        for name in ("lams", "coefs", "intercepts"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
