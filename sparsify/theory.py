"""How many features the theorems ask for, given an accuracy epsilon.

Each formula cites its theorem; the selectors use them when given ``epsilon``
instead of ``n_features``.
"""

import math
from fractions import Fraction
from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, validate_params

from ._validation import check_n_select

__all__ = ["bss_features", "leverage_features"]

_EPSILON = [Interval(Real, 0, 1, closed="neither")]
_RANK = [Interval(Integral, 1, None, closed="left")]


def _over_square(numerator, epsilon):
    """``ceil(numerator / epsilon^2)``: in floats (36 * 60 / 0.3**2 is 24000), exactly
    (``fractions``) where the float square underflows to 0 (epsilon below 1.5e-154) or
    the quotient overflows: at epsilon = 1e-300, r is an integer of 600 digits."""
    square = epsilon * epsilon
    value = numerator / square if square > 0 else math.inf
    if math.isfinite(value):
        return math.ceil(value)
    return math.ceil(Fraction(numerator) / Fraction(epsilon) ** 2)


def _digits(r):
    """An integer as written in full up to 15 digits, else as ``1.23e+45`` (r may have
    hundreds of digits: `_over_square`)."""
    text = str(r)
    return text if len(text) <= 15 else f"{text[0]}.{text[1:3]}e+{len(text) - 1}"


def _check_rank(rank):
    """rank as an int; a TypeError for a bool, which the ``_RANK`` Interval accepts (True
    would be rank 1)."""
    return check_n_select(rank, name="rank", low=1, low_inclusive=True)


@validate_params({"epsilon": _EPSILON, "rank": _RANK}, prefer_skip_nested_validation=True)
def bss_features(epsilon, rank):
    """Number of features BSS keeps for accuracy epsilon: ``r = ceil(36 rank / epsilon^2)``.

    001 Theorem 1 (``r1 = 36 p / eps^2``, p support vectors). Theorem 2 of 001
    (unsupervised, all training data) asks for O(rho / eps^2) with rho = rank;
    the same constant is used. At this r, Lemma 2 of 000 bounds the spectral
    distortion by 3 sqrt(rank / r) = epsilon / 2. The result is at least
    rank + 1, as BSS needs r > ell.

    Parameters
    ----------
    epsilon : float
        The accuracy, 0 < epsilon < 1.
    rank : int
        The rank ell of the data (the number of right singular vectors kept).

    Returns
    -------
    int
        The number of features r.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        epsilon is not a number in (0, 1) or rank not an integer >= 1 (a ValueError
        and TypeError subclass naming the argument).
    TypeError
        rank is a bool (True is not rank 1).

    See Also
    --------
    leverage_features : The same for leverage-score sampling.
    sparsify.BSSSelector : Takes ``epsilon`` instead of ``n_features``.
    sparsify.spectral_distortion : The distortion that r bounds.

    Examples
    --------
    >>> import math
    >>> from sparsify.theory import bss_features
    >>> r = bss_features(0.5, rank=2)
    >>> r, 3 * math.sqrt(2 / r) <= 0.5 / 2
    (288, True)
    """
    rank = _check_rank(rank)
    return max(_over_square(36 * rank, epsilon), rank + 1)


@validate_params(
    {"epsilon": _EPSILON, "rank": _RANK, "delta": [Interval(Real, 0, 1, closed="neither")]},
    prefer_skip_nested_validation=True,
)
def leverage_features(epsilon, rank, delta=0.01):
    """Number of leverage-score samples for accuracy epsilon (001 Lemma 2).

    ``r = ceil(36 rank / eps^2 * ln(rank / (eps^2 sqrt(delta))))``: Lemma 2 of
    001 gives r = O(n / eps^2 log(n / (eps^2 sqrt(delta)))) for failure
    probability delta; the constant 36 of 001 Theorem 1 is used and
    delta = 0.01 (the "probability at least 0.99" of the lemma). The logarithm
    is floored at 1.

    Parameters
    ----------
    epsilon : float
        The accuracy, 0 < epsilon < 1.
    rank : int
        The rank ell of the data (the number of right singular vectors kept).
    delta : float, default=0.01
        The failure probability, 0 < delta < 1.

    Returns
    -------
    int
        The number of samples r.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        epsilon or delta is not a number in (0, 1), or rank not an integer >= 1 (a
        ValueError and TypeError subclass naming the argument).
    TypeError
        rank is a bool (True is not rank 1).

    See Also
    --------
    bss_features : The same for BSS.
    sparsify.LeverageSelector : Takes ``epsilon`` instead of ``n_features``.
    sparsify.leverage_sample : The sampler of 001 eq. (4).

    Examples
    --------
    >>> import math
    >>> from sparsify.theory import leverage_features
    >>> r = leverage_features(0.5, rank=2)
    >>> r == math.ceil(36 * 2 / 0.5**2 * math.log(2 / (0.5**2 * math.sqrt(0.01))))
    True
    """
    rank = _check_rank(rank)
    log_term = max(1.0, math.log(rank) - 2.0 * math.log(epsilon) - 0.5 * math.log(delta))
    return _over_square(36 * rank * log_term, epsilon)
