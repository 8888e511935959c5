"""Deterministic single-set spectral sparsification (BSS): Algorithm 1 of 000.

Batson, Spielman & Srivastava's barrier method as stated for feature selection
by Paul & Drineas (000 sec. 4, Algorithm 1, Lemma 1) and Paul, Magdon-Ismail &
Drineas (001 sec. 3).
"""

import math
from contextlib import contextmanager
from functools import cache

import numpy as np
from scipy.linalg.blas import dsyr
from scipy.linalg.lapack import dsyevd
from threadpoolctl import ThreadpoolController

from ._dask import is_dask
from ._validation import check_n_select, check_orthonormal
from .selection import Selection

__all__ = ["bss", "bss_bounds"]

# sec. 6.1 of 000 regularises A_tau when it is ill-conditioned; this is the
# condition number above which the regularised step is tried.
_ILL_CONDITIONED = 1e8
# Rows scored in the first block of a scan; each further block doubles, up to
# _BLOCK_ROWS (a block that stays in cache).
_FIRST_BLOCK_ROWS = 32
_BLOCK_ROWS = 1024
# Relative tolerance under which two squared row norms count as a tie, and the
# ratio of norms it means.
_TIE_RTOL = 1e-9
_TIE_NORM_RATIO = np.sqrt(1.0 - _TIE_RTOL)
# A row whose entries are all below this (zero or subnormal) counts as a zero
# row: rescaling it by 1/||v|| would overflow, and it adds less than 1e-600 to V'V.
_SMALLEST_ROW_ENTRY = np.finfo(np.float64).smallest_normal
# Below this norm a row's sum of squares may have lost digits to underflow.
_UNDERFLOW_NORM = np.sqrt(np.finfo(np.float64).smallest_normal / np.finfo(np.float64).eps)


def bss_bounds(ell, r):
    """Lemma 1 of 000: the eigenvalue bounds ``((1 - sqrt(ell/r))^2, (1 + sqrt(ell/r))^2)``.

    For the R that `bss` returns, every eigenvalue of ``V' R R' V`` lies in
    this interval.

    Parameters
    ----------
    ell : int
        Number of orthonormal columns of V (ell >= 1).
    r : int
        Number of BSS iterations, r > ell.

    Returns
    -------
    lower, upper : float
    """
    ell = check_n_select(ell, name="ell", low=1, low_inclusive=True)
    r = check_n_select(r, name="r", low=ell)
    root = np.sqrt(ell / r)
    return (1.0 - root) ** 2, (1.0 + root) ** 2


