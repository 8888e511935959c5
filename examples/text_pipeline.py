"""Feature selection for text classification on a TechTC folder (000 sec. 6.4, 003 sec. 6).

The pipeline of 000 sec. 6.4 (TechTC-300, RLSC) and 003 sec. 6 (TechTC-100,
sampling strategies), on one TechTC-style folder:

1. Read the documents: every SVMlight file of the folder (``vectors.dat`` in
   TechTC) through `sparsify.datasets.load_svmlight_dir`, labels +-1.
2. Drop the words of at most four letters (000 sec. 6.4). The SVMlight vectors
   carry only feature numbers; the words come from the folder's vocabulary file,
   ``features.idx`` in TechTC: one ``<feature number> <word>`` pair per line,
   ``#`` comment lines ignored, numbers 1-based as in the SVMlight files (feature
   number j is column j - 1). A feature without a word in the file is dropped
   with the short words. Without the file the filter cannot be applied and
   `load_folder` raises, unless ``min_word_length=0`` turns it off.
3. Select r features on each training fold: BSS (000 Algorithm 1 on all
   rank(X_train) right singular vectors), leverage-score sampling with k = 10 and
   k = rank(X_train), as r i.i.d. trials (001 eq. 4, 000 sec. 6.2) and as 003's
   Bernoulli sampling with expected size r (SRLS, 003 Figure 1; SS in 003 sec.
   6.2), weight-based (WS, 003 eq. 23) and uniform (US) Bernoulli sampling,
   document frequency (DF), information gain (IG, 003 eq. 24) and RRQR; and all
   features.
4. Train RLSC (`solvers.RLSC`, 000 eq. 1-3) at lambda in {0.1, 0.3, 0.5, 0.7}
   (000 sec. 6.4) and the SVM (`solvers.SVMDual`, C = 1, 001 sec. 5) on the
   selected features, and measure the out-of-sample error by repeated stratified
   10-fold cross-validation, for r in {300, 400, 500}.

The values are used as stored in the files (no re-weighting). The script prints a
table of mean +- sd errors and writes the RLSC error (mean over the lambdas)
against r, with error bars, to examples/output/text_pipeline.png.

Run: ``python examples/text_pipeline.py FOLDER [--quick] [--r 300 400 500]``.
"""

import argparse
import collections
import os
import sys

import numpy as np

from solvers import RLSC, SVMDual
from sparsify import (
    BSSSelector,
    DocFreqSelector,
    InfoGainSelector,
    LeverageSelector,
    RRQRSelector,
    UniformSelector,
    WeightSelector,
)
from sparsify.datasets import load_svmlight_dir

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _evaluation import (  # noqa: E402
    PASSTHROUGH,
    cross_validate,
    markdown_table,
    mean_sd,
    plot_error_vs_r,
)

VOCABULARY_FILE = "features.idx"  # TechTC's list of the words behind the feature numbers
MIN_WORD_LENGTH = 5  # 000 sec. 6.4: "We removed all words of length at most four"
LAMBDAS = (0.1, 0.3, 0.5, 0.7)  # RLSC's lambdas in 000 sec. 6.4
R_VALUES = (300, 400, 500)  # 000 sec. 6.4 and 001 sec. 5.2 (TechTC-300)
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "output")


