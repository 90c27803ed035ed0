"""Pondering: the UCI loop's `go ponder` / `ponderhit`, a match's engines
thinking on the opponent's time (built-in and outside), and `crossridor
play` thinking while the person does. Every search is bounded by depth, or
runs until the test ends it."""

from __future__ import annotations

import io
import json
import sys

import pytest

import crossridor
from crossridor.engine.cli.play import PlaySession
from crossridor.engine.match.runner import MatchConfig
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.ponder import predicted_reply, start_ponder
from crossridor.engine.search_api import search_memory
from crossridor.engine.uci.engine import UciSession
from helpers import run_cli, wait_for


def quoridor(size: int = 9, moves: str = ""):
    return crossridor.load_game("quoridor", size=size).new_state(moves or None)


# --- the library -------------------------------------------------------------------

def test_the_predicted_reply_is_the_next_move_of_the_principal_variation():
    state = quoridor(moves="e2 e8")
    result = crossridor.search(state, "alphabeta", crossridor.Limits(depth=4))
    assert len(result.pv) >= 2
    assert predicted_reply(state, result) == (result.pv[1],)
    cut = type(result)(result.move, result.score, result.depth, result.nodes, result.seconds, result.nps,
                       (result.move,))
    assert predicted_reply(state, cut) is None          # the line stops at its own move


def test_four_players_guess_every_move_up_to_their_next_turn():
    state = crossridor.load_game("quoridor", players=4).new_state()
    result = crossridor.search(state, "alphabeta", crossridor.Limits(depth=5))
    guess = predicted_reply(state, result)
    assert guess == tuple(result.pv[1:4])


def test_a_ponder_search_fills_the_memory_the_real_search_starts_from():
    state = quoridor(moves="e2 e8 e3 e7")
    memory = search_memory(state, "alphabeta")
    first = crossridor.search(state, "alphabeta", crossridor.Limits(depth=3), memory=memory)
    after = state.clone()
    after.play(first.move)
    guess = predicted_reply(state, first)
    depths: list = []

    def done(info) -> None:       # stopped at the end of depth 9: the same table on any machine
        depths.append(info.depth)
        if info.depth == 9:
            ponder._stop.set()
    ponder = start_ponder(after, guess, "alphabeta", memory, {"on_iteration": done})
    assert ponder is not None and ponder.expects(list(guess)) and not ponder.expects([])
    assert wait_for(lambda: not ponder._thread.is_alive())
    ponder.finish()
    assert depths == list(range(1, 10))     # it searched on past any move's limit, until stopped
    position = after.clone()
    for move in guess:
        position.play(move)
    # depth 8 again: from the pondered table, 16x fewer nodes (measured); from an empty one, all of them
    warm = crossridor.search(position, "alphabeta", crossridor.Limits(depth=8), memory=memory)
    cold = crossridor.search(position, "alphabeta", crossridor.Limits(depth=8),
                             memory=search_memory(position, "alphabeta"))
    assert warm.nodes < cold.nodes / 4, (warm.nodes, cold.nodes)


def test_no_ponder_without_a_guess_or_a_memory():
    state = quoridor()
    assert start_ponder(state, None, "alphabeta", search_memory(state, "alphabeta")) is None
    assert start_ponder(state, ("e2",), "mcts", None) is None


# --- the UCI loop ------------------------------------------------------------------

def lines_of(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


def bestmoves(out: io.StringIO) -> list[str]:
    return [line for line in lines_of(out) if line.startswith("bestmove")]


def test_uci_offers_ponder_and_names_the_expected_reply():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)
    session.handle("uci")
    assert "option name Ponder type check default false" in lines_of(out)
    session.handle("setoption name Ponder value true")
    session.handle("position startpos moves e2 e8")
    session.handle("go depth 4")
    session.wait()
    (line,) = bestmoves(out)
    words = line.split()
    assert words[2] == "ponder", line
    state = quoridor(moves="e2 e8")
    state.play(words[1])
    assert state.parse_move(words[3]) in state.legal_moves()
    session.handle("setoption name Ponder value maybe")
    assert "info string error setoption: Ponder: expected true or false, got 'maybe'" in lines_of(out)
    session.finish()


def test_go_ponder_waits_for_ponderhit_then_searches_its_limits():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)
    session.handle("position startpos moves e2 e8 e3 e7")
    session.handle("go ponder depth 3")
    assert wait_for(lambda: any(line.startswith("info depth 5 ") for line in lines_of(out)))
    assert session.searching() and not bestmoves(out)      # pondering beyond the go's depth
    session.handle("isready")
    session.handle("position startpos")                    # refused while pondering
    assert "readyok" in lines_of(out)
    assert any("position: an infinite search is running" in line for line in lines_of(out))
    session.handle("ponderhit")
    session.wait()
    (line,) = bestmoves(out)
    # the search after ponderhit starts again from depth 1 (its lines come after the ponder's last)
    depths = [int(x.split()[2]) for x in lines_of(out) if x.startswith("info depth")]
    restart = len(depths) - 1 - depths[::-1].index(1)
    assert max(depths[:restart]) >= 5 and max(depths[restart:]) == 3, depths
    state = quoridor(moves="e2 e8 e3 e7")
    assert state.parse_move(line.split()[1]) in state.legal_moves()
    session.finish()


def test_stop_while_pondering_gives_one_bestmove_and_ponderhit_without_ponder_is_an_error():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor", size=5), out)
    session.handle("ponderhit")
    assert "info string error ponderhit: no go ponder is running" in lines_of(out)
    session.handle("go ponder movetime 10")
    session.handle("stop")
    assert not session.searching() and len(bestmoves(out)) == 1
    session.handle("ponderhit")
    assert len(bestmoves(out)) == 1
    session.finish()