@cache
def _blas_libraries():
    """threadpoolctl's controllers of the loaded BLAS libraries (found once: about 0.4 ms)."""
    return [lib for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas"]


@contextmanager
def _one_blas_thread():
    """Run BLAS on one thread inside the block (threadpoolctl's limit, without its overhead).

    Only the libraries running more than one thread are limited (and restored).
    """
    limited = []
    for lib in _blas_libraries():
        threads = lib.num_threads
        if threads > 1:
            lib.set_num_threads(1)
            limited.append((lib, threads))
    try:
        yield
    finally:
        for lib, threads in limited:
            lib.set_num_threads(threads)


def _barrier_offsets(r, ell, gamma):
    """The barriers of every iteration of Algorithm 1 (000 sec. 4): an r x 2 x 4 array.

    ``[tau, 0]`` is ``(L', L, U, U')`` with ``L = tau - sqrt(r ell)``,
    ``U = delta_U (tau + sqrt(r ell))``, ``L' = L + delta_L`` (delta_L = 1) and
    ``U' = U + delta_U``, ``delta_U = (1 + sqrt(ell/r)) / (1 - sqrt(ell/r))``.
    ``[tau, 1]`` is the same less gamma: the spectrum of ``A + gamma I``
    (sec. 6.1) against the barriers is that of A against these.
    """
    root = math.sqrt(ell / r)
    delta_upper = (1.0 + root) / (1.0 - root)
    start = math.sqrt(r * ell)
    # Each barrier is slope * tau + intercept, tau = 0..r-1.
    slope = np.array([1.0, 1.0, delta_upper, delta_upper])
    intercept = np.array([[1.0 - start, -start, delta_upper * start, delta_upper * (start + 1.0)]])
    tau = np.arange(r, dtype=np.float64)[:, None, None]
    return tau * slope + np.concatenate([intercept, intercept - gamma])


@cache
def _step_matrix(ell):
    """Signs (a 4 ell x 2 matrix) taking a quadruple's rows of ``1/(offsets - lam)``.

    Laid end to end, the four rows of `_barrier_weights` times this matrix are
    the steps ``(Phi(L', A) - Phi(L, A), Phi^(U, A) - Phi^(U', A))``.
    """
    M = np.zeros((4, ell, 2))
    M[:2, :, 0] = [[-1.0], [1.0]]
    M[2:, :, 1] = [[1.0], [-1.0]]
    M = M.reshape(4 * ell, 2)
    M.flags.writeable = False
    return M


class _Weights:
    """Workspace of the spectral weights of k barrier quadruples for ell eigenvalues.

    `compute` is `_barrier_weights` in six NumPy calls into preallocated
    arrays: BSS pays it at every iteration, where the arrays are tiny and the
    calls' fixed costs are the whole cost.
    """

    def __init__(self, k, ell):
        self.inverse = np.empty((k, 4, ell))
        self._flat = self.inverse.reshape(k, 4 * ell)
        self._outer = self.inverse[:, ::3]  # -1/(lam - L') and 1/(U' - lam)
        self._steps = np.empty((k, 2, 1))
        self._steps_2d = self._steps[:, :, 0]
        self.weights = np.empty((k, 2, ell))
        self.rows = self.weights.reshape(2 * k, ell)
        self.columns = self.rows.T
        self._step_matrix = _step_matrix(ell)

    def compute(self, lam, offsets):
        """The 2k x ell weights (`rows`) for the k x 4 x 1 barriers ``offsets``."""
        inverse = np.subtract(offsets, lam, out=self.inverse)
        np.reciprocal(inverse, out=inverse)
        np.dot(self._flat, self._step_matrix, out=self._steps_2d)
        weights = np.divide(self._outer, self._steps, out=self.weights)
        weights += 1.0
        weights *= self._outer
        return self.rows


def _barrier_weights(lam, offsets):
    """Spectral weights of the two barrier scores of Algorithm 1 (000 sec. 4).

    With ``A = Q diag(lam) Q'`` and ``z = Q'v``, a form ``v' f(A) v`` equals
    ``sum_j z_j^2 f(lam_j)``. The lower score
    ``L(v) = v'(A - L'I)^-2 v / (Phi(L', A) - Phi(L, A)) - v'(A - L'I)^-1 v`` and
    the upper score
    ``U(v) = v'(U'I - A)^-2 v / (Phi^(U, A) - Phi^(U', A)) + v'(U'I - A)^-1 v``
    are thus ``w_L @ z**2`` and ``w_U @ z**2``. For k barrier quadruples
    ``(L', L, U, U')`` (a k x 4 array) that enclose the spectrum lam, this
    returns the 2k x ell matrix of rows ``w_L, w_U`` of each.

    The rows of ``1/(offsets - lam)`` are -1/(lam - L'), -1/(lam - L),
    1/(U - lam) and 1/(U' - lam), whose sums are -Phi(L', A), -Phi(L, A),
    Phi^(U, A) and Phi^(U', A); then ``w = outer (1 + outer / step)`` with
    ``outer`` the first and last of these rows and ``step`` the differences above.
    """
    return _Weights(len(offsets), lam.size).compute(lam, offsets[..., None])


def _eigh(A):
    """Ascending eigenvalues and eigenvectors of the symmetric A (its upper triangle), dsyevd."""
    lam, Q, info = dsyevd(A)
    if info != 0:
        raise np.linalg.LinAlgError(f"dsyevd failed (info={info}) on the BSS matrix A.")
    return lam, Q


class _Rows:
    """The nonzero rows of V, sorted by decreasing norm and scaled by powers of two.

    Row i is stored as ``u_i = 2^-e_i v_i`` with ``||u_i||`` in [0.5, 1): the
    scaling is exact, and the barrier scores, homogeneous of degree 2 in v,
    neither underflow nor lose digits on rows of tiny norm. A step
    ``A += t_u u u'`` is the step ``A += t_v v v'`` of Algorithm 1 with
    ``t_v = 4^-e t_u``.

    Sorting (largest norm first) makes sec. 6.1's choice the first admissible
    row in this order (up to ties), so a pick usually scores a few rows, not
    all d of them.
    """

    def __init__(self, V):
        norms = np.sqrt(np.square(V) @ np.ones(V.shape[1]))
        # Where squares may have underflowed, scale the row by its largest entry
        # first. A row whose entries are all below the smallest normal float
        # counts as a zero row (its scale 2^-e would overflow).
        small = np.flatnonzero(norms < _UNDERFLOW_NORM)
        if small.size:
            biggest = np.abs(V[small]).max(axis=1)
            small, biggest = small[biggest > 0], biggest[biggest > 0]
            scaled = V[small] / biggest[:, None]
            norms[small] = biggest * np.sqrt(np.square(scaled) @ np.ones(V.shape[1]))
            norms[small[biggest < _SMALLEST_ROW_ENTRY]] = 0.0
        # Zero rows sort last and are dropped. The order within ties does not
        # matter: `pick` resolves ties by index.
        order = np.argsort(-norms)
        self.size = np.count_nonzero(norms)
        self.index = order[: self.size]  # original row of each sorted position
        mantissa, self.exponent = np.frexp(norms)
        self.norms = norms[self.index]
        self.U = np.take(V, self.index, axis=0)
        self.U *= (mantissa[self.index] / self.norms)[:, None]  # exactly 2^-e: a power of two
        # tied_next[p]: sorted rows p and p + 1 have squared norms within _TIE_RTOL.
        self.tied_next = self.norms[1:] >= self.norms[:-1] * _TIE_NORM_RATIO
        self.fresh = np.ones(self.size, dtype=bool)
        self.first_fresh = 0
        self._block = np.empty((min(self.size, _BLOCK_ROWS), V.shape[1]))

    def scores(self, U, Q, HT):
        """``(z**2) @ HT`` with ``z = Q'u`` for the rows u of U (at most _BLOCK_ROWS).

        With HT the transposed weights of `_barrier_weights`, the columns are
        the barrier scores ``L(u), U(u)`` of each pair.
        """
        W = np.dot(U, Q, out=self._block[: U.shape[0]])
        np.square(W, out=W)
        return np.dot(W, HT)

    def pick(self, Q, HT, pair):
        """sec. 6.1's choice for the scores of pair ``pair`` of HT: (sorted position, its scores).

        The choice: an admissible row (``U(u) <= L(u)``) not picked before, of
        largest norm; rows whose squared norms agree within _TIE_RTOL count as
        ties and go to the lowest original index. When every admissible row was
        picked before, the largest-norm admissible row is picked again (its
        weights merge later), which keeps Lemma 1. Rows are scored in blocks of
        doubling size, in sorted order, until the first admissible one.
        Returns (-1, None) when no row is admissible.
        """
        low, up = 2 * pair, 2 * pair + 1
        for fresh_only in (True, False):
            lo = self.first_fresh if fresh_only else 0
            rows = _FIRST_BLOCK_ROWS
            while lo < self.size:
                hi = min(lo + rows, self.size)
                scores = self.scores(self.U[lo:hi], Q, HT)
                pool = scores[:, up] <= scores[:, low]
                if fresh_only:
                    pool &= self.fresh[lo:hi]
                j = int(pool.argmax())
                if pool[j]:
                    if lo + j + 1 == self.size or not self.tied_next[lo + j]:
                        return lo + j, scores[j]
                    return self._lowest_index_tie(Q, HT, pair, lo + j, scores[j], fresh_only)
                lo, rows = hi, min(2 * rows, _BLOCK_ROWS)
        return -1, None

    def _lowest_index_tie(self, Q, HT, pair, p, p_scores, fresh_only):
        """Among the pool rows tied with sorted row p, the one of lowest original index.

        Only tied rows after p (rows before p are not in the pool) with a lower
        index than row p's can win, so only those are scored.
        """
        tie_end = np.searchsorted(-self.norms, -self.norms[p] * _TIE_NORM_RATIO, side="right")
        span = np.arange(p + 1, tie_end)
        contenders = span[self.index[span] < self.index[p]]
        if fresh_only:
            contenders = contenders[self.fresh[contenders]]
        best, best_scores = p, p_scores
        for start in range(0, contenders.size, _BLOCK_ROWS):
            block = contenders[start : start + _BLOCK_ROWS]
            scores = self.scores(self.U[block], Q, HT)
            admissible = np.flatnonzero(scores[:, 2 * pair + 1] <= scores[:, 2 * pair])
            if admissible.size:
                j = admissible[np.argmin(self.index[block[admissible]])]
                if self.index[block[j]] < self.index[best]:
                    best, best_scores = block[j], scores[j]
        return int(best), best_scores

    def closest(self, Q, HT):
        """The row of largest ``L(u) - U(u)`` for the first pair of HT (all rows scored)."""
        best, best_scores = -1, None
        for lo in range(0, self.size, _BLOCK_ROWS):
            scores = self.scores(self.U[lo : lo + _BLOCK_ROWS], Q, HT)
            j = int(np.argmax(scores[:, 0] - scores[:, 1]))
            if best < 0 or scores[j, 0] - scores[j, 1] > best_scores[0] - best_scores[1]:
                best, best_scores = lo + j, scores[j]
        return best, best_scores

    def mark_picked(self, p):
        """Record a pick of sorted row p."""
        self.fresh[p] = False
        while self.first_fresh < self.size and not self.fresh[self.first_fresh]:
            self.first_fresh += 1


def _setup(V, r, gamma):
    """Checked V and r, and the barrier offsets and bounds of every iteration (both bss)."""
    V = check_orthonormal(V)
    r = check_n_select(r, name="r", low=V.shape[1])
    if not (np.isfinite(gamma) and gamma >= 0):
        raise ValueError(f"gamma must be a finite float >= 0; got {gamma}.")
    offsets = _barrier_offsets(r, V.shape[1], gamma)
    # (L', U) of both quadruples of every iteration, as Python floats.
    return V, r, offsets, offsets[:, :, ::2].tolist()


def _spectrum(A, tau, bounds, gamma):
    """A's eigendecomposition at iteration tau, checked against its barriers.

    Returns the eigenvalues, the eigenvectors and whether the step is regularised
    (000 sec. 6.1): cond(A) = lam_max / lam_min is large (A = 0, lam_max = 0, counts
    as ill-conditioned too) and the regularised barriers enclose lam + gamma.
    """
    lam, Q = _eigh(A)
    lam_min, lam_max = float(lam[0]), float(lam[-1])
    (exact_low, exact_up), (reg_low, reg_up) = bounds
    if lam_min <= exact_low or lam_max >= exact_up:
        raise RuntimeError(
            f"BSS lost its barrier invariant at iteration {tau} (round-off); "
            "this should not happen for orthonormal V; please report it."
        )
    regularise = (
        gamma > 0
        and (lam_max == 0 or lam_min * _ILL_CONDITIONED < lam_max)
        and reg_low < lam_min
        and lam_max < reg_up
    )
    return lam, Q, regularise


def bss(V, r, *, gamma=0.01):
    """Select r columns of V' by single-set spectral sparsification (Algorithm 1 of 000).

    For tau = 0..r-1 with barriers ``L_tau = tau - sqrt(r ell)`` and
    ``U_tau = delta_U (tau + sqrt(r ell))``, ``delta_L = 1``,
    ``delta_U = (1 + sqrt(ell/r)) / (1 - sqrt(ell/r))``, pick a row v_i of V with
    ``U(v_i) <= L(v_i)``, set ``1/t = (U(v_i) + L(v_i)) / 2`` and update
    ``A += t v_i v_i'``. Afterwards every eigenvalue of A lies in
    ``(r - sqrt(r ell), delta_U (r + sqrt(r ell)))``, so with the rescaling
    ``sqrt(t) * sqrt((1 - sqrt(ell/r)) / r)`` per pick (step 5 of Algorithm 1
    applied to the weights t that A accumulates), Lemma 1 holds:
    ``(1 - sqrt(ell/r))^2 <= eig(V' R R' V) <= (1 + sqrt(ell/r))^2``.

    Implementation notes (000 sec. 6.1), each kept only where it keeps Lemma 1:

    * Choice of column: among the admissible rows, the one not picked before
      with the largest Euclidean norm (ties within 1e-9 relative: the lowest
      index). Zero rows are never picked. When every admissible row was picked
      before (always the case once r > d), a picked row is taken again and its
      weights merge into one index with scale
      ``sqrt(sum of its t) * sqrt((1 - sqrt(ell/r)) / r)``.
    * Ill-conditioning: while A_tau is ill-conditioned (condition number above
      1e8, e.g. the singular A_0 = 0), the step is first computed on the
      regularised ``A_tau + gamma I`` as the paper does. That step is kept only
      if its (i, t) also satisfies the barrier conditions of the true A_tau;
      otherwise the unregularised step is taken. A itself is never shifted, so
      the bound is never traded for conditioning.
    * Tiny rows: ``L(v)``, ``U(v)`` and ``1/t`` are homogeneous of degree 2 in
      v, so every row is scored as ``2^-e v`` with its norm in
      [0.5, 1) (an exact scaling) and its t scaled back by ``4^-e``. A row of
      norm 1e-160, whose squares underflow, is scored as accurately as any
      other. A row with no entry of at least the smallest normal float (about
      2.2e-308) counts as a zero row: its scale would overflow, and it adds
      less than 1e-600 to V'V.

    Cost per iteration: one ell x ell eigendecomposition, and the barrier
    scores of the rows in decreasing order of norm, in blocks of 32, 64, ...
    up to 1024 rows (each one (rows x ell)(ell x ell) product, squared and
    multiplied by the ell spectral weights), until the first admissible row
    not picked before: often in the first block, all d rows at worst. At
    small ell that is about twenty small NumPy/LAPACK calls per iteration
    (the eigendecomposition, six for the spectral weights into preallocated
    arrays, the scan of the first block, a rank-one update), whose fixed costs
    are most of the time. Memory O(d ell): one scaled, sorted copy of V. BLAS
    runs on one thread: every product is small, and threads only contend
    there (up to 50x slower on a loaded 2-core machine). The result is
    bit-identical across runs.

    Parameters
    ----------
    V : array of shape (d, ell)
        Orthonormal columns (||V'V - I||_2 <= 1e-8), e.g. the top right
        singular vectors of a data matrix X (n x d).
    r : int
        Number of iterations (picks), r > ell. r may exceed d: features are
        then picked again and merged.
    gamma : float, default=0.01
        The regulariser of 000 sec. 6.1 (see above); 0 disables it.

    Returns
    -------
    Selection
        Distinct features in the order first picked, with their scales; at
        most min(r, d) features.

    Raises
    ------
    ValueError
        If V is not orthonormal or r <= ell.
    """
    if is_dask(V):  # V chunked by features on a Dask cluster (docs/dask.md)
        from ._dask_bss import bss_dask

        return bss_dask(V, r, gamma=gamma)
    V, r, offsets, bounds = _setup(V, r, gamma)
    d, ell = V.shape
    root = np.sqrt(ell / r)
    offsets = offsets[..., None]  # broadcasts against the eigenvalues
    exact, both = _Weights(1, ell), _Weights(2, ell)
    rows = _Rows(V)
    # Repeated picks merge as they come (as Selection.from_picks merges them):
    # slot[p] is sorted row p's place in picks, weights its squared scale so far.
    shrink = 1.0 - root
    picks, weights, slot = [], [], {}
    A = np.zeros((ell, ell), order="F")  # upper triangle only, updated in place by dsyr

    with _one_blas_thread():
        for tau in range(r):
            lam, Q, regularise = _spectrum(A, tau, bounds[tau], gamma)
            p = -1
            if regularise:
                both.compute(lam, offsets[tau])
                HT = both.columns
                p, scores = rows.pick(Q, HT, pair=1)
                if p >= 0:
                    exact_L, exact_U, reg_L, reg_U = scores.tolist()
                    inv_t = 0.5 * (reg_L + reg_U)
                    if not (exact_U <= inv_t <= exact_L):
                        p = -1
            else:
                exact.compute(lam, offsets[tau, :1])
                HT = exact.columns
            if p < 0:
                p, scores = rows.pick(Q, HT, pair=0)
                if p < 0:
                    # Lemma 3.3-3.4 of BSS guarantee an admissible row; only round-off
                    # can empty the set, and the closest row is then the right one.
                    p, scores = rows.closest(Q, HT)
                inv_t = 0.5 * (scores[0] + scores[1])
            t = 1.0 / inv_t
            dsyr(t, rows.U[p], a=A, overwrite_a=True)
            weight = t * shrink / r
            if p in slot:
                weights[slot[p]] += weight
            else:
                slot[p] = len(picks)
                picks.append(p)
                weights.append(weight)
                rows.mark_picked(p)

    # Undo the scaling of the rows: v = 2^e u has weight 4^-e t_u, i.e. scale
    # 2^-e sqrt(t_u (1 - sqrt(ell/r)) / r).
    features = rows.index[picks]
    scales = np.sqrt(weights)
    scales *= np.ldexp(1.0, -rows.exponent[features])
    return Selection._of_distinct(features, scales, d)
