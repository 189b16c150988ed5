"""Shared test configuration: Hypothesis profiles, and the cores shared by parallel test workers.

HYPOTHESIS_PROFILE=default (the CI profile: >= 500 random games per property run),
HYPOTHESIS_PROFILE=quick for a fast local loop.

Under pytest-xdist (``make test`` runs two workers), a test marked ``own_workers`` starts worker
processes of its own (``--jobs 2``, a Dask cluster): it runs alone, the other test worker waiting
between its tests, so the machine's cores are never oversubscribed. Results do not depend on it.
A test that starts a pool of workers (``joblib.Parallel``, which the runner uses for local workers
and for Dask) without the mark fails and says so.
"""

import contextlib
import fcntl
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The width of piped output follows COLUMNS (bgsim.cli.common): tests read tables at the default 120.
os.environ.pop("COLUMNS", None)

settings.register_profile("default", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=20, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


class CoreLock:
    """A readers-writer lock between the test workers of one run, on two files. Ordinary tests share
    ``cores``; an ``own_workers`` test holds it alone. Everyone passes ``turnstile`` first, and a
    waiting ``own_workers`` test holds it, so the other worker cannot keep the lock shared forever."""

    def __init__(self, directory: Path):
        self._cores = directory / "cores.lock"
        self._turnstile = directory / "turnstile.lock"

    @contextlib.contextmanager
    def shared(self):
        with _locked(self._turnstile, fcntl.LOCK_EX):
            pass
        with _locked(self._cores, fcntl.LOCK_SH):
            yield

    @contextlib.contextmanager
    def exclusive(self):
        with _locked(self._turnstile, fcntl.LOCK_EX), _locked(self._cores, fcntl.LOCK_EX):
            yield


@contextlib.contextmanager
def _locked(path: Path, mode: int):
    with open(path, "a") as handle:  # closing the file releases the lock, even if the worker dies
        fcntl.flock(handle, mode)
        yield


def _core_lock(config) -> CoreLock | None:
    """The run's lock when this is a pytest-xdist worker: its files sit in the run's shared temporary
    folder (the parent of each worker's own ``basetemp``)."""
    basetemp = getattr(config.option, "basetemp", None)
    if not os.environ.get("PYTEST_XDIST_WORKER") or not basetemp:
        return None
    return CoreLock(Path(basetemp).parent)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Hold the cores for the test's setup, call and teardown (fixtures that start workers included)."""
    lock = _core_lock(item.config)
    if lock is None:
        return (yield)
    with lock.exclusive() if item.get_closest_marker("own_workers") else lock.shared():
        return (yield)


@pytest.fixture(autouse=True)
def _pools_only_with_the_own_workers_mark(request, monkeypatch):
    """Fail a test that starts worker processes without the ``own_workers`` mark: unmarked, it would
    run beside the other test worker on cores the pool already fills."""
    if request.node.get_closest_marker("own_workers"):
        return
    import joblib

    unchecked = joblib.Parallel
    test = request.node.nodeid

    class CheckedParallel(unchecked):
        def __init__(self, n_jobs=None, *args, **kwargs):
            if n_jobs not in (None, 1):
                pytest.fail(f"{test} starts {n_jobs} workers: mark it own_workers (tests/conftest.py)")
            super().__init__(n_jobs, *args, **kwargs)

    monkeypatch.setattr(joblib, "Parallel", CheckedParallel)
