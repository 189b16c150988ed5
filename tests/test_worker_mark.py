"""The suite keeps its two workers from oversubscribing the cores: a test that starts a pool of its
own must carry the ``own_workers`` mark (tests/conftest.py)."""

import joblib
import pytest


def test_a_pool_started_without_the_own_workers_mark_fails_the_test():
    with pytest.raises(pytest.fail.Exception, match="mark it own_workers"):
        joblib.Parallel(n_jobs=2)
    assert joblib.Parallel(n_jobs=1).n_jobs == 1  # this process alone: no pool


@pytest.mark.own_workers
def test_a_test_with_the_mark_gets_joblib_unchanged():
    from joblib.parallel import Parallel

    assert joblib.Parallel is Parallel
