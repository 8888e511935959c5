"""The text sweep on real text: the Debian package descriptions.

``python -m benchmarks.real_text [--quick] [--sizes 2000,20000,all] [--splits hard,easy]
[--estimators NAMES] [--repeats 3] [--budget 300] [--logistic [--peers liblinear,saga,skglm]]
[--one-vs-rest K [--as-they-come]]`` (``--estimators`` also selects the one-vs-rest rows,
e.g. ``SparseLogisticRegression``)

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

Every estimator of :data:`benchmarks.text_sweep.CASES` and :data:`EXTRA_CASES`
(``RLSC`` against ``Ridge(fit_intercept=False)`` on the labels: the same problem,
000 eq. 1 with w = X'x) is measured against its best peer at the text sweep's
settings (C in {1, 100}; lam at 0.1 and 0.01 lam_max; lam in {1, 0.01} for the
least-squares models), first fit, re-fit and peak memory, with the text sweep's
protocol and tables (:func:`benchmarks.text_sweep.run_corpora`); the log-log slopes
in n are taken over the subsample sizes. ``--logistic`` runs
``SparseLogisticRegression`` against liblinear, saga and skglm instead
(:func:`benchmarks.logistic.run`'s protocol). ``--one-vs-rest K`` fits the
documents of the K largest sections, K classes one-vs-rest (:func:`one_vs_rest`), of
the deduplicated corpus (``--as-they-come``: of the corpus as it comes).
"""

import argparse
import os
import time
from dataclasses import replace

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from benchmarks import logistic
from benchmarks._timing import ChildError, StepTimeout, forked_steps
from benchmarks.text_sweep import CASES, PEER_MAX_ITER, peak_memory, run_corpora, select
from solvers import L2SVM, RLSC, SparseLogisticRegression, SVMDual
from sparsify.datasets import PROGRAMMING_LANGUAGE_SECTIONS, load_debian_descriptions

SIZES = (2000, 20000, None)  # None: every document
QUICK_SIZES = (300, 1000)
SPLITS = ("hard", "easy")
#: The sections of the hard split's positive class.
LIBRARY_SECTIONS = ("libs", "libdevel")
#: The estimators beside the text sweep's: RLSC is ridge regression on the labels.
EXTRA_CASES = (
    replace(CASES[[c.name for c in CASES].index("RidgeRegression")], name="RLSC",
            estimator=RLSC(), regression=False),
)  # fmt: skip


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


def sections_corpus(classes, *, sample=False, drop_duplicates=True):
    """``(X, labels)``: the documents of the ``classes`` largest sections (tf-idf as
    :func:`vectorize`), labelled by their section."""
    loaded = load_debian_descriptions(
        sample=sample, drop_derived=drop_duplicates, drop_duplicates=drop_duplicates
    )
    names, counts = np.unique(loaded.sections, return_counts=True)
    largest = names[np.argsort(-counts, kind="stable")[:classes]]
    chosen = np.flatnonzero(np.isin(loaded.sections, largest))
    X = vectorize([loaded.documents[i] for i in chosen])
    return X, np.asarray(loaded.sections)[chosen]


def _binary(labels):
    return [(np.where(labels == c, 1.0, -1.0)) for c in np.unique(labels)]


def _svm_objective(X, labels, coef, intercept, C):
    """Sum over the classes of ``1/2 ||w||^2 + C sum_i hinge_i`` (intercepts free)."""
    total = 0.0
    for y, w, b in zip(_binary(labels), coef, intercept, strict=True):
        hinge = np.maximum(0.0, 1.0 - y * (np.asarray(X @ w).ravel() + b))
        total += 0.5 * w @ w + C * hinge.sum()
    return total


def _logistic_objective(X, labels, coef, intercept, lam):
    return sum(logistic.objective(X, y, w, b, lam)
               for y, w, b in zip(_binary(labels), coef, intercept, strict=True))  # fmt: skip


def _ovr_cases(X, labels):
    """``(name, ours(), peer(), objective(coef, intercept))`` of the one-vs-rest runs:
    SVMDual and L2SVM at C in {1, 100} against LinearSVC's one-vs-rest (hinge), the
    L1 logistic regression at 0.1 and 0.01 of the smallest class's lam_max against
    ``OneVsRestClassifier(LogisticRegression(solver="liblinear"))``."""
    lam_max = min(SparseLogisticRegression.lam_max(X, y) for y in _binary(labels))
    cases = []
    for C in (1.0, 100.0):
        peer = lambda C=C: LinearSVC(C=C, loss="hinge", max_iter=PEER_MAX_ITER)  # noqa: E731
        score = lambda w, b, C=C: _svm_objective(X, labels, w, b, C)  # noqa: E731
        cases += [(f"SVMDual C={C:g}", lambda C=C: SVMDual(C=C), peer, score),
                  (f"L2SVM C={C:g}", lambda C=C: L2SVM(C=C), peer, score)]  # fmt: skip
    for fraction in (0.1, 0.01):
        lam = fraction * lam_max
        cases.append((
            f"SparseLogisticRegression {fraction:g} lam_max",
            lambda lam=lam: SparseLogisticRegression(lam=lam),
            lambda lam=lam: OneVsRestClassifier(logistic._sklearn("liblinear")(lam, 1e-4)),
            lambda w, b, lam=lam: _logistic_objective(X, labels, w, b, lam),
        ))  # fmt: skip
    return cases


