"""``DUAL_CD``: the 2-norm SVMs' dual coordinate descent (Hsieh et al. 2008), exact intercept.

Solves 001 eq. 2 (the hinge) and its squared-hinge variant over the multipliers
(:func:`solvers._dual_cd.dual_coordinate_descent`), from the last run's multipliers on
the same data (clipped into the box of a new C), its merge of repeated rows and X's
column norms (the certificate's).
"""

import numpy as np
import scipy.sparse as sp

from sparsify._validation import canonical
from sparsify.utils import column_norms

from .._chain import Outcome
from .._problem import Answer
from . import own_options
from ._answers import certified, polish_if_cheap

__all__ = ["run"]


def run(problem, options, warm_start):
    """Dual coordinate descent on ``problem`` (a 2-norm SVM): see the module docstring.

    An answer is certified here (:meth:`solvers._problem.Problem.certificate`, with the
    column norms kept from a run on the same data); one that stopped at its epoch cap is
    polished on its support-vector pattern when that is cheap
    (:func:`solvers.backends._answers.polish_if_cheap`) and is ``"max_iter"`` if still
    above the problem's tolerance.
    """
    from .._dual_cd import dual_coordinate_descent

    X, y = problem.X, problem.y
    boxes = problem.C * problem.sample_weights()
    rows = canonical(X.tocsr()) if sp.issparse(X) else X  # each row's entries read once
    kept = dict(warm_start.kept or {})
    norms = kept.pop("norms", None)  # X's column norms, kept from a run on these data
    if kept.get("representative") is not None and not _merges_hold(
        rows, y, kept["representative"]
    ):
        del kept["representative"]  # kept on other data: merged again from these rows
    result = dual_coordinate_descent(
        rows, y, boxes, loss=problem.loss.name, **kept, **own_options(options)
    )
    answer = Answer(np.asarray(result.coef, dtype=float), float(result.intercept), result.alpha)
    free = np.count_nonzero((result.alpha > 0) & (result.alpha < boxes))
    # The certificate's column norms of X, kept for a re-fit on the same data: a pass
    # over X fewer (0.8 of a re-fit's 8 ms at 2000 x 200000 text, 14 us of a
    # 200-document re-fit's 0.8 ms).
    norms = column_norms(X) if norms is None else norms
    certificate, answer = polish_if_cheap(problem, answer, X.shape[1], free, norms=norms)
    if certificate is None and result.converged:
        # Certified here (polished if it fails, as the chain would).
        certificate, answer = certified(problem, answer, problem.certificate(answer, norms=norms))
    state = {"alpha": result.alpha, "intercept": result.intercept, "spread": result.spread,
             "representative": result.representative, "norms": norms}  # fmt: skip
    gap = result.relative_gap if certificate is None else certificate.relative_gap
    record = {"iterations": result.epochs, "work": result.work}
    if not result.converged and gap > problem.tolerance:
        return Outcome(
            "max_iter",
            f"not converged in {result.epochs} epochs (relative duality gap {gap:.2e})",
            answer=answer, record=record, certificate=certificate, state=state,
        )  # fmt: skip
    message = "" if result.converged else f"not converged in {result.epochs} epochs"
    return Outcome("optimal", message, answer, record, certificate, state)


def _merges_hold(rows, y, representative):
    """Whether each sample merged into another (``representative[i] != i``) still has
    its representative's label and row, bit for bit.

    The warm state is matched to the data by a digest of some of its entries
    (:func:`solvers._fingerprint.signature`), which may take changed data for the
    same: a merge kept from other rows would solve another problem. The check reads the
    merged rows only.
    """
    n = y.size
    if representative.shape != (n,):
        return False
    merged = np.flatnonzero(representative != np.arange(n))
    if merged.size == 0:
        return True
    first = representative[merged]
    if np.any(first >= n) or np.any(y[first] != y[merged]):
        return False
    if not sp.issparse(rows):
        return bool(np.array_equal(rows[merged].view(np.uint64), rows[first].view(np.uint64)))
    starts, stops = rows.indptr[merged], rows.indptr[merged + 1]
    lengths = stops - starts
    if np.any(rows.indptr[first + 1] - rows.indptr[first] != lengths):
        return False
    # Entry k of a merged row and entry k of its representative's.
    shift = np.repeat(rows.indptr[first] - starts, lengths)
    own = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    own += np.repeat(starts, lengths)
    bits = rows.data.view(np.uint64)
    return bool(
        np.array_equal(rows.indices[own], rows.indices[own + shift])
        and np.array_equal(bits[own], bits[own + shift])
    )