def read_vocabulary(path):
    """Read a TechTC ``features.idx``: ``{column: word}`` (column = feature number - 1).

    Parameters
    ----------
    path : str or os.PathLike
        The vocabulary file: ``<feature number> <word>`` per line, numbers >= 1;
        blank lines and lines starting with ``#`` are skipped.

    Returns
    -------
    dict of int to str

    Raises
    ------
    ValueError
        If a line is not a positive integer followed by a word.
    """
    words = {}
    with open(path, encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, start=1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2 or not fields[0].isdigit() or int(fields[0]) < 1:
                raise ValueError(
                    f"{path}, line {number}: expected '<feature number >= 1> <word>', "
                    f"got {line.strip()!r}."
                )
            words[int(fields[0]) - 1] = fields[1]
    return words


def load_folder(path, *, min_word_length=MIN_WORD_LENGTH):
    """Load a TechTC folder and drop the words shorter than ``min_word_length``.

    Parameters
    ----------
    path : str or os.PathLike
        A folder with SVMlight files (TechTC: ``vectors.dat``) and, for the word
        filter, the vocabulary file ``features.idx``.
    min_word_length : int, default=5
        Keep the features whose word has at least this many characters (000 sec.
        6.4 drops those of at most four); 0 keeps every feature and needs no
        vocabulary.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_documents, n_kept)
    y : ndarray of shape (n_documents,)
    words : ndarray of str, shape (n_kept,)
        The kept features' words ("#j" for feature number j without a vocabulary).

    Raises
    ------
    ValueError
        If the folder has no SVMlight files, or the filter is asked for and the
        folder has no vocabulary file.
    """
    vocabulary_path = os.path.join(path, VOCABULARY_FILE)
    if min_word_length > 0 and not os.path.isfile(vocabulary_path):
        raise ValueError(
            f"path={path!r} has no {VOCABULARY_FILE}: the SVMlight files carry only "
            "feature numbers, so the words of at most four letters cannot be found. "
            f"Add the folder's {VOCABULARY_FILE} ('<feature number> <word>' per line) "
            "or pass min_word_length=0 to keep every feature."
        )
    vocabulary = read_vocabulary(vocabulary_path) if min_word_length > 0 else {}
    n_features = max(vocabulary) + 1 if vocabulary else None
    X, y = load_svmlight_dir(path, n_features=n_features)
    if min_word_length == 0:
        return X, y, np.array([f"#{j + 1}" for j in range(X.shape[1])])
    keep = np.array([j for j in range(X.shape[1]) if len(vocabulary.get(j, "")) >= min_word_length])
    if keep.size == 0:
        raise ValueError(
            f"no word of {path!r} has {min_word_length} or more characters; lower min_word_length."
        )
    return X[:, keep], y, np.array([vocabulary[j] for j in keep])


def selectors(r):
    """The selection methods of 000 sec. 6.2 and 003 sec. 6.2, r features each."""
    methods = {"BSS": BSSSelector(n_features=r)}
    for method in ("iid", "bernoulli"):
        for k, k_name in ((10, "10"), (None, "rank")):
            methods[f"Lvg {method} (k={k_name})"] = LeverageSelector(
                n_features=r, k=k, method=method
            )
    methods["WS"] = WeightSelector(n_features=r, method="bernoulli")
    methods["US"] = UniformSelector(n_features=r, method="bernoulli")
    methods["DF"] = DocFreqSelector(n_features=r)
    methods["IG"] = InfoGainSelector(n_features=r)
    methods["RRQR"] = RRQRSelector(n_features=r)
    return methods


def classifiers():
    """RLSC at the lambdas of 000 sec. 6.4, and the SVM of 001 (C = 1)."""
    models = {f"RLSC λ={lam}": RLSC(lam=lam) for lam in LAMBDAS}
    models["SVM C=1"] = SVMDual(C=1.0)
    return models


def experiment(X, y, r_values, *, n_splits=10, n_repeats=10, random_state=0, n_jobs=1):
    """Cross-validate every method at every r (and all features once).

    Parameters
    ----------
    X : sparse matrix of shape (n_documents, n_words)
    y : ndarray of shape (n_documents,)
    r_values : sequence of int
        Features to select; BSS needs r > rank(X_train).
    n_splits, n_repeats : int
        The cross-validation (000: ten-fold, ten times).
    random_state : int
    n_jobs : int

    Returns
    -------
    dict of (method, r) to dict of classifier name to (mean, sd)
        r is None for all features.
    """
    methods = {(name, r): sel for r in r_values for name, sel in selectors(r).items()}
    methods["all features", None] = PASSTHROUGH
    result = cross_validate(
        methods,
        classifiers(),
        X,
        y,
        n_splits=n_splits,
        n_repeats=n_repeats,
        random_state=random_state,
        n_jobs=n_jobs,
        desc="text pipeline",
    )
    summary = collections.defaultdict(dict)
    for key, clf, mean, sd in result.rows():
        summary[key][clf] = (mean, sd)
    return dict(summary)


def rlsc_error(row):
    """RLSC's error averaged over the lambdas, and the mean of their sds."""
    cells = [row[f"RLSC λ={lam}"] for lam in LAMBDAS]
    return float(np.mean([m for m, _ in cells])), float(np.mean([s for _, s in cells]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="a TechTC folder: vectors.dat and features.idx")
    parser.add_argument("--quick", action="store_true", help="3-fold CV, once")
    parser.add_argument("--r", type=int, nargs="+", default=list(R_VALUES), help="r values")
    parser.add_argument("--repeats", type=int, default=10, help="CV repeats (000: 10)")
    parser.add_argument("--min-word-length", type=int, default=MIN_WORD_LENGTH)
    parser.add_argument("--n-jobs", type=int, default=1, help="folds in parallel")
    parser.add_argument("--out", default=OUTPUT, help="folder of the PNG plot")
    args = parser.parse_args(argv)
    X, y, words = load_folder(args.folder, min_word_length=args.min_word_length)
    n_splits, n_repeats = (3, 1) if args.quick else (10, args.repeats)
    print(
        f"{args.folder}: {X.shape[0]} documents, {words.size} words of "
        f">= {args.min_word_length} characters; {n_repeats} x {n_splits}-fold CV\n"
    )
    summary = experiment(X, y, args.r, n_splits=n_splits, n_repeats=n_repeats, n_jobs=args.n_jobs)
    names = list(classifiers())
    rows = [
        [name, r or "all", *(mean_sd(*row[c], percent=True) for c in names)]
        for (name, r), row in summary.items()
    ]
    print(markdown_table(["method", "r", *(f"{c} (%)" for c in names)], rows))
    curves = collections.defaultdict(lambda: ([], [], []))
    for (name, r), row in summary.items():
        if r is not None:
            for values, v in zip(curves[name], (r, *rlsc_error(row)), strict=True):
                values.append(v)
    path = plot_error_vs_r(
        dict(curves),
        os.path.join(args.out, "text_pipeline.png"),
        title=f"{os.path.basename(os.path.normpath(args.folder))}: RLSC, mean over λ",
    )
    print(f"\nplot: {path}")
    return summary


if __name__ == "__main__":
    main()
