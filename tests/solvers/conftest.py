"""Shared data for the solver tests: Ionosphere and a small make_bhattacharyya set."""

import pytest

from sparsify.datasets import load_ionosphere, make_bhattacharyya


@pytest.fixture(scope="session")
def ionosphere():
    return load_ionosphere()


@pytest.fixture(scope="session")
def bhattacharyya():
    """d > n, as in 001 sec. 5.2 but smaller (60 x 200, 10 relevant features)."""
    return make_bhattacharyya(n=60, d=200, k=10, random_state=0)


@pytest.fixture(scope="session", params=["ionosphere", "bhattacharyya"])
def data(request):
    return request.getfixturevalue(request.param)
