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

__all__ = ["DEBIAN_CALIBRATION", "text_like", "text_regression_target"]

#: Exponent of the Zipf law of word frequencies (about 1 in natural language).
ZIPF_EXPONENT = 1.1

#: ``text_like``'s parameters calibrated on the Debian descriptions as they come
#: (``benchmarks/real_text.py``'s hard split, 20 000 documents; measured by
#: ``python -m benchmarks.text_calibration``): short documents of heavy-tailed
#: lengths, a flat head and a steep tail of word frequencies, families of
#: near-duplicates of which some carry the other label, one positive in five.
DEBIAN_CALIBRATION = {
    "words_per_document": 20,
    "length_spread": 0.55,
    "zipf": 1.45,
    "zipf_offset": 50.0,
    "near_duplicates": 0.155,
    "edit": 0.05,
    "relabel": 0.25,
    "positive_share": 0.16,
}


def text_like(
    n,
    d,
    *,
    words_per_document=100,
    noise=0.3,
    seed=0,
    length_spread=0.0,
    zipf=ZIPF_EXPONENT,
    zipf_offset=0.0,
    near_duplicates=0.0,
    edit=0.1,
    relabel=0.0,
    positive_share=0.5,
):
    """A tf-idf corpus of n documents over d words, and labels in {-1, +1}.

    Each document draws ``3 k`` word occurrences from a Zipf law over the d words
    (rank r has probability proportional to ``(r + zipf_offset)^-zipf``, a
    Zipf-Mandelbrot law; ranks are assigned to columns at random) and keeps the first
    k distinct words drawn, with the number of times each was drawn; k is
    ``words_per_document``, or, with ``length_spread > 0``, a log-normal number of
    median ``words_per_document`` and log-spread ``length_spread`` (at least 1). A
    share ``near_duplicates`` of the documents are then near-copies of others (a
    source drawn at random among the rest, with replacement: families of copies, as
    related packages repeat a description): each of the source's words is replaced by
    a new Zipf draw with probability ``edit``. The counts are weighted by
    ``idf = log((1 + n) / (1 + df)) + 1`` and each row scaled to unit norm. The labels
    are the sign of a linear score (200 random words and the 50 most frequent ones,
    N(0, 1) weights) about its median (about its ``1 - positive_share`` quantile
    otherwise), plus Gaussian noise of ``noise`` times the score's spread: overlapping
    classes, many support vectors; a near-copy then takes its source's label, the
    opposite one with probability ``relabel`` (duplicates with different labels).

    The defaults are the text sweep's corpora (unchanged by the other parameters'
    introduction); :data:`DEBIAN_CALIBRATION` holds the parameters calibrated on the
    Debian descriptions (``benchmarks/text_calibration.py`` measures both).

    Parameters
    ----------
    n, d : int
        Documents and words.
    words_per_document : int, default=100
        Distinct words per document (nonzeros per row; the median with
        ``length_spread``), at most d.
    noise : float, default=0.3
        Label noise relative to the score's standard deviation.
    seed : int, default=0
    length_spread : float, default=0.0
        Standard deviation of the log of the document length (0: every document has
        ``words_per_document`` words).
    zipf, zipf_offset : float, default=1.1 and 0.0
        Exponent and offset of the Zipf-Mandelbrot law of word occurrences.
    near_duplicates : float, default=0.0
        Share of the documents that are near-copies of another, in [0, 1).
    edit : float, default=0.1
        Probability that a near-copy replaces each word of its source.
    relabel : float, default=0.0
        Probability that a near-copy takes the label opposite to its source's.
    positive_share : float, default=0.5
        Share of the score above the labels' threshold (before the noise).

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, d)
        Sorted indices, float64, rows of unit norm.
    y : ndarray of shape (n,)
        -1/+1.
    """
    rng = np.random.default_rng(seed)
    k = min(words_per_document, d)
    probabilities = 1.0 / (np.arange(1, d + 1) + zipf_offset) ** zipf
    probabilities /= probabilities.sum()
    column_of_rank = rng.permutation(d)
    lengths = np.full(n, k)
    if length_spread > 0:
        lengths = np.rint(k * rng.lognormal(0.0, length_spread, n)).astype(int).clip(1, d)
    draws = rng.choice(d, size=3 * int(lengths.sum()), p=probabilities)
    rows, ranks, tf = _first_distinct(draws, lengths, d)
    X = sp.csr_matrix((tf, (rows, column_of_rank[ranks])), shape=(n, d))
    copies, sources = _near_copies(n, near_duplicates, rng)
    if copies.size:
        X = _copy_rows(X, copies, sources, edit, column_of_rank, probabilities, rng)
    X.sort_indices()
    document_frequency = np.bincount(X.indices, minlength=d)
    X.data *= (np.log((1.0 + n) / (1.0 + document_frequency)) + 1.0)[X.indices]
    row_norms = np.sqrt(np.add.reduceat(X.data**2, X.indptr[:-1]))
    X.data /= np.repeat(row_norms, np.diff(X.indptr))
    w = np.zeros(d)
    w[rng.choice(d, min(200, d), replace=False)] = rng.standard_normal(min(200, d))
    w[column_of_rank[: min(50, d)]] += rng.standard_normal(min(50, d))
    score = X @ w
    score -= np.median(score) if positive_share == 0.5 else np.quantile(score, 1 - positive_share)
    score += noise * score.std() * rng.standard_normal(n)
    y = np.where(score > 0, 1.0, -1.0)
    if copies.size:
        flip = rng.random(copies.size) < relabel
        y[copies] = np.where(flip, -y[sources], y[sources])
    return X, y


