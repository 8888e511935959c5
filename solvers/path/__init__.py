"""Exact piecewise-linear regularization paths (004 sec. 2.2.1), not grids.

- `lasso_path`: weighted lasso, 004 eq. 3 (LARS, Efron et al. 2004);
- `svm2_path`: squared hinge + weighted L1, 004 eq. 7 (Rosset & Zhu 2007);
- `l1_svm_path`: hinge + weighted L1, 004 eq. 6 (Zhu, Rosset, Hastie & Tibshirani 2003).

Each returns a `Path`; a path that stops early warns with a `PathWarning`.
"""

from ..exceptions import PathWarning
from ._l1svm import l1_svm_path
from ._lasso import lasso_path
from ._path import Path
from ._svm2 import svm2_path

__all__ = ["Path", "PathWarning", "lasso_path", "l1_svm_path", "svm2_path"]
