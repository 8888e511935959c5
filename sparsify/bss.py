"""Deterministic single-set spectral sparsification (BSS): Algorithm 1 of 000.

Batson, Spielman & Srivastava's barrier method as stated for feature selection
by Paul & Drineas (000 sec. 4, Algorithm 1, Lemma 1) and Paul, Magdon-Ismail &
Drineas (001 sec. 3).

One iteration of Algorithm 1 is four steps, each a function or method below:

1. `_spectrum`: the eigendecomposition of the ell x ell matrix A, checked
   against the barriers, and whether to regularise (000 sec. 6.1);
2. `_Weights.compute`: the spectral weights of the barrier scores ``L(v)``,
   ``U(v)`` (000 sec. 4) for those eigenvalues;
3. `_choose`: sec. 6.1's admissible row (`_Rows.pick`) and its weight t;
4. `dsyr`: the rank-one update ``A += t v v'``, and `_Picks.add`.
"""

import math
from functools import cache
from numbers import Integral

import numpy as np
from scipy.linalg.blas import dsyr
from scipy.linalg.lapack import dsyev, dsyevd
from sklearn.utils._param_validation import Interval, validate_params

from ._dask import is_dask
from ._validation import check_n_select, check_orthonormal
from .selection import Selection
from .utils import one_blas_thread

__all__ = ["bss", "bss_bounds"]

# sec. 6.1 of 000 regularises A_tau when it is ill-conditioned; this is the
# condition number above which the regularised step is tried.
_ILL_CONDITIONED = 1e8
# Largest ell for which the QL iteration (dsyev) is the faster eigendecomposition.
_QL_LARGEST_ELL = 32
# Rows scored in the first block of a scan; each further block doubles, up to
# _BLOCK_ROWS (a block that stays in cache).
_FIRST_BLOCK_ROWS = 32
_BLOCK_ROWS = 1024
# Relative tolerance under which two squared row norms count as a tie, and the
# ratio of norms it means.
_TIE_RTOL = 1e-9
_TIE_NORM_RATIO = math.sqrt(1.0 - _TIE_RTOL)
# A row whose entries are all below this (zero or subnormal) counts as a zero
# row: rescaling it by 1/||v|| would overflow, and it adds less than 1e-600 to V'V.
_SMALLEST_ROW_ENTRY = np.finfo(np.float64).smallest_normal
# Below this norm a row's sum of squares may have lost digits to underflow.
_UNDERFLOW_NORM = math.sqrt(np.finfo(np.float64).smallest_normal / np.finfo(np.float64).eps)


