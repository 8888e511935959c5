"""Randomised feature sampling from a probability distribution over features.

One sampler serves leverage-score, weight-based and uniform sampling (003 sec.
6.2: SS, WS, US); only the distribution p differs.
"""

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from ._validation import check_n_select, check_random_state
from .selection import Selection

__all__ = ["sample_features", "METHODS", "SAMPLING_CONSTRAINTS"]

METHODS = ("iid", "bernoulli")
# scikit-learn's parameter constraints (`validate_params`) of the sampling arguments, shared
# by every function that samples features.
SAMPLING_CONSTRAINTS = {
    "r": [Interval(Integral, 1, None, closed="left")],
    "method": [StrOptions(set(METHODS))],
    "random_state": [
        None,
        Interval(Integral, 0, None, closed="left"),
        np.random.Generator,
        np.random.RandomState,
    ],
}


@validate_params(SAMPLING_CONSTRAINTS, prefer_skip_nested_validation=True)
def sample_features(p, r, *, method="iid", random_state=None):
    """Sample features with probabilities p and rescale them so that E[R R'] = I.

    * ``"iid"``: r independent trials with probabilities p_i; a pick of feature
      i is rescaled by ``1/sqrt(r p_i)`` (001 eq. 4, 000 sec. 6.2). A feature
      drawn c times appears once with scale ``sqrt(c / (r p_i))``, which leaves
      ``R R'`` unchanged.
    * ``"bernoulli"``: feature i is kept independently with probability
      ``p~_i = min(1, r p_i)`` and rescaled by ``1/sqrt(p~_i)`` (003 Figure 1,
      the SRLS algorithm; 001 Lemma 2). At most r features are kept in
      expectation.

    Parameters
    ----------
    p : array of shape (d,)
        Non-negative probabilities summing to 1.
    r : int
        Number of trials ("iid") or bound on the expected number of kept
        features ("bernoulli"), r >= 1.
    method : {"iid", "bernoulli"}, default="iid"
        I.i.d. trials with replacement or independent coin flips, as above.
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        Seed of the sampling (see `sparsify.utils.check_random_state`).

    Returns
    -------
    Selection
        "iid": features in the order first drawn; "bernoulli": in index order.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        r, method or random_state of the wrong type or out of range.
    """
    r = check_n_select(r, name="r", low=1, low_inclusive=True)  # True passes the Interval
    rng = check_random_state(random_state)
    p = np.asarray(p, dtype=np.float64)
    d = p.size
    if method == "iid":
        draws = rng.choice(d, size=r, replace=True, p=p)
        return Selection.from_picks(draws, 1.0 / (r * p[draws]), d)
    keep_prob = np.minimum(1.0, r * p)
    kept = np.flatnonzero(rng.random(d) < keep_prob)
    return Selection(kept, 1.0 / np.sqrt(keep_prob[kept]), d)
