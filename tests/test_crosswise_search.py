"""Crosswise search: ISMCTS and greedy through engine.search."""

from __future__ import annotations

import time

import pytest

import engine
from engine import Limits
from test_crosswise import load


def test_ismcts_returns_a_legal_move_and_is_seeded():
    st = engine.load_game("crosswise").new_state(seed=3)
    a = engine.search(st, "ismcts", Limits(sims=800), seed=5)
    b = engine.search(st, "ismcts", Limits(sims=800), seed=5)
    assert a.move in st.legal_moves() and a.move == b.move and a.nodes == 800
    assert a.extra["top"] == b.extra["top"]
    assert -1.0 <= a.score <= 1.0


def test_ismcts_does_not_look_at_hidden_tiles():
    # same view for seat 0, different hand for seat 1 and bag: same search
    a = load({"a1": 1, "c3": 4}, hands=("1234", "56MR"))
    b = load({"a1": 1, "c3": 4}, hands=("1234", "556S"))
    assert a.information_state(0) == b.information_state(0)
    ra = engine.search(a, "ismcts", Limits(sims=1500), seed=9)
    rb = engine.search(b, "ismcts", Limits(sims=1500), seed=9)
    assert ra.move == rb.move and ra.extra["top"] == rb.extra["top"]


def test_ismcts_time_limit():
    st = engine.load_game("crosswise").new_state(seed=3)
    t = time.perf_counter()
    r = engine.search(st, "ismcts", Limits(time=0.2), seed=1)
    assert 0.15 < time.perf_counter() - t < 0.6 and r.nodes > 100


@pytest.mark.parametrize("algorithm", ["ismcts", "greedy"])
def test_takes_the_instant_win(algorithm):
    st = load({f"c{r}": 6 for r in range(1, 6)}, turn="1", hands=("1234", "1236"))
    r = engine.search(st, algorithm, Limits(sims=3000), seed=1)
    assert str(r.move) == "6@c6"


def test_ismcts_team_play_four_players():
    # seat 2 (Rows, partner of 0) can complete rank 4 with a 3
    st = load({f"{f}4": 3 for f in "abcef"}, players=4, turn="2",
              hands=("1245", "1245", "1356", "1245"))
    r = engine.search(st, "ismcts", Limits(sims=3000), seed=2)
    assert str(r.move) == "3@d4"


def test_greedy_blocks_a_six_and_else_maximises_the_difference():
    # Columns (seat 1) hold five 5s in file e; Rows to move cannot win
    st = load({f"e{r}": 5 for r in range(1, 6)}, turn="0", hands=("1234", "1234"))
    r = engine.search(st, "greedy", Limits(sims=1))
    assert str(r.move).endswith("@e6")
    # no threat: the move with the best Rows - Columns difference
    st = load({"a1": 2, "b1": 2, "a2": 4}, turn="0", hands=("2346", "1234"))
    r = engine.search(st, "greedy", Limits(sims=1))
    best = []
    for m in st.legal_moves():
        st.play(m)
        best.append(st.scores()[0] - st.scores()[1])
        st.undo()
    st.play(r.move)
    rows, cols = st.scores()
    assert rows - cols == max(best) == 3       # a third 2 in rank 1 off column a
    assert str(r.move) == "2@c1"               # the first of the ties in generation order


def test_search_rejects_bad_options():
    st = engine.load_game("crosswise").new_state(seed=3)
    with pytest.raises(engine.CrossridorError):
        engine.search(st, "ismcts", Limits(sims=10), seed=1, bogus=1)
    with pytest.raises(engine.CrossridorError):
        engine.search(st, "ismcts", Limits(depth=3), seed=1)


def test_match_scoring():
    from games.crosswise import GameOutcome, first_to, sum_of, outcome_for
    seq = [GameOutcome(1, 20, 18), GameOutcome(0, 22, 22), GameOutcome(-1, 10, 30),
           GameOutcome(1, 25, 24), GameOutcome(1, 19, 17)]
    m = first_to(3, lambda i: seq[i])
    assert (m.wins_a, m.wins_b, m.draws, m.games, m.winner) == (3, 1, 1, 5, "A")
    s = sum_of(4, lambda i: seq[i])
    assert (s.points_a, s.points_b, s.winner, s.wins_a) == (77, 94, "B", 2)
    with pytest.raises(engine.CrossridorError):
        first_to(0, lambda i: seq[i])
    st = load({f"c{r}": 6 for r in range(1, 6)}, turn="1", hands=("1234", "1236"))
    st.play("6@c6")
    assert outcome_for(st, 1).result == 1 and outcome_for(st, 0).result == -1


def test_ismcts_blocks_a_six_it_cannot_outrun():
    # Columns hold five 5s in file e with e6 empty; Rows (to move) cannot win at once
    st = load({f"e{r}": 5 for r in range(1, 6)}, turn="0", hands=("1234", "1234"))
    r = engine.search(st, "ismcts", Limits(sims=3000), seed=4)
    assert str(r.move).endswith("@e6")
