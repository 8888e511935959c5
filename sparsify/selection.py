"""The result of every selector: which features, and how to rescale them."""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._dask import is_dask, map_row_blocks
from ._validation import check_n_select, check_X

__all__ = ["Selection"]


@dataclass(frozen=True, eq=False)
class Selection:
    """Feature indices and rescaling factors: the sampling-and-rescaling matrix R.

    The papers write the selected data as ``X R`` (001 eq. 3) with ``R = S D``:
    ``S`` picks columns of ``X`` and ``D`` rescales them. A ``Selection`` stores
    the picked indices (in the order picked) and their scales; a feature picked
    several times by a sampler appears once, with its merged scale, so that
    ``R R'`` is unchanged.

    Parameters
    ----------
    indices : array of int, shape (r,)
        Distinct feature indices in ``[0, n_features_in)``, in the order picked.
    scales : array of float, shape (r,)
        Non-negative rescaling factor of each picked feature (the diagonal of D).
    n_features_in : int
        Number of features d of the data the selection was computed on (named
        as scikit-learn names the input's width, so that it is not confused with
        a selector's ``n_features``, the number of features to keep).

    Attributes
    ----------
    n_selected : int
        Number of distinct selected features r.

    Raises
    ------
    TypeError
        indices is not a 1-D integer array, scales does not hold real numbers, or
        n_features_in is not an integer (e.g. 30.7: it is not truncated).
    ValueError
        n_features_in is negative, indices repeated or outside
        ``[0, n_features_in)``, scales negative or not finite, or not one scale per
        index.

    See Also
    --------
    sparsify.bss : Returns a Selection (deterministic, 000 Algorithm 1).
    sparsify.leverage_sample : Returns a Selection (randomized, 001 eq. 4).
    sparsify.spectral_distortion : How well a Selection preserves a subspace.

    Notes
    -----
    Two Selections are equal (``==``) when they have the same indices, in the same
    order, the same scales and the same ``n_features_in``; a Selection is hashable.

    Examples
    --------
    >>> from sparsify import Selection
    >>> sel = Selection(indices=[2, 0], scales=[2.0, 1.0], n_features_in=3)
    >>> X = np.arange(6.0).reshape(2, 3)
    >>> sel.apply(X)
    array([[ 4.,  0.],
           [10.,  3.]])
    >>> bool(np.allclose(X @ sel.matrix().toarray(), sel.apply(X)))
    True
    >>> sel.support()
    array([ True, False,  True])
    """

    indices: np.ndarray
    scales: np.ndarray
    n_features_in: int

    def __post_init__(self):
        indices = np.asarray(self.indices)
        if indices.ndim != 1 or (indices.size and indices.dtype.kind not in "iu"):
            raise TypeError(f"indices must be a 1-D integer array; got {indices!r}.")
        indices = indices.astype(np.intp, copy=True)
        scales = _real_vector(self.scales, "scales")
        d = _check_width(self.n_features_in)
        if scales.shape != indices.shape:
            raise ValueError(
                f"scales has shape {scales.shape} but indices has shape {indices.shape}; "
                "give one scale per index."
            )
        if indices.size:
            _check_range(indices, indices.min(), indices.max(), d)
        if np.unique(indices).size != indices.size:
            raise ValueError("indices must be distinct; merge repeated picks into one scale.")
        self._own(indices, scales, d)

    def _own(self, indices, scales, d):
        """Check the scales, then store the arrays (made read-only) as this Selection's."""
        if not np.all(np.isfinite(scales)) or np.any(scales < 0):
            raise ValueError("scales must be finite and non-negative.")
        indices.flags.writeable = False
        scales.flags.writeable = False
        object.__setattr__(self, "indices", indices)
        object.__setattr__(self, "scales", scales)
        object.__setattr__(self, "n_features_in", d)

    @property
    def n_selected(self):
        """Number of distinct selected features r."""
        return self.indices.size

    def __eq__(self, other):
        if not isinstance(other, Selection):
            return NotImplemented
        return (
            self.n_features_in == other.n_features_in
            and np.array_equal(self.indices, other.indices)
            and np.array_equal(self.scales, other.scales)
        )

    def __hash__(self):
        # Equal Selections have equal indices (the scales may differ by the sign of a 0).
        return hash((self.n_features_in, self.indices.tobytes()))

    def apply(self, X):
        """Return ``X R``: the selected columns of X times their scales.

        Dense input gives a dense array, CSR/CSC input a sparse matrix of the
        same format, and a Dask array a lazy Dask array with the same row
        chunks, each the selection applied to X's chunk.

        Parameters
        ----------
        X : ndarray, sparse matrix or dask.array.Array of shape (n_samples, n_features_in)
            The data the selection was computed on, or new data with the same columns.

        Returns
        -------
        ndarray, sparse matrix or dask.array.Array of shape (n_samples, n_selected)
            ``X R``, of X's kind.

        Raises
        ------
        ValueError
            X is not a 2-D array of finite numbers (see `sparsify.utils.check_X`), or
            has not ``n_features_in`` columns.
        TypeError
            X does not hold numbers.
        """
        return self._apply_valid(check_X(X, lazy=True))

    def _apply_valid(self, X):
        """`apply` on an X validated already (`sparsify.utils.check_X`, or a selector's
        ``transform``): only the number of its columns is checked."""
        if X.shape[1] != self.n_features_in:
            raise ValueError(
                f"X has {X.shape[1]} features but the selection was computed on "
                f"{self.n_features_in}; pass data with the same columns."
            )
        if is_dask(X):
            return map_row_blocks(self._apply_valid, X, self.n_selected)
        if sp.issparse(X):
            return (X.tocsc()[:, self.indices] @ sp.diags(self.scales)).asformat(X.format)
        return X[:, self.indices] * self.scales

    def matrix(self):
        """Return the d x r sampling-and-rescaling matrix R (CSC) with ``X @ R == apply(X)``.

        Returns
        -------
        scipy.sparse.csc_matrix of shape (n_features_in, n_selected)
            R: column j holds ``scales[j]`` in row ``indices[j]``.
        """
        r = self.indices.size
        return sp.csc_matrix(
            (self.scales, (self.indices, np.arange(r))), shape=(self.n_features_in, r)
        )

    def support(self):
        """Return a boolean mask of length d, True for the selected features.

        Returns
        -------
        ndarray of bool, shape (n_features_in,)
            True at ``indices``.
        """
        mask = np.zeros(self.n_features_in, dtype=bool)
        mask[self.indices] = True
        return mask

    @classmethod
    def from_picks(cls, picks, weights, n_features_in, *, factors=None):
        """Build a Selection from picks with repeats, merging repeated picks.

        A feature picked c times with squared scales w_1..w_c appears once, in
        the position of its first pick, with scale ``sqrt(w_1 + ... + w_c)``, so
        that ``R R'`` (and thus ``V' R R' V``) is unchanged. With ``factors``,
        feature j's scale is ``factors[j] * sqrt(w_1 + ... + w_c)``: a per-feature
        factor applied after merging, whose square may overflow (BSS scores
        tiny rows rescaled by powers of two).

        Parameters
        ----------
        picks : array of int, shape (m,)
            Picked feature indices, possibly repeated, in order.
        weights : array of float, shape (m,)
            The squared scale of each pick (the diagonal of D^2).
        n_features_in : int
            Number of features d.
        factors : array of float, shape (n_features_in,), optional
            Multiplies each merged scale; None means all ones.

        Returns
        -------
        Selection

        Raises
        ------
        TypeError
            picks are not integers (1.7 is not truncated), weights or factors not
            real numbers, or n_features_in is not an integer.
        ValueError
            A pick outside ``[0, n_features_in)``, a weight that is negative or
            not finite, not one weight per pick, or factors not of shape
            ``(n_features_in,)``.
        """
        picks = np.asarray(picks)
        if picks.size and picks.dtype.kind not in "iu":
            raise TypeError(f"picks must be integer feature indices; got {picks!r}.")
        picks = picks.astype(np.intp).reshape(-1)
        weights = _real_vector(weights, "weights")
        d = _check_width(n_features_in)
        if weights.shape != picks.shape:
            raise ValueError(
                f"weights has shape {weights.shape} but picks has shape {picks.shape}; "
                "give one weight per pick."
            )
        if not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise ValueError("weights (squared scales) must be finite and non-negative.")
        uniq, first, inverse = np.unique(picks, return_index=True, return_inverse=True)
        if uniq.size:
            _check_range(picks, uniq[0], uniq[-1], d)
        merged = np.bincount(inverse, weights=weights, minlength=uniq.size)
        order = np.argsort(first, kind="stable")
        indices, scales = uniq[order], np.sqrt(merged[order])
        if factors is not None:
            factors = _real_vector(factors, "factors")
            if factors.shape != (d,):
                raise ValueError(
                    f"factors must have shape ({d},), one per feature; got shape {factors.shape}."
                )
            scales *= factors[indices]
        return cls._of_distinct(indices, scales, d)

    @classmethod
    def _of_distinct(cls, indices, scales, d):
        """A Selection of indices known distinct and in [0, d), which it takes over.

        For callers that merged their picks (`from_picks`, `sparsify.bss`): only
        the scales are checked, without the copies and the second np.unique of
        the public constructor. ``indices`` (intp) and ``scales`` (float64) are
        1-D arrays of one shape that the caller does not use afterwards.
        """
        selection = object.__new__(cls)
        selection._own(indices, scales, d)
        return selection


def _check_width(n_features_in):
    """``n_features_in`` as a Python int: an integer >= 0 (a float such as 30.7 is a
    TypeError, not truncated to 30)."""
    return check_n_select(n_features_in, name="n_features_in", low=0, low_inclusive=True)


def _real_vector(values, name):
    """``values`` as a new 1-D float64 array; a TypeError naming ``name`` when they are
    not real numbers (complex ones are not cast to their real parts)."""
    if np.iscomplexobj(values):
        raise TypeError(f"{name} must be real numbers; got complex {name}.")
    try:
        return np.array(values, dtype=np.float64, copy=True).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be real numbers; got {values!r}.") from exc


def _check_range(indices, low, high, d):
    """Raise unless the smallest and largest index, low and high, lie in [0, d)."""
    if low < 0 or high >= d:
        raise ValueError(f"indices must lie in [0, n_features_in={d}); got {indices}.")