@validate_params(
    {
        "ell": [Interval(Integral, 1, None, closed="left")],
        "r": [Interval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def bss_bounds(ell, r):
    """Eigenvalue bounds of Lemma 1 of 000: ``((1 - sqrt(ell/r))^2, (1 + sqrt(ell/r))^2)``.

    For the sampling-and-rescaling matrix R that `bss` returns after r
    iterations on a d x ell matrix V with orthonormal columns, every
    eigenvalue of ``V' R R' V`` lies in this interval (000 Lemma 1, the
    single-set case of Batson, Spielman & Srivastava); Lemma 2 of 000 follows:
    ``||I - V'RR'V||_2 <= 3 sqrt(ell/r)``.

    Parameters
    ----------
    ell : int
        Number of orthonormal columns of V, ell >= 1.
    r : int
        Number of BSS iterations, r > ell.

    Returns
    -------
    lower : float
        ``(1 - sqrt(ell/r))^2``, in (0, 1).
    upper : float
        ``(1 + sqrt(ell/r))^2``, in (1, 4).

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        ell or r not an int >= 1.
    ValueError
        r <= ell.
    TypeError
        ell or r a bool.

    See Also
    --------
    sparsify.bss : The selection these bounds hold for.
    sparsify.spectral_distortion : ``||I - V'RR'V||_2`` of a selection.
    sparsify.theory.bss_features : The r that Theorems 1-2 of 000 ask for.

    Examples
    --------
    >>> from sparsify import bss_bounds
    >>> bss_bounds(4, 16)  # sqrt(ell/r) = 1/2
    (0.25, 2.25)
    """
    ell = check_n_select(ell, name="ell", low=1, low_inclusive=True)
    r = check_n_select(r, name="r", low=ell)
    root = math.sqrt(ell / r)
    return (1.0 - root) ** 2, (1.0 + root) ** 2


def _barrier_offsets(r, ell, gamma):
    """The barriers of every iteration of Algorithm 1 (000 sec. 4): an r x 2 x 4 array.

    Parameters
    ----------
    r : int
        Number of iterations.
    ell : int
        Number of columns of V.
    gamma : float
        The regulariser of 000 sec. 6.1.

    Returns
    -------
    ndarray of shape (r, 2, 4)
        ``[tau, 0]`` is ``(L', U', L, U)`` with ``L = tau - sqrt(r ell)``,
        ``U = delta_U (tau + sqrt(r ell))``, ``L' = L + delta_L`` (delta_L = 1)
        and ``U' = U + delta_U``, ``delta_U = (1 + sqrt(ell/r)) / (1 - sqrt(ell/r))``
        (000 Algorithm 1). ``[tau, 1]`` is the same less gamma: the spectrum of
        ``A + gamma I`` (sec. 6.1) against the barriers is that of A against these.
    """
    root = math.sqrt(ell / r)
    delta_upper = (1.0 + root) / (1.0 - root)
    start = math.sqrt(r * ell)
    # Each barrier is slope * tau + intercept, tau = 0..r-1.
    slope = [1.0, delta_upper, 1.0, delta_upper]
    intercept = [1.0 - start, delta_upper * (start + 1.0), -start, delta_upper * start]
    intercept += [c - gamma for c in intercept]
    offsets = np.multiply.outer(np.arange(r, dtype=np.float64), np.array(slope * 2))
    offsets += np.array(intercept)
    return offsets.reshape(r, 2, 4)


@cache
def _step_matrix(ell):
    """Signs (a 4 ell x 2 matrix) taking a quadruple's rows of ``1/(offsets - lam)``.

    Laid end to end, the four rows of `_barrier_weights` (in the order
    ``L', U', L, U``) times this matrix are the steps
    ``(Phi(L', A) - Phi(L, A), Phi^(U, A) - Phi^(U', A))``.
    """
    M = np.zeros((4, ell, 2))
    M[[0, 2], :, 0] = [[-1.0], [1.0]]
    M[[1, 3], :, 1] = [[-1.0], [1.0]]
    M = M.reshape(4 * ell, 2)
    M.flags.writeable = False
    return M


class _Weights:
    """Workspace of the spectral weights of k barrier quadruples for ell eigenvalues.

    `compute` is `_barrier_weights` in six NumPy calls into preallocated
    arrays: BSS pays it at every iteration, where the arrays are tiny and the
    calls' fixed costs are the whole cost. The weights ``outer + outer**2 /
    step`` of each quadruple are one product: a 2k x 6k matrix, whose entries
    are 1 and the reciprocal steps, times the 6k rows of the squared outer
    rows (first) and the rows ``1/(offsets - lam)``.

    Parameters
    ----------
    k : int
        Number of barrier quadruples (1: A's own barriers; 2: also those of
        the regularised ``A + gamma I``, 000 sec. 6.1).
    ell : int
        Number of eigenvalues.
    """

    def __init__(self, k, ell):
        self._parts = np.empty((6 * k, ell))
        self._squares = self._parts[: 2 * k].reshape(k, 2, ell)
        self._inverse = self._parts[2 * k :]  # rows 1/(L' - lam), 1/(U' - lam), ... per quadruple
        self._inverse_flat = self._inverse.reshape(k, 4 * ell)
        self._outer = self._inverse.reshape(k, 4, ell)[:, :2]
        self._steps = np.empty((k, 2))
        self._steps_flat = self._steps.reshape(2 * k)
        # Row 2i + c of _combine (quadruple i; c = 0: w_L, 1: w_U) holds 1/step in
        # column 2i + c, the square of outer row c (the diagonal, set per call),
        # and 1 in column 2k + 4i + c, outer row c itself.
        self._combine = np.zeros((2 * k, 6 * k))
        self._inverse_steps = self._combine.reshape(-1)[:: 6 * k + 1]
        for row in range(2 * k):
            self._combine[row, 2 * k + 4 * (row // 2) + row % 2] = 1.0
        self._weights = np.empty((2 * k, ell))
        self.columns = self._weights.T
        self._step_matrix = _step_matrix(ell)

    def compute(self, lam, offsets):
        """The spectral weights of `_barrier_weights`, into the workspace.

        Parameters
        ----------
        lam : ndarray of shape (ell,)
            Eigenvalues of A.
        offsets : ndarray of shape (4k, 1)
            The barriers ``(L', U', L, U)`` of each quadruple, one after the other.

        Returns
        -------
        ndarray of shape (ell, 2k)
            The transposed weights (a view of the workspace): column 2i is
            ``w_L`` and column 2i + 1 ``w_U`` of quadruple i.
        """
        np.subtract(offsets, lam, out=self._inverse)
        np.reciprocal(self._inverse, out=self._inverse)
        np.dot(self._inverse_flat, self._step_matrix, out=self._steps)
        np.reciprocal(self._steps_flat, out=self._inverse_steps)
        np.square(self._outer, out=self._squares)
        np.dot(self._combine, self._parts, out=self._weights)
        return self.columns


def _barrier_weights(lam, offsets):
    """Spectral weights of the two barrier scores of Algorithm 1 (000 sec. 4).

    With ``A = Q diag(lam) Q'`` and ``z = Q'v``, a form ``v' f(A) v`` equals
    ``sum_j z_j^2 f(lam_j)``. The lower score
    ``L(v) = v'(A - L'I)^-2 v / (Phi(L', A) - Phi(L, A)) - v'(A - L'I)^-1 v`` and
    the upper score
    ``U(v) = v'(U'I - A)^-2 v / (Phi^(U, A) - Phi^(U', A)) + v'(U'I - A)^-1 v``
    are thus ``w_L @ z**2`` and ``w_U @ z**2``.

    The rows of ``1/(offsets - lam)`` are -1/(lam - L'), 1/(U' - lam),
    -1/(lam - L) and 1/(U - lam), whose sums are -Phi(L', A), Phi^(U', A),
    -Phi(L, A) and Phi^(U, A); then ``w = outer + outer**2 / step`` with
    ``outer`` the first two of these rows and ``step`` the differences above.

    Parameters
    ----------
    lam : ndarray of shape (ell,)
        Eigenvalues of A, enclosed by every quadruple's barriers.
    offsets : ndarray of shape (k, 4)
        k barrier quadruples ``(L', U', L, U)``.

    Returns
    -------
    ndarray of shape (2k, ell)
        Rows ``w_L, w_U`` of each quadruple.
    """
    return _Weights(len(offsets), lam.size).compute(lam, offsets.reshape(-1, 1)).T


def _eigh(A):
    """Ascending eigenvalues and eigenvectors of the symmetric A (its upper triangle).

    LAPACK's QL iteration (dsyev) up to _QL_LARGEST_ELL, its divide and
    conquer (dsyevd) above: for ell <= 25 dsyevd runs the same QL iteration
    after more set-up (dsyev 6% faster at ell = 10), at ell = 100 it is 1.8x
    faster than dsyev.
    """
    eigh = dsyev if A.shape[0] <= _QL_LARGEST_ELL else dsyevd
    lam, Q, info = eigh(A)
    if info != 0:
        raise np.linalg.LinAlgError(f"LAPACK's eigh failed (info={info}) on the BSS matrix A.")
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

    Parameters
    ----------
    V : ndarray of shape (d, ell)
        The rows to prepare.
    """

    def __init__(self, V):
        norms = np.sqrt(np.square(V) @ np.ones(V.shape[1]))
        # Where squares may have underflowed, scale the row by its largest entry
        # first. A row whose entries are all below the smallest normal float
        # counts as a zero row (its scale 2^-e would overflow).
        if norms.min() < _UNDERFLOW_NORM:
            small = np.flatnonzero(norms < _UNDERFLOW_NORM)
            biggest = np.abs(V[small]).max(axis=1)
            small, biggest = small[biggest > 0], biggest[biggest > 0]
            scaled = V[small] / biggest[:, None]
            norms[small] = biggest * np.sqrt(np.square(scaled) @ np.ones(V.shape[1]))
            norms[small[biggest < _SMALLEST_ROW_ENTRY]] = 0.0
        # Zero rows sort last and are dropped. The order within ties does not
        # matter: `pick` resolves ties by index.
        np.negative(norms, out=norms)
        order = np.argsort(norms)
        self.size = np.count_nonzero(norms)
        self.index = order[: self.size]  # original row of each sorted position
        self.norms = np.negative(norms[self.index])
        mantissa, self.exponent = np.frexp(self.norms)  # per sorted position
        self.U = np.take(V, self.index, axis=0)
        mantissa /= self.norms  # exactly 2^-e: a power of two
        np.multiply(self.U, mantissa[:, None], out=self.U)
        # tied_next[p]: sorted rows p and p + 1 have squared norms within _TIE_RTOL.
        self.tied_next = self.norms[1:] >= self.norms[:-1] * _TIE_NORM_RATIO
        self.fresh = np.ones(self.size, dtype=bool)
        self.first_fresh = 0
        self._block = np.empty((min(self.size, _BLOCK_ROWS), V.shape[1]))

    def scores(self, U, Q, HT):
        """The barrier scores of the rows of U: ``(z**2) @ HT`` with ``z = Q'u`` per row u.

        Parameters
        ----------
        U : ndarray of shape (b, ell)
            Rows, b <= _BLOCK_ROWS.
        Q : ndarray of shape (ell, ell)
            Eigenvectors of A.
        HT : ndarray of shape (ell, 2k)
            The weights of `_Weights.compute`.

        Returns
        -------
        ndarray of shape (b, 2k)
            The scores ``L(u), U(u)`` of each quadruple, per row.
        """
        W = np.dot(U, Q, out=self._block[: len(U)])
        np.square(W, out=W)
        return np.dot(W, HT)

    def pick(self, Q, HT, pair):
        """sec. 6.1's choice of row for the scores of one quadruple of HT.

        The choice: an admissible row (``U(u) <= L(u)``) not picked before, of
        largest norm; rows whose squared norms agree within _TIE_RTOL count as
        ties and go to the lowest original index. When every admissible row was
        picked before, the largest-norm admissible row is picked again (its
        weights merge later), which keeps Lemma 1. Rows are scored in blocks of
        doubling size, in sorted order, until the first admissible one.

        Parameters
        ----------
        Q : ndarray of shape (ell, ell)
            Eigenvectors of A.
        HT : ndarray of shape (ell, 2k)
            The weights of `_Weights.compute`.
        pair : int
            Which quadruple's scores decide (0: A's own, 1: the regularised one).

        Returns
        -------
        p : int
            The sorted position of the row, or -1 if no row is admissible.
        scores : list of float or None
            Its 2k scores (None if p = -1).
        """
        low, up = 2 * pair, 2 * pair + 1
        size, fresh = self.size, self.fresh
        for fresh_only in (True, False):
            lo = self.first_fresh if fresh_only else 0
            rows = _FIRST_BLOCK_ROWS
            while lo < size:
                hi = lo + rows  # slices stop at size
                scores = self.scores(self.U[lo:hi], Q, HT)
                pool = np.less_equal(scores[:, up], scores[:, low])
                j = int(pool.argmax())
                if fresh_only and pool[j] and not fresh[lo + j]:
                    # The first admissible row was picked before: mask the picked ones.
                    np.logical_and(pool, fresh[lo:hi], out=pool)
                    j = int(pool.argmax())
                if pool[j]:
                    p = lo + j
                    if p + 1 == size or not self.tied_next[p]:
                        return p, scores[j].tolist()
                    return self._lowest_index_tie(Q, HT, pair, p, scores[j], fresh_only)
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
        return int(best), best_scores.tolist()

    def closest(self, Q, HT):
        """The row of largest ``L(u) - U(u)`` for the first quadruple of HT (all rows scored).

        Parameters
        ----------
        Q : ndarray of shape (ell, ell)
            Eigenvectors of A.
        HT : ndarray of shape (ell, 2k)
            The weights of `_Weights.compute`.

        Returns
        -------
        p : int
            The sorted position of the row.
        scores : list of float
            Its 2k scores.
        """
        best, best_scores = -1, None
        for lo in range(0, self.size, _BLOCK_ROWS):
            scores = self.scores(self.U[lo : lo + _BLOCK_ROWS], Q, HT)
            j = int(np.argmax(scores[:, 0] - scores[:, 1]))
            if best < 0 or scores[j, 0] - scores[j, 1] > best_scores[0] - best_scores[1]:
                best, best_scores = lo + j, scores[j]
        return best, best_scores.tolist()

    def mark_picked(self, p):
        """Record the first pick of sorted row p."""
        self.fresh[p] = False
        while self.first_fresh < self.size and not self.fresh[self.first_fresh]:
            self.first_fresh += 1


class _Picks:
    """The picks so far, merged as they come (as `Selection.from_picks` merges them).

    Parameters
    ----------
    rows : _Rows
        The prepared rows the picks are sorted positions of.
    shrink_over_r : float
        ``(1 - sqrt(ell/r)) / r``: the factor from a pick's t to its squared
        scale (step 5 of 000 Algorithm 1, applied to the weights t that A
        accumulates).
    """

    def __init__(self, rows, shrink_over_r):
        self._rows = rows
        self._factor = shrink_over_r
        self._positions = []
        self._weights = []
        self._slot = {}  # sorted position -> its place in the picks

    def add(self, p, t):
        """Record a pick of sorted row p with weight t: a new feature or a merged repeat."""
        weight = t * self._factor
        slot = self._slot.get(p)
        if slot is None:
            self._slot[p] = len(self._positions)
            self._positions.append(p)
            self._weights.append(weight)
            self._rows.mark_picked(p)
        else:
            self._weights[slot] += weight

    def selection(self, d):
        """The Selection of the picks, with the rows' power-of-two scaling undone.

        Row v = 2^e u has weight 4^-e t_u, i.e. scale ``2^-e sqrt(t_u (1 - sqrt(ell/r)) / r)``.
        """
        rows = self._rows
        features = rows.index.take(self._positions)
        scales = np.sqrt(self._weights)
        scales *= np.ldexp(1.0, -rows.exponent.take(self._positions))
        return Selection._of_distinct(features, scales, d)


def _setup(V, r, gamma):
    """Checked V and r, and the barrier offsets and bounds of every iteration (both bss).

    Returns
    -------
    V : ndarray or dask.array.Array of shape (d, ell)
        V, checked (`check_orthonormal`).
    r : int
        r, checked (r > ell).
    offsets : ndarray of shape (r, 2, 4)
        `_barrier_offsets`.
    bounds : list
        ``bounds[tau][i]`` is ``(L', U)`` of quadruple i at iteration tau, as floats.
    """
    V = check_orthonormal(V)
    r = check_n_select(r, name="r", low=V.shape[1])
    if not (np.isfinite(gamma) and gamma >= 0):
        raise ValueError(f"gamma must be a finite float >= 0; got {gamma}.")
    offsets = _barrier_offsets(r, V.shape[1], gamma)
    return V, r, offsets, offsets[:, :, ::3].tolist()


def _spectrum(A, tau, bounds, gamma):
    """A's eigendecomposition at iteration tau, checked against its barriers (000 sec. 4, 6.1).

    Parameters
    ----------
    A : ndarray of shape (ell, ell)
        The matrix of Algorithm 1 (its upper triangle).
    tau : int
        The iteration.
    bounds : list
        ``((L', U), (L' - gamma, U - gamma))`` at iteration tau (`_setup`).
    gamma : float
        The regulariser of 000 sec. 6.1.

    Returns
    -------
    lam : ndarray of shape (ell,)
        Ascending eigenvalues.
    Q : ndarray of shape (ell, ell)
        Eigenvectors.
    regularise : bool
        Whether the step is tried on ``A + gamma I`` (000 sec. 6.1): cond(A) =
        lam_max / lam_min is above _ILL_CONDITIONED (A = 0, lam_max = 0, counts
        as ill-conditioned too) and the regularised barriers enclose lam + gamma.

    Raises
    ------
    RuntimeError
        If round-off put an eigenvalue outside the barriers (Algorithm 1 keeps
        ``L' < lam < U``, 000 sec. 4).
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


def _exact_t(scores):
    """Step 3 of 000 Algorithm 1: ``t = 1 / ((L(v) + U(v)) / 2)`` from A's scores.

    Parameters
    ----------
    scores : sequence of float
        ``L(v), U(v)``, then possibly the regularised ones.

    Returns
    -------
    float
    """
    return 1.0 / (0.5 * (scores[0] + scores[1]))


def _regularised_t(scores):
    """The t of the regularised step (000 sec. 6.1), or None where it breaks A's barriers.

    Parameters
    ----------
    scores : sequence of float
        ``L(v), U(v)`` of A, then those of ``A + gamma I``.

    Returns
    -------
    float or None
        ``t = 1 / ((L_gamma(v) + U_gamma(v)) / 2)`` if ``U(v) <= 1/t <= L(v)``
        (the barrier conditions of A itself, which Lemma 1 rests on), else None.
    """
    exact_L, exact_U, reg_L, reg_U = scores
    inv_t = 0.5 * (reg_L + reg_U)
    return 1.0 / inv_t if exact_U <= inv_t <= exact_L else None


def _choose(rows, lam, Q, offsets, regularise, weights):
    """Steps 2-3 of 000 Algorithm 1 with sec. 6.1's choice: the row and its t.

    Parameters
    ----------
    rows : _Rows
        The prepared rows of V.
    lam : ndarray of shape (ell,)
        Eigenvalues of A.
    Q : ndarray of shape (ell, ell)
        Eigenvectors of A.
    offsets : ndarray of shape (8, 1)
        The barriers ``(L', U', L, U)`` of A, then of ``A + gamma I``, at this iteration.
    regularise : bool
        Whether to try the regularised step first (`_spectrum`).
    weights : tuple of _Weights
        Workspaces for one quadruple and for two.

    Returns
    -------
    p : int
        Sorted position of the row.
    t : float
        Its weight in ``A += t u u'``.
    """
    exact, both = weights
    if regularise:
        HT = both.compute(lam, offsets)
        p, scores = rows.pick(Q, HT, pair=1)
        if p >= 0:
            t = _regularised_t(scores)
            if t is not None:
                return p, t
    else:
        HT = exact.compute(lam, offsets[:4])
    p, scores = rows.pick(Q, HT, pair=0)
    if p < 0:
        # Lemma 3.3-3.4 of BSS guarantee an admissible row; only round-off can
        # empty the set, and the closest row is then the right one.
        p, scores = rows.closest(Q, HT)
    return p, _exact_t(scores)


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
    small ell that is about fifteen small NumPy/LAPACK calls per iteration
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
        singular vectors of a data matrix X (n x d). A dask.array.Array
        chunked by rows runs the same algorithm on the cluster (docs/dask.md).
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
        If V is not orthonormal, r <= ell or gamma is not a finite float >= 0.
    TypeError
        If r is not an integer or V does not hold numbers.

    See Also
    --------
    sparsify.bss_bounds : The eigenvalue bounds of Lemma 1 that the result meets.
    sparsify.BSSSelector : BSS on the top right singular vectors of a data matrix.
    sparsify.leverage_sample : The randomized alternative (001 eq. 4).

    Examples
    --------
    >>> from sparsify import bss, bss_bounds
    >>> rng = np.random.default_rng(0)
    >>> V = np.linalg.qr(rng.standard_normal((50, 3)))[0]
    >>> sel = bss(V, 12)
    >>> sel.n_selected <= 12
    True
    >>> B = V[sel.indices].T * sel.scales  # V' R
    >>> eig = np.linalg.eigvalsh(B @ B.T)
    >>> lower, upper = bss_bounds(3, 12)
    >>> bool(lower <= eig.min() and eig.max() <= upper)  # Lemma 1 of 000
    True
    """
    if is_dask(V):  # V chunked by features on a Dask cluster (docs/dask.md)
        from ._dask_bss import bss_dask

        return bss_dask(V, r, gamma=gamma)
    V, r, offsets, bounds = _setup(V, r, gamma)
    d, ell = V.shape
    offsets = offsets.reshape(r, 8, 1)  # both quadruples' barriers, a column each
    weights = _Weights(1, ell), _Weights(2, ell)
    rows = _Rows(V)
    picks = _Picks(rows, (1.0 - math.sqrt(ell / r)) / r)
    A = np.zeros((ell, ell), order="F")  # upper triangle only, updated in place by dsyr
    with one_blas_thread():  # many small products: no thread wake-ups
        for tau in range(r):
            lam, Q, regularise = _spectrum(A, tau, bounds[tau], gamma)
            p, t = _choose(rows, lam, Q, offsets[tau], regularise, weights)
            dsyr(t, rows.U[p], 0, 1, 0, ell, A, 1)  # lower=0, incx=1, offx=0, n, a, overwrite_a
            picks.add(p, t)
    return picks.selection(d)
