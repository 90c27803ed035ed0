"""Quoridor (2 or 4 players, boards 3x3 to 9x9): the state and notation over
the compiled core (`game`), its learning codec (`learning`), the learned
evaluation's weights file and training (`weights`, `training`, `data/`), and
its picture (`svg`); `entry` declares it to the registry (light: no compiled
core until the game is loaded)."""
