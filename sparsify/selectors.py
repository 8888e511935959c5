"""scikit-learn transformers around the selectors of this package.

Every selector learns a `Selection` in ``fit`` and ``transform`` returns the
rescaled selected columns ``X R`` (in the order the features were picked). The
number of features to keep is ``n_features``: for the deterministic rankers the
size of the subset, for the samplers the paper's r (the number of i.i.d. trials,
or the bound on the expected size for ``method="bernoulli"``), for BSS the
number of iterations r > ell.

The rankers (DocFreqSelector, InfoGainSelector) keep the features of highest
score and expose the scores as ``scores_``, as scikit-learn's SelectKBest does.
``transform`` warns, as scikit-learn's selectors do, when no feature was
selected (a Bernoulli sampler with a small r may keep none).
"""

import warnings
from functools import partial
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from ._dask import is_dask, reduce_row_blocks
from ._public_names import name_inherited
from ._svd import right_singular_vectors
from ._validation import (
    argument_named,
    canonical,
    check_n_select,
    check_random_state,
    check_X,
)
from .bss import bss
from .leverage import LEVERAGE_CONSTRAINTS, leverage_scores
from .rrqr import rrqr
from .sampling import SAMPLING_CONSTRAINTS, sample_features
from .scores import document_frequency, information_gain, weight_scores
from .selection import Selection
from .theory import _digits, bss_features, leverage_features

__all__ = [
    "BSSSelector",
    "LeverageSelector",
    "SketchedBSSSelector",
    "RRQRSelector",
    "UniformSelector",
    "WeightSelector",
    "DocFreqSelector",
    "InfoGainSelector",
]

# The selectors' parameters share the functions' constraints: n_features is the functions' r
# (None: the selector's default), k and the sampling arguments those of `leverage_sample`.
_N_FEATURES = [*SAMPLING_CONSTRAINTS["r"], None]
_EPSILON = [Interval(Real, 0, 1, closed="neither"), None]
# With neither n_features nor epsilon, the theorem-driven selectors take r = this multiple
# of ell: then Lemma 1 of 000 keeps every eigenvalue of V'RR'V in [(1 - 1/2)^2, (1 + 1/2)^2].
_RANK_MULTIPLE = 4
# BSSSelector's k="auto" without n_features or epsilon: the top-10 right singular subspace,
# the k of 003 sec. 6 (text), so the default keeps 40 features and runs in well under a second
# (BSS on all rank(X) vectors of 318 descriptions x 3072 words kept 1020 words in 78 s).
_AUTO_K = 10
# The Gaussian sketch G is drawn by blocks of this many samples (columns of G), each from
# its own stream, so that it does not depend on how the samples are split into chunks.
_SKETCH_BLOCK = 4096


