"""Cost models of the planner (:mod:`solvers._planner`): ``log seconds = theta . features``.

Features: ``(1, log n, log d, log nnz, hardness, weighted, sparse, warm)`` of
:class:`solvers._planner.ProblemStats`. One ``theta`` per (model, backend).

Written by ``python -m benchmarks.planner --calibrate``: the least-squares fit to the
log of fit times measured on the planner's grid (48 problems: the six models, dense
and CSR data with n from 100 to 20000 and d from 20 to 200000, three levels of
regularisation, with and without sample weights), shrunk towards the coefficients
it replaces. The ``warm`` coefficient keeps its prior, -0.5, where the grid (first fits
only) says nothing. Rerun the script to calibrate for another machine.

The SVM's four (``'svm'``) were calibrated again (issue 29) on its part of the grid with
:data:`benchmarks.planner.SEPARABLE` (the separable 200 x 1000 cases, as drawn and times
1000, C = 1 and 100), after DUAL_CD learnt to answer dense data with more samples than
features: two runs, ``--models svm --budget 10`` and ``--budget 30``, both fitted
(``planner.calibrate(load(a) + load(b))``), from the coefficients before; a fit past its
budget counts as the larger of the budget and the estimate before. On a loaded shared
machine (load 7-14 on 2 cores): its times are 2-5 times the quiet machine's, which only
shifts the SVM's models together (the planner compares a model's backends).
"""

COSTS = {
    ('l1_svm', 'CLARABEL'): (
        -12.1120, -0.0492, 0.2847, 1.0103, 0.2248, 0.6399, 0.3213, 0.0000, -0.3237, 0.0000,
    ),
    ('l1_svm', 'COLUMN_GENERATION'): (
        -14.4743, -0.0505, 0.1360, 0.8868, 0.3834, 0.0112, -0.1333, -0.5000, -0.0989, 0.0000,
    ),
    ('l1_svm', 'ECOS'): (
        -11.6095, 0.1236, 0.5629, 0.9157, 0.1067, 0.2947, 0.7010, 0.0000, -0.7158, 0.0000,
    ),
    ('l1_svm', 'HIGHS'): (
        -12.8024, 0.2802, 0.0272, 0.8633, 0.2805, 0.0614, -0.0547, 0.0000, -0.0961, 0.0000,
    ),
    ('l1_svm', 'HOMOTOPY'): (
        -16.0373, 0.3077, 0.4155, 1.1810, 0.2226, 0.0000, 0.1707, 0.0000, -0.5885, 0.0000,
    ),
    ('lasso', 'CD'): (
        -16.2637, 1.4286, -0.3028, 0.6336, 0.7044, -0.5400, 0.3054, -0.5000, -0.5425, 0.0000,
    ),
    ('lasso', 'CLARABEL'): (
        -11.7040, 0.6898, 0.1279, 0.3181, 0.5786, 0.5249, 0.6322, 0.0000, 0.0043, 0.1389,
    ),
    ('lasso', 'ECOS'): (
        -8.0948, 3.1902, -0.8537, 0.2787, 0.6503, -1.9161, 0.4855, 0.0000, -1.4087, 0.0000,
    ),
    ('lasso', 'HOMOTOPY'): (
        -16.8253, 2.2398, -0.2327, 0.2315, 0.9905, 0.0000, 0.3912, 0.0000, -0.5647, 0.0000,
    ),
    ('lasso', 'OSQP'): (
        -10.6684, 0.9001, 0.2385, 0.0528, 0.5357, 0.5243, 0.7407, 0.0000, -0.0521, 0.0302,
    ),
    ('ridge', 'CG'): (
        -15.9517, 0.1799, -0.1983, 0.6125, 0.0000, -0.4789, 0.1496, -0.5000, 0.6363, 0.0000,
    ),
    ('ridge', 'CLARABEL'): (
        -12.3407, 0.4821, 0.4379, 0.5694, 0.0000, 0.4491, 0.4202, 0.0000, -0.3209, 0.0000,
    ),
    ('ridge', 'ECOS'): (
        -9.2181, 0.0290, -0.4158, 1.0330, 0.0000, -2.6104, 0.5275, 0.0000, 0.5242, 0.0000,
    ),
    ('ridge', 'OSQP'): (
        -11.0861, 0.3678, 0.7046, 0.4929, 0.0000, 0.6528, 0.7864, 0.0000, -0.5713, 0.0000,
    ),
    ('ridge', 'SVD'): (
        -24.6692, 0.4637, -0.2270, 0.9273, 0.0000, -0.8390, -0.1384, 0.0000, 1.4571, 0.0000,
    ),
    ('svm', 'CLARABEL'): (
        -11.4874, 0.8022, 0.3533, 0.3470, 0.0000, 0.1158, 0.6620, 0.0000, -0.1727, 0.0011,
    ),
    ('svm', 'DUAL_CD'): (
        -15.5461, 1.3593, -0.0224, 0.2036, 0.4813, 0.2013, -0.0560, -0.5000, -0.0824, 0.0061,
    ),
    ('svm', 'ECOS'): (
        -11.2294, 0.9081, 0.6443, 0.2701, 0.0000, 0.8129, 1.0214, 0.0000, -0.6534, 0.0207,
    ),
    ('svm', 'OSQP'): (
        -10.6186, 1.7901, 0.4705, -0.1951, 0.1242, -0.0011, 0.6591, 0.0000, -0.5896, 0.0000,
    ),
    ('svm2', 'CD'): (
        -16.5274, 0.1338, 0.1348, 0.7803, 0.3349, -0.2655, -0.0300, -0.5000, 0.0527, 0.0819,
    ),
    ('svm2', 'CLARABEL'): (
        -12.5481, -0.1208, 0.2061, 1.0015, 0.2031, 0.4498, 0.3262, 0.0000, -0.0939, 0.0000,
    ),
    ('svm2', 'ECOS'): (
        -11.4968, 0.2468, 0.6379, 0.8346, 0.0000, 0.5226, 0.7080, 0.0000, -0.7856, 0.0000,
    ),
    ('svm2', 'HOMOTOPY'): (
        -16.7048, 0.0715, 0.0058, 0.6112, 0.5995, 0.0000, -0.1238, 0.0000, 0.7442, 0.0000,
    ),
    ('svm2', 'OSQP'): (
        -11.0892, 0.5155, 0.4408, 0.3387, 0.1957, 0.8058, 0.9769, -0.0000, -0.2061, 0.1669,
    ),
    ('svm_squared_hinge', 'CLARABEL'): (
        -11.9048, 1.0461, 0.3271, 0.2106, 0.0000, 0.6301, 0.6885, 0.0000, -0.2747, 0.0000,
    ),
    ('svm_squared_hinge', 'DUAL_CD'): (
        -15.0458, 1.3350, -0.4713, 0.3591, 0.4545, 0.1259, -0.3455, -0.5000, 0.0593, 0.0000,
    ),
    ('svm_squared_hinge', 'ECOS'): (
        -11.1452, 1.3037, 0.5967, 0.0709, 0.0768, 0.3971, 0.9752, 0.0000, -0.7231, 0.0000,
    ),
    ('svm_squared_hinge', 'NEWTON'): (
        -17.5532, 0.7765, 0.0977, 0.2482, 0.0081, -0.4480, 0.0324, 0.0000, 0.9289, 0.0000,
    ),
    ('svm_squared_hinge', 'OSQP'): (
        -11.1285, 1.4822, 0.3307, -0.0947, 0.0338, -0.0652, 0.8173, 0.0000, -0.3132, 0.0000,
    ),
}

FIXED = {}
