"""Penalties (R55) and removal from the game (R57), given by the floor, counted in the hands the
dealer records."""
