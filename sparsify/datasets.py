"""Data sets of the papers: synthetic generators and small real data shipped with the package.

Every loader returns ``(X, y)`` with X of shape (n_samples, n_features) and, for
the classification data, labels in {-1, +1}.
"""

import os
from importlib import resources

import numpy as np
from sklearn.datasets import load_breast_cancer, load_svmlight_files

from ._validation import check_n_select, check_random_state

__all__ = [
    "make_bhattacharyya",
    "make_orange",
    "make_zou_bernoulli",
    "load_wdbc",
    "load_ionosphere",
    "load_svmlight_dir",
]


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
        The points; columns 0..k-1 are the relevant features.
    y : ndarray of shape (n,)
        The labels, in {-1, +1}.

    Raises
    ------
    TypeError
        n, d or k is not an integer, or random_state is of an unsupported type.
    ValueError
        n < 1, d < 1 or k outside [0, d].

    See Also
    --------
    make_orange : The "orange data" of 004.
    make_zou_bernoulli : The Bernoulli models of 004.

    Examples
    --------
    >>> from sparsify.datasets import make_bhattacharyya
    >>> X, y = make_bhattacharyya(n=30, d=100, k=10, random_state=0)
    >>> X.shape, np.unique(y).tolist()
    ((30, 100), [-1.0, 1.0])

    Feature k (index k - 1) times the label has mean -k:

    >>> round(float(np.mean(y * X[:, 9])))
    -10
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


def _quadratic_dictionary(Z):
    """The enlarged dictionary of 004 sec. 4.1: ``{sqrt(2) z_j, sqrt(2) z_j z_k (j < k), z_j^2}``.

    For m input variables it has ``2 m + m (m - 1) / 2`` columns, in that order
    (linear terms, cross products in (j, k) lexicographic order, squares).
    """
    m = Z.shape[1]
    j, k = np.triu_indices(m, k=1)
    return np.hstack([np.sqrt(2.0) * Z, np.sqrt(2.0) * Z[:, j] * Z[:, k], Z**2])


def make_orange(q, n, random_state=None):
    """The "orange data" of 004 sec. 4.1 (Models 1 and 4 of Zou 2007; Zhu et al. 2003).

    Two classes with equal probability. Class +1: x_1, x_2 independent standard
    normals. Class -1: x_1, x_2 standard normals conditioned on
    ``4.5 <= x_1^2 + x_2^2 <= 8`` (the skin around the core; drawn by
    rejection). Both classes get q further independent standard normal noise
    variables. The returned features are the enlarged dictionary
    ``{sqrt(2) x_j, sqrt(2) x_j x_k (j < k), x_j^2 : j, k = 1..2+q}`` in which
    the Bayes rule ``1 - 2 I(4.5 <= x_1^2 + x_2^2 <= 8)`` is linear
    (Bayes error about 4%).

    Parameters
    ----------
    q : int
        Number of noise variables, q >= 0 (004 uses 2, 4, ..., 20).
    n : int
        Number of points.
    random_state : None, int or numpy.random.Generator
        Seed of the generator.

    Returns
    -------
    X : ndarray of shape (n, p)
        The enlarged dictionary, p = 2 (2 + q) + (2 + q)(1 + q) / 2 (q = 6: p = 44);
        its last 2 + q columns are the squares x_j^2.
    y : ndarray of shape (n,)
        The labels, in {-1, +1}.

    Raises
    ------
    TypeError
        q or n is not an integer, or random_state is of an unsupported type.
    ValueError
        q < 0 or n < 1.

    See Also
    --------
    make_zou_bernoulli : The other models of 004 sec. 4.1.
    make_bhattacharyya : Relevant and noise features of 000 and 001.

    Examples
    --------
    >>> from sparsify.datasets import make_orange
    >>> X, y = make_orange(6, 50, random_state=0)
    >>> X.shape
    (50, 44)

    The points of class -1 lie in the skin ``4.5 <= x_1^2 + x_2^2 <= 8``:

    >>> r2 = X[:, 36] + X[:, 37]
    >>> bool(np.all((r2[y < 0] >= 4.5) & (r2[y < 0] <= 8)))
    True
    """
    q = check_n_select(q, name="q", low=0, low_inclusive=True)
    n = check_n_select(n, name="n", low=1, low_inclusive=True)
    rng = check_random_state(random_state)
    y = rng.choice(np.array([-1.0, 1.0]), size=n)
    core = rng.standard_normal((n, 2))
    skin = np.flatnonzero(y < 0)
    while skin.size:
        draw = rng.standard_normal((skin.size, 2))
        radius2 = np.sum(draw**2, axis=1)
        ok = (radius2 >= 4.5) & (radius2 <= 8.0)
        core[skin[ok]] = draw[ok]
        skin = skin[~ok]
    Z = np.hstack([core, rng.standard_normal((n, q))])
    return _quadratic_dictionary(Z), y


# 004 sec. 4.1 (Models 2, 3 and 5 of Zou 2007): intercept, coefficients, correlation.
_ZOU_MODELS = {
    2: (0.0, np.array([3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 3], dtype=float), "constant", 0),
    3: (1.0, np.array([3, 2, 0, 0, 0, 0, 0, 0, 0], dtype=float), "ar1", 0),
    5: (1.0, np.array([3, 2, 0, 0, 0, 0, 0, 0, 0], dtype=float), "ar1", 300),
}


