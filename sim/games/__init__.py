"""Built-in games; importing this package registers each of them."""

from bgsim.sim.numba_cache import configure_numba_cache

configure_numba_cache()  # before any game's kernels are compiled

from bgsim.sim.games import carpe_diem, sealed_bids  # noqa: E402, F401  (sealed_bids: unlisted, for the tests)
