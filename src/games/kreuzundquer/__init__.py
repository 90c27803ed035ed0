"""Kreuz & Quer (2 to 4 players, hidden piles) in pure Python: `game` (the
options, `load`, and the game; its doc lists the other modules and what
each holds)."""