def _coefs(model):
    if hasattr(model, "estimators_"):  # OneVsRestClassifier
        fitted = model.estimators_
        return (np.vstack([np.ravel(e.coef_) for e in fitted]),
                np.array([float(np.ravel(e.intercept_)[0]) for e in fitted]))  # fmt: skip
    return np.atleast_2d(model.coef_), np.ravel(model.intercept_)


def _ovr_steps(make, objective, X, labels):
    def steps():
        with threadpool_limits(1):
            start = time.perf_counter()
            model = make().fit(X, labels)
            seconds = time.perf_counter() - start
            certificates = getattr(model, "certificate_", None)
            certified = None if certificates is None else all(c.holds for c in certificates)
            yield {"seconds": seconds, "objective": objective(*_coefs(model)),
                   "certified": certified}  # fmt: skip
            yield {"memory": peak_memory(lambda: make().fit(X, labels))}

    return steps


def one_vs_rest(X, labels, budget, corpus_name="debian", estimators=None):
    """Each of :func:`_ovr_cases` (those of the ``estimators`` named, comma-separated,
    if given), ours and the peer's one-vs-rest fit (first fit, peak memory; a forked
    child each, one BLAS thread, ``budget`` seconds a step): prints a table and returns
    its rows."""
    rows = []
    k = np.unique(labels).size
    print(f"one-vs-rest: {corpus_name} {X.shape[0]} x {X.shape[1]}, {k} sections")
    print("| estimator | classes | ours s | peer s | ratio | ours MiB | peer MiB | "
          "(peer - ours) objective / ours | certified |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    cases = _ovr_cases(X, labels)
    if estimators:
        names = estimators.split(",")
        cases = [case for case in cases if case[0].split(" ")[0] in names]
    head = np.random.default_rng(0).permutation(X.shape[0])[:300]
    with threadpool_limits(1):  # numba's kernels loaded before the children fork
        for _, ours, peer, _ in cases:
            ours().fit(X[head], labels[head]), peer().fit(X[head], labels[head])
    for name, ours, peer, objective in cases:
        row = {"case": name, "classes": k}
        for side, make in (("ours", ours), ("peer", peer)):
            found = {}
            try:
                for step in forked_steps(_ovr_steps(make, objective, X, labels), budget):
                    found.update(step)
                status = "ok"
            except StepTimeout:
                status = f"over budget ({budget:g} s)"
            except ChildError as exc:
                status = f"error: {exc}"
            row[side] = {"status": status, **found}
        rows.append(row)
        print(_ovr_row(row), flush=True)
    return rows


def _ovr_row(row):
    ours, peer = row["ours"], row["peer"]
    get = lambda side, key, spec: (format(side[key], spec) if key in side  # noqa: E731
                                   else side["status"])  # fmt: skip
    ratio = diff = "-"
    if "seconds" in ours and "seconds" in peer:
        ratio = f"{ours['seconds'] / peer['seconds']:.2f}"
        diff = f"{(peer['objective'] - ours['objective']) / abs(ours['objective']):.1e}"
    return (f"| {row['case']} | {row['classes']} | {get(ours, 'seconds', '.3g')} | "
            f"{get(peer, 'seconds', '.3g')} | {ratio} | {get(ours, 'memory', '.0f')} | "
            f"{get(peer, 'memory', '.0f')} | {diff} | "
            f"{'yes' if ours.get('certified') else 'no'} |")  # fmt: skip


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
    parser.add_argument(
        "--logistic", action="store_true", help="SparseLogisticRegression against its peers instead"
    )
    parser.add_argument(
        "--peers", default=",".join(logistic.PEERS), help="--logistic's peers (default: all)"
    )
    parser.add_argument(
        "--one-vs-rest",
        type=int,
        default=0,
        metavar="K",
        help="the K largest sections, one-vs-rest, instead",
    )
    parser.add_argument(
        "--as-they-come",
        action="store_true",
        help="--one-vs-rest on the corpus as it comes (not deduplicated)",
    )
    args = parser.parse_args(argv)
    sizes = _sizes(args.sizes) if args.sizes else (QUICK_SIZES if args.quick else SIZES)
    splits = tuple(s.strip() for s in args.splits.split(","))
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"real text: splits {splits}, sizes {sizes}, repeats {args.repeats}, "
          f"budget {args.budget:g} s, 1 BLAS thread")  # fmt: skip
    if args.one_vs_rest:
        X, labels = sections_corpus(
            args.one_vs_rest, sample=args.quick, drop_duplicates=not args.as_they_come
        )
        name = "debian as it comes" if args.as_they_come else "debian deduplicated"
        return one_vs_rest(X, labels, args.budget, name, args.estimators)
    if args.logistic:
        found = corpora(splits, sizes, sample=args.quick)
        return logistic.run((), args.repeats, args.budget, tuple(args.peers.split(",")),
                            corpora=((X, y) for _, X, y in found))  # fmt: skip
    return run_corpora(
        select(args.estimators, (*CASES, *EXTRA_CASES)), corpora(splits, sizes, sample=args.quick),
        args.repeats, args.budget,
    )  # fmt: skip


if __name__ == "__main__":
    main()