class _BaseSelector(SelectorMixin, BaseEstimator):
    """Fit a `Selection` and apply it; each selector declares ``_selection``, the
    function of (selector, X, y) that computes its `Selection`."""

    _parameter_constraints = {"n_features": _N_FEATURES}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name_inherited(cls)  # errors name the public class, not this one

    def __init__(self, *, n_features=None):
        self.n_features = n_features

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the selection from X (n_samples x n_features, dense or CSR/CSC).

        Parameters
        ----------
        X : array-like, sparse matrix or dask.array.Array of shape (n_samples, n_features)
            A Dask array (chunked by rows) stays lazy for the selectors built on
            the functions that take one (docs/dask.md): SketchedBSSSelector,
            LeverageSelector, BSSSelector, WeightSelector, DocFreqSelector,
            InfoGainSelector and UniformSelector.
        y : array-like of shape (n_samples,) or None, default=None
            The class labels for InfoGainSelector; ignored by the unsupervised selectors.

        Returns
        -------
        object
            The fitted selector itself.

        Raises
        ------
        sklearn.utils._param_validation.InvalidParameterError
            A hyperparameter of the wrong type or out of range.
        ValueError
            X is not a finite, non-empty 2-D array, or the selector's own
            conditions fail (e.g. n_features above the number of features).
        """
        X = self._check_input(X, reset=True)
        self.selection_ = self._selection(self, X, y)
        self.indices_ = self.selection_.indices
        self.scales_ = self.selection_.scales
        return self

    def transform(self, X):
        """Return ``X R``: the selected columns, rescaled, in the order picked.

        Parameters
        ----------
        X : array-like, sparse matrix or dask.array.Array of shape (n_samples, n_features_in_)
            Data with the columns of the data seen in ``fit``.

        Returns
        -------
        ndarray, sparse matrix or dask.array.Array of shape (n_samples, n_selected)
            The selected columns times their scales (see `Selection.apply`).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            The selector is not fitted.
        ValueError
            X has another number of features than the data seen in ``fit``.
        """
        check_is_fitted(self)
        if self.selection_.n_selected == 0:
            warnings.warn(
                "No features were selected: the selection is empty (a Bernoulli sampler "
                "with a small n_features may keep none); transform returns no columns. "
                "Use a larger n_features or another random_state.",
                UserWarning,
                stacklevel=2,
            )
        return self.selection_._apply_valid(self._check_input(X, reset=False))

    def _check_input(self, X, *, reset):
        """scikit-learn's validation; a Dask X stays lazy (`sparsify._dask.check_dask`)."""
        if is_dask(X):
            X = check_X(X, lazy=True)
            if reset:
                self.n_features_in_ = X.shape[1]
                self.__dict__.pop("feature_names_in_", None)
            return X  # transform: Selection.apply checks the number of features
        with argument_named("X"):
            return canonical(
                validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=reset)
            )

    def inverse_transform(self, X):
        """Put the selected columns back in place, undoing the scales; zeros elsewhere.

        A column of scale 0 comes back as zeros.

        Parameters
        ----------
        X : ndarray or sparse matrix of shape (n_samples, n_selected)
            Output of ``transform``.

        Returns
        -------
        ndarray or sparse matrix of shape (n_samples, n_features_in_)
            The columns of X divided by their scales, at the selected features' positions.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            The selector is not fitted.
        ValueError
            X is not a 2-D array of finite numbers (see `sparsify.utils.check_X`), or
            has not ``n_selected`` columns.
        TypeError
            X does not hold numbers, or is a Dask array.
        """
        check_is_fitted(self)
        s = self.selection_
        X = check_X(X)  # a Dask X: a TypeError (it took one only to fail inside Dask)
        if X.shape[1] != s.n_selected:
            raise ValueError(
                f"X has {X.shape[1]} columns but {type(self).__name__} keeps {s.n_selected} "
                "features; pass the output of transform."
            )
        inv = np.divide(1.0, s.scales, out=np.zeros_like(s.scales), where=s.scales > 0)
        back = sp.csr_matrix(
            (inv, (np.arange(s.n_selected), s.indices)), shape=(s.n_selected, s.n_features_in)
        )
        out = X @ back
        return out.asformat(X.format) if sp.issparse(X) else np.asarray(out)

    def get_feature_names_out(self, input_features=None):
        """Names of the selected features in the order of ``transform``'s columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Names of the input features; None means ``feature_names_in_`` if the
            data seen in ``fit`` had column names, else ``x0``, ``x1``, ....

        Returns
        -------
        ndarray of str objects, shape (n_selected,)
            The names of the selected features, in the order picked.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            The selector is not fitted.
        ValueError
            input_features does not match the features seen in ``fit``.
        """
        check_is_fitted(self)
        return _check_feature_names_in(self, input_features)[self.indices_]

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.selection_.support()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _n_top(self, d):
        """n_features for the rankers: default half the features (as RFE), at most d."""
        if self.n_features is None:
            return max(1, d // 2)
        return check_n_select(self.n_features, name="n_features", low=1, high=d, low_inclusive=True)


def _top(scores, n):
    """Selection of the n highest scores (ties: lowest index), scales 1."""
    order = np.argsort(-scores, kind="stable")[:n]
    return Selection(order, np.ones(n), scores.size)


#: The parameters of the selectors that take either n_features or an accuracy epsilon
#: (r from a theorem).
_THEOREM_CONSTRAINTS = {**_BaseSelector._parameter_constraints, "epsilon": _EPSILON}


def _n_trials(selector, ell, d, formula):
    """r: n_features if given, else the theorem's r for epsilon, else 4 ell.

    When the theorem's r for epsilon exceeds the number of features d, warns and
    returns None: every feature is kept, unscaled (`_every_feature`). Running r
    BSS iterations or i.i.d. trials instead would cost O(r) time and memory
    (epsilon=1e-3 on 20 features: r = 7.2e8 iterations, a 5 GiB array).
    """
    if selector.n_features is not None and selector.epsilon is not None:
        raise ValueError(
            "give either n_features or epsilon, not both "
            f"(got n_features={selector.n_features}, epsilon={selector.epsilon})."
        )
    if selector.n_features is not None:  # a bool passes the constraint's Interval
        return check_n_select(selector.n_features, name="n_features", low=1, low_inclusive=True)
    if selector.epsilon is None:
        return _RANK_MULTIPLE * ell
    r = formula(selector.epsilon, ell)
    if r > d:
        warnings.warn(
            f"epsilon={selector.epsilon} asks for r={_digits(r)} (ell={ell}), the r of the "
            f"guarantee, which exceeds the number of features d={d}: every feature is kept, "
            "unscaled (R = I, distortion 0). Use a larger epsilon, n_features for a given "
            "number, or a smaller k (the top-k right singular subspace; 003 sec. 6 uses k=10 "
            "on text).",
            UserWarning,
            stacklevel=5,
        )
        return None
    return r


def _every_feature(d):
    """The selection of all d features, unscaled: R = I, so ``V'RR'V = V'V = I`` and the
    distortion is 0, within every bound the theorems give for any r (000 Lemmas 1-2,
    001 Lemma 2)."""
    return Selection(np.arange(d), np.ones(d), d)


def _bss_on(selector, V, ell_is, hint=None):
    """BSS on V with r = n_features, or r from epsilon (001 Theorem 1)."""
    ell = V.shape[1]
    r = _n_trials(selector, ell, V.shape[0], bss_features)
    if r is None:
        return _every_feature(V.shape[0])
    if r <= ell:
        if hint is None:
            hint = (
                f"to keep {r} features or fewer, run BSS on fewer singular vectors: "
                f"k < {r} (e.g. k=10, the top-10 subspace 003 sec. 6 uses on text); "
                "or leave n_features and k at their defaults (40 features on the "
                "top-10 subspace)"
            )
        raise ValueError(
            f"n_features={r} must exceed ell={ell} ({ell_is}): BSS on ell right "
            f"singular vectors needs r > ell iterations. Use n_features >= {ell + 1}, "
            f"or, {hint}."
        )
    return bss(V, r, gamma=selector.gamma)


def _bss_selection(selector, X, y):
    """BSS on the top-k right singular vectors of X (k="auto": min(10, rank))."""
    k = selector.k
    if isinstance(k, str):  # "auto"
        k = None
        if selector.n_features is None and selector.epsilon is None:
            try:
                V, _ = right_singular_vectors(X, min(_AUTO_K, *X.shape))
            except ValueError:  # rank(X) < 10: all its right singular vectors
                V, _ = right_singular_vectors(X, None)
            return _bss_on(selector, V, "k='auto': min(10, rank(X))")
    V, _ = right_singular_vectors(X, k)
    return _bss_on(selector, V, "the rank of X" if k is None else "k")


class BSSSelector(_BaseSelector):
    """Deterministic BSS feature selection on the top right singular vectors of X (000, 001).

    Parameters
    ----------
    n_features : int, optional
        Number of BSS iterations r > ell (ell = rank(X), or k). Features are
        distinct; with r > d some are picked again and merged, so at most
        min(r, d) columns are kept. With neither n_features nor epsilon,
        r = 4 ell: Lemma 1 of 000 (`sparsify.bss_bounds`) then keeps every
        eigenvalue of ``V' R R' V`` in [0.25, 2.25]. An n_features at or
        below rank(X) needs a k below it: BSS on ell vectors needs r > ell.
    epsilon : float in (0, 1), optional
        Accuracy: r = ceil(36 ell / epsilon^2), the r of 001 Theorems 1-2 (see
        `sparsify.theory.bss_features`); e.g. epsilon=0.5 gives r = 144 ell,
        often more than d: then every feature is kept, unscaled (R = I, whose
        distortion 0 meets the guarantee at any r), and a UserWarning says so.
        Used when n_features is None; giving both raises ValueError.
    k : int, None or "auto", default="auto"
        The number ell of top right singular vectors BSS runs on. An int: the
        top k (003 sec. 6 uses k = 10 on text). None: all rank(X), as 000
        sec. 6.4 runs BSS and as 001's theorems count r. "auto": rank(X) when
        n_features or epsilon is given, and min(10, rank(X)) when neither is:
        then the default r = 4 ell keeps at most 40 features, chosen in well
        under a second even on text, where BSS on all rank(X) vectors needs
        r > n_samples iterations of cost O(d rank(X)^2) each (318
        descriptions x 3072 words: 78 s, 1020 words kept).
    gamma : float, default=0.01
        Regulariser of 000 sec. 6.1, see `sparsify.bss`.

    Attributes
    ----------
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    sparsify.bss : The selection on a given V (000 Algorithm 1).
    SketchedBSSSelector : BSS on a Gaussian sketch, for large n.
    LeverageSelector : The randomized counterpart (001 eq. 4).

    Examples
    --------
    >>> from sparsify import BSSSelector, spectral_distortion
    >>> from sparsify.utils import right_singular_vectors
    >>> X = np.random.default_rng(0).standard_normal((20, 10))
    >>> sel = BSSSelector(n_features=8, k=2).fit(X)
    >>> sel.transform(X).shape[1] <= 8
    True

    The distortion of the top-2 right singular subspace obeys 000 Lemma 2:

    >>> V, _ = right_singular_vectors(X, k=2)
    >>> bool(spectral_distortion(V, sel.selection_) <= 3 * np.sqrt(2 / 8))
    True
    """

    _parameter_constraints = {
        **_THEOREM_CONSTRAINTS,
        "k": [*LEVERAGE_CONSTRAINTS["k"], StrOptions({"auto"})],
        "gamma": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, *, n_features=None, epsilon=None, k="auto", gamma=0.01):
        self.n_features = n_features
        self.epsilon = epsilon
        self.k = k
        self.gamma = gamma

    _selection = staticmethod(_bss_selection)


def _sketched_bss_selection(selector, X, y):
    """BSS on the right singular vectors of the Gaussian sketch G X (001 sec. 5.4)."""
    sketch = gaussian_sketch(X, selector.t, check_random_state(selector.random_state))
    V, _ = right_singular_vectors(sketch, None, name="the sketch G X")
    return _bss_on(selector,
        V,
        "the rank of the sketch G X, at most t",
        hint=f"to keep {selector.n_features} features or fewer, a smaller sketch t < "
        f"{selector.n_features}, or BSSSelector with k < {selector.n_features}",
    )


class SketchedBSSSelector(BSSSelector):
    """Approximate BSS for large data: BSS on a Gaussian sketch G X (001 sec. 5.4).

    X (n x d) is premultiplied by a t x n Gaussian matrix G, and BSS runs on the
    right singular vectors of ``G X`` (t x d), which approximate those of X.
    G is drawn by blocks of 4096 samples (`gaussian_sketch`), so a Dask X, whose
    sketch is summed over its chunks of rows, gets the same G as in memory.

    Parameters
    ----------
    n_features : int, optional
        As in `BSSSelector`, with ell = rank(G X) <= t.
    epsilon : float in (0, 1), optional
        As in `BSSSelector`, with ell = rank(G X) <= t.
    t : int, default=128
        Number of rows of the sketch G (001 sec. 5.4 uses 128 and 256).
    gamma : float, default=0.01
        As in `BSSSelector`.
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        Seed of the sketch G.

    Attributes
    ----------
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    BSSSelector : BSS on the right singular vectors of X itself.
    sparsify.bss : The selection on a given V (000 Algorithm 1).

    Examples
    --------
    >>> from sparsify import SketchedBSSSelector
    >>> X = np.random.default_rng(0).standard_normal((50, 10))
    >>> sel = SketchedBSSSelector(n_features=8, t=5, random_state=0).fit(X)
    >>> sel.transform(X).shape[0], sel.transform(X).shape[1] <= 8
    (50, True)
    """

    _parameter_constraints = {
        **_THEOREM_CONSTRAINTS,
        "t": [Interval(Integral, 1, None, closed="left")],
        "gamma": BSSSelector._parameter_constraints["gamma"],
        "random_state": SAMPLING_CONSTRAINTS["random_state"],
    }

    def __init__(self, *, n_features=None, epsilon=None, t=128, gamma=0.01, random_state=None):
        self.n_features = n_features
        self.epsilon = epsilon
        self.t = t
        self.gamma = gamma
        self.random_state = random_state

    _selection = staticmethod(_sketched_bss_selection)


def _sketch_columns(seed, t, first, stop):
    """Columns first..stop-1 of the t x n Gaussian sketch G (entries N(0, 1/t)).

    Column block b (samples b * _SKETCH_BLOCK to (b + 1) * _SKETCH_BLOCK - 1)
    comes from its own stream, seeded by (seed, b): any split of the samples
    into blocks gives the same G.
    """
    blocks = []
    for b in range(first // _SKETCH_BLOCK, (stop - 1) // _SKETCH_BLOCK + 1):
        lo, hi = max(first, b * _SKETCH_BLOCK), min(stop, (b + 1) * _SKETCH_BLOCK)
        block = np.random.default_rng([seed, b]).standard_normal((_SKETCH_BLOCK, t))
        blocks.append(block[lo - b * _SKETCH_BLOCK : hi - b * _SKETCH_BLOCK])
    return np.concatenate(blocks).T / np.sqrt(t)


def _block_sketch(X, seed, t, rows):
    """``G[:, rows] X`` for the block X of the samples ``rows`` (a slice)."""
    G = _sketch_columns(seed, t, rows.start, rows.stop)
    return np.asarray((X.T @ G.T).T) if sp.issparse(X) else G @ X


def gaussian_sketch(X, t, rng):
    """The t x d sketch ``G X`` with G Gaussian, entries N(0, 1/t) (001 sec. 5.4).

    G is drawn by blocks of samples (`_sketch_columns`) from one seed taken from
    rng, so a Dask X (a sum over its chunks of rows) gets the same G as in memory.
    """
    seed = int(rng.integers(2**63))
    return reduce_row_blocks(partial(_block_sketch, seed=seed, t=t), X, rows=True)


def _sampled_selection(selector, X, y):
    """r trials (or the expected size r) drawn with the sampler's distribution p."""
    p, r = selector._distribution(selector, X)
    if r is None:  # epsilon asks for more trials than features (`_n_trials`)
        return _every_feature(X.shape[1])
    return sample_features(p, r, method=selector.method, random_state=selector.random_state)


def _probabilities_and_r(selector, X):
    """The sampler's ``_probabilities`` of X, and r = n_features (default d / 2)."""
    p = selector._probabilities(X)
    if selector.n_features is None:
        return p, max(1, X.shape[1] // 2)
    return p, check_n_select(selector.n_features, name="n_features", low=1, low_inclusive=True)


class _SamplingSelector(_BaseSelector):
    """Randomised samplers: each declares its distribution p, ``_probabilities`` (a
    function of X) or ``_distribution`` (a function of the selector and X giving p
    and r)."""

    _parameter_constraints = {
        **_BaseSelector._parameter_constraints,
        "method": SAMPLING_CONSTRAINTS["method"],
        "random_state": SAMPLING_CONSTRAINTS["random_state"],
    }

    def __init__(self, *, n_features=None, method="iid", random_state=None):
        self.n_features = n_features
        self.method = method
        self.random_state = random_state

    _selection = staticmethod(_sampled_selection)
    _distribution = staticmethod(_probabilities_and_r)


def _leverage_distribution(selector, X):
    """Leverage-score probabilities (001 eq. 4) and r from n_features or epsilon."""
    scores = leverage_scores(X, selector.k)
    ell = int(round(scores.sum()))  # the scores sum to the number of singular vectors
    return scores / ell, _n_trials(selector, ell, X.shape[1], leverage_features)


class LeverageSelector(_SamplingSelector):
    """Leverage-score sampling: p_i = ||V_k[i]||^2 / k (001 eq. 4; 003 Figure 1 and eq. 22).

    Parameters
    ----------
    n_features : int, optional
        The papers' r: the number of i.i.d. trials (``method="iid"``) or the bound on the
        expected number of kept features (``method="bernoulli"``). With neither
        n_features nor epsilon, r = 4 ell (ell = rank(X), or k), as in
        `BSSSelector`.
    epsilon : float in (0, 1), optional
        Accuracy: r = ceil(36 ell / eps^2 ln(ell / (eps^2 sqrt(0.01)))), the r of
        001 Lemma 2 (see `sparsify.theory.leverage_features`); e.g. epsilon=0.5
        gives r = 144 ell ln(40 ell), often more than d: then every feature is
        kept, unscaled (R = I, as in `BSSSelector`), and a UserWarning says so.
        Used when n_features is None; giving both raises ValueError.
    k : int, optional
        Number of top right singular vectors (003's SS with parameter k);
        None means rank(X).
    method : {"iid", "bernoulli"}, default="iid"
        I.i.d. trials with replacement (001 eq. 4) or independent coin flips
        (003 Figure 1); see `sparsify.leverage_sample`.
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        Seed of the sampling (see `sparsify.utils.check_random_state`).

    Attributes
    ----------
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    sparsify.leverage_sample : The sampler on X.
    sparsify.leverage_scores : The scores behind the probabilities.
    BSSSelector : The deterministic counterpart (000 Algorithm 1).

    Examples
    --------
    >>> from sparsify import LeverageSelector
    >>> X = np.random.default_rng(0).standard_normal((20, 10))
    >>> sel = LeverageSelector(n_features=5, k=2, random_state=0).fit(X)
    >>> X_new = sel.transform(X)
    >>> X_new.shape[1] <= 5, bool(np.allclose(X_new, X @ sel.selection_.matrix().toarray()))
    (True, True)
    """

    _parameter_constraints = {
        **_SamplingSelector._parameter_constraints,
        **_THEOREM_CONSTRAINTS,
        "k": LEVERAGE_CONSTRAINTS["k"],
    }

    def __init__(self, *, n_features=None, epsilon=None, k=None, method="iid", random_state=None):
        self.n_features = n_features
        self.epsilon = epsilon
        self.k = k
        self.method = method
        self.random_state = random_state

    _distribution = staticmethod(_leverage_distribution)


def _uniform_probabilities(X):
    """p_i = 1/d."""
    return np.full(X.shape[1], 1.0 / X.shape[1])


class UniformSelector(_SamplingSelector):
    """Uniform sampling, p_i = 1/d (003 sec. 6.2, US).

    Parameters
    ----------
    n_features : int, optional
        The papers' r: the number of i.i.d. trials (``method="iid"``) or the bound on the
        expected number of kept features (``method="bernoulli"``); default d // 2.
    method : {"iid", "bernoulli"}, default="iid"
        I.i.d. trials with replacement (001 eq. 4) or independent coin flips
        (003 Figure 1); see `sparsify.leverage_sample`.
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        Seed of the sampling (see `sparsify.utils.check_random_state`).

    Attributes
    ----------
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    WeightSelector : Probabilities from the column norms (003 eq. 23).
    LeverageSelector : Probabilities from the leverage scores (001 eq. 4).

    Examples
    --------
    >>> from sparsify import UniformSelector
    >>> X = np.random.default_rng(0).standard_normal((20, 10))
    >>> sel = UniformSelector(n_features=5, random_state=0).fit(X)

    Each of the 5 trials adds ``1 / (r p_i) = d / r`` to the squared scales, so
    they sum to d (the trace of ``E[R R'] = I``):

    >>> round(float(np.sum(sel.scales_**2)), 6)
    10.0
    """

    _probabilities = staticmethod(_uniform_probabilities)


class WeightSelector(_SamplingSelector):
    """Weight-based sampling, p_i = ||X[:, i]||^2 / ||X||_F^2 (003 eq. 23, WS).

    Parameters
    ----------
    n_features : int, optional
        The papers' r: the number of i.i.d. trials (``method="iid"``) or the bound on the
        expected number of kept features (``method="bernoulli"``); default d // 2.
    method : {"iid", "bernoulli"}, default="iid"
        I.i.d. trials with replacement (001 eq. 4) or independent coin flips
        (003 Figure 1); see `sparsify.leverage_sample`.
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        Seed of the sampling (see `sparsify.utils.check_random_state`).

    Attributes
    ----------
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    sparsify.weight_scores : The probabilities.
    UniformSelector : Uniform probabilities (003 sec. 6.2, US).
    LeverageSelector : Probabilities from the leverage scores (001 eq. 4).

    Examples
    --------
    >>> from sparsify import WeightSelector
    >>> X = np.random.default_rng(0).standard_normal((20, 10))
    >>> sel = WeightSelector(n_features=4, method="bernoulli", random_state=0).fit(X)
    >>> X_new = sel.transform(X)
    >>> bool(np.allclose(sel.inverse_transform(X_new)[:, sel.indices_], X[:, sel.indices_]))
    True
    """

    _probabilities = staticmethod(weight_scores)


def _rrqr_selection(selector, X, y):
    """The pivots of the rank-revealing QR of X (000 sec. 6.2)."""
    return rrqr(X, selector._n_top(X.shape[1]))


class RRQRSelector(_BaseSelector):
    """Rank-revealing (column-pivoted) QR selection of n_features columns (000 sec. 6.2).

    Parameters
    ----------
    n_features : int, optional
        Number of columns, 1 <= n_features <= d; default d // 2.

    Attributes
    ----------
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    sparsify.rrqr : The selection on X.
    BSSSelector : Deterministic selection with a spectral guarantee.

    Notes
    -----
    There is no ``scores_``: the pivoted QR picks each column by its norm after
    projecting out the columns picked before, not by a ranking of scores
    computed once per feature.

    Examples
    --------
    >>> import scipy.linalg as la
    >>> from sparsify import RRQRSelector
    >>> X = np.random.default_rng(0).standard_normal((5, 8))
    >>> sel = RRQRSelector(n_features=3).fit(X)
    >>> bool(np.array_equal(sel.indices_, la.qr(X, pivoting=True)[2][:3]))
    True
    >>> sel.get_feature_names_out().shape
    (3,)
    """

    _selection = staticmethod(_rrqr_selection)


def _doc_freq_selection(selector, X, y):
    """The n_features words of highest document frequency (``scores_``)."""
    selector.scores_ = np.asarray(document_frequency(X), dtype=np.float64)
    return _top(selector.scores_, selector._n_top(X.shape[1]))


class DocFreqSelector(_BaseSelector):
    """The n_features most frequent terms by document frequency (003 sec. 6.2, DF).

    Parameters
    ----------
    n_features : int, optional
        Number of features, 1 <= n_features <= d; default d // 2.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        Document frequency of each feature (`sparsify.document_frequency`).
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    sparsify.document_frequency : The scores.
    InfoGainSelector : The supervised ranker of 003 sec. 6.2.
    sklearn.feature_selection.SelectKBest : The same ranking for any score.

    Examples
    --------
    >>> from sparsify import DocFreqSelector
    >>> X = np.array([[1, 0, 1, 0], [1, 0, 1, 1], [1, 1, 0, 0]])
    >>> sel = DocFreqSelector(n_features=2).fit(X)
    >>> sel.scores_, sel.indices_
    (array([3., 1., 2., 1.]), array([0, 2]))
    >>> sel.get_feature_names_out()
    array(['x0', 'x2'], dtype=object)
    """

    _selection = staticmethod(_doc_freq_selection)


def _info_gain_selection(selector, X, y):
    """The n_features words of highest information gain (``scores_``)."""
    if y is None:
        raise ValueError(
            "InfoGainSelector requires y to be passed, but the target y is None; "
            "call fit(X, y) with the class labels."
        )
    selector.scores_ = np.asarray(information_gain(X, y), dtype=np.float64)
    return _top(selector.scores_, selector._n_top(X.shape[1]))


class InfoGainSelector(_BaseSelector):
    """The n_features terms of largest information gain (003 eq. 24, 000 sec. 6.2, IG).

    Supervised: ``fit(X, y)`` needs the class labels (any number of classes).

    Parameters
    ----------
    n_features : int, optional
        Number of features, 1 <= n_features <= d; default d // 2.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        Information gain of each feature (`sparsify.information_gain`).
    selection_ : Selection
        The selected features and their scales (the matrix R).
    indices_ : ndarray of int, shape (n_selected,)
        The selected features, in the order picked (``selection_.indices``).
    scales_ : ndarray of float, shape (n_selected,)
        Their scales (``selection_.scales``).
    n_features_in_ : int
        Number of features of the data seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features of the data seen in ``fit``, when it had string column names.

    See Also
    --------
    sparsify.information_gain : The scores.
    DocFreqSelector : The unsupervised ranker of 003 sec. 6.2.
    sklearn.feature_selection.SelectKBest : The same ranking for any score.

    Examples
    --------
    The second feature is present exactly in the rows of class "a":

    >>> from sparsify import InfoGainSelector
    >>> X = np.array([[1, 1], [1, 0], [1, 1], [1, 0]])
    >>> sel = InfoGainSelector(n_features=1).fit(X, ["a", "b", "a", "b"])
    >>> sel.indices_, bool(np.isclose(sel.scores_[1], np.log(2)))
    (array([1]), True)
    """

    _selection = staticmethod(_info_gain_selection)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
