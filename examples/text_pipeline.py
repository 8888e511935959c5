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

**Real text without TechTC** (``--debian``): the same pipeline over the TechTC-style
tasks of `sparsify.datasets.make_text_tasks`, pairs of Debian sections (44 pairs,
100 descriptions per section: 200 documents per task, as TechTC's 150-280), words
of at most four letters dropped. Each task is cross-validated on its own; the
report is 000 Table 2's: per method and r the error averaged over the tasks, here
with its standard error over the tasks, and the paired difference to BSS over the
tasks with a paired t-test and a Wilcoxon signed-rank test. ``--debian system``
reads apt's lists (`sparsify.datasets.load_debian_descriptions`), ``--debian
sample`` the sample shipped with the package. The per-task errors are written to a
JSON file after every task (``--json``), so a long run can be summarised while it
goes (``--summarize JSON``).

Run: ``python examples/text_pipeline.py --debian system --repeats 2``.
"""

import argparse
import collections
import json
import os
import sys
import time

import numpy as np
from scipy import stats

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
from sparsify.datasets import (
    DEBIAN_TASK_PAIRS,
    load_debian_descriptions,
    load_svmlight_dir,
    make_text_tasks,
)

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


def experiment(X, y, r_values, *, n_splits=10, n_repeats=10, random_state=0, n_jobs=1, catch=()):
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
    catch : tuple of exception types
        Failures of one method on one fold that leave NaN there instead of
        stopping the run (see `cross_validate`).

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
        catch=catch,
    )
    summary = collections.defaultdict(dict)
    for key, clf, mean, sd in result.rows():
        summary[key][clf] = (mean, sd)
    return dict(summary)


def rlsc_error(row):
    """RLSC's error averaged over the lambdas, and the mean of their sds."""
    cells = [row[f"RLSC λ={lam}"] for lam in LAMBDAS]
    return float(np.mean([m for m, _ in cells])), float(np.mean([s for _, s in cells]))


def debian_tasks(source="sample", *, n_pairs=None, n_per_class=100, seed=0):
    """The TechTC-style tasks of Debian sections (`sparsify.datasets.make_text_tasks`).

    Parameters
    ----------
    source : {"sample", "system"}
        The sample shipped with sparsify, or apt's lists on this machine.
    n_pairs : int
        The first n_pairs of `sparsify.datasets.DEBIAN_TASK_PAIRS` (None: all).
    n_per_class : int
        Descriptions drawn per section (100: 200 documents per task).
    seed : int

    Returns
    -------
    list of sklearn.utils.Bunch
        ``name``, ``X`` (word counts of the words of >= 5 letters), ``y``, ``words``.
    """
    corpus = load_debian_descriptions(sample=source == "sample")
    return make_text_tasks(
        corpus,
        DEBIAN_TASK_PAIRS[:n_pairs] if n_pairs else DEBIAN_TASK_PAIRS,
        n_per_class=n_per_class,
        min_word_length=MIN_WORD_LENGTH,
        random_state=seed,
    )


def _key(name, r, clf):
    return f"{name}|{r or 'all'}|{clf}"


def run_tasks(tasks, r_values, *, n_splits=10, n_repeats=10, random_state=0, n_jobs=1, path=None):
    """Cross-validate every method on every task; the mean error per task.

    Parameters
    ----------
    tasks : list of Bunch
        From `debian_tasks`.
    r_values : sequence of int
    n_splits, n_repeats, random_state, n_jobs
        As in `experiment`.
    path : str, optional
        A JSON file rewritten after every task (a long run can be read while it goes).

    Returns
    -------
    dict
        ``{"config": ..., "tasks": {task name: {"errors": {"method|r|classifier":
        mean error over the folds}, "seconds": ..., "shape": [n, d]}}}``.
    """
    from solvers import SolverError

    record = {
        "config": {
            "r": list(r_values),
            "n_splits": n_splits,
            "n_repeats": n_repeats,
            "random_state": random_state,
        },
        "tasks": {},
    }
    for task in tasks:
        start = time.perf_counter()
        summary = experiment(
            task.X,
            task.y,
            r_values,
            n_splits=n_splits,
            n_repeats=n_repeats,
            random_state=random_state,
            n_jobs=n_jobs,
            catch=(SolverError,),
        )
        record["tasks"][task.name] = {
            "errors": {
                _key(name, r, clf): mean
                for (name, r), row in summary.items()
                for clf, (mean, _) in row.items()
            },
            "seconds": time.perf_counter() - start,
            "shape": list(task.X.shape),
        }
        if path is not None:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as fh:
                json.dump(record, fh, indent=1)
    return record


def per_task_errors(record):
    """``{(method, r, classifier): ndarray of the per-task errors}`` (tasks in run order).

    Only the tasks that ran every method (all of them, in a finished run) count.
    """
    runs = list(record["tasks"].values())
    keys = set.intersection(*(set(t["errors"]) for t in runs))
    table = {}
    for key in keys:
        name, r, clf = key.split("|")
        table[name, None if r == "all" else int(r), clf] = np.array(
            [t["errors"][key] for t in runs], dtype=float
        )
    return table


def tables(record, columns=None):
    """000 Table 2 over the tasks, and the paired comparison with BSS.

    Parameters
    ----------
    record : dict
        From `run_tasks` (or its JSON file).
    columns : sequence of str, optional
        The classifiers to show (names of `classifiers`); all by default.

    Returns
    -------
    errors : str
        Per method and r, for each classifier: the mean error over the tasks +- its
        standard error (sd / sqrt(n_tasks)), in percent.
    paired : str
        Per method and r: the mean over the tasks of (method's error - BSS's error)
        +- its standard error, the p-values of the paired t-test
        (`scipy.stats.ttest_rel`) and the Wilcoxon signed-rank test
        (`scipy.stats.wilcoxon`), and on how many tasks BSS's error is lower.
    """
    table = per_task_errors(record)
    names = list(classifiers()) if columns is None else list(columns)
    rows, paired = [], []
    methods = list(dict.fromkeys((m, r) for m, r, _ in sorted(table, key=_order)))
    n_tasks = len(record["tasks"])
    for m, r in methods:
        cells = []
        for clf in names:
            e = table[m, r, clf]
            cells.append(mean_sd(np.nanmean(e), _se(e), percent=True))
        rows.append([m, r or "all", *cells])
        if m == "BSS" or r is None or ("BSS", r, names[0]) not in table:
            continue
        cells = []
        for clf in names:
            d = table[m, r, clf] - table["BSS", r, clf]
            d = d[~np.isnan(d)]
            if d.size < 2 or np.all(d == 0):
                cells.append("-")
                continue
            t = stats.ttest_rel(d, np.zeros_like(d)).pvalue
            w = stats.wilcoxon(d).pvalue
            cells.append(
                f"{100 * d.mean():+.2f} ± {100 * _se(d):.2f} (t {t:.1g}, W {w:.1g}; "
                f"{int(np.sum(d > 0))}/{d.size})"
            )
        paired.append([m, r, *cells])
    header = ["method", "r", *(f"{c} (%)" for c in names)]
    errors = markdown_table(header, rows)
    errors = f"{n_tasks} tasks; mean ± standard error over the tasks\n\n" + errors
    paired_text = markdown_table(header, paired)
    paired_text = (
        "method - BSS, mean ± s.e. over the tasks (p of the paired t-test, of the "
        "Wilcoxon test; tasks on which BSS's error is lower)\n\n" + paired_text
    )
    return errors, paired_text


def _se(e):
    e = np.asarray(e, dtype=float)
    e = e[~np.isnan(e)]
    return float(np.std(e, ddof=1) / np.sqrt(e.size)) if e.size > 1 else 0.0


def _order(key):
    name, r, _ = key
    return (r is None, r or 0, list(selectors(1)).index(name) if name in selectors(1) else 99)


def plot_tasks(record, path):
    """RLSC's error (mean over the lambdas and the tasks, +- s.e.) against r per method."""
    table = per_task_errors(record)
    curves = collections.defaultdict(lambda: ([], [], []))
    for name, r, _ in sorted(table, key=_order):
        if r is None or r in curves[name][0]:
            continue
        e = np.mean([table[name, r, f"RLSC λ={lam}"] for lam in LAMBDAS], axis=0)
        for values, v in zip(curves[name], (r, np.nanmean(e), _se(e)), strict=True):
            values.append(v)
    return plot_error_vs_r(
        dict(curves),
        path,
        title=f"{len(record['tasks'])} Debian tasks: RLSC, mean over λ and tasks (± s.e.)",
    )


def main_debian(args):
    """The --debian run: every task, the tables, the plot."""
    if args.summarize:
        record = None
        for path in args.summarize:
            with open(path) as fh:
                part = json.load(fh)
            if record is None:
                record = part
            else:
                record["tasks"].update(part["tasks"])
    else:
        tasks = debian_tasks(args.debian, n_pairs=args.pairs, n_per_class=args.per_class)
        if args.tasks:
            tasks = tasks[slice(*args.tasks)]
        n_splits, n_repeats = (3, 1) if args.quick else (10, args.repeats)
        sizes = [t.X.shape[1] for t in tasks]
        print(
            f"{len(tasks)} tasks of Debian sections ({args.debian}), "
            f"{tasks[0].X.shape[0]} documents each, {min(sizes)}-{max(sizes)} words of "
            f">= {MIN_WORD_LENGTH} letters; {n_repeats} x {n_splits}-fold CV\n",
            flush=True,
        )
        record = run_tasks(
            tasks,
            args.r,
            n_splits=n_splits,
            n_repeats=n_repeats,
            n_jobs=args.n_jobs,
            path=args.json,
        )
    errors, paired = tables(record)
    print(errors, "\n", paired, sep="\n")
    path = plot_tasks(record, os.path.join(args.out, "text_pipeline_debian.png"))
    print(f"\nplot: {path}")
    return record


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="a TechTC folder: vectors.dat and features.idx")
    parser.add_argument(
        "--debian",
        choices=("sample", "system"),
        help="instead of a folder: the tasks of Debian sections (shipped sample or apt lists)",
    )
    parser.add_argument("--pairs", type=int, default=len(DEBIAN_TASK_PAIRS), help="tasks")
    parser.add_argument("--per-class", type=int, default=100, help="documents per section")
    parser.add_argument(
        "--json",
        default=os.path.join(OUTPUT, "text_pipeline_debian.json"),
        help="per-task errors of --debian, rewritten after every task",
    )
    parser.add_argument(
        "--tasks",
        type=int,
        nargs=2,
        metavar=("FIRST", "STOP"),
        help="run only tasks FIRST..STOP-1 (to split a long run over processes)",
    )
    parser.add_argument(
        "--summarize", nargs="+", help="only print the tables of --json files (merged)"
    )
    parser.add_argument("--quick", action="store_true", help="3-fold CV, once")
    parser.add_argument("--r", type=int, nargs="+", default=list(R_VALUES), help="r values")
    parser.add_argument("--repeats", type=int, default=10, help="CV repeats (000: 10)")
    parser.add_argument("--min-word-length", type=int, default=MIN_WORD_LENGTH)
    parser.add_argument("--n-jobs", type=int, default=1, help="folds in parallel")
    parser.add_argument("--out", default=OUTPUT, help="folder of the PNG plot")
    args = parser.parse_args(argv)
    if args.debian or args.summarize:
        return main_debian(args)
    if args.folder is None:
        parser.error("give a TechTC folder, or --debian sample|system")
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
