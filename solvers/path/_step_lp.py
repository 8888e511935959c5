"""Small LPs of the 1-norm SVM path solved by HiGHS directly, warm-started between steps.

The step LP of Zhu, Rosset, Hastie & Tibshirani (2003), used where the direction
of the 1-norm SVM path (004 eq. 6) is not determined by a generic knot, changes
little from one step to the next: a sample joins or leaves the elbow, a feature
joins. Each variable and each row carries a key (the sample or feature it stands
for), so the optimal basis of one solve is carried over to the next by key, and
HiGHS's dual simplex starts from it. Calling HiGHS through ``highspy`` rather
than ``scipy.optimize.linprog`` avoids the wrapper's input checks and copies,
which cost more than the solve itself on these small LPs.
"""

import highspy
import numpy as np

INF = highspy.kHighsInf
# HiGHS's primal and dual feasibility tolerances (default 1e-7): the path certifies
# every dual point at 1e-6 relative, and these LPs are small enough to solve tighter.
FEASIBILITY_TOLERANCE = 1e-10
_BASIC = highspy.HighsBasisStatus.kBasic
_LOWER = highspy.HighsBasisStatus.kLower
_STATUSES = {int(s): s for s in highspy.HighsBasisStatus.__members__.values()}


def sparse_columns(dense):
    """``(start, index, value)`` of the nonzeros of a dense matrix, column by column."""
    transposed = dense.T
    mask = transposed != 0
    start = np.zeros(dense.shape[1] + 1, dtype=np.int32)
    np.cumsum(mask.sum(axis=1), out=start[1:])
    return start, np.nonzero(mask)[1].astype(np.int32), transposed[mask]


class KeyedLP:
    """One HiGHS instance solving a sequence of related LPs, each warm-started by key.

    ``min c'x`` s.t. ``row_lower <= A x <= row_upper``, ``col_lower <= x <= col_upper``,
    with A given column by column (CSC arrays).
    """

    def __init__(self):
        # The bare binding: the `highspy.Highs` wrapper installs Python callbacks
        # and prints a banner before output_flag can be set.
        self.highs = highspy._core._Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.setOptionValue("presolve", "off")  # small LPs, mostly warm-started
        for option in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
            self.highs.setOptionValue(option, FEASIBILITY_TOLERANCE)
        self.statuses = {}  # key -> basis status of the last optimal solve

    def solve(self, lp, col_keys, row_keys):
        """Solve ``lp`` (a `highspy.HighsLp`); return (x, row duals) or None if not optimal.

        Row duals follow HiGHS's sign convention: reduced costs are ``c - A'y``.
        """
        highs = self.highs
        highs.passModel(lp)
        basis = self._carried_basis(col_keys, row_keys)
        if basis is not None:
            highs.setBasis(basis)
        highs.run()
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            self.statuses = {}
            return None
        solution, basis = highs.getSolution(), highs.getBasis()
        self.statuses = dict(zip(col_keys, map(int, basis.col_status), strict=True))
        self.statuses.update(zip(row_keys, map(int, basis.row_status), strict=True))
        return np.array(solution.col_value), np.array(solution.row_dual)

    def _carried_basis(self, col_keys, row_keys):
        """The last optimal basis restricted to these keys, if it has one basic per row.

        New rows get a basic slack and new (nonnegative) columns sit at their lower
        bound, which keeps the count right when one sample joins the elbow (its row
        and its slack variable come together); otherwise HiGHS starts cold.
        """
        if not self.statuses:
            return None
        get = self.statuses.get
        columns = [get(key, int(_LOWER)) for key in col_keys]
        rows = [get(key, int(_BASIC)) for key in row_keys]
        if columns.count(int(_BASIC)) + rows.count(int(_BASIC)) != len(row_keys):
            return None
        basis = highspy.HighsBasis()
        basis.col_status = [_STATUSES[s] for s in columns]
        basis.row_status = [_STATUSES[s] for s in rows]
        basis.valid = True
        return basis


def build_lp(cost, col_lower, col_upper, row_lower, row_upper, columns):
    """A `highspy.HighsLp` from bounds and ``columns = (start, index, value)`` (CSC)."""
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = cost.shape[0], row_lower.shape[0]
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = cost, col_lower, col_upper
    lp.row_lower_, lp.row_upper_ = row_lower, row_upper
    start, index, value = columns
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = start, index, value
    return lp
