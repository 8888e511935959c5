"""One BLAS thread per test process.

``make test`` runs one pytest-xdist worker per core; BLAS threads on top of that
oversubscribe the machine, and on the small matrices of the tests a threaded BLAS
is many times slower than a single thread.
"""

from threadpoolctl import threadpool_limits

threadpool_limits(limits=1, user_api="blas")
