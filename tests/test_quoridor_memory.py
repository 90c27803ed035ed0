"""A game's search memory (`search(..., memory=m)`): Quoridor's alpha-beta hands
its transposition table and the learned evaluation's caches on to the next
search of the same game, empties them when the settings change, and the
match runner, `play` and the UCI loop keep one per game and engine."""

from __future__ import annotations

import io
import threading

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine._core import QuoridorSearchMemory
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.search_api import search_memory
from crossridor.engine.uci.engine import UciSession
from helpers import HANG

MIDGAME = "g3h b7v e2 e8 e3 e7 e4 e6 c3h e3v e5 e4 e6 e6h"


def state(moves=MIDGAME, **params):
    st = crossridor.load_game("quoridor", **params).new_state()
    for m in moves.split():
        st.play(st.parse_move(m))
    return st


def ab(st, depth, **options):
    return crossridor.search(st, "alphabeta", Limits(depth=depth), **options)


def same_search(a, b):
    return (a.move, a.score, a.nodes, a.pv) == (b.move, b.score, b.nodes, b.pv)


def test_an_empty_memory_searches_as_a_fresh_search():
    st = state()
    assert same_search(ab(st, 8, memory=QuoridorSearchMemory()), ab(st, 8))


def test_the_next_search_starts_from_the_last_ones_table():
    st = state()
    memory = QuoridorSearchMemory()
    first = ab(st, 8, memory=memory)
    again = ab(st, 8, memory=memory)
    assert again.nodes < first.nodes / 3
    # two plies on, along the principal variation: the subtree was searched
    # already, to the depth the first search gave it
    for m in first.pv[:2]:
        st.play(m)
    assert ab(st, 6, memory=memory).nodes < ab(st, 6).nodes / 3


@pytest.mark.parametrize("other", [
    {"eval": "classic"},                    # another evaluation: other scores, other caches
    {"hash": 4},                            # another table size
    {"tempo": 7, "eval": "classic"},
])
def test_other_settings_empty_the_memory(other):
    st = state()
    memory = QuoridorSearchMemory()
    ab(st, 8, memory=memory)
    assert same_search(ab(st, 8, memory=memory, **other), ab(st, 8, **other))


def test_another_board_empties_the_memory():
    memory = QuoridorSearchMemory()
    ab(state(), 7, memory=memory)
    small = state("d2 d6 d3", size=7)
    assert same_search(ab(small, 7, memory=memory), ab(small, 7))


def test_four_players_empty_it_when_the_root_player_changes():
    # the paranoid search scores for the root player's side
    st = state("e2 b5 e8 h5", players=4)
    memory = QuoridorSearchMemory()
    ab(st, 4, memory=memory)
    st.play(st.legal_moves()[0])
    assert same_search(ab(st, 4, memory=memory), ab(st, 4))


def test_memory_with_helper_threads_is_free_again_after_the_search():
    st = state()
    memory = QuoridorSearchMemory()
    result = crossridor.search(st, "alphabeta", Limits(time=0.2), threads=2, memory=memory)
    assert result.move in st.legal_moves()
    assert ab(st, 6, memory=memory).move in st.legal_moves()


def test_a_memory_serves_one_search_at_a_time():
    st = state()
    memory = QuoridorSearchMemory()
    stop, searching = crossridor.Stop(), threading.Event()
    running = threading.Thread(target=crossridor.search,
                               args=(st.clone(), "alphabeta", Limits(depth=40)),
                               kwargs={"memory": memory, "stop": stop, "on_iteration": lambda info: searching.set()})
    running.start()
    try:
        assert searching.wait(HANG)         # the search holds the memory until it is stopped
        with pytest.raises(crossridor.CrossridorError, match="in use by another search"):
            ab(st, 2, memory=memory)
    finally:
        stop.set()
        running.join()
    assert ab(st, 2, memory=memory).move in st.legal_moves()


@pytest.mark.parametrize("value", ["memory", 3, object()])
def test_memory_must_be_a_search_memory(value):
    with pytest.raises(crossridor.CrossridorError, match="option memory must be a SearchMemory"):
        ab(state(), 2, memory=value)


def test_only_quoridor_alphabeta_keeps_a_memory():
    st = state()
    assert isinstance(search_memory(st, "alphabeta"), QuoridorSearchMemory)
    assert search_memory(st, "mcts") is None
    assert search_memory(crossridor.load_game("crosswise").new_state(seed=1), "alphabeta") is None
    with pytest.raises(crossridor.CrossridorError, match="unknown option"):
        crossridor.search(st, "mcts", Limits(sims=10), memory=QuoridorSearchMemory())


def test_a_match_player_keeps_one_memory_for_its_game():
    st = state()
    player = EngineSpec.parse("alphabeta:depth=6").open()
    player.choose(st.clone(), [], seed=1)
    kept = player.memory
    assert isinstance(kept, QuoridorSearchMemory)
    st.play(st.legal_moves()[0])
    player.choose(st.clone(), [], seed=1)
    assert player.memory is kept
    assert EngineSpec.parse("alphabeta:depth=6").open().memory is None    # a new game: a new memory


def test_uci_keeps_the_table_between_gos_until_ucinewgame():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)

    def go_nodes():
        session.cmd_go(["depth", "8"])
        session._thread.join()
        return int(out.getvalue().rsplit(" nodes ", 1)[1].split()[0])

    session.cmd_position(["startpos", "moves", *MIDGAME.split()])
    first = go_nodes()
    assert go_nodes() < first / 3
    session.cmd_ucinewgame([])
    session.cmd_position(["startpos", "moves", *MIDGAME.split()])
    assert go_nodes() == first
