"""What only Capitol's studies need: its benchmark."""
