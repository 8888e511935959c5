"""Small LPs of the 1-norm SVM path solved by HiGHS directly, warm-started between steps.

The step LP of Zhu, Rosset, Hastie & Tibshirani (2003), used where the direction
of the 1-norm SVM path (004 eq. 6) is not determined by a generic knot, changes
little from one step to the next: a sample joins or leaves the elbow, a feature
joins. Each variable and each row carries an integer key (the sample or feature it
stands for, coded by the caller), so the optimal basis of one solve is carried over
to the next by key, and HiGHS's dual simplex starts from it. HiGHS is called through
``highspy``'s array interface rather than ``scipy.optimize.linprog`` or a
``HighsLp`` object: the wrapper's input checks and copies, and the object's
element-by-element conversions, cost more than the solve itself on these LPs.
"""

import highspy
import numpy as np

INF = highspy.kHighsInf
# HiGHS's primal and dual feasibility tolerances (default 1e-7): the path certifies
# every dual point at 1e-6 relative, and these LPs are small enough to solve tighter.
FEASIBILITY_TOLERANCE = 1e-10
_BASIC = int(highspy.HighsBasisStatus.kBasic)
_LOWER = int(highspy.HighsBasisStatus.kLower)
# Basis status codes -> HiGHS's enum members, looked up a whole array at a time.
_STATUSES = np.empty(max(int(s) for s in highspy.HighsBasisStatus.__members__.values()) + 1,
                     dtype=object)  # fmt: skip
for _status in highspy.HighsBasisStatus.__members__.values():
    _STATUSES[int(_status)] = _status
_COLUMNWISE = int(highspy.MatrixFormat.kColwise)
_MINIMIZE = int(highspy.ObjSense.kMinimize)


class KeyedLP:
    """One HiGHS instance solving a sequence of related LPs, each warm-started by key.

    ``min c'x`` s.t. ``row_lower <= A x <= row_upper``, ``col_lower <= x <= col_upper``,
    with A a `scipy.sparse.csc_matrix`; each column and row has an integer key.
    """

    def __init__(self):
        # The bare binding: the `highspy.Highs` wrapper installs Python callbacks
        # and prints a banner before output_flag can be set.
        self.highs = highspy._core._Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.setOptionValue("presolve", "off")  # small LPs, mostly warm-started
        for option in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
            self.highs.setOptionValue(option, FEASIBILITY_TOLERANCE)
        # The last optimal basis: sorted keys and their statuses, columns and rows.
        self.columns = self.rows = None

    def solve(self, cost, col_lower, col_upper, row_lower, row_upper, matrix, col_keys, row_keys):
        """Solve the LP; return (x, row duals) or None if not optimal.

        Row duals follow HiGHS's sign convention: reduced costs are ``c - A'y``.
        """
        highs = self.highs
        n_cols, n_rows = cost.shape[0], row_lower.shape[0]
        highs.passModel(
            n_cols, n_rows, matrix.nnz, _COLUMNWISE, _MINIMIZE, 0.0,
            cost, col_lower, col_upper, row_lower, row_upper,
            matrix.indptr.astype(np.int32), matrix.indices.astype(np.int32),
            matrix.data, np.zeros(n_cols, dtype=np.int32),
        )  # fmt: skip
        basis = self._carried_basis(col_keys, row_keys)
        if basis is not None:
            highs.setBasis(basis)
        highs.run()
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            self.columns = self.rows = None
            return None
        solution, basis = highs.getSolution(), highs.getBasis()
        self.columns = _remember(col_keys, basis.col_status)
        self.rows = _remember(row_keys, basis.row_status)
        return np.array(solution.col_value), np.array(solution.row_dual)

    def _carried_basis(self, col_keys, row_keys):
        """The last optimal basis restricted to these keys, if it has one basic per row.

        New rows get a basic slack and new (nonnegative) columns sit at their lower
        bound, which keeps the count right when one sample joins the elbow (its row
        and its slack variable come together); otherwise HiGHS starts cold.
        """
        if self.columns is None:
            return None
        columns = _recall(self.columns, col_keys, _LOWER)
        rows = _recall(self.rows, row_keys, _BASIC)
        if np.count_nonzero(columns == _BASIC) + np.count_nonzero(rows == _BASIC) != len(rows):
            return None
        basis = highspy.HighsBasis()
        basis.col_status = _STATUSES[columns].tolist()
        basis.row_status = _STATUSES[rows].tolist()
        basis.valid = True
        return basis


def _remember(keys, statuses):
    """``(sorted keys, their statuses)`` from HiGHS's list of status members."""
    order = np.argsort(keys)
    codes = np.fromiter(map(int, statuses), dtype=np.int64, count=len(keys))
    return keys[order], codes[order]


def _recall(known, keys, default):
    """The remembered status of each key, ``default`` for keys not seen last time."""
    known_keys, known_statuses = known
    if known_keys.shape[0] == 0:
        return np.full(keys.shape[0], default, dtype=np.int64)
    positions = np.minimum(np.searchsorted(known_keys, keys), known_keys.shape[0] - 1)
    return np.where(known_keys[positions] == keys, known_statuses[positions], default)
