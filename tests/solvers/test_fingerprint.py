"""The warm starts' data digest (``solvers._fingerprint.signature``): equal for equal
data, different when any one entry of small data changes, and no copy of X."""

import tracemalloc

import numpy as np
import scipy.sparse as sp

from solvers._fingerprint import signature


def test_signature_sees_every_entry_of_small_data():
    X = sp.random(40, 30, density=0.2, format="csr", random_state=0)
    y = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
    s = np.ones(40)
    key = signature(X, y, s)
    assert signature(X.copy(), y.copy(), s.copy()) == key
    seen = {key}
    for k in range(X.nnz):
        changed = X.copy()
        changed.data[k] = np.nextafter(changed.data[k], np.inf)  # one bit of one entry
        seen.add(signature(changed, y, s))
    flipped = y.copy()
    flipped[7] = -flipped[7]
    seen.add(signature(X, flipped, s))
    weighted = s.copy()
    weighted[3] = 2.0
    seen.add(signature(X, y, weighted))
    moved = X.copy()
    moved.indices[0] = (moved.indices[0] + 1) % 30
    seen.add(signature(moved, y, s))
    assert len(seen) == X.nnz + 4
    assert signature(X.toarray(), y, s) != key  # dense and sparse are told apart


def test_signature_copies_no_dense_x():
    X = np.asfortranarray(np.random.default_rng(0).standard_normal((2000, 500)))  # 8 MB
    y = np.ones(2000)
    tracemalloc.start()
    signature(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < X.nbytes / 20
