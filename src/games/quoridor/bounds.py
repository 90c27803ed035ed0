"""Quoridor's bounds that both its registry entry (light) and the game need."""

MAX_WALLS = 100       # walls per player: keeps the evaluation below the forced-win band
