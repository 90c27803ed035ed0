"""Strength measurements for the card games (run by hand; not a test).

    python3 bench/bench_cards.py qwatrobat-solver [games]
    python3 bench/bench_cards.py qwatrobat ismcts:sims=400 random [games]
    python3 bench/bench_cards.py qwatrobat ismcts:sims=400 greedy [games]
    python3 bench/bench_cards.py kreuzundquer ismcts:sims=200 greedy [games]

A player is `algorithm[:key=value,...]`; keys: sims, time, and any search
option (numbers are parsed; evaluator=qwatrobat-endgame is
`games.qwatrobat.players.endgame_evaluator`, evaluator=kreuzundquer-stage is
`games.kreuzundquer.rollout.stage_evaluator`). Kreuz & Quer's ismcts has game
defaults (see `games.kreuzundquer.search`: policy prior, stage evaluator), and
so has Qwatrobat's (see `games.qwatrobat.players`: table layout,
endgame=10). Seats alternate; chance outcomes come from a seeded generator;
game i uses seed i. Prints the first player's wins, draws and losses, its
score ((wins + draws/2) / games) with the 95% interval, and the number of
games (`crossridor.engine.match.stats.result_text`).
"""

from __future__ import annotations

import random
import sys
import time

import crossridor
from crossridor import CHANCE
from crossridor.engine.match.stats import result_text


def _qwatrobat_endgame(state):
    from crossridor.games.qwatrobat.players import endgame_evaluator
    return endgame_evaluator(state)


def _kreuzundquer_stage(state):
    from crossridor.games.kreuzundquer.rollout import stage_evaluator
    return stage_evaluator(state)


EVALUATORS = {"qwatrobat-endgame": _qwatrobat_endgame, "kreuzundquer-stage": _kreuzundquer_stage}


def parse_player(text):
    algo, _, rest = text.partition(":")
    limits = {}
    opts = {}
    for kv in filter(None, rest.split(",")):
        k, _, v = kv.partition("=")
        try:
            v = int(v)
        except ValueError:
            try:
                v = float(v)
            except ValueError:
                pass
        if k == "evaluator":
            v = EVALUATORS[v]
        if k in ("sims", "time", "nodes", "depth"):
            limits[k] = v
        else:
            opts[k] = v
    if not limits:
        limits = {"depth": 1}
    return algo, crossridor.Limits(**limits), opts


def play_game(game, players, seed):
    """players[p] = (algorithm, limits, options); returns the final state."""
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    ply = 0
    while not s.is_terminal():
        p = s.current_player
        if p == CHANCE:
            moves, probs = zip(*s.chance_outcomes())
            s.play(rng.choices(moves, probs)[0])
            continue
        algo, limits, opts = players[p]
        r = crossridor.search(s, algorithm=algo, limits=limits, seed=seed * 1000 + ply, **opts)
        s.play(r.move)
        ply += 1
    return s


def match(game, a, b, games):
    pa, pb = parse_player(a), parse_player(b)
    w = d = lost = 0
    t0 = time.time()
    for i in range(games):
        seat = i % 2                      # seat of player a
        players = [pa, pb] if seat == 0 else [pb, pa]
        s = play_game(game, players, seed=i)
        r = s.returns()[seat]
        if r > 0:
            w += 1
        elif r < 0:
            lost += 1
        else:
            d += 1
        print(f"  game {i + 1}: {'win' if r > 0 else 'loss' if r < 0 else 'draw'} "
              f"(seat {seat}) running {w}-{d}-{lost}", flush=True)
    print(f"{a} vs {b}: {result_text(w, d, lost)} ({time.time() - t0:.0f} s)")


def solver_check(games):
    """The solver, from a position it solved as won (open game), plays
    against random and against ismcts: it must never lose."""
    from crossridor.games.qwatrobat.solver import solve
    g = crossridor.load_game("qwatrobat", open=True)
    rng = random.Random(0)
    won = lost_after_win = 0
    worst = 0.0
    for i in range(games):
        s = g.new_state([rng.choice(g.setups()), rng.choice(g.setups()), f"first{i % 2}"])
        t = time.perf_counter()
        r = solve(s)
        worst = max(worst, time.perf_counter() - t)
        if r.score != 1:
            continue
        won += 1
        me = s.current_player
        while not s.is_terminal():
            if s.current_player == me:
                s.play(solve(s).move)
            elif i % 2:
                s.play(rng.choice(s.legal_moves()))
            else:
                s.play(crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=200), seed=i).move)
        if s.returns()[me] != 1.0:
            lost_after_win += 1
    print(f"solver: {games} start positions, {won} solved as won, {lost_after_win} of them not won; "
          f"slowest solve from the start {worst * 1000:.0f} ms")


def main(argv):
    if argv[0] == "qwatrobat-solver":
        solver_check(int(argv[1]) if len(argv) > 1 else 100)
        return
    name = argv[0]
    if name not in ("qwatrobat", "kreuzundquer"):
        sys.exit(f"bench_cards: the game is qwatrobat or kreuzundquer, got {name!r}")
    params = {"races": 1} if name == "kreuzundquer" else {}
    games = int(argv[3]) if len(argv) > 3 else 50
    match(crossridor.load_game(name, **params), argv[1], argv[2], games)


if __name__ == "__main__":
    main(sys.argv[1:])
