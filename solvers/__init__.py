"""solvers: the convex models of the papers, written declaratively in CVXPY."""
