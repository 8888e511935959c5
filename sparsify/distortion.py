"""The spectral certificate behind the papers' guarantees (000 Lemma 2, 001 Lemma 1-2)."""

import numpy as np
from sklearn.utils._param_validation import validate_params

from ._validation import check_orthonormal
from .selection import Selection

__all__ = ["spectral_distortion"]


@validate_params(
    {"V": ["array-like", "sparse matrix"], "selection": [Selection]},
    prefer_skip_nested_validation=True,
)
def spectral_distortion(V, selection):
    """Return ``||I - V' R R' V||_2`` for the sampling-and-rescaling matrix R of a selection.

    BSS guarantees at most ``3 sqrt(ell/r)`` (000 Lemma 2); leverage-score
    sampling at most epsilon with high probability (001 Lemma 2). The theorems on
    RLSC and SVM margins follow from this number, so it certifies a selection.

    Parameters
    ----------
    V : array of shape (d, ell)
        Orthonormal columns, e.g. the top right singular vectors of X.
    selection : Selection
        A selection over the same d features.

    Returns
    -------
    float
        The spectral norm ``||I - V' R R' V||_2``.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        V not an array or selection not a `Selection`.
    ValueError
        V without orthonormal columns, or a selection over another number of features.

    See Also
    --------
    sparsify.bss : Deterministic selection with distortion at most ``3 sqrt(ell/r)``.
    sparsify.leverage_sample : Randomized selection with distortion at most epsilon.
    sparsify.utils.right_singular_vectors : The V of a data matrix.

    Examples
    --------
    >>> from sparsify import Selection, spectral_distortion
    >>> V = np.linalg.qr(np.random.default_rng(0).standard_normal((6, 2)))[0]

    Keeping every feature unscaled is exact; one feature cannot span two directions:

    >>> bool(spectral_distortion(V, Selection(np.arange(6), np.ones(6), 6)) < 1e-12)
    True
    >>> round(spectral_distortion(V, Selection([0], [1.0], 6)), 6)
    1.0
    """
    V = check_orthonormal(V)
    if selection.n_features_in != V.shape[0]:
        raise ValueError(
            f"selection is over {selection.n_features_in} features but V has {V.shape[0]} rows; "
            "pass the V of the data the selection was computed on."
        )
    B = V[selection.indices].T * selection.scales
    eig = np.linalg.eigvalsh(np.eye(V.shape[1]) - B @ B.T)
    return float(np.max(np.abs(eig)))
