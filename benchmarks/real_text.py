"""The text sweep on real text: the Debian package descriptions.

``python -m benchmarks.real_text [--quick] [--sizes 2000,20000,all] [--splits hard,easy]
[--estimators NAMES] [--repeats 3] [--budget 300]``

The corpus is :func:`sparsify.datasets.load_debian_descriptions` read from the apt
lists of this machine (``apt-get update -o Acquire::Languages=en`` downloads them;
``--quick`` uses the sample shipped with the package instead): tf-idf of the words of
at least five letters with ``min_df = 2`` (scikit-learn's ``TfidfVectorizer``, rows
of unit norm), documents subsampled at random (seed 0) to each size. Two binary
splits, as the speed issue names them:

- ``hard``: the descriptions *as they come* (the -dev, -doc, -dbg, -data and -common
  packages and repeated descriptions kept: duplicates and near-duplicates of their main
  package, often in another section), labelled libs and libdevel against the rest:
  library descriptions read as their language's modules, and the duplicates carry
  different labels;
- ``easy``: deduplicated (those packages dropped), the programming-language sections
  (`sparsify.datasets.PROGRAMMING_LANGUAGE_SECTIONS`) against the rest.

Every estimator of :data:`benchmarks.text_sweep.CASES` is measured against its best
peer at the text sweep's settings (C in {1, 100}; lam at 0.1 and 0.01 lam_max), first
fit, re-fit and peak memory, with the text sweep's protocol and tables
(:func:`benchmarks.text_sweep.run_corpora`); the log-log slopes in n are taken over
the subsample sizes.
"""

import argparse
import os

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from benchmarks.text_sweep import run_corpora, select
from sparsify.datasets import PROGRAMMING_LANGUAGE_SECTIONS, load_debian_descriptions

SIZES = (2000, 20000, None)  # None: every document
QUICK_SIZES = (300, 1000)
SPLITS = ("hard", "easy")
#: The sections of the hard split's positive class.
LIBRARY_SECTIONS = ("libs", "libdevel")


def corpus(split, *, sample=False):
    """``(documents, labels)`` of a split (labels +1/-1), in the lists' order."""
    hard = split == "hard"
    loaded = load_debian_descriptions(
        sample=sample, drop_derived=not hard, drop_duplicates=not hard
    )
    positive = LIBRARY_SECTIONS if hard else PROGRAMMING_LANGUAGE_SECTIONS
    labels = np.where(np.isin(loaded.sections, positive), 1.0, -1.0)
    return loaded.documents, labels


def vectorize(documents):
    """tf-idf CSR of the words of at least five letters seen in two documents or more."""
    vectorizer = TfidfVectorizer(min_df=2, token_pattern=r"(?u)\b[^\W\d_]{5,}\b")
    return vectorizer.fit_transform(documents).astype(np.float64).tocsr()


def corpora(splits, sizes, *, sample=False):
    """``(name, X, y)`` of every split at every size, built one at a time."""
    for split in splits:
        documents, labels = corpus(split, sample=sample)
        order = np.random.default_rng(0).permutation(len(documents))
        for size in sizes:
            chosen = order if size is None or size >= order.size else order[:size]
            X = vectorize([documents[i] for i in chosen])
            yield f"debian-{split}", X, labels[chosen]


def _sizes(text):
    return tuple(None if v == "all" else int(v) for v in text.split(","))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the shipped sample, small sizes")
    parser.add_argument("--sizes", default=None, help="e.g. 2000,20000,all")
    parser.add_argument("--splits", default=",".join(SPLITS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=300.0, help="seconds per step")
    parser.add_argument("--estimators", default=None)
    args = parser.parse_args(argv)
    sizes = _sizes(args.sizes) if args.sizes else (QUICK_SIZES if args.quick else SIZES)
    splits = tuple(s.strip() for s in args.splits.split(","))
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"real text: splits {splits}, sizes {sizes}, repeats {args.repeats}, "
          f"budget {args.budget:g} s, 1 BLAS thread")  # fmt: skip
    return run_corpora(
        select(args.estimators), corpora(splits, sizes, sample=args.quick), args.repeats,
        args.budget,
    )  # fmt: skip


if __name__ == "__main__":
    main()
