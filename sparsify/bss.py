"""Deterministic single-set spectral sparsification (BSS): Algorithm 1 of 000.

Batson, Spielman & Srivastava's barrier method as stated for feature selection
by Paul & Drineas (000 sec. 4, Algorithm 1, Lemma 1) and Paul, Magdon-Ismail &
Drineas (001 sec. 3).
"""

import numpy as np
from threadpoolctl import ThreadpoolController

from ._validation import check_n_select, check_orthonormal
from .selection import Selection

__all__ = ["bss", "bss_bounds"]

# sec. 6.1 of 000 regularises A_tau when it is ill-conditioned; this is the
# condition number above which the regularised step is tried.
_ILL_CONDITIONED = 1e8
# Rows per cache block in the per-iteration product.
_BLOCK_ROWS = 1024
# Relative tolerance under which two squared row norms count as a tie.
_TIE_RTOL = 1e-9


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


def _barrier_weights(lam, lower, upper, delta_upper):
    """Spectral weights of the four barrier quadratic forms of Algorithm 1 (000 sec. 4).

    With ``A = Q diag(lam) Q'``, the form ``v' f(A) v`` equals
    ``sum_j (v'Q)_j^2 f(lam_j)``. The lower score is
    ``L(v) = v'(A - L'I)^-2 v / (Phi(L', A) - Phi(L, A)) - v'(A - L'I)^-1 v`` and
    the upper score
    ``U(v) = v'(U'I - A)^-2 v / (Phi^(U, A) - Phi^(U', A)) + v'(U'I - A)^-1 v``
    with L' = L + 1 and U' = U + delta_U; this returns the ell x 4 matrix of
    ``f(lam)`` columns and the two potential differences.

    Returns None where the barriers do not enclose the spectrum (the scores are
    then meaningless).
    """
    gap_low = lam - (lower + 1.0)
    gap_up = (upper + delta_upper) - lam
    if np.any(gap_low <= 0) or np.any(lam >= upper):
        return None
    phi_low_step = np.sum(1.0 / gap_low) - np.sum(1.0 / (lam - lower))
    phi_up_step = np.sum(1.0 / (upper - lam)) - np.sum(1.0 / gap_up)
    weights = np.column_stack([gap_low**-2, 1.0 / gap_low, gap_up**-2, 1.0 / gap_up])
    return weights, phi_low_step, phi_up_step


def _scores(forms, phi_low_step, phi_up_step):
    """(L(v_i), U(v_i)) for every row from its four quadratic forms."""
    return (
        forms[:, 0] / phi_low_step - forms[:, 1],
        forms[:, 2] / phi_up_step + forms[:, 3],
    )


def _quadratic_forms(V, Q, F, block):
    """``((V Q)**2) F`` computed in row blocks that stay in cache.

    This is the one (d x ell)(ell x ell) product of an iteration, with the
    squaring and the small product by F fused into it block by block.
    """
    d = V.shape[0]
    rows = block.shape[0]
    forms = np.empty((d, F.shape[1]))
    for start in range(0, d, rows):
        stop = min(start + rows, d)
        W = block[: stop - start]
        np.matmul(V[start:stop], Q, out=W)
        np.square(W, out=W)
        np.matmul(W, F, out=forms[start:stop])
    return forms


