"""Carpe Diem's settings of the generic difficulty study (experiments/difficulty.py)."""

__all__ = ["SEARCH_RANGES"]

# The range ``bgsim calibrate`` searches a knob over when --low/--high are not given: wide enough for
# every rung of the ladder, within each parameter's legal values.
SEARCH_RANGES = {"anna_start_vp": (-250, 150), "anna_majority_vp": (0, 60), "anna_convert_at": (1, 20),
                 "anna_extra_steps": (0, 20)}
