"""Built-in games; importing this package registers each of them."""

from bgsim.sim.games import carpe_diem  # noqa: F401
