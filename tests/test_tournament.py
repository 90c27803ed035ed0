"""Tournaments: pairings, the Bradley-Terry maximum-likelihood Elo, the
cross table, records and resume."""

from __future__ import annotations

import json
import math

import pytest

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.runner import Match, MatchConfig
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.match.stats import elo_from_score
from crossridor.engine.match.tournament import C, bradley_terry, pairings
from helpers import run_cli
from race_game import GAME

ENGINES = ["greedy", "random", "greedy", "random"]


def test_pairings():
    assert pairings("round-robin", 3) == [(0, 1), (0, 2), (1, 2)]
    assert pairings("gauntlet", 4) == [(0, 1), (0, 2), (0, 3)]
    with pytest.raises(CrossridorError, match="three or more"):
        pairings("gauntlet", 2)
    with pytest.raises(CrossridorError, match="unknown tournament"):
        pairings("swiss", 4)


def table(n, results):
    score = [[0.0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    for i, j, points, count in results:
        score[i][j] += points
        score[j][i] += count - points
        games[i][j] += count
        games[j][i] += count
    return score, games


def test_bradley_terry_two_engines_is_the_logistic_elo_with_its_standard_error():
    score, games = table(2, [(0, 1, 30, 40)])          # engine 1 scores 75%
    elo, err = bradley_terry(score, games)
    assert elo[0] == 0.0 and elo[1] == pytest.approx(-elo_from_score(0.75), abs=1e-6)
    p = 0.25
    assert err[1] == pytest.approx(1.959964 / (C * math.sqrt(40 * p * (1 - p))), rel=1e-4)


def test_bradley_terry_consistent_ratings_are_recovered():
    # results that match ratings 0, -100, -250 exactly: the fit finds them
    ratings = [0.0, -100.0, -250.0]
    results = []
    for i in range(3):
        for j in range(i + 1, 3):
            p = 1 / (1 + 10 ** ((ratings[j] - ratings[i]) / 400))
            results.append((i, j, 1000 * p, 1000))
    elo, err = bradley_terry(*table(3, results))
    assert elo == pytest.approx(ratings, abs=1e-6)
    assert 0 < err[1] < err[2] or 0 < err[2]


def test_bradley_terry_infinite_and_unrated():
    # engine 3 loses every game: -inf; engine 4 never met anybody: no rating
    score, games = table(4, [(0, 1, 5, 10), (0, 2, 10, 10), (1, 2, 4, 4)])
    elo, err = bradley_terry(score, games)
    assert elo[1] == pytest.approx(0.0, abs=1e-6) and elo[2] == -math.inf and elo[3] is None
    score, games = table(3, [(0, 1, 2, 4), (2, 0, 4, 4)])
    assert bradley_terry(score, games)[0][2] == math.inf


def config(**kw):
    base = dict(game=GAME, params={}, engines=[EngineSpec.parse(e) for e in ENGINES[:3]], games=4,
                concurrency=1, seed=7, tournament="round-robin")
    base.update(kw)
    return MatchConfig(**base)


def test_round_robin_plays_every_pair_with_swapped_seats():
    match = Match(config())
    assert match.total_games == 12
    assert match.order == list(range(12))
    # round k of every pairing, then round k + 1; a round is one game from each seat
    seats = [match.task(i).seats for i in range(12)]
    assert seats[:6] == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    assert seats[6:] == seats[:6]
    assert match.task(0).opening == match.task(4).opening
    gauntlet = Match(config(engines=[EngineSpec.parse(e) for e in ENGINES], tournament="gauntlet", games=2))
    assert [gauntlet.task(i).seats for i in range(6)] == [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0)]
    # an odd number of games per pairing: each pairing still plays exactly that many
    odd = Match(config(games=3))
    assert odd.total_games == 9
    pairs = [tuple(sorted(odd.task(i).seats)) for i in odd.order]
    assert all(pairs.count(p) == 3 for p in [(0, 1), (0, 2), (1, 2)])
    with pytest.raises(CrossridorError, match="exclude"):
        Match(config(first_to=3))


def test_tournament_records_and_resume_give_the_same_result(tmp_path):
    path = tmp_path / "t.jsonl"
    full = Match(config(concurrency=2, records=str(tmp_path / "full.jsonl"))).run().summary()
    assert full["games"] == 12 and len(full["standings"]) == 3
    assert sum(s["games"] for s in full["standings"]) == 24
    Match(config(games=2, records=str(path))).run()              # 6 games: a shorter match, extended
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:10])   # and a torn line
    resumed = Match(config(records=str(path), resume=True)).run().summary()
    assert resumed["standings"] == full["standings"] and resumed["cross_table"] == full["cross_table"]


def test_cli_tournament_prints_a_cross_table():
    code, out, err = run_cli("match", str(GAME), "--engine", "greedy", "--engine", "random", "--engine", "greedy",
                             "--tournament", "round-robin", "--games", "2", "--seed", "1", "--concurrency", "1")
    assert code == 0, err
    assert "round-robin: 6 games (2 per pairing)" in out
    assert "0 (anchor)" in out and "elo (95%)" in out
    rows = [line for line in out.splitlines() if line.strip()[:1] in "123" and "  " in line]
    assert len(rows) == 3
    code, out, err = run_cli("match", str(GAME), "--engine", "greedy", "--engine", "random", "--engine", "greedy",
                             "--tournament", "gauntlet", "--games", "2", "--seed", "1", "--json")
    obj = json.loads(out)
    assert obj["tournament"] == "gauntlet" and obj["games"] == 4 and obj["cross_table"][1][2] is None
    code, out, err = run_cli("match", str(GAME), "--engine", "greedy", "--engine", "random", "--tournament", "gauntlet")
    assert code == 2 and "three or more" in err