def test_a_ponder_search_that_proves_the_result_waits_for_ponderhit_or_stop():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor", size=5), out)
    session.handle("position pos 5x2:c4,a2:0,0::1")         # player 1 wins with c5
    session.handle("go ponder depth 3")
    assert wait_for(lambda: any(" score win 1 " in line for line in lines_of(out)))
    assert wait_for(lambda: session._thread is not None and session._ponder_done is not None
                    and not session._ponder_done.is_set())
    assert not bestmoves(out) and session.searching()
    session.handle("stop")
    assert [line.split()[1] for line in bestmoves(out)] == ["c5"]
    session.finish()


def test_quit_while_pondering_sends_the_bestmove_and_ends():
    out = io.StringIO()
    UciSession(crossridor.load_game("quoridor", size=5), out).run(io.StringIO("go ponder depth 2\nquit\n"))
    assert len(bestmoves(out)) == 1


# --- matches -----------------------------------------------------------------------

def test_engine_specs_read_and_print_ponder():
    spec = EngineSpec.parse("alphabeta:depth=3,ponder=true")
    assert spec.ponder is True and str(spec) == "alphabeta:depth=3,ponder=true"
    assert EngineSpec.parse(str(spec)) == spec
    assert EngineSpec.parse("uci:x;time=1,ponder=false").ponder is False
    with pytest.raises(crossridor.CrossridorError, match="ponder must be true or false"):
        EngineSpec.parse("alphabeta:ponder=sometimes")
    config = MatchConfig(game="quoridor", params={}, ponder=True,
                         engines=[EngineSpec.parse("alphabeta:depth=2"),
                                  EngineSpec.parse("alphabeta:depth=2,ponder=false")])
    assert [e.ponder for e in config.engines] == [True, False]


def test_a_pondering_engine_counts_its_hits_in_the_records(tmp_path):
    records = tmp_path / "r.jsonl"
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=3,ponder=true",
                             "--engine", "alphabeta:depth=3", "--games", "2", "--seed", "4", "--concurrency", "1",
                             "--records", str(records), "--json")
    assert code == 0, err
    games = [json.loads(line) for line in records.read_text().splitlines()]
    for game in games:
        pondering_seat = game["engines"].index("alphabeta:depth=3,ponder=true") + 1
        ((seat, tries, hits),) = game["ponder"]
        assert seat == pondering_seat
        own_moves = sum(1 for t in game["think"] if t[0] == seat)
        assert 1 <= tries <= own_moves and 0 <= hits <= tries
    assert json.loads(out)["engines"][0] == "alphabeta:depth=3,ponder=true"


def test_without_ponder_the_records_have_no_ponder_field(tmp_path):
    records = tmp_path / "r.jsonl"
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=2",
                             "--engine", "alphabeta:depth=2", "--games", "1", "--seed", "4",
                             "--records", str(records))
    assert code == 0, err
    assert "ponder" not in json.loads(records.read_text())


def test_an_outside_engine_ponders_with_go_ponder_and_ponderhit(tmp_path):
    records = tmp_path / "r.jsonl"
    engine = f"uci:{sys.executable} -m crossridor uci --size 5;depth=3"
    code, out, err = run_cli("match", "quoridor", "--size", "5", "--engine", engine,
                             "--engine", "alphabeta:depth=3", "--ponder", "--games", "2", "--seed", "5",
                             "--concurrency", "1", "--records", str(records))
    assert code == 0, err
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert all(g.get("failure") is None for g in games)
    outside = [p for g in games for p in g["ponder"] if g["engines"][p[0] - 1].startswith("uci:")]
    assert len(outside) == 2 and all(tries >= 1 and 0 <= hits <= tries for _, tries, hits in outside)
    assert sum(hits for _, _, hits in outside) >= 1      # some of its guesses were the built-in's moves


# --- play --------------------------------------------------------------------------

class _Person(io.StringIO):
    """Answers the prompt with the moves given, noting whether the engine
    was thinking at each prompt."""

    def __init__(self, session_ref: list, moves: list[str]):
        super().__init__()
        self.ref = session_ref
        self.moves = moves
        self.thinking: list[bool] = []

    def readline(self, *args):
        session = self.ref[0]
        self.thinking.append(session._ponder is not None)
        if not self.moves:
            return ""
        return self.moves.pop(0) + "\n"


@pytest.mark.parametrize("ponder", [True, False])
def test_play_thinks_while_the_person_does(ponder):
    state = quoridor(size=5)
    ref: list = []
    person = _Person(ref, ["c2", "b2", "c3"])
    out = io.StringIO()
    session = PlaySession(state, EngineSpec.parse("alphabeta:depth=3"), human=0, seed=1, stdin=person,
                          stdout=out, ponder=ponder)
    ref.append(session)
    assert session.run() == 0
    # the first prompt comes before the engine has moved: nothing to think on yet
    assert person.thinking[0] is False
    assert any(person.thinking[1:]) is ponder
    assert session._ponder is None            # stopped when the session ended
    assert "end of input" in out.getvalue()


def test_play_no_ponder_option_is_accepted():
    code, out, err = run_cli("play", "quoridor", "--size", "5", "--engine", "alphabeta:depth=2", "--no-ponder",
                             stdin="c2\n")
    assert code == 0 and "you play c2" in out, err
