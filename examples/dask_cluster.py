"""Select features on a corpus larger than a Dask worker's memory, then fit an SVM on them.

The script starts a ``dask.distributed.LocalCluster`` of --workers worker
processes, each with a memory limit of --worker-memory MiB, and builds a
synthetic corpus (two classes of documents, term counts of d words) chunk by
chunk on the workers: in all larger than one worker's memory limit, and never
held whole anywhere. It then

1. selects features with ``SketchedBSSSelector`` (BSS on the right singular
   vectors of a Gaussian sketch G X, 001 sec. 5.4; the sketch is one pass over
   the chunks, summed on the workers);
2. computes the selected, rescaled columns ``X R`` of a training and a test
   slice of the documents (``transform`` is lazy: only those chunks are read);
3. fits the squared-hinge ``solvers.L2SVM`` on the training slice and reports
   its test accuracy, beside the same SVM on all d words;
4. fits a model ON THE CLUSTER on the selected columns of all the other
   documents, ``selector.transform(X)``, a lazy Dask array never collected
   (``--model``: ``RLSC``, ``RidgeRegression`` on the labels -1/+1, or the
   squared-hinge ``L2SVM`` through a working set of samples; the models whose
   ``fit`` takes a Dask X, docs/dask.md), checks its guarantee there (the
   certificate of optimality, computed over the chunks, must hold) and reports
   its test accuracy from lazy predictions (``model.predict`` of the Dask test
   slice, compared with its labels chunk by chunk).

On a real cluster only the client changes: ``Client("tcp://SCHEDULER:8786")``
in place of the LocalCluster (see docs/dask.md).

Run: ``python examples/dask_cluster.py [--documents 1000000] [--workers 2] [--model RLSC]``.
"""

import argparse
import time

import dask
import dask.array as da
import numpy as np
import scipy.sparse as sp
from distributed import Client, LocalCluster
from sklearn.base import is_classifier

from solvers import L2SVM, RLSC, RidgeRegression
from sparsify import SketchedBSSSelector

WORDS = 1000  # vocabulary d
WORDS_PER_DOCUMENT = 80
TOPIC_WORDS = 20  # words each class uses five times as often as the other class does
CHUNK = 20_000  # documents a chunk

# The models fitted on the cluster (their fit takes a Dask X: docs/dask.md); another
# joins by one line.
CLUSTER_MODELS = {
    "RLSC": lambda: RLSC(lam=1.0),
    "RidgeRegression": lambda: RidgeRegression(lam=1.0),  # on the labels -1/+1
    "L2SVM": lambda: L2SVM(C=1.0, loss="squared_hinge"),  # a working set of samples
}


def _word_probabilities(d):
    """Zipf probabilities of the d words for each class: class c boosts its own topic words."""
    rng = np.random.default_rng(0)
    base = 1.0 / np.arange(1, d + 1)
    topics = rng.choice(np.arange(50, d), size=(2, TOPIC_WORDS), replace=False)
    p = np.tile(base, (2, 1))
    for c in (0, 1):
        p[c, topics[c]] *= 5.0
    return p / p.sum(axis=1, keepdims=True)


def _labels_block(block_info=None):
    """The classes (0/1) of documents lo..hi-1, from a stream seeded by lo."""
    lo, hi = block_info[None]["array-location"][0]
    return np.random.default_rng([1, lo]).integers(0, 2, hi - lo)


def _documents_block(d, block_info=None):
    """Term counts (CSR) of documents lo..hi-1, each drawn from its class's word law."""
    lo, hi = block_info[None]["array-location"][0]
    y = _labels_block({None: {"array-location": [(lo, hi)]}})
    p = _word_probabilities(d)
    rng = np.random.default_rng([2, lo])
    rows, words = [], []
    for c in (0, 1):
        docs = np.flatnonzero(y == c)
        rows.append(np.repeat(docs, WORDS_PER_DOCUMENT))
        words.append(rng.choice(d, size=docs.size * WORDS_PER_DOCUMENT, p=p[c]))
    rows, words = np.concatenate(rows), np.concatenate(words)
    return sp.csr_matrix((np.ones(words.size), (rows, words)), shape=(hi - lo, d))


