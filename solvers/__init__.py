"""solvers: the convex models of the papers, written declaratively in CVXPY."""
from .path import Path, l1_svm_path, lasso_path, svm2_path  # noqa: F401  (issue 4: exact paths)
