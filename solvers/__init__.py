"""solvers: the convex models of the papers, written declaratively in CVXPY."""

from . import formulations, path
from ._backends import DEFAULT_BACKENDS, available_backends
from .exceptions import PathWarning, SolverError
from .lasso import AdaptiveLasso, WeightedLasso
from .path import Path, l1_svm_path, lasso_path, svm2_path
from .ridge import RLSC, RidgeRegression
from .support_vectors import SupportVectorSelector
from .svm import L1SVM, L2SVM, SVM2, SVMDual

__all__ = [
    "DEFAULT_BACKENDS",
    "SolverError",
    "available_backends",
    "formulations",
    "SVMDual",
    "L2SVM",
    "L1SVM",
    "SVM2",
    "WeightedLasso",
    "AdaptiveLasso",
    "RLSC",
    "RidgeRegression",
    "SupportVectorSelector",
    "path",
    "Path",
    "PathWarning",
    "lasso_path",
    "l1_svm_path",
    "svm2_path",
]