def synthetic_corpus(n, d=WORDS, chunk=CHUNK):
    """A lazy corpus X (n x d, CSR chunks) and its labels y (n,), made on the workers."""
    rows = (chunk,) * (n // chunk) + ((n % chunk,) if n % chunk else ())
    X = da.map_blocks(
        _documents_block, d, chunks=(rows, (d,)), dtype=np.float64, meta=sp.csr_matrix((0, 0))
    )
    y = da.map_blocks(_labels_block, chunks=(rows,), dtype=np.int64)
    return X, y


def _csr_bytes(block):
    return block.data.nbytes + block.indices.nbytes + block.indptr.nbytes


def accuracy(model, X, y):
    return float(np.mean(model.predict(X) == y))


def fit_on_cluster(model, X, y):
    """Fit ``model`` on a Dask X (never collected) and labels 0/1 (NumPy): a classifier
    on the classes, a regressor on -1/+1. Raises if its certificate does not hold."""
    model.fit(X, y if is_classifier(model) else 2.0 * y - 1.0)
    certificates = model.certificate_
    for certificate in certificates if isinstance(certificates, list) else [certificates]:
        if not certificate.holds:
            raise RuntimeError(f"{type(model).__name__} on the cluster: {certificate}")
    return model


def lazy_accuracy(model, X, y):
    """Accuracy on a Dask X and Dask labels 0/1: lazy predictions compared chunk by chunk
    (a regressor's class is the sign of its prediction); only the mean is computed."""
    predicted = model.predict(X)
    if not is_classifier(model):
        predicted = (predicted > 0).astype(int)
    return float((predicted == y).mean().compute())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-memory", type=int, default=512, help="MiB per worker")
    parser.add_argument("--sketch", type=int, default=64, help="rows t of the sketch G")
    parser.add_argument("--features", type=int, default=128, help="BSS iterations r > t")
    parser.add_argument("--train", type=int, default=20_000, help="training documents")
    parser.add_argument(
        "--model",
        choices=sorted(CLUSTER_MODELS),
        default="RLSC",
        help="the model fitted on the cluster, on the selected words of the other documents",
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    cluster = LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        memory_limit=f"{args.worker_memory}MiB",
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    )
    # On a real cluster: client = Client("tcp://SCHEDULER:8786"); nothing else changes.
    with cluster, Client(cluster):
        print(f"{args.workers} workers started in {time.perf_counter() - start:.1f} s")
        X, y = synthetic_corpus(args.documents)
        corpus_bytes = sum(dask.compute(*map(dask.delayed(_csr_bytes), X.to_delayed()[:, 0])))
        print(
            f"corpus: {X.shape[0]} documents x {X.shape[1]} words in {X.numblocks[0]} chunks, "
            f"{corpus_bytes / 2**20:.0f} MiB as CSR; memory limit per worker "
            f"{args.worker_memory} MiB on {args.workers} workers"
        )
        if corpus_bytes <= args.worker_memory * 2**20:
            print("(the corpus fits in one worker here: raise --documents to exceed the limit)")

        start = time.perf_counter()
        selector = SketchedBSSSelector(n_features=args.features, t=args.sketch, random_state=0)
        selector.fit(X)
        print(
            f"SketchedBSSSelector(t={args.sketch}, r={args.features}): "
            f"{selector.selection_.n_selected} "
            f"words kept in {time.perf_counter() - start:.1f} s"
        )

        train, test = slice(0, args.train), slice(args.train, 2 * args.train)
        X_train, X_test = X[train].compute(), X[test].compute()
        y_train, y_test = y[train].compute(), y[test].compute()
        R_train, R_test = dask.compute(selector.transform(X[train]), selector.transform(X[test]))
        for name, A_train, A_test in [
            (f"{selector.selection_.n_selected} selected words", R_train, R_test),
            (f"all {X.shape[1]} words", X_train, X_test),
        ]:
            start = time.perf_counter()
            svm = L2SVM(C=1.0, loss="squared_hinge").fit(A_train, y_train)
            seconds = time.perf_counter() - start
            print(
                f"L2SVM (squared hinge) on {name}: test accuracy "
                f"{accuracy(svm, A_test, y_test):.3f} (fit {seconds:.1f} s, {args.train} documents)"
            )

        # On the cluster: every document outside the two slices, X never collected.
        rest = slice(2 * args.train, None)
        R_rest = selector.transform(X[rest])  # lazy: a Dask array of the selected columns
        start = time.perf_counter()
        model = fit_on_cluster(CLUSTER_MODELS[args.model](), R_rest, y[rest].compute())
        seconds = time.perf_counter() - start
        certificate = model.certificate_
        print(
            f"{args.model} fitted on the cluster: {R_rest.shape[0]} documents x "
            f"{R_rest.shape[1]} selected words on the workers (fit {seconds:.1f} s); "
            f"certificate holds: relative duality gap {certificate.relative_gap:.1e} "
            f"<= {certificate.tolerance:.0e}"
        )
        test_accuracy = lazy_accuracy(model, selector.transform(X[test]), y[test])
        print(
            f"{args.model} on the cluster: test accuracy {test_accuracy:.3f} (lazy predict "
            f"of the {args.train} test documents)"
        )


if __name__ == "__main__":
    main()
