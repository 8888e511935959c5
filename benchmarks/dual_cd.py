"""Speed of the dual coordinate descent for the 2-norm SVM against liblinear (LinearSVC).

On the text-like corpora of ``benchmarks._text`` (1000 x 10000 with ``--quick``; else
2000 x 20000 and 20000 x 200000, about 100 nonzeros per row), for C in {1, 100} and
both losses, times ``solvers._dual_cd.dual_coordinate_descent`` (to a relative duality
gap of 1e-7, exact unpenalised intercept) and its compiled part alone (the numba
calls), against ``sklearn.svm.LinearSVC(loss=..., C=C, intercept_scaling=1)``, whose
intercept is penalised, at its default tol and at the loosest tol in 1e-4 ... 1e-8
whose objective, evaluated on OUR model (its w with the best intercept for it), is
within 1e-6 of the scale of our certified optimum ("none" when no tol gets there: the
penalised intercept moves liblinear's optimum). The runs are interleaved under one
BLAS thread; the ratios are medians over the repeats. Target: our whole function
within 1.3x of LinearSVC's fit.

Peak memory: tracemalloc's peak during one call (Python and NumPy allocations). It does
not see what liblinear allocates in C, at least its copy of X as ``(index, value)``
pairs with a bias and an end marker per row: ``16 (nnz + 2 n)`` bytes, reported beside.

Real text: ``--debian 20000,all`` runs the same comparison on the Debian descriptions'
hard split of :mod:`benchmarks.real_text` (as they come, libs and libdevel against the
rest; ``all``: every document, about 60 000), where the duals are ill-conditioned
(near-duplicate documents with both labels): there LinearSVC's iterations are capped at
``max_iter=100000`` (a capped run is marked), and ``--repeats`` defaults to 1.

Small problems: ``--small`` runs it on the three 200-document corpora of
:mod:`benchmarks.small_corpora` (200 x 2 200-3 500, about 30 words per document), where
a face step is direct (see :mod:`solvers._dual_cd`), timed in processor seconds.

Run: ``python -m benchmarks.dual_cd [--quick] [--repeats 5] [--threads 1]
[--debian 20000,all] [--small]``
"""

import time
import tracemalloc
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

import solvers._dual_cd as dual_cd
from benchmarks._text import text_like
from benchmarks._timing import benchmark_parser
from solvers._polish import hinge_intercept
from solvers.certificates import hinge_null_objective

# The numba functions called from Python (wrapping one that numba code calls would break it).
_COMPILED = ("_duplicates", "_transpose_times", "_coordinates", "_sweeps", "_balance",
             "_objectives", "_reactivate", "_face_gradient", "_face_cg", "_onto_box_and_plane",
             "_objective_change", "_move", "_count_columns", "_face_gram",
             "_delete_samples")  # fmt: skip
_TOLS = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8)
#: LinearSVC's iteration cap (its default is 1000, far short on the hard text).
_LIBLINEAR_MAX_ITER = 100000
#: The clock of the runs: the wall clock, or processor time with ``--small`` (fits of a
#: millisecond, which on a shared machine the wall clock sees mostly as time slices).
_CLOCKS = {"wall": time.perf_counter, "processor": time.process_time}
_clock = _CLOCKS["wall"]


class _CompiledClock:
    """Wraps the module's numba functions and adds up the time spent in them."""

    def __init__(self):
        self.seconds = 0.0
        self.originals = {name: getattr(dual_cd, name) for name in _COMPILED}
        for name, function in self.originals.items():
            setattr(dual_cd, name, self._timed(function))

    def _timed(self, function):
        def timed(*args):
            start = _clock()
            result = function(*args)
            self.seconds += _clock() - start
            return result

        return timed

    def restore(self):
        for name, function in self.originals.items():
            setattr(dual_cd, name, function)


def _ours(X, y, C, loss):
    clock = _CompiledClock()
    try:
        start = _clock()
        result = dual_cd.dual_coordinate_descent(X, y, np.full(X.shape[0], C), loss=loss)
        return _clock() - start, clock.seconds, result
    finally:
        clock.restore()


