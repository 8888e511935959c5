"""A newcomer's first fits at the papers' scale, each in a fresh process.

``python -m benchmarks.newcomer [--quick]`` fits SVMDual (C = 1), L2SVM (C = 1), SVM2
and WeightedLasso (lam = 0.1 lam_max) with their defaults on a
:func:`benchmarks._text.text_like` corpus of 20000 documents x 200000 words, each in a
new Python process, as a user's first script would, and prints per estimator the
seconds to import :mod:`solvers`, the seconds of the one fit, the backend that
answered and its certificate. The kernels' compiled code is cached on disk by the
first process on a machine (numba ``cache=True``); run it twice to see a cold and a
warm cache. Target (issue 19): an answer in seconds, certified.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ESTIMATORS = ("SVMDual", "L2SVM", "SVM2", "WeightedLasso")

_FIRST_FIT = r"""
import json, sys, time
from benchmarks._text import text_like, text_regression_target
name, n, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
X, y = text_like(n, d)
start = time.perf_counter()
from solvers import L2SVM, SVM2, SVMDual, WeightedLasso
imported = time.perf_counter() - start
if name == "WeightedLasso":
    y = text_regression_target(X)
    estimator = WeightedLasso(lam=0.1 * WeightedLasso.lam_max(X, y))
elif name == "SVM2":
    estimator = SVM2(lam=0.1 * SVM2.lam_max(X, y))
else:
    estimator = {"SVMDual": SVMDual, "L2SVM": L2SVM}[name](C=1.0)
start = time.perf_counter()
estimator.fit(X, y)
print(json.dumps({"estimator": name, "import_s": imported,
                  "fit_s": time.perf_counter() - start, "backend": estimator.backend_,
                  "certified": bool(estimator.certificate_.holds),
                  "relative_gap": float(estimator.dual_gap_)}))
"""


def first_fit(name, n, d):
    """The import and fit seconds of one estimator in a new process, and its answer."""
    root = Path(__file__).parents[1]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_FIT, name, str(n), str(d)],
        capture_output=True, text=True, cwd=root, env=env, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 x 3000, for the tests")
    args = parser.parse_args(argv)
    n, d = (300, 3000) if args.quick else (20000, 200000)
    print(f"first fits in new processes on text_like({n}, {d}), one BLAS thread")
    print("| estimator | import solvers s | fit s | backend | certified (relative gap) |")
    print("|---|---|---|---|---|")
    results = [first_fit(name, n, d) for name in ESTIMATORS]
    for r in results:
        print(f"| {r['estimator']} | {r['import_s']:.2f} | {r['fit_s']:.2f} | {r['backend']} | "
              f"{'yes' if r['certified'] else 'NO'} ({r['relative_gap']:.1e}) |")  # fmt: skip
    return results


if __name__ == "__main__":
    main()
