"""Crosswise positions for tests: a full position from a board and hands,
and the tile count every state must keep."""

from __future__ import annotations

from collections import Counter

import crossridor
from crossridor.games.crosswise import notation as nt

TOTAL = Counter({**{s: 7 for s in "123456"}, **{a: 3 for a in "MRPS"}})


def game(players=2):
    return crossridor.load_game("crosswise", players=players)


def position(rows, turn="1", hands=("1234", "1234"), played="-", passes=0, players=2, bag=None):
    """A full position from a dict {cell: symbol} or 6 rank strings (rank 6
    first); the bag is whatever tiles are left (order from the loader's seed)."""
    if isinstance(rows, dict):
        grid = [["."] * 6 for _ in range(6)]
        for cell, s in rows.items():
            grid[6 - int(cell[1])]["abcdef".index(cell[0])] = str(s)
        rows = ["".join(r) for r in grid]
    used = Counter("".join(rows).replace(".", "")) + Counter("".join(h for h in hands if h != "-"))
    used += Counter(played.replace("-", ""))
    if bag is None:
        bag = f"?{54 - sum(used.values())}"
    return f"{'/'.join(rows)} {turn} {','.join(hands)} {bag} {played} {passes}"


def load(rows, **kw):
    players = kw.get("players", 2)
    return game(players).state_from_position(position(rows, **kw))


def tiles_of(st):
    """Every tile of the full state, as a Counter (board, hands, bag, played)."""
    c = Counter(str(s) for s in st.board() if s)
    for p in range(st.game.players):
        c += Counter(st.hand(p).replace("-", ""))
    c += Counter(nt.TILE_CHARS[t] for t in st._c.bag())
    for i, k in enumerate(st._c.played()):
        c["MRPS"[i]] += k
    return c


def hidden_hand_twins():
    """Two 4-player states seat 1 cannot tell apart (the bag empty: the three
    hidden hands split the same tiles differently), after the same three
    moves (which `infer` reads)."""
    board = dict(zip([f + r for r in "12345" for f in "abcdef"], "123456" * 4 + "56"))
    a = load(board, players=4, turn="2", hands=("1234", "1256", "1256", "3344"), played="MMMRRRPPPSSS", bag="-")
    b = load(board, players=4, turn="2", hands=("1234", "1156", "2256", "3344"), played="MMMRRRPPPSSS", bag="-")
    for st in (a, b):
        for m in ("5@c5", "6@d5", "3@a6"):
            st.play(st.parse_move(m))
    assert a.information_state(0) == b.information_state(0) and a.position() != b.position()
    return a, b
