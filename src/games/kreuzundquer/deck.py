"""Kreuz & Quer material: terrains, route cards, goal cards, the deck file.

Terrains (letter, name, number of terrain cards; 48 in all):

    b blue tiles 2   e beige tiles 3   m mud 4        f field 5
    w water 6        c cobblestones 8  g meadow 10    s sand 10

A route card has 18 rooms in 6 rows of 3 lanes; row 1 is the row nearer the
start, lanes are numbered left to right. A room is stored at index
`row * 3 + lane` (0-based). A deck is 28 route cards (numbered 1..28) and 4
goal cards (4 distinct terrains).

Generated decks: `generate_deck(seed)` draws every room's terrain weighted
by the terrain-card counts, and the 4 goal terrains uniformly without
repetition, from `random.Random(seed)`; the same seed gives the same deck.

Deck file format (UTF-8 text; `parse_deck_text`, `deck_to_text`):

    # comments run to the end of the line; blank lines are ignored
    goals: w s g c
    card: sgc wws cgg sss gcw fms
    card: ...

`goals:` gives the 4 goal terrains (distinct letters; spaces optional).
Each `card:` line is one route card (numbered from 1 in file order): 18
terrain letters, row 1 first, each row left to right; spaces and `/` between
letters are ignored. A deck needs 1 goals line and at least 16 cards (28 in
the published game; at most 99).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from crossridor.engine.errors import UnknownGameError

TERRAINS = "bemfwcgs"
TERRAIN_NAMES = ("blue tiles", "beige tiles", "mud", "field", "water", "cobblestones", "meadow", "sand")
TERRAIN_COUNTS = (2, 3, 4, 5, 6, 8, 10, 10)
NT = 8
TOTAL_TERRAIN = sum(TERRAIN_COUNTS)
ROWS = 6
LANES = 3
ROOMS = ROWS * LANES
NUM_ROUTE_CARDS = 28
NUM_GOALS = 4
MIN_CARDS, MAX_CARDS = 16, 99


@dataclass(frozen=True)
class Deck:
    routes: tuple      # routes[i] = tuple of 18 terrain indices (card number i + 1)
    goals: tuple       # 4 terrain indices

    def card_text(self, card_id: int) -> str:
        rooms = self.routes[card_id - 1]
        return " ".join("".join(TERRAINS[t] for t in rooms[r * 3:(r + 1) * 3]) for r in range(ROWS))

    def __len__(self):
        return len(self.routes)


def generate_deck(seed: int, ncards: int = NUM_ROUTE_CARDS) -> Deck:
    rng = random.Random(seed)
    routes = tuple(tuple(rng.choices(range(NT), weights=TERRAIN_COUNTS, k=ROOMS)) for _ in range(ncards))
    goals = tuple(rng.sample(range(NT), NUM_GOALS))
    return Deck(routes, goals)


def deck_to_text(deck: Deck) -> str:
    lines = ["# Kreuz & Quer deck: goals, then one route card per line (row 1 first)",
             "goals: " + " ".join(TERRAINS[t] for t in deck.goals)]
    for i in range(len(deck.routes)):
        lines.append("card: " + deck.card_text(i + 1))
    return "\n".join(lines) + "\n"


def parse_deck_text(text: str, where: str = "deck") -> Deck:
    def bad(lineno, why):
        raise UnknownGameError(f"kreuzundquer: {where}, line {lineno}: {why}")
    goals = None
    routes = []
    for lineno, raw in enumerate(str(text).splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            bad(lineno, f"expected 'goals:' or 'card:', got {raw.strip()!r}")
        key, _, rest = line.partition(":")
        key = key.strip().lower()
        letters = "".join(ch for ch in rest if not ch.isspace() and ch != "/").lower()
        unknown = sorted(set(ch for ch in letters if ch not in TERRAINS))
        if unknown:
            bad(lineno, f"unknown terrain letter(s) {''.join(unknown)!r} (known: {TERRAINS})")
        if key == "goals":
            if goals is not None:
                bad(lineno, "a second goals line")
            if len(letters) != NUM_GOALS or len(set(letters)) != NUM_GOALS:
                bad(lineno, f"goals need {NUM_GOALS} distinct terrains, got {letters!r}")
            goals = tuple(TERRAINS.index(ch) for ch in letters)
        elif key == "card":
            if len(letters) != ROOMS:
                bad(lineno, f"a route card has {ROOMS} rooms, got {len(letters)}")
            routes.append(tuple(TERRAINS.index(ch) for ch in letters))
        else:
            bad(lineno, f"unknown line kind {key!r} (expected 'goals' or 'card')")
    if goals is None:
        raise UnknownGameError(f"kreuzundquer: {where}: no 'goals:' line")
    if not MIN_CARDS <= len(routes) <= MAX_CARDS:
        raise UnknownGameError(f"kreuzundquer: {where}: {len(routes)} route cards, "
                               f"need {MIN_CARDS}..{MAX_CARDS}")
    return Deck(tuple(routes), goals)
