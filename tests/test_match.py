"""The match runner and `crossridor match`, mostly on the toy race game
(race_game.py), which needs neither the compiled core nor the search
modules, then on Quoridor and Crosswise."""

from __future__ import annotations

import json

import pytest

from crossridor.engine.match.game_loop import GameTask, plain_number, play_game
from crossridor.engine.match.openings import base_seating, parse_openings, seating
from crossridor.engine.match.records import RecordsFile
from crossridor.engine.match.runner import MatchConfig, run_match
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.registry import load_game
from helpers import HANG, one_line_error, run_cli, without_times
from race_game import GAME


def config(**kw):
    base = dict(game=GAME, params={}, engines=[EngineSpec.parse("greedy"), EngineSpec.parse("random")],
                games=12, concurrency=1, seed=7)
    base.update(kw)
    return MatchConfig(**base)


def strip_time(records):
    return [without_times(r.as_dict()) for r in records]


# --- engine specs -----------------------------------------------------------------------

def test_engine_spec_parses_limits_and_options():
    spec = EngineSpec.parse("mcts:sims=2000,rollout=random,c=1.4")
    assert spec.algorithm == "mcts"
    assert spec.limits.sims == 2000 and spec.limits.time is None
    assert dict(spec.options) == {"rollout": "random", "c": 1.4}
    assert str(spec) == "mcts:sims=2000,c=1.4,rollout=random"
    assert EngineSpec.parse(str(spec)) == spec
    assert EngineSpec.parse("alphabeta:time=0.1").limits.time == 0.1
    assert str(EngineSpec.parse("alphabeta")) == "alphabeta:depth=2"
    assert EngineSpec.parse("alphabeta:depth=2") == EngineSpec.parse("alphabeta")
    assert str(EngineSpec.parse("random")) == "random"


def test_engine_spec_defaults():
    assert EngineSpec.parse("alphabeta").limits.depth == 2
    assert EngineSpec.parse("mcts").limits.sims == 1000
    assert not EngineSpec.parse("random").explicit_limits


@pytest.mark.parametrize("text", ["", "chess", "alphabeta:", "alphabeta:depth", "alphabeta:depth=x",
                                  "alphabeta:depth=0", "alphabeta:time=-1", "mcts:sims=5,sims=6",
                                  "random:seed=3", "alphabeta:=3"])
def test_bad_engine_specs(text):
    with pytest.raises(ValueError):
        EngineSpec.parse(text)


# --- seating, openings, one game ----------------------------------------------------------

def test_seating_rotates_every_engine_through_every_seat():
    assert base_seating(2, 2) == (0, 1)
    assert [seating((0, 1), r) for r in range(2)] == [(0, 1), (1, 0)]
    assert base_seating(4, 2) == (0, 1, 0, 1)
    four = [seating(base_seating(4, 4), r) for r in range(4)]
    for engine in range(4):
        assert sorted(s.index(engine) for s in four) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        base_seating(4, 3)
    with pytest.raises(ValueError):
        base_seating(2, 4)


def test_parse_openings_skips_comments():
    assert parse_openings("# header\n1 2\n\n3  # trailing\n2,1\n") == [("1", "2"), ("3",), ("2", "1")]


def test_play_game_record():
    engines = (EngineSpec.parse("greedy"), EngineSpec.parse("random"))
    rec = play_game(GameTask(index=3, game=GAME, params={}, engines=engines, seats=(0, 1),
                             opening=("1",), seed=99))
    assert rec.index == 3 and rec.seats == [0, 1] and rec.moves[0] == "1"
    assert sum(int(m) for m in rec.moves) == 10 and rec.reason == "terminal"
    # seats are 1..n in a record: the seat that made the last move won
    assert rec.winner == (len(rec.moves) - 1) % 2 + 1 and rec.winner_engine == rec.seats[rec.winner - 1]
    assert rec.result in ("1-0", "0-1") and rec.engines == ["greedy", "random"]
    again = play_game(GameTask(index=3, game=GAME, params={}, engines=engines, seats=(0, 1),
                               opening=("1",), seed=99))
    assert again.moves == rec.moves


def test_max_plies_is_a_draw():
    engines = (EngineSpec.parse("random"), EngineSpec.parse("random"))
    rec = play_game(GameTask(index=0, game=GAME, params={}, engines=engines, seats=(0, 1), max_plies=3))
    assert rec.reason == "max_plies" and rec.winner is None and rec.result == "1/2-1/2"
    assert rec.plies == 3 and rec.returns == [0.0, 0.0]


