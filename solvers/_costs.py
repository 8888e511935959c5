"""Cost models of the planner (:mod:`solvers._planner`): the seconds of a fit are
``a + b (nnz + n + d) + exp(theta . features)``.

``FIXED[model] = (a, b)``: the fit's fixed cost, the same for every backend of the
model (validation, the planner's statistics, centring, the certificate, bookkeeping);
``COSTS[model, backend] = theta``, the backend's solve, log-linear in the features
``(1, log n, log d, log nnz, hardness, weighted, sparse, warm, log min(n, d),
hardness^2 if dense with d > n)`` of :class:`solvers._planner.ProblemStats`.

Written by ``python -m benchmarks.planner --load grid.json,small.json,real.json
--estimates --calibrate`` (issue 32) from three runs of 2026-11-28, in processor
seconds of forked children with one BLAS thread, on a shared 2-core machine at load 6-9
(processor time, unlike the wall clock, hardly moves with the load):
``--budget 10 --save grid.json`` (the synthetic grid: 82 cases, dense and CSR
``text_like`` data, n 100-20000, d 20-200000, and the separable SVM cases),
``--corpora small --budget 10 --save small.json`` (the three 200-document tasks of
``benchmarks.small_corpora``, every backend) and ``--corpora real --own-only --budget 10
--save real.json`` (the Debian descriptions' hard and easy splits at 2000 documents,
the library's own backends). Per model, a nonlinear least-squares fit of the log times:
one ``(a, b)``, one ``theta`` per backend, the errors of each case's ratios of its fastest
backend to the others weighted in (the planner ranks them), shrunk towards the
coefficients before; a harder problem never cheaper; a fit past its budget counts as the
larger of the budget and the estimate before. The ``warm`` coefficient keeps its prior,
-0.5 (the runs are first fits only). Rerun the script to calibrate for another machine.

Calibrated again the same evening, after the fits' fixed costs had fallen (a
200-document fit's processor time outside its chain from 0.8-1.6 ms to 0.5-0.7 ms), on
three new runs of the same commands (load 3-6, other work on the machine): every
model's ``(a, b)`` alone (``--calibrate --fixed-only``: each backend's theta kept, so no
plan moved), then the lasso's whole model (``--models lasso --calibrate``), whose CD had
become faster than the path on dense 200 x 2000 data at 0.1 lam_max (the plan, the
path, took 1.83x CD's time; now CD); no other plan of the runs' 172 cases moved. A
whole calibration of every model with these runs planned SVM2's path on four dense grid
cases at 1.9-3.1x CD's time (with ``ORDER_WEIGHT`` 1 or 3: ridge's CG on two
200-document tasks at 1.7x), and was not kept.

The fixed cost was missing before (the solve's log-linear model alone): on the 200-document
corpora it estimated a ridge fit of 1.6 ms at 0.24 ms; a fit's processor time outside
its chain alone (validation, statistics, centring) is 0.8-1.6 ms there (28-49% of the
fit) and 1.6-2.5 ms on 2000 real documents (``--estimates`` prints it).
"""

