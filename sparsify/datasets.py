"""Data sets of the papers: synthetic generators and small real data shipped with the package.

Every loader returns ``(X, y)`` with X of shape (n_samples, n_features) and, for
the classification data, labels in {-1, +1}.
"""

import os
from importlib import resources

import numpy as np
from sklearn.datasets import load_breast_cancer, load_svmlight_files

from ._validation import check_n_select, check_random_state

__all__ = ["make_bhattacharyya", "load_wdbc", "load_ionosphere", "load_svmlight_dir"]


def make_bhattacharyya(n=30, d=1000, k=90, random_state=None):
    """Synthetic data with k relevant and d - k noise features (000 sec. 6.3, 001 sec. 5.2).

    Labels are +1 or -1 with equal probability. For j = 1..k, feature j of a
    point with label y_i is drawn from ``y_i * N(-j, 1)``; the remaining d - k
    features are N(0, 1). Feature k (index k - 1) is the most discriminative,
    then k - 1, and so on.

    Parameters
    ----------
    n : int
        Number of points.
    d : int
        Number of features.
    k : int
        Number of relevant features, 0 <= k <= d.
    random_state : None, int or numpy.random.Generator
        Seed of the generator.

    Returns
    -------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), values in {-1, +1}
    """
    n = check_n_select(n, name="n", low=1, low_inclusive=True)
    d = check_n_select(d, name="d", low=1, low_inclusive=True)
    k = check_n_select(k, name="k", low=0, high=d, low_inclusive=True)
    rng = check_random_state(random_state)
    y = rng.choice(np.array([-1.0, 1.0]), size=n)
    X = rng.standard_normal((n, d))
    means = -np.arange(1, k + 1, dtype=np.float64)
    X[:, :k] = y[:, None] * (X[:, :k] + means)
    return X, y


def load_ionosphere():
    """The UCI Ionosphere data shipped with the package: 351 x 33, labels good=+1, bad=-1.

    The constant attribute 2 of the original 34 is dropped (shared/data/README.md).

    Returns
    -------
    X : ndarray of shape (351, 33)
    y : ndarray of shape (351,), values in {-1, +1}
    """
    with resources.files("sparsify").joinpath("data/ionosphere.csv").open("r") as fh:
        data = np.loadtxt(fh, delimiter=",", skiprows=1, dtype=np.float64)
    return data[:, :-1], data[:, -1]


def load_wdbc():
    """The Wisconsin Diagnostic Breast Cancer data (569 x 30), as shipped with scikit-learn.

    Labels: malignant = +1, benign = -1.

    Returns
    -------
    X : ndarray of shape (569, 30)
    y : ndarray of shape (569,), values in {-1, +1}
    """
    data = load_breast_cancer()
    # scikit-learn codes malignant as 0 and benign as 1.
    y = np.where(data.target == 0, 1.0, -1.0)
    return np.array(data.data, dtype=np.float64), y


def load_svmlight_dir(path, *, n_features=None):
    """Load every SVMlight file of a folder (TechTC-style) into one CSR matrix.

    Files ending in ``.dat``, ``.svm``, ``.svmlight`` or ``.txt`` are read in
    sorted name order with a shared feature space (scikit-learn's
    ``load_svmlight_files``) and stacked row-wise.

    Parameters
    ----------
    path : str or os.PathLike
        A folder holding the SVMlight files.
    n_features : int, optional
        Number of features; inferred from the largest index when None.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), the labels as stored in the files
    """
    import scipy.sparse as sp

    if not os.path.isdir(path):
        raise ValueError(f"path={path!r} is not a folder; give a folder of SVMlight files.")
    names = sorted(
        f
        for f in os.listdir(path)
        if f.endswith((".dat", ".svm", ".svmlight", ".txt"))
        and os.path.isfile(os.path.join(path, f))
    )
    if not names:
        raise ValueError(
            f"path={path!r} holds no SVMlight files (*.dat, *.svm, *.svmlight, *.txt)."
        )
    loaded = load_svmlight_files(
        [os.path.join(path, f) for f in names], n_features=n_features, dtype=np.float64
    )
    X = sp.vstack(loaded[0::2], format="csr")
    y = np.concatenate(loaded[1::2])
    return X, y