def _first_distinct(draws, lengths, d):
    """``(rows, words, counts)``: the first ``lengths[i]`` distinct words of document i
    among its ``3 lengths[i]`` draws (consecutive in ``draws``), in the order drawn,
    with the number of times each was drawn (its term frequency)."""
    per_row = 3 * lengths
    row_of = np.repeat(np.arange(lengths.size), per_row)
    position = np.arange(draws.size) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    key = row_of * d + draws
    order = np.argsort(key, kind="stable")  # by (row, word), then by position
    sorted_key = key[order]
    starts = np.flatnonzero(np.r_[True, sorted_key[1:] != sorted_key[:-1]])
    counts = np.diff(np.r_[starts, draws.size]).astype(float)
    rows, words, first = row_of[order[starts]], draws[order[starts]], position[order[starts]]
    by_row = np.lexsort((first, rows))  # each row's words in the order first drawn
    rank = np.arange(by_row.size) - np.searchsorted(rows[by_row], rows[by_row])
    kept = by_row[rank < lengths[rows[by_row]]]
    return rows[kept], words[kept], counts[kept]


def _near_copies(n, share, rng):
    """``(copies, sources)``: ``round(share n)`` documents and, for each, another one."""
    m = int(round(share * n))
    if m == 0:
        return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
    copies = np.sort(rng.choice(n, m, replace=False))
    originals = np.setdiff1d(np.arange(n), copies)
    return copies, rng.choice(originals, m)


def _copy_rows(X, copies, sources, edit, column_of_rank, probabilities, rng):
    """X (term counts) with row ``copies[i]`` a copy of row ``sources[i]`` whose words
    are each replaced, with probability ``edit``, by a new Zipf draw of count 1."""
    kept = X.tocoo()
    keep = ~np.isin(kept.row, copies)
    length = np.diff(X.indptr)[sources]
    entries = np.concatenate([np.arange(X.indptr[s], X.indptr[s + 1]) for s in sources])
    replaced = rng.random(entries.size) < edit
    new = rng.choice(probabilities.size, int(replaced.sum()), p=probabilities)
    rows = np.repeat(copies, length)
    X = sp.csr_matrix(
        (
            np.concatenate([kept.data[keep], X.data[entries[~replaced]], np.ones(new.size)]),
            (
                np.concatenate([kept.row[keep], rows[~replaced], rows[replaced]]),
                np.concatenate([kept.col[keep], X.indices[entries[~replaced]],
                                column_of_rank[new]]),
            ),
        ),
        shape=X.shape,
    )  # fmt: skip
    X.sum_duplicates()
    return X


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
