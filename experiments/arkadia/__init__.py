"""What only Arkadia's studies need: how its robustness variants derive their component files, and its
benchmark."""
