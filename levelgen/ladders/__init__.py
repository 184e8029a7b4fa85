"""Snakes and ladders (game ``snakes-ladders``)."""