def make_zou_bernoulli(model, rho, n, random_state=None):
    """The Bernoulli models of 004 sec. 4.1 (Models 2, 3 and 5 of Zou 2007).

    ``y ~ Bernoulli(p(u))`` with ``p(u) = 1 / (1 + exp(-(x'beta + beta_0 + eps)))``,
    eps a standard normal error, and x standard normal with correlation:

    * Model 2 (sparse): beta_0 = 0, beta = (3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 3),
      corr(x_i, x_j) = rho for i != j (004 uses rho = 0 and 0.5).
    * Model 3 (sparse): beta_0 = 1, beta = (3, 2, 0, 0, 0, 0, 0, 0, 0),
      corr(x_i, x_j) = rho^|i - j| (rho = 0 and 0.5). 004's text says
      "x_1, ..., x_12" for this model but lists 9 coefficients; Model 5's
      "total of 309 features" (9 + 300) confirms 9.
    * Model 5 (noisy features): Model 3 plus 300 independent standard normal
      noise features (309 in all); 004 uses rho = 0.5.

    Parameters
    ----------
    model : {2, 3, 5}
        The model number of 004 sec. 4.1.
    rho : float in [0, 1)
        The correlation parameter of the features x.
    n : int
        Number of points.
    random_state : None, int or numpy.random.Generator
        Seed of the generator.

    Returns
    -------
    X : ndarray of shape (n, 12), (n, 9) or (n, 309)
        The points (12 features for Model 2, 9 for Model 3, 309 for Model 5).
    y : ndarray of shape (n,)
        The labels, in {-1, +1} (+1 for the Bernoulli success).

    Raises
    ------
    ValueError
        model is not 2, 3 or 5, rho is outside [0, 1), or n < 1.
    TypeError
        n is not an integer, or random_state is of an unsupported type.

    See Also
    --------
    make_orange : Models 1 and 4 of 004 sec. 4.1.

    Examples
    --------
    >>> from sparsify.datasets import make_zou_bernoulli
    >>> X, y = make_zou_bernoulli(5, 0.5, 40, random_state=0)
    >>> X.shape, np.unique(y).tolist()
    ((40, 309), [-1.0, 1.0])
    """
    if model not in _ZOU_MODELS:
        raise ValueError(f"model must be 2, 3 or 5 (004 sec. 4.1); got {model!r}.")
    if not (0 <= rho < 1):
        raise ValueError(f"rho must lie in [0, 1); got {rho}.")
    n = check_n_select(n, name="n", low=1, low_inclusive=True)
    rng = check_random_state(random_state)
    intercept, beta, structure, n_noise = _ZOU_MODELS[model]
    m = beta.size
    lag = np.abs(np.subtract.outer(np.arange(m), np.arange(m)))
    corr = np.where(lag == 0, 1.0, rho) if structure == "constant" else float(rho) ** lag
    X = rng.multivariate_normal(np.zeros(m), corr, size=n, method="cholesky")
    u = X @ beta + intercept + rng.standard_normal(n)
    y = np.where(rng.random(n) < 1.0 / (1.0 + np.exp(-u)), 1.0, -1.0)
    if n_noise:
        X = np.hstack([X, rng.standard_normal((n, n_noise))])
    return X, y


def load_ionosphere():
    """The UCI Ionosphere data shipped with the package: 351 x 33, labels good=+1, bad=-1.

    The constant attribute 2 of the original 34 (0 for every row) is dropped.

    Returns
    -------
    X : ndarray of shape (351, 33)
        The 33 non-constant attributes.
    y : ndarray of shape (351,)
        The labels: good = +1, bad = -1.

    See Also
    --------
    load_wdbc : The other real data set shipped with the package.

    Examples
    --------
    >>> from sparsify.datasets import load_ionosphere
    >>> X, y = load_ionosphere()
    >>> X.shape, int(np.sum(y == 1)), int(np.sum(y == -1))
    ((351, 33), 225, 126)
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
        The 30 features.
    y : ndarray of shape (569,)
        The labels: malignant = +1, benign = -1.

    See Also
    --------
    sklearn.datasets.load_breast_cancer : The same data, labels 0 (malignant) and 1.
    load_ionosphere : The other real data set shipped with the package.

    Examples
    --------
    >>> from sparsify.datasets import load_wdbc
    >>> X, y = load_wdbc()
    >>> X.shape, int(np.sum(y == 1)), int(np.sum(y == -1))
    ((569, 30), 212, 357)
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
        The rows of every file, in file order.
    y : ndarray of shape (n_samples,)
        The labels as stored in the files.

    Raises
    ------
    ValueError
        path is not a folder, or holds no SVMlight file.

    See Also
    --------
    sklearn.datasets.load_svmlight_files : The reader of each file.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn.datasets import dump_svmlight_file
    >>> from sparsify.datasets import load_svmlight_dir
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     dump_svmlight_file(np.eye(2, 4), [1, -1], os.path.join(folder, "a.dat"))
    ...     dump_svmlight_file(np.eye(3, 4), [1, 1, -1], os.path.join(folder, "b.dat"))
    ...     X, y = load_svmlight_dir(folder, n_features=4)
    >>> X.shape, X.format, y.tolist()
    ((5, 4), 'csr', [1.0, -1.0, 1.0, 1.0, -1.0])
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
