"""SVMDual(C=1) on separable data with more features than samples, against SVC.

``python -m benchmarks.separable_svm [--repeats 5] [--n 200] [--d 1000]``

The case the certificates issue names: ``X = 1000 * standard_normal((n, d))``, labels
the signs of a random linear function (separable), C = 1. Ours with its defaults (the
planned chain) and ``SVC(kernel="linear", C=1)`` fitted in turn, one BLAS thread;
reported: the median time of each, their ratio, the backend that answered, whether it
was the first one tried, and the certificate.
"""

import argparse
import time

import numpy as np
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from solvers import SVMDual


def separable_data(n=200, d=1000, scale=1000.0, seed=0):
    """The issue's data: ``X = scale * standard_normal((n, d))``, y the signs of a random
    linear function of X (separable: with d >= n any labelling is)."""
    rng = np.random.default_rng(seed)
    X = scale * rng.standard_normal((n, d))
    return X, np.sign(X @ rng.standard_normal(d))


def measure(n=200, d=1000, repeats=5):
    """Median seconds of ours and SVC's fits, and our last fit."""
    X, y = separable_data(n, d)
    ours, peer = [], []
    with threadpool_limits(1):
        SVMDual(C=1.0).fit(X, y)  # loads the compiled code
        for _ in range(repeats):
            start = time.perf_counter()
            fit = SVMDual(C=1.0).fit(X, y)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            SVC(kernel="linear", C=1.0).fit(X, y)
            peer.append(time.perf_counter() - start)
    return float(np.median(ours)), float(np.median(peer)), fit


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--d", type=int, default=1000)
    args = parser.parse_args(argv)
    ours, peer, fit = measure(args.n, args.d, args.repeats)
    attempts = [a["backend"] for a in fit.solve_attempts_]
    print(f"SVMDual(C=1) {args.n} x {args.d} separable: ours {ours:.4f} s, SVC {peer:.4f} s, "
          f"ratio {ours / peer:.2f}; answered by {fit.backend_} (attempts {attempts}); "
          f"{fit.certificate_}")  # fmt: skip
    return ours, peer, fit


if __name__ == "__main__":
    main()
