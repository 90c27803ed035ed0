"""Qwatrobat (2 players, hidden set-ups): rules, notation and searches in pure
Python (`game`), the set-up table (`setups`), its learning codec (`learning`)."""
