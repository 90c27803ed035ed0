"""Qwatrobat: how good each layout is, for the secret setup of the game's ISMCTS.

The setup is a simultaneous secret choice among 126 layouts, too many for a
tree search of a few hundred simulations to tell apart (each gets one or two
playouts). `SETUP_VALUES` holds, for the standard rules (8 cards,
clear_four, last round 6 points), each layout's value against a layout drawn
at random: the mean exact value (+1 win, 0 draw, -1 loss; `solve_value` of
the open game, the first player drawn at random) against 22 opponent
layouts drawn at random: the weighted mean (6:16) of
`compute_setup_values(game, 6, 1)` and `compute_setup_values(game, 16, 2)`
with `game = load_game("qwatrobat", open=True)` (126 x 22 x 2
exact solves, some 10 minutes on one core), rounded to 4 places. The two
samples rank the layouts alike (correlation 0.91): low cards in front
(1234/1234, 1123/2443, ...) are worth about +0.8 against a random layout,
3344 in front about -0.9. Open-game
values are a proxy for the secret game, where neither side sees the other's
cards; what they rank is which layouts leave good pushes whatever the other
side holds.
"""

from __future__ import annotations

import random

from crossridor.games.qwatrobat.rules import Setup
from crossridor.games.qwatrobat.solver import solve_value

__all__ = ["SETUP_VALUES", "compute_setup_values", "ranked_setups", "table_setup"]


def compute_setup_values(game, opponents: int, seed: int, layouts=None) -> dict:
    """{layout text: mean value} of `layouts` (default: all 126 of `game`,
    an open Qwatrobat) against `opponents` layouts drawn (with
    `random.Random(seed)`) from the 126; the same sample for every layout,
    whatever `layouts` holds."""
    rng = random.Random(seed)
    sample = [rng.choice(game.setups()) for _ in range(opponents)]
    out = {}
    for a in game.setups() if layouts is None else layouts:
        # player 0 lays `a`; the state is then the first-player draw, averaged by solve_value
        out[str(a)] = sum(solve_value(game.new_state([a, b])) for b in sample) / opponents
    return out


def ranked_setups(game) -> list[str] | None:
    """The layouts of the table as texts, best first (ties by text), or None
    when the game's rules are not those the table was computed for."""
    p = game.params
    if (p["cards"], p["clear_four"], p["last_round_points"]) != (8, True, 6):
        return None
    return sorted(SETUP_VALUES, key=lambda k: (-SETUP_VALUES[k], k))


def table_setup(game, top: int, rng):
    """A layout drawn uniformly among the `top` best of the table, or None
    when the game's rules are not those the table was computed for."""
    ranked = ranked_setups(game)
    if ranked is None:
        return None
    return Setup.parse(rng.choice(ranked[:top]))


SETUP_VALUES = {   # 22 opponent layouts; best first
    "1234/1234": 0.8864, "1123/2443": 0.8409, "1123/4423": 0.8182, "1234/2134": 0.8182,
    "1123/2434": 0.7955, "1123/3424": 0.7955, "1223/1443": 0.7955, "1223/1344": 0.7727,
    "1233/1244": 0.7727, "1223/4143": 0.75, "1234/1324": 0.75, "1122/3434": 0.7045,
    "1234/3214": 0.7045, "1124/2334": 0.6591, "1124/3324": 0.6591, "1234/2314": 0.6591,
    "1223/3144": 0.6364, "1123/3442": 0.6136, "1223/4341": 0.6136, "1233/1424": 0.6136,
    "1233/2144": 0.6136, "1123/4432": 0.5909, "1233/4214": 0.5909, "1234/3124": 0.5909,
    "1123/2344": 0.5682, "1134/2234": 0.5455, "1233/4124": 0.5, "1234/1243": 0.5,
    "1134/2324": 0.4773, "1233/2414": 0.4545, "1234/1432": 0.4545, "1124/3423": 0.4091,
    "1223/3441": 0.4091, "1124/2343": 0.3636, "1224/1343": 0.3636, "1234/4213": 0.3636,
    "1133/2424": 0.3409, "1234/2143": 0.3409, "1124/2433": 0.3182, "1124/3342": 0.3182,
    "1234/4132": 0.3182, "1124/3432": 0.2955, "1234/1423": 0.2955, "1234/2413": 0.2955,
    "1134/2432": 0.2727, "1134/2243": 0.25, "1234/1342": 0.25, "1244/3123": 0.25,
    "1224/1334": 0.2273, "1224/3134": 0.2273, "1224/3143": 0.2273, "1234/4231": 0.2045,
    "1234/4312": 0.2045, "1344/2123": 0.2045, "1134/2342": 0.1818, "1234/3412": 0.1818,
    "1234/4123": 0.1818, "1122/3344": 0.1591, "1134/2423": 0.1591, "1234/3142": 0.1591,
    "1244/1323": 0.1591, "2234/1314": 0.1591, "2233/1414": 0.1136, "1234/3241": 0.0909,
    "2234/1413": 0.0909, "1223/4134": 0.0682, "1234/2431": 0.0682, "1334/2142": 0.0682,
    "1344/1223": 0.0682, "1244/1233": 0.0455, "1122/4433": 0.0, "1244/2313": 0.0,
    "1244/3213": 0.0, "1134/3422": -0.0227, "1144/2323": -0.0227, "1334/1242": -0.0227,
    "2344/1123": -0.0227, "1224/3341": -0.0455, "1224/4133": -0.0455, "1224/4331": -0.0682,
    "1244/2133": -0.0682, "1234/2341": -0.0909, "2234/1341": -0.0909, "2334/2141": -0.0909,
    "1334/2241": -0.1136, "1234/3421": -0.1364, "1234/4321": -0.1364, "2334/1142": -0.1364,
    "2344/1213": -0.1364, "2344/2113": -0.1364, "2234/1431": -0.1591, "2234/3411": -0.1591,
    "2334/1241": -0.1818, "1133/2244": -0.2045, "1334/2124": -0.2273, "1334/1224": -0.2955,
    "1344/2312": -0.2955, "2244/1313": -0.2955, "1244/3312": -0.3182, "2344/1312": -0.3182,
    "1144/2233": -0.3636, "1344/2213": -0.3636, "1344/3212": -0.3636, "1233/4412": -0.3864,
    "2234/1134": -0.3864, "2334/1124": -0.3864, "1334/4221": -0.4091, "2334/2114": -0.4091,
    "1334/4122": -0.4318, "1344/1322": -0.4318, "1344/3122": -0.4545, "2344/3112": -0.5,
    "2334/4121": -0.5227, "1133/4422": -0.5455, "2334/4112": -0.5455, "2344/2311": -0.5455,
    "2234/1143": -0.5682, "2244/1133": -0.6136, "1144/3322": -0.6591, "2233/1144": -0.7273,
    "2233/4411": -0.7273, "2344/3211": -0.7273, "2244/3311": -0.7727, "3344/1212": -0.8636,
    "3344/2211": -0.9091, "3344/1122": -1.0,
}
