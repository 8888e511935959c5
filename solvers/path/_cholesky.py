"""A Cholesky factor kept up to date as columns and rows of the data come and go.

The homotopy algorithms solve ``G v = b`` with ``G = Z_E' Z_E`` (Z: the active
columns plus the intercept, E: the rows in the loss) after every event. As in
scikit-learn's LARS (Efron et al. 2004, sec. 7), the factor ``G = R' R`` is
updated, not recomputed: a feature joining appends a column (one triangular
solve), a feature leaving deletes one (the QR factorisation of the Hessenberg
block it leaves), and a sample joining
or leaving E is a rank-one update or downdate (Rosset & Zhu 2007, sec. 4).
Each operation costs O(k^2) for k active columns.
"""

import numpy as np
from scipy.linalg.lapack import dgeqrf, dpotrs, dtrtrs

# A pivot whose square falls below this fraction of the column's squared norm
# makes the Gram matrix numerically singular.
_SINGULAR_RATIO = 1e-10


class UpdatableCholesky:
    """Upper-triangular ``R`` with ``G = R' R``, updated in O(k^2) per change.

    Parameters
    ----------
    gram : ndarray of shape (k, k)
        The starting Gram matrix (positive definite; typically 1 x 1).
    """

    def __init__(self, gram):
        # Fortran order, as LAPACK takes it (a C-ordered R is copied at every solve).
        self.R = np.asfortranarray(np.linalg.cholesky(np.atleast_2d(gram)).T)

    @property
    def size(self):
        return self.R.shape[0]

    def solve(self, rhs):
        """Solve ``R' R x = rhs``."""
        solution, _ = dpotrs(self.R, rhs, lower=0)
        return solution

    def append(self, cross, diagonal):
        """Add a column with Gram entries ``cross`` (against the others) and ``diagonal``.

        Returns False, leaving the factor unchanged, when the new column is
        (numerically) a combination of the existing ones.
        """
        w, _ = dtrtrs(self.R, cross, lower=0, trans=1)
        pivot = diagonal - w @ w
        if not pivot > _SINGULAR_RATIO * diagonal:
            return False
        k = self.size
        R = np.zeros((k + 1, k + 1), order="F")
        R[:k, :k] = self.R
        R[:k, k] = w
        R[k, k] = np.sqrt(pivot)
        self.R = R
        return True

    def remove(self, index):
        """Delete column and row ``index`` of G, restoring R's triangle.

        Without column ``index``, R's rows from ``index`` on form an upper
        Hessenberg block; its QR factorisation (Householder reflections, one
        LAPACK call) gives the new rows, each negated where needed for a
        positive diagonal (``G = R' R`` either way).
        """
        k = self.size
        R = np.empty((k - 1, k - 1), order="F")
        R[:, :index] = self.R[: k - 1, :index]
        R[:index, index:] = self.R[:index, index + 1 :]
        if index < k - 1:
            qr, _, _, _ = dgeqrf(self.R[index:, index + 1 :])
            tail = np.triu(qr[: k - 1 - index])
            tail *= np.where(np.diagonal(tail) < 0, -1.0, 1.0)[:, None]
            R[index:, index:] = tail
        self.R = R

    def rank_one(self, z, sign):
        """Replace G by ``G + sign * z z'`` (sign +1: update, -1: downdate).

        Returns False when a downdate would leave G numerically singular; the
        factor is then no longer valid and the caller must stop.
        """
        R = self.R
        x = np.array(z, dtype=np.float64)
        for k in range(R.shape[0]):
            rkk = R[k, k]
            squared = rkk * rkk + sign * x[k] * x[k]
            if not squared > _SINGULAR_RATIO * rkk * rkk:
                return False
            r = np.sqrt(squared)
            c, s = r / rkk, x[k] / rkk
            R[k, k] = r
            if k + 1 < R.shape[0]:
                R[k, k + 1 :] = (R[k, k + 1 :] + sign * s * x[k + 1 :]) / c
                x[k + 1 :] = c * x[k + 1 :] - s * R[k, k + 1 :]
        return True
