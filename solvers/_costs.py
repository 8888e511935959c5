"""Cost models of the planner (:mod:`solvers._planner`): ``log seconds = theta . features``.

Features: ``(1, log n, log d, log nnz, hardness, weighted, sparse, warm)`` of
:class:`solvers._planner.ProblemStats`. One ``theta`` per (model, backend).

These are hand-set priors; ``python -m benchmarks.calibrate_planner`` replaces this
file with the least-squares fit to measured fit times.
"""

COSTS = {
    ("svm", "DUAL_CD"): (-16.8, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, -0.5),
    ("svm", "CLARABEL"): (-12.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm", "ECOS"): (-11.5, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm", "OSQP"): (-11.0, 0.0, 0.0, 1.1, 0.3, 0.0, 0.0, 0.0),
    ("svm_squared_hinge", "DUAL_CD"): (-16.8, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, -0.5),
    ("svm_squared_hinge", "NEWTON"): (-19.0, 1.0, 1.0, 0.0, 0.2, 0.0, 0.0, 0.0),
    ("svm_squared_hinge", "CLARABEL"): (-12.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm_squared_hinge", "ECOS"): (-11.5, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm_squared_hinge", "OSQP"): (-11.0, 0.0, 0.0, 1.1, 0.3, 0.0, 0.0, 0.0),
    ("l1_svm", "COLUMN_GENERATION"): (-15.0, 0.0, 0.0, 1.0, 0.8, 0.0, 0.0, -0.5),
    ("l1_svm", "HOMOTOPY"): (-17.0, 0.5, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0),
    ("l1_svm", "HIGHS"): (-12.5, 0.0, 0.0, 1.1, 0.3, 0.0, 0.0, 0.0),
    ("l1_svm", "CLARABEL"): (-12.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("l1_svm", "ECOS"): (-11.5, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm2", "CD"): (-17.7, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, -0.5),
    ("svm2", "HOMOTOPY"): (-18.0, 0.5, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0),
    ("svm2", "CLARABEL"): (-12.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm2", "ECOS"): (-11.5, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("svm2", "OSQP"): (-11.0, 0.0, 0.0, 1.1, 0.3, 0.0, 0.0, 0.0),
    ("lasso", "CD"): (-17.7, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, -0.5),
    ("lasso", "HOMOTOPY"): (-18.0, 0.5, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0),
    ("lasso", "CLARABEL"): (-12.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("lasso", "ECOS"): (-11.5, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("lasso", "OSQP"): (-11.0, 0.0, 0.0, 1.1, 0.3, 0.0, 0.0, 0.0),
    ("ridge", "SVD"): (-27.8, 1.5, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0),
    ("ridge", "CG"): (-17.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, -0.5),
    ("ridge", "CLARABEL"): (-12.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("ridge", "ECOS"): (-11.5, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0),
    ("ridge", "OSQP"): (-11.0, 0.0, 0.0, 1.1, 0.3, 0.0, 0.0, 0.0),
}
