"""solvers: the convex models of the papers, written declaratively in CVXPY.

The CVXPY-based names (formulations, estimators, backends) are imported on first
use, so that ``solvers.path``, ``solvers.certificates`` and ``solvers.exceptions``
(NumPy/SciPy only) can be used without importing CVXPY.
"""

import importlib

from .exceptions import PathWarning, SolverError

#: Public name -> the submodule that defines it (imported when first asked for).
_LAZY = {
    "formulations": None,
    "path": None,
    "certificates": None,
    "guarantees": None,
    "testing": None,
    "weights": None,
    "hybrid_weights": "weights",
    "rs_weights": "weights",
    "HybridSVM": "adaptive",
    "RSWeightedSVM": "adaptive",
    "RSWeightedLasso": "adaptive",
    "DEFAULT_BACKENDS": "_registry",
    "available_backends": "_registry",
    "AdaptiveLasso": "lasso",
    "WeightedLasso": "lasso",
    "WeightedLassoCV": "cv",
    "L1SVMCV": "cv",
    "SVM2CV": "cv",
    "Path": "path",
    "l1_svm_path": "path",
    "lasso_path": "path",
    "svm2_path": "path",
    "RLSC": "ridge",
    "RidgeRegression": "ridge",
    "SupportVectorSelector": "support_vectors",
    "L1SVM": "svm",
    "L2SVM": "svm",
    "SVM2": "svm",
    "SVMDual": "svm",
    "SparseLogisticRegression": "logistic",
    "SparseLogisticRegressionCV": "logistic",
}

__all__ = ["SolverError", "PathWarning", *_LAZY]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'solvers' has no attribute {name!r}")
    module = importlib.import_module(f".{_LAZY[name] or name}", __name__)
    value = module if _LAZY[name] is None else getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)
