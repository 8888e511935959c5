"""BSS (Algorithm 1 of 000) on a Dask V too large for one machine, chunked by features.

The d x ell matrix V is cut into chunks of rows (features); each chunk is
prepared once as `sparsify.bss` prepares V (`sparsify.bss._Rows`: nonzero rows,
scaled by powers of two) and persisted on a worker. The client keeps what is
small: the ell x ell matrix A and the picks. Each iteration is

* one map: the client sends the eigenvectors Q of A and the spectral weights of
  the barriers (ell x ell and ell x 4, `sparsify.bss._barrier_weights`) to every
  chunk, which scores all its rows (the barrier quadratic forms ``L(v)``,
  ``U(v)`` of 000 sec. 4) and keeps its candidates for each choice bss may make;
* one reduce: a tree of tasks merges the candidates, and the client takes
  bss's choice among them (the same rule and tie-break) and updates A.

The choice of `sparsify.bss` (000 sec. 6.1) is the admissible row not picked
before of largest norm, ties (norms within 1e-9 relative) to the lowest index.
It depends on the set of admissible rows only, not on the order they are
scored in: among the admissible rows of a chunk, the candidates are those whose
norm is within the tie tolerance of the chunk's largest; merging two sets keeps
those within the tolerance of the larger maximum. The pick, its scores and its
row are those in-memory bss computes, so the picks are the same and the weights
agree to rounding (BLAS may order the sums of a product differently for a
chunk of rows than for the block of rows in-memory bss scores: about 1e-16
relative).
"""

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.linalg.blas import dsyr

from .bss import (
    _BLOCK_ROWS,
    _TIE_NORM_RATIO,
    _barrier_weights,
    _exact_t,
    _regularised_t,
    _Rows,
    _setup,
    _spectrum,
)
from .selection import Selection
from .utils import one_blas_thread

__all__ = ["bss_dask"]

# Candidate sets merged per task of the reduce.
_SPLIT_EVERY = 8


class _Chunk:
    """Rows ``start, start + 1, ...`` of V, prepared as `sparsify.bss` prepares V."""

    def __init__(self, block, start):
        self.rows = _Rows(block.toarray() if sp.issparse(block) else np.asarray(block))
        self.feature = self.rows.index + start  # feature (row of V) of each prepared row
        self.exponent = self.rows.exponent


def _ties(norm, pool):
    """Mask of the rows of the pool whose norms are within the tie tolerance of its largest."""
    if not pool.any():
        return pool
    return pool & (norm >= norm[pool].max() * _TIE_NORM_RATIO)


class _Rowset(NamedTuple):
    """Rows of V with what the client needs to pick one: feature, norm, scores, scaled row."""

    feature: np.ndarray
    norm: np.ndarray
    scores: np.ndarray
    u: np.ndarray
    exponent: np.ndarray

    def take(self, keep):
        return _Rowset(*(a[keep] for a in self))

    @staticmethod
    def concat(sets):
        return _Rowset(*(np.concatenate(arrays) for arrays in zip(*sets, strict=True)))

    def ties(self, pool=None):
        """The rows of the pool (default: all) tied for the largest norm (bss's candidates)."""
        return self.take(_ties(self.norm, np.ones(self.norm.size, bool) if pool is None else pool))

    def lowest_feature(self):
        """The row of lowest feature index, as a _Rowset of one row, or None if empty."""
        if self.feature.size == 0:
            return None
        return self.take(slice(j := int(np.argmin(self.feature)), j + 1))


