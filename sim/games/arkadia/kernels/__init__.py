"""Arkadia's compiled rules: one module per rule group."""
