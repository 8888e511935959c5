"""How many features the theorems ask for, given an accuracy epsilon.

Each formula cites its theorem; the selectors use them when given ``epsilon``
instead of ``n_features``.
"""

import math

from ._validation import check_epsilon

__all__ = ["bss_features", "leverage_features"]


def bss_features(epsilon, rank):
    """r = ceil(36 rank / epsilon^2): 001 Theorem 1 (r1 = 36 p / eps^2, p support vectors).

    Theorem 2 of 001 (unsupervised, all training data) asks for O(rho / eps^2)
    with rho = rank; the same constant is used. At this r, Lemma 2 of 000 bounds
    the spectral distortion by 3 sqrt(rank / r) = epsilon / 2. The result is
    at least rank + 1, as BSS needs r > ell.
    """
    epsilon = check_epsilon(epsilon)
    return max(math.ceil(36 * rank / epsilon**2), rank + 1)


def leverage_features(epsilon, rank, delta=0.01):
    """r = ceil(36 rank / eps^2 * ln(rank / (eps^2 sqrt(delta)))): 001 Lemma 2.

    Lemma 2 of 001 gives r = O(n / eps^2 log(n / (eps^2 sqrt(delta)))) for
    failure probability delta; the constant 36 of 001 Theorem 1 is used and
    delta = 0.01 (the "probability at least 0.99" of the lemma). The logarithm
    is floored at 1.
    """
    epsilon = check_epsilon(epsilon)
    log_term = max(1.0, math.log(rank / (epsilon**2 * math.sqrt(delta))))
    return math.ceil(36 * rank / epsilon**2 * log_term)
