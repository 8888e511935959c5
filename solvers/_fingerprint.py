"""Digests of the training data: whether a compiled problem or a warm start still applies."""

import hashlib

import numpy as np
import scipy.sparse as sp

__all__ = ["fingerprint", "signature"]

#: Entries of each array that :func:`signature` reads.
_SIGNATURE_SAMPLES = 4096
#: Odd 64-bit multipliers of the entries :func:`signature` reads, one per entry.
_MULTIPLIERS = np.random.default_rng(20261128).integers(
    0, 2**63, _SIGNATURE_SAMPLES, dtype=np.uint64
) * np.uint64(2) + np.uint64(1)


def fingerprint(*arrays):
    """A digest of all the training data, to tell whether a compiled problem still applies."""
    digest = hashlib.blake2b(digest_size=16)
    for a in arrays:
        parts = (a.data, a.indices, a.indptr) if sp.issparse(a) else (np.ascontiguousarray(a),)
        digest.update(repr((a.shape, getattr(a, "format", "dense"))).encode())
        for part in parts:
            digest.update(np.ascontiguousarray(part).view(np.uint8))
    return digest.hexdigest()


def signature(*arrays):
    """A cheap digest of the data (shapes and at most 4096 evenly spaced entries of each
    array): whether a warm start is likely to fit. A wrong guess costs time, never
    accuracy: every answer is certified on the data itself.

    The entries read are summed as 64-bit words, each times its own odd multiplier
    (modulo 2^64: a change of any one of them changes the sum), and the sums hashed
    with the shapes: 21 us where hashing the same entries' bytes took 89 (a 200 x 2211
    CSR, its labels and weights; the digest is computed once per fit).
    """
    digest = hashlib.blake2b(digest_size=16)
    sums = []
    for a in arrays:
        parts = (a.data, a.indices, a.indptr) if sp.issparse(a) else (np.asarray(a),)
        digest.update(repr((a.shape, getattr(a, "format", "dense"))).encode())
        for part in parts:
            flat = np.ravel(part, order="K")  # no copy of a contiguous array, C or F
            taken = flat[:: max(1, -(-flat.size // _SIGNATURE_SAMPLES))]
            if taken.dtype.itemsize != 8 or taken.dtype.kind not in "fiu":
                taken = taken.astype(np.int64 if taken.dtype.kind in "biu" else np.float64)
            words = taken.view(np.uint64)
            sums.append(np.dot(words, _MULTIPLIERS[: words.size]))  # wraps modulo 2^64
    digest.update(np.array(sums, dtype=np.uint64).tobytes())
    return digest.hexdigest()