# --- matches ---------------------------------------------------------------------------------

def test_perfect_player_beats_random():
    result = run_match(config(games=20))
    t = result.tally
    assert t.games == 20 and t.wins + t.draws + t.losses == 20
    # greedy wins every game it starts and most of the others
    assert t.wins >= 10 + 3 and t.draws == 0
    assert all(r.winner_engine == 0 for r in result.records if r.seats == [0, 1])
    s = result.summary()
    assert s["wins"] == t.wins and s["score"] == pytest.approx(t.wins / 20)
    assert s["elo"] > 100 and s["los"] > 0.95


def test_result_is_deterministic_and_independent_of_concurrency():
    one = run_match(config(engines=[EngineSpec.parse("random"), EngineSpec.parse("random")], games=10,
                           random_openings=2))
    two = run_match(config(engines=[EngineSpec.parse("random"), EngineSpec.parse("random")], games=10,
                           random_openings=2, concurrency=2))
    assert strip_time(one.records) == strip_time(two.records)
    assert one.summary() == two.summary()
    other_seed = run_match(config(engines=[EngineSpec.parse("random"), EngineSpec.parse("random")],
                                  games=10, random_openings=2, seed=8))
    assert [r.moves for r in other_seed.records] != [r.moves for r in one.records]


def test_each_opening_is_played_from_both_seats():
    result = run_match(config(games=8, random_openings=2))
    for a, b in zip(result.records[::2], result.records[1::2]):
        assert a.moves[:2] == b.moves[:2] and a.opening_plies == 2
        assert a.seats == [0, 1] and b.seats == [1, 0]
    assert len({tuple(r.moves[:2]) for r in result.records}) > 1


def test_openings_file_and_a_bad_opening(tmp_path):
    result = run_match(config(games=4, openings=[("3",), ("1", "1")]))
    assert [r.moves[:r.opening_plies] for r in result.records] == [["3"], ["3"], ["1", "1"], ["1", "1"]]
    with pytest.raises(ValueError, match="opening 1"):
        run_match(config(games=4, openings=[("3", "9")]))
    with pytest.raises(ValueError, match="ends the game"):
        run_match(config(games=2, openings=[("3", "3", "3", "1")]))


def test_four_players_two_engines_alternate():
    result = run_match(config(params={"players": 4, "target": 9}, games=8))
    assert result.records[0].seats == [0, 1, 0, 1] and result.records[1].seats == [1, 0, 1, 0]
    # A B A B has two seatings: a round is two games, the third game is the next round's
    assert result.records[2].seats == [0, 1, 0, 1] and result.records[2].deal_seed != result.records[0].deal_seed
    assert result.records[3].deal_seed == result.records[2].deal_seed
    t = result.tally
    assert t.games == 8 and t.draws == 0
    assert t.wins == sum(r.winner_engine == 0 for r in result.records)


