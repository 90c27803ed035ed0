"""Replaying the records of `crossridor match kreuzundquer ... --records F`,
for the Kreuz & Quer analyses (kuq_leaf_fit.py, kuq_prior_agreement.py)."""

from __future__ import annotations

import json

import crossridor
from crossridor.engine.match.workers import new_game_state


def replay(paths):
    """(record, state, move) for every move of every record of the files, in
    order; `state` is the position `move` is played in (one object per game,
    played on after the caller's turn: copy it to keep it)."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in filter(str.strip, f):
                r = json.loads(line)
                game = crossridor.load_game(r["game"], **r.get("params", {}))
                s = new_game_state(game, (), r["deal_seed"])
                for mv in r["moves"]:
                    yield r, s, mv
                    s.play(mv)
