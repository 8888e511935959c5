"""Data sets of the papers: synthetic generators and small real data shipped with the package.

Every loader returns ``(X, y)`` with X of shape (n_samples, n_features) and, for
the classification data, labels in {-1, +1}.
"""

import glob
import gzip
import json
import os
import re
import shutil
import subprocess
from importlib import resources

import numpy as np
from sklearn.datasets import load_breast_cancer, load_svmlight_files
from sklearn.utils import Bunch

from ._validation import check_n_select, check_random_state

__all__ = [
    "make_bhattacharyya",
    "make_orange",
    "make_zou_bernoulli",
    "load_wdbc",
    "load_ionosphere",
    "load_spambase",
    "load_svmlight_dir",
    "load_debian_descriptions",
    "make_text_tasks",
    "DEBIAN_TASK_PAIRS",
    "PROGRAMMING_LANGUAGE_SECTIONS",
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


def load_spambase():
    """The UCI Spambase data shipped with the package: 4601 x 57, labels spam=+1, not=-1.

    4601 e-mails, 1813 of them spam; the 57 attributes are, in the UCI order, 48
    word frequencies and 6 character frequencies (percentages of the e-mail's words
    or characters) and 3 statistics of runs of capital letters (average and longest
    run, total). Hopkins, Reeber, Forman & Suermondt (1999), UCI Machine Learning
    Repository, doi:10.24432/C53G6X (CC BY 4.0); provenance in ``sparsify/data/README.md``.
    The data are returned as they are (not standardised): the frequencies and the
    capital-run statistics differ in scale by four orders of magnitude.

    Returns
    -------
    X : ndarray of shape (4601, 57)
        The 57 attributes, in the UCI order.
    y : ndarray of shape (4601,)
        The labels: spam = +1, not spam = -1.

    See Also
    --------
    load_ionosphere : Another real data set shipped with the package.

    Examples
    --------
    >>> from sparsify.datasets import load_spambase
    >>> X, y = load_spambase()
    >>> X.shape, int(np.sum(y == 1)), int(np.sum(y == -1))
    ((4601, 57), 1813, 2788)
    """
    with resources.files("sparsify").joinpath("data/spambase.csv.gz").open("rb") as fh:
        with gzip.open(fh, "rt") as text:
            data = np.loadtxt(text, delimiter=",", skiprows=1, dtype=np.float64)
    return data[:, :-1], np.where(data[:, -1] == 1, 1.0, -1.0)


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


# ---------------------------------------------------------------------------
# The Debian package descriptions: a real, labelled text corpus on every apt machine
# ---------------------------------------------------------------------------

#: Where apt keeps its lists, and the command that fills them with the English
#: descriptions.
APT_LISTS = "/var/lib/apt/lists"
APT_UPDATE = "apt-get update -o Acquire::Languages=en"
_SAMPLE = "data/debian_descriptions_sample.jsonl.gz"

#: Packages whose description repeats the main package's (development files,
#: documentation, debugging symbols, data and common files).
_DERIVED = re.compile(r"-(dev|doc|dbg|data|common)$")

#: The sections of one programming language's modules (the binary split
#: ``y_language`` of `load_debian_descriptions`).
PROGRAMMING_LANGUAGE_SECTIONS = (
    "gnu-r",
    "golang",
    "haskell",
    "java",
    "javascript",
    "lisp",
    "ocaml",
    "perl",
    "php",
    "python",
    "ruby",
    "rust",
)

#: The TechTC-style tasks of `make_text_tasks`: 44 pairs of topical sections, the
#: first 22 far apart in topic (as TechTC's easy pairs), the last 22 close
#: (admin/utils, science/math, net/web, ...).
DEBIAN_TASK_PAIRS = (
    ("games", "science"),
    ("games", "math"),
    ("sound", "math"),
    ("mail", "graphics"),
    ("electronics", "games"),
    ("database", "sound"),
    ("editors", "games"),
    ("video", "mail"),
    ("fonts", "net"),
    ("graphics", "database"),
    ("sound", "mail"),
    ("science", "web"),
    ("games", "admin"),
    ("tex", "sound"),
    ("electronics", "mail"),
    ("comm", "graphics"),
    ("vcs", "games"),
    ("hamradio", "database"),
    ("video", "database"),
    ("fonts", "science"),
    ("kernel", "games"),
    ("math", "web"),
    ("admin", "utils"),
    ("science", "math"),
    ("net", "web"),
    ("sound", "video"),
    ("graphics", "video"),
    ("net", "mail"),
    ("devel", "vcs"),
    ("text", "editors"),
    ("text", "tex"),
    ("electronics", "science"),
    ("hamradio", "comm"),
    ("httpd", "web"),
    ("net", "admin"),
    ("utils", "misc"),
    ("x11", "graphics"),
    ("database", "web"),
    ("devel", "utils"),
    ("net", "comm"),
    ("hamradio", "electronics"),
    ("mail", "web"),
    ("text", "utils"),
    ("admin", "kernel"),
)


def _read_list(path):
    """The text of one apt list, plain or compressed (gz, xz, bz2 by Python; lz4 by a tool)."""
    path = os.fspath(path)
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
            return fh.read()
    if path.endswith((".xz", ".lzma", ".bz2")):
        import bz2
        import lzma

        opener = bz2.open if path.endswith(".bz2") else lzma.open
        with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
            return fh.read()
    if path.endswith(".lz4"):
        for command in (["lz4", "-dc", path], ["/usr/lib/apt/apt-helper", "cat-file", path]):
            if shutil.which(command[0]):
                done = subprocess.run(command, capture_output=True, check=False)
                if done.returncode == 0:
                    return done.stdout.decode("utf-8", errors="replace")
        raise ValueError(
            f"cannot decompress {path!r}: neither lz4 nor /usr/lib/apt/apt-helper "
            "works here. Install lz4 (apt-get install lz4), or pass decompressed copies "
            "of the lists as packages and translations."
        )
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def _stanzas(text, fields):
    """The deb822 stanzas of an apt list: dicts of the wanted fields (continuations kept)."""
    for block in text.split("\n\n"):
        record, name = {}, None
        for line in block.split("\n"):
            if line[:1] in (" ", "\t"):
                if name is not None:
                    record[name] += "\n" + line
                continue
            key, sep, value = line.partition(":")
            name = key if sep and key in fields else None
            if name is not None:
                record[name] = value.strip()
        if record:
            yield record


def _description_text(description):
    """A description field as a document: the synopsis, then the long text.

    The long text's lines start with one space, and " ." is an empty line
    (Debian Policy 5.6.13).
    """
    first, *body = description.split("\n")
    lines = [first.strip()]
    for line in body:
        line = line[1:] if line[:1] in (" ", "\t") else line
        lines.append("" if line.strip() == "." else line.rstrip())
    return "\n".join(lines).strip()


def _system_lists(pattern, what):
    found = sorted(glob.glob(os.path.join(APT_LISTS, pattern)))
    if not found:
        raise FileNotFoundError(
            f"no apt {what} lists in {APT_LISTS} ({pattern}). Run "
            f"`sudo {APT_UPDATE}` to download them, pass their paths as packages "
            "and translations, or use load_debian_descriptions(sample=True), the "
            "sample shipped with the package."
        )
    return found


def _paths(value, name):
    if isinstance(value, (str, os.PathLike)):
        value = [value]
    value = [os.fspath(v) for v in value]
    if not value:
        raise ValueError(f"{name} must name at least one apt list file; got none.")
    for v in value:
        if not os.path.isfile(v):
            raise FileNotFoundError(
                f"{name}: {v!r} is not a file. Give the paths of apt lists "
                f"(e.g. {APT_LISTS}/*_Packages.lz4 after `sudo {APT_UPDATE}`)."
            )
    return value


def _read_sample():
    with resources.files("sparsify").joinpath(_SAMPLE).open("rb") as raw:
        with gzip.open(raw, "rt", encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh]
    return (
        [r["package"] for r in rows],
        [r["section"] for r in rows],
        [r["text"] for r in rows],
    )


def _join_lists(packages, translations, drop_derived, min_words, drop_duplicates=True):
    """Join the long descriptions to their sections; drop derived packages and duplicates."""
    texts = {}
    for path in translations:
        for rec in _stanzas(_read_list(path), ("Description-md5", "Description-en")):
            if "Description-md5" in rec and "Description-en" in rec:
                texts.setdefault(rec["Description-md5"], _description_text(rec["Description-en"]))
    entries = {}
    fields = ("Package", "Section", "Description-md5", "Description")
    for path in packages:
        for rec in _stanzas(_read_list(path), fields):
            name = rec.get("Package")
            if not name or name in entries or "Section" not in rec:
                continue
            text = texts.get(rec.get("Description-md5"))
            if text is None and "\n" in rec.get("Description", ""):
                text = _description_text(rec["Description"])  # a list with long descriptions
            if text is not None:
                # "contrib/games" and "non-free/sound" are the sections games and sound
                entries[name] = (rec["Section"].rsplit("/", 1)[-1], text)
    names, sections, documents, seen = [], [], [], set()
    for name in sorted(entries):
        section, text = entries[name]
        key = " ".join(text.split())
        if (drop_derived and _DERIVED.search(name)) or (drop_duplicates and key in seen):
            continue
        if len(key.split()) < min_words:
            continue
        seen.add(key)
        names.append(name)
        sections.append(section)
        documents.append(text)
    return names, sections, documents


def _words_pattern(min_word_length):
    """Maximal runs of letters ("freetype2" gives "freetype"), at least min_word_length (>= 1)."""
    letter = r"[^\W\d_]"
    return rf"(?u)(?<!{letter}){letter}{{{max(int(min_word_length), 1)},}}(?!{letter})"


def load_debian_descriptions(
    packages=None,
    translations=None,
    *,
    sample=False,
    drop_derived=True,
    drop_duplicates=True,
    min_words=10,
    vectorize=False,
    min_word_length=5,
):
    """The Debian package descriptions: a real, labelled text corpus on every apt machine.

    Each document is the English description of one binary package (its synopsis
    and long text), labelled by the package's Section (games, science, sound, net,
    libs, python, ...). The sections come from the ``Packages`` lists, the long
    texts from the ``Translation-en`` lists, joined by Description-md5. The
    packages named ``*-dev``, ``*-doc``, ``*-dbg``, ``*-data`` and ``*-common``
    are dropped (their text repeats the main package's), and so is every
    description equal to an earlier one (in package-name order) up to whitespace
    (``drop_derived=False, drop_duplicates=False``: the corpus as it comes).
    This is the real text the papers' experiments are about (000 sec. 6.4,
    001 Figure 1 and 003 sec. 6 use TechTC, which cannot be downloaded).

    On Debian 12 bookworm (main, amd64, with bookworm-updates and
    bookworm-security; lists of 2026-11-28) the corpus has 45 204 documents in
    58 sections. A sample of it ships with the package (``sample=True``):
    up to 100 documents of every section of `DEBIAN_TASK_PAIRS` and up to 40 of
    every other section (3 664 documents), drawn at random from bookworm's
    lists; each description is distributed under its package's own licence
    (DFSG-free in main); provenance in ``sparsify/data/README.md``.

    Parameters
    ----------
    packages : str, os.PathLike or sequence of them, optional
        The ``Packages`` lists (plain, .gz, .xz, .bz2 or .lz4). Default: every
        ``*_Packages*`` list in /var/lib/apt/lists, in name order.
    translations : str, os.PathLike or sequence of them, optional
        The ``Translation-en`` lists. Default: every ``*_i18n_Translation-en*``
        list in /var/lib/apt/lists.
    sample : bool, default=False
        Read the sample shipped with the package instead of apt's lists (no apt
        needed); packages and translations must then be None.
    drop_derived : bool, default=True
        Drop the -dev, -doc, -dbg, -data and -common packages.
    drop_duplicates : bool, default=True
        Drop every description equal to an earlier one (up to whitespace); False keeps
        the corpus as it comes, where related packages repeat a description, sometimes
        under another section (the hard case for a classifier: the speed benchmarks'
        ``benchmarks/real_text.py`` hard split).
    min_words : int, default=10
        Drop the documents of fewer whitespace-separated words.
    vectorize : bool, default=False
        Also return the corpus as the benchmarks use it: ``X`` (tf-idf, CSR,
        rows of unit norm, scikit-learn's ``TfidfVectorizer`` on the words of at
        least ``min_word_length`` letters, lowercased), ``words``, ``Y``
        (one-vs-rest labels over ``section_names``, +1/-1), ``y_language``
        (+1 for the sections in `PROGRAMMING_LANGUAGE_SECTIONS`) and ``y_libs``
        (+1 for libs and libdevel: the hard split, library descriptions that
        read as their language's modules).
    min_word_length : int, default=5
        With ``vectorize``: the shortest word kept (000 sec. 6.4 drops words of
        at most four letters).

    Returns
    -------
    sklearn.utils.Bunch
        The corpus: ``documents`` (list of str), ``sections`` and ``packages`` (ndarrays of
        str, one per document), ``source`` (the lists read, or "sample"); with
        ``vectorize`` also ``X``, ``words``, ``Y``, ``section_names``,
        ``y_language`` and ``y_libs``.

    Raises
    ------
    FileNotFoundError
        The lists are not there: the message names ``apt-get update -o
        Acquire::Languages=en``, the command that downloads them.
    ValueError
        sample=True together with packages or translations, or min_words < 0.

    See Also
    --------
    make_text_tasks : TechTC-style binary tasks of two sections.
    load_svmlight_dir : TechTC's own folders.

    Examples
    --------
    >>> from sparsify.datasets import load_debian_descriptions
    >>> corpus = load_debian_descriptions(sample=True, vectorize=True)
    >>> len(corpus.documents) == corpus.X.shape[0] == corpus.Y.shape[0]
    True
    >>> "games" in corpus.section_names
    True
    """
    min_words = check_n_select(min_words, name="min_words", low=0, low_inclusive=True)
    if sample:
        if packages is not None or translations is not None:
            raise ValueError(
                "sample=True reads the shipped sample: leave packages and translations None."
            )
        names, sections, documents = _read_sample()
        keep = [
            i
            for i, (n, t) in enumerate(zip(names, documents, strict=True))
            if not (drop_derived and _DERIVED.search(n)) and len(t.split()) >= min_words
        ]
        names = [names[i] for i in keep]
        sections = [sections[i] for i in keep]
        documents = [documents[i] for i in keep]
        source = "sample"
    else:
        packages = (
            _system_lists("*_Packages*", "Packages")
            if packages is None
            else _paths(packages, "packages")
        )
        translations = (
            _system_lists("*_i18n_Translation-en*", "Translation-en")
            if translations is None
            else _paths(translations, "translations")
        )
        names, sections, documents = _join_lists(
            packages, translations, drop_derived, min_words, drop_duplicates
        )
        source = list(packages) + list(translations)
    corpus = Bunch(
        documents=documents,
        sections=np.array(sections, dtype=object).astype(str),
        packages=np.array(names, dtype=object).astype(str),
        source=source,
    )
    if vectorize:
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = TfidfVectorizer(
            token_pattern=_words_pattern(min_word_length), dtype=np.float64
        )
        corpus.X = vectorizer.fit_transform(documents).tocsr()
        corpus.words = vectorizer.get_feature_names_out()
        corpus.section_names = np.unique(corpus.sections)
        corpus.Y = np.where(corpus.sections[:, None] == corpus.section_names[None, :], 1.0, -1.0)
        corpus.y_language = np.where(
            np.isin(corpus.sections, PROGRAMMING_LANGUAGE_SECTIONS), 1.0, -1.0
        )
        corpus.y_libs = np.where(np.isin(corpus.sections, ("libs", "libdevel")), 1.0, -1.0)
    return corpus


def make_text_tasks(
    corpus=None, pairs=DEBIAN_TASK_PAIRS, *, n_per_class=100, min_word_length=5, random_state=0
):
    """TechTC-style binary tasks: the documents of two sections, as word counts.

    TechTC (000 sec. 6.4, 003 sec. 6) pairs two categories of the Open Directory
    with 150-200 documents per task; here each task pairs two Debian sections of
    `load_debian_descriptions`, with up to ``n_per_class`` documents of each drawn
    at random, and counts the words of at least ``min_word_length`` letters
    (000 sec. 6.4 drops the words of at most four) that occur in the task's
    documents.

    Parameters
    ----------
    corpus : Bunch, optional
        A corpus of `load_debian_descriptions`; default: the shipped sample.
    pairs : sequence of (str, str), default=DEBIAN_TASK_PAIRS
        The two sections of each task; the first is labelled +1.
    n_per_class : int, default=100
        The most documents drawn from each section (all of them when it has fewer).
    min_word_length : int, default=5
        The shortest word counted; 1 counts every word.
    random_state : None, int or numpy.random.Generator
        Seed of the draws.

    Returns
    -------
    list of sklearn.utils.Bunch
        One task per pair: ``name`` ("games/science"), ``X`` (CSR word counts, float64,
        n_documents x n_words), ``y`` (+1 for the first section, -1 for the
        second), ``words`` and ``packages``.

    Raises
    ------
    ValueError
        A pair names a section with no document in the corpus, or the same section
        twice; n_per_class < 1.

    See Also
    --------
    load_debian_descriptions : The corpus.

    Examples
    --------
    >>> from sparsify.datasets import make_text_tasks
    >>> task = make_text_tasks(pairs=[("games", "science")], n_per_class=50)[0]
    >>> task.name, task.X.shape[0], int((task.y > 0).sum())
    ('games/science', 100, 50)
    >>> bool(min(len(w) for w in task.words) >= 5)
    True
    """
    from sklearn.feature_extraction.text import CountVectorizer

    n_per_class = check_n_select(n_per_class, name="n_per_class", low=1, low_inclusive=True)
    rng = check_random_state(random_state)
    if corpus is None:
        corpus = load_debian_descriptions(sample=True)
    sections = np.asarray(corpus.sections)
    available = set(sections.tolist())
    tasks = []
    for pair in pairs:
        first, second = pair
        missing = [s for s in (first, second) if s not in available]
        if missing or first == second:
            raise ValueError(
                f"pairs: {pair!r} needs two different sections of the corpus; "
                + (f"{missing} has no document. " if missing else "")
                + f"Its sections: {sorted(available)}."
            )
        rows = []
        for section in (first, second):
            members = np.flatnonzero(sections == section)
            take = min(n_per_class, members.size)
            rows.append(np.sort(rng.choice(members, size=take, replace=False)))
        vectorizer = CountVectorizer(
            token_pattern=_words_pattern(min_word_length), dtype=np.float64
        )
        index = np.concatenate(rows)
        X = vectorizer.fit_transform([corpus.documents[i] for i in index]).tocsr()
        y = np.concatenate([np.ones(rows[0].size), -np.ones(rows[1].size)])
        tasks.append(
            Bunch(
                name=f"{first}/{second}",
                X=X,
                y=y,
                words=vectorizer.get_feature_names_out(),
                packages=np.asarray(corpus.packages)[index],
            )
        )
    return tasks