COSTS = {
    ('l1_svm', 'CLARABEL'): (
        -12.4211, -0.0623, 0.2112, 0.9854, 0.1478, 0.6658, 0.0964, 0.0000, -0.0931, 0.0000,
    ),
    ('l1_svm', 'COLUMN_GENERATION'): (
        -14.5876, 0.0194, 0.0393, 0.7371, 0.5471, 0.0210, -0.3394, -0.5000, 0.0964, 0.0000,
    ),
    ('l1_svm', 'ECOS'): (
        -12.1144, 0.1409, 0.3423, 0.8808, 0.0032, 0.3726, 0.2789, -0.0000, -0.2985, 0.0443,
    ),
    ('l1_svm', 'HIGHS'): (
        -12.9278, 0.4504, -0.1352, 0.6934, 0.5706, 0.1123, -0.0765, 0.0000, 0.0624, 0.0000,
    ),
    ('l1_svm', 'HOMOTOPY'): (
        -15.3581, 0.3972, 0.5662, 0.9664, 0.7310, -0.3446, 0.9754, 0.0000, -0.7442, 0.0000,
    ),
    ('lasso', 'CD'): (
        -16.6258, 1.2684, 0.2560, 0.3116, 0.7446, -0.0348, 0.0193, -0.5000, -0.7211, 0.0304,
    ),
    ('lasso', 'CLARABEL'): (
        -12.1847, 1.0142, -0.0770, 0.1322, 0.4573, 0.5969, 0.2317, -0.0000, 0.3190, 0.2051,
    ),
    ('lasso', 'ECOS'): (
        -7.7700, 3.8497, -0.7973, -0.1606, 1.0689, -2.1829, 0.3165, -0.0000, -1.5657, 0.0000,
    ),
    ('lasso', 'HOMOTOPY'): (
        -17.3440, 2.0284, 0.2383, -0.0352, 1.2936, 0.2724, 0.0616, -0.0000, -0.6791, 0.0000,
    ),
    ('lasso', 'OSQP'): (
        -11.2945, 1.2333, 0.0285, -0.1183, 0.3736, 0.6102, 0.1997, 0.0000, 0.2870, 0.0784,
    ),
    ('ridge', 'CG'): (
        -15.9827, 0.1626, -0.1124, 0.3166, 0.1075, -0.3954, 0.2241, -0.5000, 0.8639, 0.0000,
    ),
    ('ridge', 'CLARABEL'): (
        -12.5566, 0.5714, 0.4053, 0.4530, 0.0000, 0.7461, 0.2956, -0.0000, -0.2334, 0.0193,
    ),
    ('ridge', 'ECOS'): (
        -9.2200, -0.0156, -0.6494, 1.0725, 0.0000, -2.7583, 0.2152, 0.0000, 0.8074, 0.0050,
    ),
    ('ridge', 'OSQP'): (
        -11.5473, 0.6429, 0.5397, 0.3127, 0.0000, 1.1560, 0.4076, 0.0000, -0.4136, 0.0471,
    ),
    ('ridge', 'SVD'): (
        -24.7939, 0.2654, 0.0095, 0.6495, 0.1468, -0.4659, -0.1971, 0.0000, 1.5107, 0.0000,
    ),
    ('svm', 'CLARABEL'): (
        -11.9446, 1.1956, 0.0925, -0.0955, 0.0000, 0.3679, 0.4040, -0.0000, 0.4260, 0.0037,
    ),
    ('svm', 'DUAL_CD'): (
        -15.4696, 2.0852, -0.4135, -0.3648, 0.3710, 0.0024, 0.0331, -0.5000, 0.1674, 0.0000,
    ),
    ('svm', 'ECOS'): (
        -11.3875, 1.5634, 0.3679, -0.4218, 0.0000, 0.9164, 1.2132, -0.0000, 0.1589, 0.0308,
    ),
    ('svm', 'OSQP'): (
        -11.2984, 2.3020, -0.0546, -0.4582, 0.0000, 0.4940, 0.0076, -0.0000, -0.0154, 0.0037,
    ),
    ('svm2', 'CD'): (
        -16.5750, 0.1687, 0.3154, 0.4945, 0.6023, -0.1772, -0.0627, -0.5000, 0.0316, 0.1444,
    ),
    ('svm2', 'CLARABEL'): (
        -12.8248, 0.1050, 0.2336, 0.8039, 0.1473, 0.4844, 0.2281, 0.0000, 0.0252, 0.0952,
    ),
    ('svm2', 'ECOS'): (
        -11.7220, 0.2593, 0.5433, 0.6650, 0.4616, 0.5097, 0.5769, -0.0000, -0.5328, 0.0000,
    ),
    ('svm2', 'HOMOTOPY'): (
        -16.6000, -0.0254, 0.3033, 0.2430, 1.2680, -0.0629, 0.0223, 0.0000, 0.7650, 0.0000,
    ),
    ('svm2', 'OSQP'): (
        -11.3791, 0.6879, 0.3119, 0.1518, 0.4348, 0.8154, 0.8469, -0.0000, 0.0399, 0.1901,
    ),
    ('svm_squared_hinge', 'CLARABEL'): (
        -12.1697, 1.0929, 0.3148, 0.0983, 0.0000, 0.9823, 0.4324, 0.0000, -0.1194, 0.0000,
    ),
    ('svm_squared_hinge', 'DUAL_CD'): (
        -15.0232, 1.1197, -0.1515, 0.1445, 0.2363, 0.1035, -0.2731, -0.5000, 0.1729, 0.0110,
    ),
    ('svm_squared_hinge', 'ECOS'): (
        -11.3979, 1.5613, 0.3496, -0.0025, 0.0000, 0.5342, 0.6886, 0.0000, -0.5578, 0.0085,
    ),
    ('svm_squared_hinge', 'NEWTON'): (
        -17.7229, 1.0629, -0.1524, -0.2347, 0.0000, -0.5935, 0.0536, 0.0000, 1.9452, 0.0000,
    ),
    ('svm_squared_hinge', 'OSQP'): (
        -11.5736, 1.8674, 0.1559, -0.2950, 0.0000, 0.1257, 0.4232, 0.0000, -0.1514, 0.0189,
    ),
}

FIXED = {
    'l1_svm': (0.001611, 8.779e-09),
    'lasso': (0.001137, 2.174e-09),
    'ridge': (0.001207, 2.002e-09),
    'svm': (0.001323, 1.446e-08),
    'svm2': (0.00148, 6.09e-09),
    'svm_squared_hinge': (0.0009515, 3.745e-09),
}
