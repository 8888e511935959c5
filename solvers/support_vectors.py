"""Supervised feature selection on the support vectors (001 Theorem 1)."""

import numpy as np
from sklearn.base import clone
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.multiclass import check_classification_targets

from sparsify import BSSSelector
from sparsify.selectors import _BaseSelector

from .svm import SVMDual

__all__ = ["SupportVectorSelector"]


def _support_vector_selection(selector, X, y):
    """The selector fitted on the support vectors of the SVM (one per class when more)."""
    y = np.asarray(y)
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(f"y must hold at least two classes; got one class {classes}.")
    svm = SVMDual() if selector.svm is None else selector.svm
    # Two classes: one SVM. More: one SVM per class against the rest, and the support
    # vectors of any of them (Theorem 1 then holds for each binary problem).
    targets = [y] if classes.size == 2 else [y == c for c in classes]
    selector.svms_ = [clone(svm).fit(X, t) for t in targets]
    if not hasattr(selector.svms_[0], "support_"):
        raise ValueError(
            f"svm={svm!r} sets no support_ when fitted: it has no support vectors to select "
            "on. Give an SVM (SVMDual, L2SVM, L1SVM, SVM2, or any classifier setting support_)."
        )
    sv = np.unique(np.concatenate([np.asarray(m.support_) for m in selector.svms_]))
    if sv.size == 0:
        raise ValueError("the SVM found no support vectors; there is nothing to select on.")
    selector.support_vectors_ = sv
    selector = BSSSelector() if selector.selector is None else selector.selector
    selector.selector_ = clone(selector).fit(X[sv], y[sv])
    return selector.selector_.selection_


class SupportVectorSelector(_BaseSelector):
    """Fit an SVM, then run a sparsify selector on its support vectors only (001 Theorem 1).

    Theorem 1 of 001: BSS on the p support vectors ``X_sv`` with ``r = 36 p / eps^2``
    features keeps the margin, ``gamma~^2 >= (1 - eps) gamma^2``; the same construction
    with leverage-score sampling holds with high probability. Any sparsify selector can
    be given; its ``n_features``/``epsilon`` decide r (for BSS with ``epsilon``, r comes
    from the theorem with ell = rank of ``X_sv`` <= p).

    Parameters
    ----------
    selector : sparsify selector, default=None
        Fitted (a clone) on ``(X[support], y[support])``; None means
        ``sparsify.BSSSelector()``.
    svm : classifier with ``support_``, default=None
        Any SVM of this package (SVMDual, L2SVM, L1SVM, SVM2 and their variants set
        ``support_``; RLSC and the regressors do not: a ValueError); None means
        ``SVMDual(C=1.0)``.

    Attributes
    ----------
    svms_ : list of fitted clones of ``svm``
        One for two classes; one per class (that class against the rest) for more.
    selector_ : fitted clone of ``selector``
    support_vectors_ : ndarray of int
        Row indices of the support vectors (the union of the ``support_`` of ``svms_``).
    selection_ : sparsify.Selection
        The selection of ``selector_``; ``transform`` applies it to any X.
    indices_ : ndarray of int
        ``selection_.indices``: the selected columns, in the order picked.
    scales_ : ndarray
        ``selection_.scales``: the scale of each selected column.

    See Also
    --------
    SVMDual : The default SVM, whose ``support_`` are the support vectors.
    sparsify.BSSSelector : The default selector (BSS, 001 Theorem 1).
    sparsify.LeverageSelector : Leverage-score sampling, the randomised construction.

    Examples
    --------
    >>> from solvers import SupportVectorSelector
    >>> from sparsify import BSSSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 20))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> sel = SupportVectorSelector(selector=BSSSelector(n_features=8, k=3)).fit(X, y)
    >>> bool(np.array_equal(sel.support_vectors_, sel.svms_[0].support_))
    True
    >>> X_new = sel.transform(X)
    >>> X_new.shape[0], bool(X_new.shape[1] <= 8)
    (30, True)
    """

    _parameter_constraints = {
        "selector": [HasMethods(["fit", "transform"]), None],
        "svm": [HasMethods(["fit"]), None],
    }

    def __init__(self, selector=None, svm=None):
        self.selector = selector
        self.svm = svm

    def fit(self, X, y=None):
        """Fit the SVM on (X, y) and the selector on the support vectors.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            The training data.
        y : array-like of shape (n_samples,)
            Class labels (two or more classes); required, None is a ValueError.

        Returns
        -------
        SupportVectorSelector
            The fitted selector.

        Raises
        ------
        ValueError
            y is None or holds fewer than two classes, the svm sets no ``support_``, or
            the SVM found no support vectors.
        """
        if y is None:
            raise ValueError(
                "SupportVectorSelector requires y to be passed, but the target y is None: "
                "it is supervised; call fit(X, y) with the labels."
            )
        return super().fit(X, y)

    _selection = staticmethod(_support_vector_selection)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
