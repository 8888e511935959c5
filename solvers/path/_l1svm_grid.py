"""The 1-norm SVM's lam chosen on a grid of lams, where its exact path is too long.

004 sec. 2.2.1 chooses lam at the breakpoint of the exact path that scores best on
validation data (`Path.select`). The 1-norm SVM's path (`l1_svm_path`) has about
``2 (n + min(n, d))`` breakpoints, each a pass over X: on 15 000 x 200 000 text it
ran for more than 2700 s, its step LPs holding 8000-10000 samples on the elbow.
`grid_selection` chooses among `N_LAMS` lams instead, log-spaced from lam_max down
to `LAM_MIN_RATIO` lam_max (glmnet's grid for n < d: 100 lams down to 1e-4; 41 here,
ten a decade), each solved by column generation
(:func:`solvers._lp_column_generation.l1_svm_column_generation`) warm-started from
the last one's working set and basis. The solution at a lam is unique for data in
general position, and then the path's (`Path.at`), so the lam chosen is the path's
selection restricted to the grid: the best grid lam, ties to the largest.

Below 1e-4 lam_max the LP nears separating the training data: on 15 000 x 200 000
text (100 words a document) one solve took 1.7 s at 1e-4 lam_max, 30 s at 3e-5 and
713 s at 1e-5, while the validation accuracy was flat from 1e-3 lam_max down.
"""

import warnings

import numpy as np

from sparsify.utils import signed_labels

from .._lp_column_generation import l1_svm_column_generation, l1_svm_lam_max
from ..exceptions import PathWarning
from ._path import best_index, default_scores

__all__ = ["LAM_MIN_RATIO", "N_LAMS", "grid_selection"]

#: Lams of the grid, log-spaced from lam_max (ten a decade).
N_LAMS = 41
#: The smallest lam of the grid, as a fraction of lam_max.
LAM_MIN_RATIO = 1e-4


def grid_lams(lam_max):
    """The grid: `N_LAMS` lams log-spaced from lam_max to ``LAM_MIN_RATIO * lam_max``."""
    return np.geomspace(lam_max, LAM_MIN_RATIO * lam_max, N_LAMS)


def grid_selection(X, y, weights, X_val, y_val, classes, *, sample_weight=None, val_weight=None):
    """The grid lam whose weighted 1-norm SVM (004 eq. 6) scores best on validation data.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Validated training samples.
    y : ndarray of shape (n_samples,)
        Their labels, the two of ``classes``.
    weights : ndarray of shape (n_features,)
        Penalty weights, each > 0 or +inf (the hybrid weights).
    X_val, y_val : validated validation samples and labels.
    classes : ndarray of shape (2,)
        The sorted labels; ``classes[1]`` is predicted for a positive decision.
    sample_weight, val_weight : ndarray, optional
        The sample weights of the training and of the validation samples.

    Returns
    -------
    lams : ndarray
        The grid lams solved (all of the grid unless a solve did not converge).
    scores : ndarray
        The default score of each (`Path.scores`: the weighted accuracy).
    lam : float
        The best of ``lams``, ties to the largest; 0 when no feature can enter
        (lam_max is 0), lam_max when no lam was solved.

    Warns
    -----
    PathWarning
        When a solve does not converge: the grid stops at the lam before it.
    """
    signed = signed_labels(y, classes)
    lam_max = l1_svm_lam_max(X, signed, weights, sample_weight=sample_weight)
    if lam_max <= 0:
        return np.zeros(0), np.zeros(0), 0.0
    lams, scores, last = [], [], None
    for lam in grid_lams(lam_max):
        result = l1_svm_column_generation(
            X,
            signed,
            lam,
            weights,
            sample_weight=sample_weight,
            working=None if last is None else last.working,
            basis=None if last is None else last.basis,
        )
        if not result.converged:
            warnings.warn(
                f"the 1-norm SVM at lam={lam:.6g} (lam_max={lam_max:.6g}) was not solved to "
                f"its tolerance; lam is chosen among the {len(lams)} larger lams of the grid.",
                PathWarning,
                stacklevel=3,
            )
            break
        last = result
        decisions = np.asarray(X_val @ result.coef).reshape(-1, 1) + result.intercept
        lams.append(lam)
        scores.append(float(default_scores(decisions, y_val, classes, val_weight)[0]))
    if not lams:  # not even lam_max solved: its model, w = 0
        return np.zeros(0), np.zeros(0), float(lam_max)
    return np.array(lams), np.array(scores), float(lams[best_index(scores)])