def _liblinear(X, y, C, loss, tol):
    model = LinearSVC(loss=loss, C=C, tol=tol, intercept_scaling=1, max_iter=_LIBLINEAR_MAX_ITER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = _clock()
        model.fit(X, y)
    return _clock() - start, model


def _objective(X, y, C, loss, coef, intercept):
    slack = np.maximum(0.0, 1.0 - y * (X @ coef + intercept))
    return 0.5 * coef @ coef + C * np.sum(slack * slack if loss == "squared_hinge" else slack)


def _excess(X, y, C, loss, model, result):
    """liblinear's objective on our model (best intercept for its w) above our optimum."""
    coef = model.coef_.ravel()
    intercept = hinge_intercept(X @ coef, y, squared=loss == "squared_hinge")
    null = C * hinge_null_objective(y, squared=loss == "squared_hinge")
    scale = max(abs(result.primal), abs(result.dual), null)
    return (_objective(X, y, C, loss, coef, intercept) - result.primal) / scale


def _tracemalloc_peak(fit):
    tracemalloc.start()
    try:
        fit()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _compare(X, y, C, loss, repeats):
    _ours(X, y, C, loss)  # compile (or load the cache) before timing
    _, _, result = _ours(X, y, C, loss)
    excesses, models = {}, {}
    for tol in _TOLS:  # the first is LinearSVC's default
        models[tol] = _liblinear(X, y, C, loss, tol)[1]
        excesses[tol] = _excess(X, y, C, loss, models[tol], result)
        if excesses[tol] <= 1e-6:
            break
    matched = tol if excesses[tol] <= 1e-6 else None
    rows = []
    for _ in range(repeats):
        whole, compiled, result = _ours(X, y, C, loss)
        default = _liblinear(X, y, C, loss, 1e-4)[0]
        tight = _liblinear(X, y, C, loss, matched)[0] if matched is not None else np.nan
        rows.append((whole, compiled, default, tight))
    whole, compiled, default, tight = np.array(rows).T
    memory = {
        "ours": _tracemalloc_peak(lambda: _ours(X, y, C, loss)),
        "liblinear": _tracemalloc_peak(lambda: _liblinear(X, y, C, loss, 1e-4)),
        "liblinear_copy": 16 * (X.nnz + 2 * X.shape[0]) / 2**20,
    }
    return {
        "result": result,
        "ours": np.median(whole),
        "compiled": np.median(compiled),
        "default": np.median(default),
        "tight": np.median(tight),
        "ratio_default": np.median(whole / default),
        "ratio_compiled": np.median(compiled / default),
        "ratio_tight": np.median(whole / tight),
        "matched": matched,
        "excess_default": excesses[_TOLS[0]],
        "excess_last": excesses[tol],
        "last_tol": tol,
        "default_model": models[_TOLS[0]],
        "memory": memory,
    }


def _corpora(args):
    """``(name, X, y)``: text_like's corpora, the Debian hard split at ``--debian``'s sizes,
    or the three corpora of :mod:`benchmarks.small_corpora` (``--small``)."""
    if args.small:
        from benchmarks.small_corpora import corpora

        for task in corpora():
            yield task.name, task.X.tocsr(), np.where(task.y > 0, 1.0, -1.0)
        return
    if args.debian:
        from benchmarks.real_text import corpora

        sizes = tuple(None if v == "all" else int(v) for v in args.debian.split(","))
        yield from corpora(("hard",), sizes)
        return
    for n, d in [(1000, 10000)] if args.quick else [(2000, 20000), (20000, 200000)]:
        yield f"text_like({n}, {d})", *text_like(n, d)


def _row(loss, C, row):
    result, memory = row["result"], row["memory"]
    capped = lambda model: " (capped)" if model.n_iter_ >= _LIBLINEAR_MAX_ITER else ""  # noqa: E731
    matched = (
        f"tol={row['matched']:g}: {row['tight']:.3g} s, ratio {row['ratio_tight']:.2f}"
        if row["matched"] is not None
        else f"none (at tol={row['last_tol']:g} still {row['excess_last']:.1e} above)"
    )
    return (
        f"  {loss:13s} C={C:<4g} ours {row['ours']:.3g} s (compiled {row['compiled']:.3g} s, "
        f"{result.epochs} epochs, {result.face_steps} face steps, gap "
        f"{result.relative_gap:.1e}, primal {result.primal:.10g}); LinearSVC tol=1e-4 "
        f"{row['default']:.3g} s{capped(row['default_model'])} "
        f"({row['excess_default']:.1e} above our optimum): ratio {row['ratio_default']:.2f} "
        f"(compiled {row['ratio_compiled']:.2f}); matched {matched}; tracemalloc peak ours "
        f"{memory['ours']:.1f} MiB, LinearSVC {memory['liblinear']:.1f} MiB + its copy of X "
        f"in C {memory['liblinear_copy']:.1f} MiB"
    )


def main(argv=None):
    parser = benchmark_parser(__doc__.splitlines()[0])
    parser.add_argument(
        "--debian", default=None, help="sizes of the Debian hard split, e.g. 20000,all"
    )
    parser.add_argument(
        "--small", action="store_true", help="the three 200-document corpora of small_corpora"
    )
    parser.set_defaults(repeats=None, threads=1)
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.debian else 5)
    global _clock
    _clock = _CLOCKS["processor" if args.small else "wall"]
    with threadpool_limits(args.threads):
        for name, X, y in _corpora(args):
            print(f"{name} {X.shape[0]} x {X.shape[1]}: {X.nnz} nonzeros; medians of {repeats} "
                  f"runs", flush=True)  # fmt: skip
            for loss in ("hinge", "squared_hinge"):
                for C in (1.0, 100.0):
                    print(_row(loss, C, _compare(X, y, C, loss, repeats)), flush=True)


if __name__ == "__main__":
    main()