def test_four_players_four_engines():
    engines = [EngineSpec.parse(s) for s in ("greedy", "random", "random", "random")]
    result = run_match(config(params={"players": 4}, engines=engines, games=8))
    assert [r.seats for r in result.records[:4]] == [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
    s = result.summary()
    assert sum(s["wins_by_engine"]) == 8
    assert s["wins"] == s["wins_by_engine"][0] and s["losses"] == s["wins_by_engine"][1]
    assert s["draws"] == s["wins_by_engine"][2] + s["wins_by_engine"][3]


def test_sprt_stops_early_at_a_round_boundary():
    from crossridor.engine.match.stats import SprtSpec
    result = run_match(config(games=400, sprt=SprtSpec(elo0=0, elo1=50, alpha=0.05, beta=0.05)))
    assert result.stopped == "sprt H1" and result.sprt.result == "H1"
    assert result.tally.games < 400 and result.tally.games % 2 == 0
    # with concurrency the same games decide it
    again = run_match(config(games=400, concurrency=2, sprt=SprtSpec(elo0=0, elo1=50)))
    assert again.tally.games == result.tally.games and again.summary() == result.summary()


# --- records and resume ----------------------------------------------------------------------

def test_records_file_and_resume_after_a_kill(tmp_path):
    path = tmp_path / "games.jsonl"
    full = run_match(config(games=12, random_openings=1, records=str(path)))
    lines = path.read_text().splitlines()
    assert len(lines) == 12
    first = json.loads(lines[0])
    for key in ("index", "seed", "seats", "engines", "result", "reason", "moves"):
        assert key in first
    assert sorted(json.loads(line)["index"] for line in lines) == list(range(12))

    # a kill in the middle of writing game 6: 5 whole lines and a torn one
    data = path.read_bytes()
    cut = len(b"\n".join(data.split(b"\n")[:5])) + 1 + 17
    path.write_bytes(data[:cut])
    with pytest.raises(ValueError, match="--resume"):
        run_match(config(games=12, random_openings=1, records=str(path)))
    resumed = run_match(config(games=12, random_openings=1, records=str(path), resume=True, seed=None))
    assert resumed.summary() == full.summary()
    assert strip_time(resumed.records) == strip_time(full.records)
    assert sorted(json.loads(x)["index"] for x in path.read_text().splitlines()) == list(range(12))
    # nothing left to play: resuming again changes nothing
    again = run_match(config(games=12, random_openings=1, records=str(path), resume=True))
    assert again.summary() == full.summary()
    assert len(path.read_text().splitlines()) == 12


def test_resume_refuses_another_match(tmp_path):
    path = tmp_path / "games.jsonl"
    run_match(config(games=2, records=str(path)))
    with pytest.raises(ValueError, match="seed"):
        run_match(config(games=4, records=str(path), resume=True, seed=8))
    with pytest.raises(ValueError, match="different match"):
        run_match(config(games=4, records=str(path), resume=True,
                         engines=[EngineSpec.parse("random"), EngineSpec.parse("random")]))
    path.write_text('{"index": 0}\n{"not": "a record"}\n')
    with pytest.raises(ValueError, match="line 1"):
        RecordsFile(str(path)).load()


def test_extending_a_match_with_resume(tmp_path):
    path = tmp_path / "games.jsonl"
    run_match(config(games=6, records=str(path)))
    longer = run_match(config(games=10, records=str(path), resume=True))
    assert strip_time(longer.records) == strip_time(run_match(config(games=10)).records)


# --- the command line -------------------------------------------------------------------------

def test_cli_match_json():
    code, out, err = run_cli("match", str(GAME), "--engine", "greedy", "--engine", "random", "--games", "6",
                             "--concurrency", "1", "--seed", "3", "--json", "--sprt", "elo0=0,elo1=10")
    assert code == 0, err
    obj = json.loads(out)
    for key in ("games", "wins", "draws", "losses", "score", "elo", "elo_error", "los", "sprt"):
        assert key in obj
    assert obj["games"] == 6 and obj["wins"] + obj["draws"] + obj["losses"] == 6
    assert set(obj["sprt"]) == {"llr", "lower", "upper", "result"}
    assert obj["sprt"]["upper"] == pytest.approx(2.9444, abs=1e-4)
    assert err == ""


def test_cli_match_text_and_max_plies():
    code, out, err = run_cli("match", str(GAME), "--engine", "random", "--engine", "random", "--games", "4",
                             "--concurrency", "2", "--seed", "3", "--max-plies", "2")
    assert code == 0, err
    assert "games 4: W 0  D 4  L 0  (4 drawn by --max-plies)" in out
    assert "WARNING: 4 of 4 games were cut off at 2 plies and scored as draws" in out
    assert "elo" in out and "los" in out


def cut_and_resume(args, path, keep):
    """Run a match, keep the first `keep` records, resume it: both JSON outputs."""
    code, out1, err = run_cli(*args)
    assert code == 0, err
    with open(path) as f:
        lines = f.readlines()
    with open(path, "w") as f:
        f.writelines(lines[:keep])
    code, out2, err = run_cli(*args, "--resume")
    assert code == 0, err
    return json.loads(out1), json.loads(out2)


def test_cli_records_and_resume(tmp_path):
    path = str(tmp_path / "r.jsonl")
    args = ("match", str(GAME), "--engine", "greedy", "--engine", "random", "--games", "6", "--concurrency", "1",
            "--seed", "5", "--records", path, "--json")
    out1, out2 = cut_and_resume(args, path, keep=2)
    assert out1 == out2


@pytest.mark.parametrize("argv, message", [
    (["--engine", "random"], "two --engine"),
    (["--engine", "chess", "--engine", "random"], "unknown algorithm"),
    (["--engine", "alphabeta:depth=-1", "--engine", "random"], "depth"),
    (["--engine", "random:foo", "--engine", "random"], "key=value"),
    (["--engine", "random", "--engine", "random", "--games", "0"], "--games"),
    (["--engine", "random", "--engine", "random", "--concurrency", "0"], "--concurrency"),
    (["--engine", "random", "--engine", "random", "--max-plies", "-1"], "--max-plies"),
    (["--engine", "random", "--engine", "random", "--sprt", "elo0=10,elo1=0"], "elo0"),
    (["--engine", "random", "--engine", "random", "--sprt", "elo=3"], "sprt"),
    (["--engine", "random", "--engine", "random", "--resume"], "--records"),
    (["--engine", "random", "--engine", "random", "--openings", "/nonexistent/o.txt"], "openings file"),
    (["--engine", "random", "--engine", "random", "--openings", "x", "--random-openings", "2"], "not allowed"),
    (["--engine", "random", "--engine", "random", "--engine", "random"], "engines"),
    (["--engine", "random", "--engine", "random", "--games", "x"], "invalid int"),
])
def test_cli_match_rejects_bad_input(argv, message):
    assert message in one_line_error("match", str(GAME), *argv)


def test_cli_match_rejects_unknown_game():
    assert "chess" in one_line_error("match", "chess", "--engine", "random", "--engine", "random")


def test_cli_match_rejects_an_engine_option_the_algorithm_refuses():
    # the toy does not answer mcts; whatever the mcts module does with a
    # nonsense option, the error is one line and exit status 2
    one_line_error("match", str(GAME), "--engine", "mcts:sims=5,bogus_option=1", "--engine", "random",
                   "--games", "2", "--concurrency", "1")


# --- on Quoridor -----------------------------------------------

def test_quoridor_match_same_records_at_any_concurrency():
    engines = [EngineSpec.parse("alphabeta:depth=1"), EngineSpec.parse("random")]
    cfg = dict(game="quoridor", params={"size": 5}, engines=engines, games=4, seed=11, random_openings=2)
    one = run_match(MatchConfig(concurrency=1, **cfg))
    two = run_match(MatchConfig(concurrency=2, **cfg))
    assert strip_time(one.records) == strip_time(two.records)
    assert one.tally.games == 4 and all(r.reason == "terminal" for r in one.records)
    # every recorded game replays legally to its end
    game = load_game("quoridor", size=5)
    for r in one.records:
        state = game.new_state(" ".join(r.moves))
        assert state.is_terminal() and state.returns() == r.returns


def test_quoridor_four_players_max_plies():
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--players", "4", "--engine", "random",
                             "--engine", "random", "--games", "4", "--concurrency", "1", "--seed", "2",
                             "--max-plies", "6", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["games"] == 4 and obj["draws"] == 4 and obj["max_plies_draws"] == 4
    assert obj["max_plies"] == 6
    assert "WARNING: 4 of 4 games were cut off at 6 plies" in err


def test_max_plies_defaults_per_game():
    from crossridor.engine.match.runner import Match, MatchConfig, default_max_plies
    assert default_max_plies(load_game("quoridor")) == 400
    assert default_max_plies(load_game("quoridor", size=5, players=4)) == 800
    for name in ("crosswise", "qwatrobat", "kreuzundquer"):
        assert default_max_plies(load_game(name)) is None
    # no cap: the toy game is played to its end; 0 asks for no cap explicitly
    for cap in (None, 0):
        match = Match(MatchConfig(GAME, {}, [EngineSpec.parse("random"), EngineSpec.parse("random")],
                                  games=2, concurrency=1, seed=1, max_plies=cap))
        result = match.run()
        assert match.max_plies is None and result.summary()["max_plies"] is None
        assert all(r.reason == "terminal" and r.max_plies is None for r in result.records)


# --- first-to and sum-of ------------------------------------------------------------------------

def test_first_to_stops_at_x_wins_whatever_the_concurrency(tmp_path):
    engines = [EngineSpec.parse("random"), EngineSpec.parse("random")]
    one = run_match(config(engines=engines, first_to=4, games=None, random_openings=1,
                           records=str(tmp_path / "a")))
    t = one.tally
    assert one.config.games == 40                      # the default cap, 10 X
    assert max(t.wins, t.losses) == 4 and min(t.wins, t.losses) < 4
    # it stopped at the game that gave the 4th win (in index order), not at a round's end
    last = one.records[-1]
    assert last.winner_engine == (0 if t.wins == 4 else 1) and t.games == len(one.records)
    assert one.stopped == f"first to 4 wins: engine {1 if t.wins == 4 else 2}"
    s = one.summary()
    assert s["match_winner"] == (1 if t.wins == 4 else 2) and s["first_to"] == 4
    two = run_match(config(engines=engines, first_to=4, games=None, random_openings=1, concurrency=2,
                           records=str(tmp_path / "b")))
    assert strip_time(two.records) == strip_time(one.records)
    assert two.summary() == s
    # games still in flight at the stop were recorded, not counted
    with open(tmp_path / "b") as f:
        recorded = sorted(json.loads(line)["index"] for line in f)
    assert recorded[:t.games] == list(range(t.games)) and len(recorded) == t.games + two.uncounted


def test_first_to_cap_leaves_no_winner():
    result = run_match(config(first_to=5, games=4))      # greedy wins at most 4 of 4
    assert result.tally.games == 4 and result.stopped is None
    assert result.summary()["match_winner"] is None
    assert run_match(config(first_to=2, games=None)).summary()["match_winner"] == 1
    with pytest.raises(ValueError, match="sum-of 3"):
        run_match(config(sum_of=3, games=4, params={"points": True}))


def test_points_are_plain_numbers():
    # one rule for a record's points and the match's running totals
    assert plain_number(6.0) == 6 and type(plain_number(6.0)) is int
    assert plain_number(0.1 + 0.2) == 0.3                  # no float noise in JSON
    total = 0
    for _ in range(10):
        total = plain_number(total + 0.1)
    assert total == 1 and type(total) is int                # a sum of fractions stays exact
    assert plain_number(1 / 3) == 0.333333
    assert type(plain_number(0.1 * 3 * 10)) is int        # 3.0000000000000004: integral once rounded


def test_sum_of_totals_are_the_records_points(tmp_path):
    path = tmp_path / "games.jsonl"
    result = run_match(config(params={"points": True}, sum_of=6, games=None, records=str(path)))
    assert result.config.games == 6 and result.tally.games == 6 and result.stopped is None
    totals = [0, 0]
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            assert len(rec["points"]) == 2
            for seat, engine in enumerate(rec["seats"]):
                totals[engine] += rec["points"][seat]
    s = result.summary()
    assert s["points"] == totals and sum(totals) == 6 * 10
    assert s["match_winner"] == (None if totals[0] == totals[1] else 1 if totals[0] > totals[1] else 2)
    # a game without points records none
    plain = run_match(config(games=2))
    assert all(r.points is None and "points" not in r.as_dict() for r in plain.records)
    assert "points" not in plain.summary() and "match_winner" not in plain.summary()


def test_sum_of_resume_keeps_the_points(tmp_path):
    path = str(tmp_path / "r.jsonl")
    args = ("match", str(GAME), "-o", "points=true", "--engine", "greedy", "--engine", "random",
            "--sum-of", "6", "--concurrency", "1", "--seed", "4", "--records", path, "--json")
    out1, out2 = cut_and_resume(args, path, keep=3)
    assert out1 == out2 and "points" in out2


def test_cli_first_to_and_sum_of_text():
    code, out, err = run_cli("match", str(GAME), "-o", "points=true", "--engine", "greedy", "--engine", "random",
                             "--first-to", "3", "--concurrency", "1", "--seed", "3")
    assert code == 0, err
    assert "match (first to 3 wins): engine 1 wins, 3-" in out
    code, out, err = run_cli("match", str(GAME), "-o", "points=true", "--engine", "greedy", "--engine", "random",
                             "--sum-of", "4", "--concurrency", "1", "--seed", "3")
    assert code == 0, err
    assert "games 4:" in out and "points: engine 1: " in out and "match (sum of 4 games): " in out


@pytest.mark.parametrize("argv, message", [
    (["--first-to", "0"], "--first-to must be >= 1"),
    (["--first-to", "-2"], "--first-to must be >= 1"),
    (["--sum-of", "0"], "--sum-of must be >= 1"),
    (["--sum-of", "-1"], "--sum-of must be >= 1"),
    (["--first-to", "2", "--sum-of", "2"], "not allowed with"),
    (["--sum-of", "4", "--games", "6"], "differ"),
    (["--sum-of", "4"], "sum-of needs a game with points"),
    (["--first-to", "2", "--sprt", "elo0=0,elo1=10"], "exclude each other"),
    (["--first-to", "x"], "invalid int"),
])
def test_cli_first_to_and_sum_of_reject_bad_input(argv, message):
    assert message in one_line_error("match", str(GAME), "--engine", "random", "--engine", "random", *argv)


def test_cli_first_to_and_sum_of_need_two_engines():
    assert "two engines" in one_line_error("match", str(GAME), "--players", "4", "--engine", "random", "--engine",
                                           "random", "--engine", "random", "--engine", "random", "--first-to", "2")


@pytest.mark.parametrize("mode", [("--first-to", "2"), ("--sum-of", "4")])
def test_crosswise_first_to_and_sum_of_end_to_end(tmp_path, mode):
    path = str(tmp_path / "cw.jsonl")
    code, out, err = run_cli("match", "crosswise", "--engine", "greedy", "--engine", "random", *mode,
                             "--concurrency", "1", "--seed", "5", "--records", path, "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["match_winner"] in (1, 2, None) and len(obj["points"]) == 2
    with open(path) as f:
        recs = [json.loads(line) for line in f]
    totals = [0, 0]
    for rec in recs[:obj["games"]]:
        assert rec["reason"] == "terminal" and len(rec["points"]) == 2
        for seat, engine in enumerate(rec["seats"]):
            totals[engine] += rec["points"][seat]
    assert obj["points"] == totals
    if mode[0] == "--first-to":
        assert obj["first_to"] == 2 and max(obj["wins"], obj["losses"]) == 2
        assert obj["match_winner"] == (1 if obj["wins"] == 2 else 2)
    else:
        assert obj["sum_of"] == 4 and obj["games"] == 4 and len(recs) == 4
        assert obj["match_winner"] == (None if totals[0] == totals[1] else 1 if totals[0] > totals[1] else 2)


def test_crosswise_points_follow_the_teams():
    import crossridor
    from crossridor.engine.match.game_loop import seat_points
    game = crossridor.load_game("crosswise", players=4)
    rec = play_game(GameTask(index=0, game="crosswise", params={"players": 4},
                             engines=(EngineSpec.parse("greedy"), EngineSpec.parse("random")),
                             seats=(0, 1, 0, 1), seed=3, deal_seed=9))
    rows, cols = rec.points[0], rec.points[1]
    assert rec.points == [rows, cols, rows, cols]
    assert seat_points(game, game.new_state(seed=1)) == [0, 0, 0, 0]
    # a team's win counts for the engine that holds the whole team
    if rec.returns[0] != rec.returns[1]:
        assert rec.winner_engine == (0 if rec.returns[0] > rec.returns[1] else 1)
        assert rec.result in ("1-0-1-0", "0-1-0-1")


def test_quoridor_first_to():
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", "greedy", "--engine", "random",
                             "--first-to", "2", "--concurrency", "1", "--seed", "2", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert max(obj["wins"], obj["losses"]) == 2 and obj["match_winner"] in (1, 2)
    assert "points" not in obj


def test_abort_ends_the_worker_processes():
    """stop_executor(abort=True) ends busy workers at once (no private
    attribute of ProcessPoolExecutor: the pool's context tracks them)."""
    import threading
    import time as _time

    from crossridor.engine.match.pool import make_executor, stop_executor
    threads = set(threading.enumerate())
    executor = make_executor(2)
    futures = [executor.submit(_time.sleep, 2 * HANG) for _ in range(2)]    # past every wait below
    deadline = _time.monotonic() + HANG
    while not all(f.running() for f in futures) and _time.monotonic() < deadline:
        _time.sleep(0.05)
    processes = list(executor.worker_context.processes)
    assert len(processes) == 2 and all(p.is_alive() for p in processes)
    stop_executor(executor, abort=True)
    # no pool thread left to race Python's exit hook (a traceback after SIGTERM)
    assert set(threading.enumerate()) <= threads
    # the pool's own thread reaps them too, so poll the exit codes (not join)
    deadline = _time.monotonic() + HANG
    while any(p.exitcode is None for p in processes) and _time.monotonic() < deadline:
        _time.sleep(0.05)
    assert [p.exitcode for p in processes] == [-15, -15]      # SIGTERM, long before the sleep ends
