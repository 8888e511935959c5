"""One BLAS thread per test process; a cluster of worker processes for the Dask tests.

``make test`` runs one pytest-xdist worker per core; BLAS threads on top of that
oversubscribe the machine, and on the small matrices of the tests a threaded BLAS
is many times slower than a single thread.
"""

import pytest
from threadpoolctl import threadpool_limits

threadpool_limits(limits=1, user_api="blas")


@pytest.fixture
def process_cluster(tmp_path):
    """Two worker processes (forked: about 0.5 s to start), on localhost only.

    A forked worker inherits this process's thread pools without their threads,
    so it must not offload (de)serialization to one (it would wait forever).
    """
    distributed = pytest.importorskip("distributed")
    import dask

    fork = {"distributed.worker.multiprocessing-method": "fork", "distributed.comm.offload": False}
    with dask.config.set(fork):  # also for the nanny's restart of a killed worker
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            worker_dashboard_address="127.0.0.1:0",
            local_directory=tmp_path / "dask",
        )
        with cluster, distributed.Client(cluster) as c:
            yield c
