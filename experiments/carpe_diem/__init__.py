"""Carpe Diem's own studies: the robustness variants of its reconstructed components, its benchmark
and the split of its games' time by kernel (``profile_kernels``)."""
