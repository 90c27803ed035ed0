"""Game reviews for the web app: `crossridor.engine.analysis.review` in a
worker thread, within the server's caps, and the review as a page may see it.

A review searches every judged ply once or twice (the best move, then the
move played) with the engine spec the page gave, checked by `Caps.check` as
every search is; it reviews at most `Caps.review_plies` plies and ends at
`Caps.review_time` seconds in all, keeping the plies done. The tab's stop
token ends it the same way.

What a page may see: a review of moves the page gave itself (a replayed
record) shows everything, as `/api/render` does. A review of the tab's own
game of a hidden-information game is seen from the human seats: the other
seats' plies keep only what the seat saw of them (the ply, the seat, the
move as its view's history shows it); their best moves, scores and marks
come from searches of hands the seat never saw, and stay on the server, as
does the deal's seed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection

from crossridor.engine.analysis import PlyReview, Review, review
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.outlook import sides
from crossridor.engine.protocol import Limits
from crossridor.engine.search_api import search_options
from crossridor.engine.stop import Stop
from crossridor.engine.views import seat
from crossridor.engine.web.searching import Caps, counted

# the options a review sets itself, per search
REVIEW_SETS = ("multipv", "searchmoves")


def review_spec(text: str, caps: Caps, state) -> EngineSpec:
    """The engine spec of each position's searches of `state`'s game:
    within the caps, its limits a time, depth, node or simulation budget
    (not a game clock), its algorithm one that values the move played (it
    takes searchmoves)."""
    spec = caps.check(text)
    if "searchmoves" not in {p.name for p in search_options(state, spec.algorithm)}:
        raise CrossridorError(f"engine {text!r}: {spec.algorithm} cannot review {state.game.traits.name} "
                              f"(its search cannot be restricted to the move played: no option searchmoves)")
    if spec.tc is not None:
        raise CrossridorError(f"engine {text!r}: a review searches each position on its own: give time, depth, "
                              f"nodes or sims, not tc")
    for name in REVIEW_SETS:
        if name in dict(spec.options):
            raise CrossridorError(f"engine {text!r}: the review sets {name} itself")
    return spec


def review_moves(moves, caps: Caps) -> list[str]:
    """The moves of a game to review, as texts: a list, at most
    `caps.review_plies` of them, at least one."""
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise CrossridorError("review: moves must be a list of move texts")
    if not moves:
        raise CrossridorError("review: there is no move to review")
    if len(moves) > caps.review_plies:
        raise CrossridorError(f"review: at most {caps.review_plies} plies are reviewed here, "
                              f"the game has {len(moves)}")
    return moves


def run_review(game, moves: list[str], spec: EngineSpec, seed: int, deal_seed: int | None, stop: Stop,
               caps: Caps, on_ply: Callable[[PlyReview], None] | None = None) -> tuple[Review, str | None]:
    """Review `moves` of `game` (dealt from `deal_seed`) in this thread,
    each judged position searched by `spec`; `on_ply` after each ply. Ends
    when `stop` is set, or at `caps.review_time` seconds (a timer sets
    `stop`): (the review, None or why it ended early)."""
    timer = threading.Timer(caps.review_time, stop.set)
    timer.daemon = True
    started = time.monotonic()
    lim = spec.limits               # Caps.check always sets its time
    timer.start()
    try:
        with counted():
            rev = review(game, moves, algorithm=spec.algorithm,
                         limits=Limits(time=lim.time, depth=lim.depth, nodes=lim.nodes, sims=lim.sims),
                         seed=seed, options=dict(spec.options), deal_seed=deal_seed, progress=on_ply, stop=stop)
    finally:
        timer.cancel()
    why = None
    if rev.interrupted:
        done = rev.plies[-1].ply if rev.plies else 0
        why = (f"the review stopped after ply {done} of {len(moves)}: "
               + (f"at most {caps.review_time:g} s a review here"
                  if time.monotonic() - started >= caps.review_time else "stopped"))
    return rev, why


def seat_bar(traits, mover: int, expected: float, result_in: int | None) -> dict:
    """An evaluation of the mover's (player index `mover`) as the page's bar
    shows it: seat 1's expected score when two sides play for one result
    (the other side's is its complement), else the mover's own."""
    two_sides = sides(traits) == 2 and traits.zero_sum
    side_of = {p: i for i, team in enumerate(traits.teams) for p in team} if traits.teams else {}
    if two_sides and side_of.get(mover, mover) != side_of.get(0, 0):
        expected, result_in = 1.0 - expected, None if result_in is None else -result_in
        mover = 0
    elif two_sides:
        mover = 0
    return {"seat": seat(mover), "expected": round(expected, 4), "result_in": result_in}


def review_message(rev: Review, shown: Collection[int] | None = None, history: list[str] | None = None,
                   why: str | None = None) -> dict:
    """The review as the page gets it. `shown`: the player indices whose
    plies are shown in full (None: all); the others' plies keep their ply,
    seat and the move as `history` (the viewer's view of the moves) shows
    it. The summary covers the shown seats."""
    plies = []
    for p in rev.plies:
        full = shown is None or (p.seat is not None and p.seat - 1 in shown)
        if full:
            entry = p.as_dict()
        else:
            entry = {"ply": p.ply, "seat": p.seat, "chance": not p.judged}
        if history is not None:
            entry["played"] = history[p.ply - 1]
        plies.append(entry)
    summary = [s.as_dict() for s in rev.summary if shown is None or s.seat - 1 in shown]
    settings = rev.as_dict()["settings"]
    return {"type": "review", "game": rev.game, "players": rev.num_players, "plies": plies, "summary": summary,
            "moves": len(rev.moves), "sides": [[seat(p) for p in side] for side in rev.sides],
            "two_sides": rev.two_sides, "result": None if rev.result is None else list(rev.result),
            "interrupted": rev.interrupted, "message": why,
            "settings": {k: settings[k] for k in ("algorithm", "limits", "seed", "marks")}}
