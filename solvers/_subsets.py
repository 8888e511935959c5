"""The first working set of samples: a fixed subset with both classes in proportion.

The hinge-loss models solve on a growing set of samples, in memory
(:mod:`solvers.backends._working_sets`) and on a Dask X (:mod:`solvers._dask_models`);
both start from this subset.
"""

import numpy as np

__all__ = ["balanced_subset"]


def balanced_subset(y, size):
    """A fixed pseudo-random subset of ``size`` samples with both classes in proportion."""
    rng = np.random.default_rng(0)
    picks = []
    for label in (-1.0, 1.0):
        members = np.flatnonzero(y == label)
        take = min(members.size, max(1, round(size * members.size / y.size)))
        picks.append(rng.choice(members, take, replace=False))
    return np.sort(np.concatenate(picks))
