"""Text-like data at the papers' scale: sparse tf-idf documents with Zipf word frequencies.

The papers select features for text classification (TechTC, 000 sec. 6.4; 003):
thousands of documents, tens of thousands of words, about a hundred distinct words
per document, word frequencies that fall off as a power of the rank (Zipf). This
generator draws such a corpus, weights it as scikit-learn's ``TfidfVectorizer`` does
(``tf * idf`` with the smooth idf, rows scaled to unit norm) and plants a sparse
linear rule for the labels and a sparse linear model for a regression target, so
that every estimator of the package can be timed on the same documents.
"""

import numpy as np
import scipy.sparse as sp

__all__ = ["text_like", "text_regression_target"]

#: Exponent of the Zipf law of word frequencies (about 1 in natural language).
ZIPF_EXPONENT = 1.1


def text_like(n, d, *, words_per_document=100, noise=0.3, seed=0):
    """A tf-idf corpus of n documents over d words, and labels in {-1, +1}.

    Each document draws ``3 * words_per_document`` word occurrences from a Zipf law
    over the d words (rank r has probability proportional to ``r^-1.1``; ranks are
    assigned to columns at random) and keeps the first ``words_per_document``
    distinct words drawn, with the number of times each was drawn. The counts are weighted by
    ``idf = log((1 + n) / (1 + df)) + 1`` and each row scaled to unit norm. The labels
    are the sign of a linear score (200 random words and the 50 most frequent ones,
    N(0, 1) weights) about its median, plus Gaussian noise of ``noise`` times the
    score's spread: overlapping classes, many support vectors.

    Parameters
    ----------
    n, d : int
        Documents and words.
    words_per_document : int, default=100
        Distinct words per document (nonzeros per row), at most d.
    noise : float, default=0.3
        Label noise relative to the score's standard deviation.
    seed : int, default=0

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, d)
        Sorted indices, float64, rows of unit norm.
    y : ndarray of shape (n,)
        -1/+1.
    """
    rng = np.random.default_rng(seed)
    k = min(words_per_document, d)
    probabilities = 1.0 / np.arange(1, d + 1) ** ZIPF_EXPONENT
    probabilities /= probabilities.sum()
    column_of_rank = rng.permutation(d)
    draws = rng.choice(d, size=(n, 3 * k), p=probabilities)
    # The first k distinct words of each document, in the order drawn, with the
    # number of times each was drawn (its term frequency).
    order = np.argsort(draws, axis=1, kind="stable")
    ranked = np.take_along_axis(draws, order, axis=1)
    first = np.ones(draws.shape, dtype=bool)
    first[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    positions = np.where(first, order, draws.shape[1])
    chosen = np.sort(positions, axis=1)[:, :k]
    rows = np.broadcast_to(np.arange(n)[:, None], chosen.shape)
    valid = chosen < draws.shape[1]
    rows, ranks = rows[valid], draws[rows[valid], chosen[valid]]
    counts = sp.csr_matrix(
        (np.ones(draws.size), (np.repeat(np.arange(n), draws.shape[1]), draws.ravel())),
        shape=(n, d),
    )
    tf = np.asarray(counts[rows, ranks]).ravel()
    X = sp.csr_matrix((tf, (rows, column_of_rank[ranks])), shape=(n, d))
    X.sort_indices()
    document_frequency = np.bincount(X.indices, minlength=d)
    X.data *= (np.log((1.0 + n) / (1.0 + document_frequency)) + 1.0)[X.indices]
    row_norms = np.sqrt(np.add.reduceat(X.data**2, X.indptr[:-1]))
    X.data /= np.repeat(row_norms, np.diff(X.indptr))
    w = np.zeros(d)
    w[rng.choice(d, min(200, d), replace=False)] = rng.standard_normal(min(200, d))
    w[column_of_rank[: min(50, d)]] += rng.standard_normal(min(50, d))
    score = X @ w
    score -= np.median(score)
    score += noise * score.std() * rng.standard_normal(n)
    return X, np.where(score > 0, 1.0, -1.0)


def text_regression_target(X, *, k=50, noise=0.1, offset=3.0, seed=1):
    """``X beta + offset + e``: a sparse linear model of k random words plus noise.

    Parameters
    ----------
    X : sparse matrix of shape (n, d)
    k : int, default=50
        Nonzero coefficients, N(0, 1).
    noise : float, default=0.1
        Standard deviation of the Gaussian noise.
    offset : float, default=3.0
        The intercept.
    seed : int, default=1

    Returns
    -------
    ndarray of shape (n,)
    """
    rng = np.random.default_rng(seed)
    n, d = X.shape
    beta = np.zeros(d)
    beta[rng.choice(d, min(k, d), replace=False)] = rng.standard_normal(min(k, d))
    return np.asarray(X @ beta).ravel() + offset + noise * rng.standard_normal(n)
