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
_BASIC = highspy.HighsBasisStatus.kBasic
_LOWER = highspy.HighsBasisStatus.kLower
_ZERO = highspy.HighsBasisStatus.kZero  # a free variable out of the basis
_COLUMNWISE = int(highspy.MatrixFormat.kColwise)
_MINIMIZE = int(highspy.ObjSense.kMinimize)


class KeyedLP:
    """One HiGHS instance solving a sequence of related LPs, each warm-started by key.

    ``min c'x`` s.t. ``row_lower <= A x <= row_upper``, ``col_lower <= x <= col_upper``,
    with A a `scipy.sparse.csc_matrix`; each column and row has an integer key. Every
    column is bounded below or free, never bounded above only, and every row is bounded
    below (or fixed): then a basis is its set of basic variables, each other column
    at its lower bound (at 0 if free) and each other row at its lower bound, and only
    the basic keys are remembered (HiGHS's basis as lists costs 64 bytes a column).
    """

    def __init__(self):
        # The bare binding: the `highspy.Highs` wrapper installs Python callbacks
        # and prints a banner before output_flag can be set.
        self.highs = highspy._core._Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.setOptionValue("presolve", "off")  # small LPs, mostly warm-started
        for option in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
            self.highs.setOptionValue(option, FEASIBILITY_TOLERANCE)
        # The last optimal basis: the sorted keys of its basic columns, and of its rows
        # with whether each is basic.
        self.basic_columns = self.rows = None

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
        basis = self._carried_basis(col_lower, col_keys, row_keys)
        if basis is not None:
            highs.setBasis(basis)
        highs.run()
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            self.basic_columns = self.rows = None
            return None
        basic = highs.getBasicVariables()[1]  # column j as j, row i as -1 - i
        self.basic_columns = np.sort(col_keys[basic[basic >= 0]])
        basic_rows = np.zeros(n_rows, dtype=bool)
        basic_rows[-1 - basic[basic < 0]] = True
        order = np.argsort(row_keys)
        self.rows = row_keys[order], basic_rows[order]
        solution = highs.getSolution()
        return np.array(solution.col_value), np.array(solution.row_dual)

    def _carried_basis(self, col_lower, col_keys, row_keys):
        """The last optimal basis carried to these keys, if it has one basic per row.

        New rows get a basic slack and new columns sit at their lower bound, which
        keeps the count right when one sample joins the elbow (its row and its slack
        variable come together); otherwise HiGHS starts cold.
        """
        if self.basic_columns is None:
            return None
        basic_columns = np.flatnonzero(_known(self.basic_columns, col_keys))
        known_rows, known_basic = self.rows
        seen = _known(known_rows, row_keys)
        positions = np.minimum(np.searchsorted(known_rows, row_keys), known_rows.shape[0] - 1)
        basic_rows = ~seen | known_basic[positions]
        if basic_columns.shape[0] + np.count_nonzero(basic_rows) != len(row_keys):
            return None
        col_status = [_LOWER] * col_keys.shape[0]  # a list of references: 8 bytes a column
        for j in np.flatnonzero(col_lower == -INF).tolist():
            col_status[j] = _ZERO
        for j in basic_columns.tolist():
            col_status[j] = _BASIC
        basis = highspy.HighsBasis()
        basis.col_status = col_status
        basis.row_status = [_BASIC if b else _LOWER for b in basic_rows.tolist()]
        basis.valid = True
        return basis


def _known(sorted_keys, keys):
    """Whether each of ``keys`` is among ``sorted_keys``."""
    if sorted_keys.shape[0] == 0:
        return np.zeros(keys.shape[0], dtype=bool)
    positions = np.minimum(np.searchsorted(sorted_keys, keys), sorted_keys.shape[0] - 1)
    return sorted_keys[positions] == keys