def _candidates(chunk, Q, HT, picked):
    """The map: a chunk's candidates for every choice of one iteration of bss.

    For each pair of HT's barrier scores and for the rows not picked before
    (``fresh``) or all rows, the admissible rows (``U(v) <= L(v)``) tied for the
    largest norm; and the row of largest ``L(v) - U(v)`` for the first pair,
    bss's fallback when no row is admissible (exact ties, which round-off makes
    unlikely, go to the lowest index). ``picked``: the features picked so far.
    """
    rows = chunk.rows
    scores = np.concatenate(
        [
            rows.scores(rows.U[lo : lo + _BLOCK_ROWS], Q, HT)
            for lo in range(0, rows.size, _BLOCK_ROWS)
        ]
        or [np.empty((0, HT.shape[1]))]
    )
    everything = _Rowset(chunk.feature, rows.norms, scores, rows.U[: rows.size], chunk.exponent)
    fresh = ~np.isin(chunk.feature, picked)
    choices = {}
    for pair in range(HT.shape[1] // 2):
        admissible = scores[:, 2 * pair + 1] <= scores[:, 2 * pair]
        choices[pair, True] = everything.ties(admissible & fresh)
        choices[pair, False] = everything.ties(admissible)
    margin = scores[:, 0] - scores[:, 1]
    closest = everything.take(margin == margin.max()) if rows.size else everything
    return choices, closest.lowest_feature() or closest


def _merge(parts):
    """The reduce: candidates of several chunks as if they were one chunk."""
    choices = {
        key: _Rowset.concat([choice[key] for choice, _ in parts]).ties() for key in parts[0][0]
    }
    closest = _Rowset.concat([c for _, c in parts])
    margin = closest.scores[:, 0] - closest.scores[:, 1]
    if margin.size:
        closest = closest.take(margin == margin.max()).lowest_feature()
    return choices, closest


def _iteration(chunks, Q, HT, picked):
    """One map over the persisted chunks and one tree reduce; the merged candidates."""
    import dask

    shared = [dask.delayed(a) for a in (Q, HT, picked)]
    candidates = dask.delayed(_candidates)
    parts = [candidates(chunk, *shared) for chunk in chunks]
    merge = dask.delayed(_merge)
    while len(parts) > 1:
        parts = [merge(parts[i : i + _SPLIT_EVERY]) for i in range(0, len(parts), _SPLIT_EVERY)]
    return dask.compute(parts[0])[0]


def _pick(choices, pair):
    """bss's choice for a pair: the fresh candidates first, then any (None if neither)."""
    return choices[pair, True].lowest_feature() or choices[pair, False].lowest_feature()


def bss_dask(V, r, *, gamma=0.01):
    """`sparsify.bss` on a Dask V (d x ell, chunked by rows): the same picks and weights.

    The weights agree to rounding (see the module docstring).

    V's chunks are prepared and persisted on the workers; each of the r
    iterations is one map over the chunks (the barrier scores of all their rows
    for the broadcast eigendecomposition of the ell x ell matrix A) and one
    reduce (the best admissible candidate, bss's tie-break); see the module
    docstring. A worker holds its chunks of V, scaled (8 d_c ell bytes each);
    the client holds A and the r picks. Each iteration scores every row, where
    in-memory bss stops at the first admissible row of largest norm: the Dask
    version pays d ell^2 flops per iteration, spread over the workers.

    If a worker is lost, the scheduler recomputes its chunks from V's graph and
    the run goes on; if it cannot (e.g. V's chunks lived only on that worker),
    the error is raised: a run never returns a partial result.

    Parameters
    ----------
    V : dask.array.Array of shape (d, ell)
        Orthonormal columns (||V'V - I||_2 <= 1e-8, checked by one map-reduce),
        chunked by rows; chunks dense or sparse.
    r : int
        Number of iterations, r > ell.
    gamma : float, default=0.01
        The regulariser of 000 sec. 6.1, as in `sparsify.bss`.

    Returns
    -------
    Selection
        The selection `sparsify.bss` returns for ``V.compute()``.

    Raises
    ------
    ValueError
        If V is not orthonormal, r <= ell or gamma is not a finite float >= 0.
    TypeError
        If r is not an integer.

    See Also
    --------
    sparsify.bss : The in-memory version, whose helpers this one calls.

    Examples
    --------
    >>> import dask.array as da
    >>> from sparsify import bss
    >>> from sparsify._dask_bss import bss_dask
    >>> V = np.linalg.qr(np.random.default_rng(0).standard_normal((40, 3)))[0]
    >>> sel = bss_dask(da.from_array(V, chunks=(10, -1)), 8)
    >>> bool(np.array_equal(sel.indices, bss(V, 8).indices))
    True
    """
    import dask

    V, r, offsets, bounds = _setup(V, r, gamma)
    d, ell = V.shape
    root = np.sqrt(ell / r)
    starts = np.cumsum((0,) + V.chunks[0][:-1]).tolist()
    blocks = V.to_delayed()[:, 0]
    chunks = dask.persist(*map(dask.delayed(_Chunk), blocks, starts))

    picks = np.empty(r, dtype=np.intp)
    weights = np.empty(r)
    exponents = np.empty(r, dtype=np.intp)
    A = np.zeros((ell, ell), order="F")  # upper triangle only, updated in place by dsyr
    with one_blas_thread():
        for tau in range(r):
            lam, Q, regularise = _spectrum(A, tau, bounds[tau], gamma)
            HT = _barrier_weights(lam, offsets[tau] if regularise else offsets[tau, :1]).T
            choices, closest = _iteration(chunks, Q, HT, np.unique(picks[:tau]))
            pick = _pick(choices, 1) if regularise else None
            t = None if pick is None else _regularised_t(pick.scores[0].tolist())
            if t is None:
                pick = _pick(choices, 0) or closest
                t = _exact_t(pick.scores[0].tolist())
            dsyr(t, pick.u[0], a=A, overwrite_a=True)
            picks[tau], weights[tau], exponents[tau] = pick.feature[0], t, pick.exponent[0]

    factors = np.ones(d)
    factors[picks] = np.ldexp(1.0, -exponents)
    return Selection.from_picks(picks, weights * (1.0 - root) / r, d, factors=factors)
