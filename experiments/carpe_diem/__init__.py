"""Carpe Diem's own studies: the robustness variants of its reconstructed components and its benchmark."""
