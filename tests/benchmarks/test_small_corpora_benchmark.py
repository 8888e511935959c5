"""The small-corpora benchmark on a small task (no timing asserted)."""

import numpy as np

from benchmarks import small_corpora
from solvers import L1SVM
from sparsify.datasets import make_text_tasks


def _l1_svm_objective(X, y, coef, intercept, lam):
    hinge = np.maximum(0.0, 1.0 - y * (X @ coef + intercept))
    return hinge.sum() + lam * np.abs(coef).sum()


def test_linprog_peer_solves_the_same_lp_and_every_side_is_timed():
    task = make_text_tasks(pairs=[("games", "science")], n_per_class=20)[0]
    X, y = task.X, np.where(task.y > 0, 1.0, -1.0)
    peer = small_corpora.LinprogL1SVM(lam=0.5).fit(X, y)
    ours = L1SVM(lam=0.5).fit(X, y)
    # 004 eq. 6 written out: HiGHS's optimum and ours agree.
    expected = _l1_svm_objective(X, y, peer.coef_, peer.intercept_, 0.5)
    found = _l1_svm_objective(X, y, ours.coef_.ravel(), ours.intercept_[0], 0.5)
    assert abs(found - expected) <= 1e-6 * max(1.0, expected)
    names = [case[0] for case in small_corpora.cases(X.shape[0])]
    assert len(names) == len(set(names)) == 10
    for name, est, other, param, peer_param in small_corpora.cases(X.shape[0]):
        if name in ("SVMDual", "L1SVM"):
            seconds = small_corpora.measure(est, other, param, peer_param, X, y, repeats=2)
            assert set(seconds) == {(s, p) for s in ("ours", "peer") for p in ("first", "refit")}
            assert all(value >= 0.0 for value in seconds.values())
