"""Qwatrobat (2 players, hidden set-ups), pure Python. Modules, each using
only those before it: `rules` (moves, their notation, how a round resolves),
`solver` (the exact solver of the open game), `setups` (the table of layout
values), `players` (greedy, ISMCTS with the game's defaults, the endgame leaf
evaluator), `state` (play, hidden information, position text), `game` (`load`
and the game); `learning` (its learning codec) and `svg` (its picture);
`entry` (its declaration to the registry: parameters, options, picture,
environment; imports none of the others until used)."""