def _pick(lower_scores, upper_scores, norms2, picked):
    """Index of sec. 6.1's choice: admissible, not picked before, largest norm.

    Admissible means ``U(v_i) <= L(v_i)`` and ``v_i != 0``. When every
    admissible row was picked before, the largest-norm admissible row is picked
    again (its weights merge later), which keeps Lemma 1. Returns -1 when no row
    is admissible.
    """
    admissible = (upper_scores <= lower_scores) & (norms2 > 0)
    if not admissible.any():
        return -1
    fresh = admissible & ~picked
    pool = fresh if fresh.any() else admissible
    # Norms equal up to round-off count as ties and go to the lowest index, so
    # that the same V computed two ways (dense or sparse SVD) picks the same rows.
    largest = pool & (norms2 >= norms2[pool].max() * (1.0 - _TIE_RTOL))
    return int(np.argmax(largest))


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
      with the largest Euclidean norm (ties: the lowest index). Zero rows are
      never picked. When every admissible row was picked before (always the
      case once r > d), a picked row is taken again and its weights merge into
      one index with scale ``sqrt(sum of its t) * sqrt((1 - sqrt(ell/r)) / r)``.
    * Ill-conditioning: while A_tau is ill-conditioned (condition number above
      1e8, e.g. the singular A_0 = 0), the step is first computed on the
      regularised ``A_tau + gamma I`` as the paper does. That step is kept only
      if its (i, t) also satisfies the barrier conditions of the true A_tau;
      otherwise the unregularised step is taken. A itself is never shifted, so
      the bound is never traded for conditioning.

    Cost per iteration: one ell x ell eigendecomposition and one
    (d x ell)(ell x ell) product V Q, squared and multiplied by the ell x 4 (or
    ell x 8 while regularising) spectral weights block by block in cache, which
    gives all four barrier quadratic forms of all d rows; memory O(d ell).

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
    V = check_orthonormal(V)
    d, ell = V.shape
    r = check_n_select(r, name="r", low=ell)
    if not (np.isfinite(gamma) and gamma >= 0):
        raise ValueError(f"gamma must be a finite float >= 0; got {gamma}.")
    root = np.sqrt(ell / r)
    delta_upper = (1.0 + root) / (1.0 - root)
    sqrt_r_ell = np.sqrt(r * ell)
    norms2 = np.einsum("ij,ij->i", V, V)
    picked = np.zeros(d, dtype=bool)
    picks = np.empty(r, dtype=np.intp)
    weights = np.empty(r)
    A = np.zeros((ell, ell))
    block = np.empty((min(d, _BLOCK_ROWS), ell))
    # The ell x ell eigendecomposition is many small BLAS calls: threads only
    # contend there (up to 50x slower on a loaded 2-core machine), so it runs on one.
    blas = ThreadpoolController()

    for tau in range(r):
        lower = tau - sqrt_r_ell
        upper = delta_upper * (tau + sqrt_r_ell)
        with blas.limit(limits=1, user_api="blas"):
            lam, Q = np.linalg.eigh(A)
        exact = _barrier_weights(lam, lower, upper, delta_upper)
        if exact is None:
            raise RuntimeError(
                f"BSS lost its barrier invariant at iteration {tau} (round-off); "
                "this should not happen for orthonormal V; please report it."
            )
        # cond(A) = lam_max / lam_min; A = 0 (lam_max = 0) counts as ill-conditioned too.
        ill_conditioned = gamma > 0 and (lam[-1] == 0 or lam[0] * _ILL_CONDITIONED < lam[-1])
        regularised = (
            _barrier_weights(lam + gamma, lower, upper, delta_upper) if ill_conditioned else None
        )
        F = exact[0] if regularised is None else np.hstack([exact[0], regularised[0]])
        forms = _quadratic_forms(V, Q, F, block)
        low_s, up_s = _scores(forms[:, :4], *exact[1:])
        i = -1
        if regularised is not None:
            reg_low, reg_up = _scores(forms[:, 4:], *regularised[1:])
            i = _pick(reg_low, reg_up, norms2, picked)
            if i >= 0:
                inv_t = 0.5 * (reg_low[i] + reg_up[i])
                if not (up_s[i] <= inv_t <= low_s[i]):
                    i = -1
        if i < 0:
            i = _pick(low_s, up_s, norms2, picked)
            if i < 0:
                # Lemma 3.3-3.4 of BSS guarantee an admissible row; only round-off
                # can empty the set, and the closest row is then the right one.
                i = int(np.argmax(np.where(norms2 > 0, low_s - up_s, -np.inf)))
            inv_t = 0.5 * (low_s[i] + up_s[i])
        t = 1.0 / inv_t
        v = V[i]
        A += t * np.outer(v, v)
        picks[tau], weights[tau] = i, t
        picked[i] = True

    return Selection.from_picks(picks, weights * (1.0 - root) / r, d)
