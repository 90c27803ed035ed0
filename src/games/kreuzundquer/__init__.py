"""Kreuz & Quer (2 to 4 players, hidden piles) in pure Python: `game` (`load`
and the game; its doc lists the other modules and what each holds), and
`entry` (its declaration to the registry: parameters, options, picture,
environment; imports none of the others until used)."""
