"""Digests of the training data: whether a compiled problem or a warm start still applies."""

import hashlib

import numpy as np
import scipy.sparse as sp

__all__ = ["fingerprint", "signature"]

#: Entries of each array that :func:`signature` reads.
_SIGNATURE_SAMPLES = 4096


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
    accuracy: every answer is certified on the data itself."""
    digest = hashlib.blake2b(digest_size=16)
    for a in arrays:
        parts = (a.data, a.indices, a.indptr) if sp.issparse(a) else (np.asarray(a),)
        digest.update(repr((a.shape, getattr(a, "format", "dense"))).encode())
        for part in parts:
            flat = part.reshape(-1)
            step = max(1, flat.size // _SIGNATURE_SAMPLES)
            digest.update(np.ascontiguousarray(flat[::step]).view(np.uint8))
    return digest.hexdigest()
