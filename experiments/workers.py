"""Where a study's independent pieces run: here, on local worker processes, or on a Dask cluster.

Each piece's result depends on its arguments alone, so the order in which they finish changes
nothing: the studies write each result where its arguments say.
"""

from collections.abc import Callable, Iterator

__all__ = ["each"]


def each(function: Callable, calls: list[tuple], jobs: int = 1, client=None) -> Iterator:
    """``function(*args)`` for each of ``calls``, as they finish: in this process (``jobs`` 1), on
    ``jobs`` local workers, or on the Dask cluster of ``client`` (a ``distributed.Client``)."""
    if client is None and (jobs == 1 or len(calls) < 2):
        yield from (function(*args) for args in calls)
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(function)(*args) for args in calls)
    if client is not None:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
        return
    with parallel_config(backend="loky", inner_max_num_threads=1):
        yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)
