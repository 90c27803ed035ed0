"""Qwatrobat: every rule of docs/rules/qwatrobat.md, the options, the exact
solver on positions worked out by hand, hidden information, bad input."""

import random

import pytest

import crossridor
from crossridor import CHANCE, TERMINAL
from crossridor.engine.errors import (
    CrossridorError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    UnknownGameError,
    UnsupportedGameError,
)
from crossridor.games.qwatrobat.players import endgame_evaluator
from crossridor.games.qwatrobat.rules import First, Push, Setup, resolve_field
from crossridor.games.qwatrobat.solver import solve, solve_value
from helpers import play


def load(**kw):
    return crossridor.load_game("qwatrobat", **kw)


# ----------------------------------------------------------------------------- options


def test_default_options():
    g = load()
    assert g.params == {"open": False, "clear_four": True, "last_round_points": 6, "cards": 8, "first": None}
    assert g.points == (2, 3, 4, 6)
    assert g.rounds == 4 and g.ncols == 4
    assert g.hand == (1, 1, 2, 2, 3, 3, 4, 4)
    assert g.traits.num_players == 2 and g.traits.chance and g.traits.hidden_information


def test_variant_options():
    assert load(last_round_points=5).points == (2, 3, 4, 5)
    g = load(cards=10)
    assert g.rounds == 5 and g.ncols == 5 and g.points == (2, 3, 4, 5, 6)
    assert g.hand == (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
    assert not load(first=2).traits.chance


@pytest.mark.parametrize("bad", [
    {"colour": 1}, {"open": 1}, {"clear_four": "yes"}, {"last_round_points": 4},
    {"last_round_points": True}, {"cards": 9}, {"first": 0}, {"first": 3}, {"first": True},
])
def test_bad_params(bad):
    with pytest.raises(UnknownGameError, match="qwatrobat"):
        load(**bad)


def test_registry_alias_and_unknown_game():
    with pytest.raises(UnknownGameError):
        crossridor.load_game("qwatrobatt")


# ----------------------------------------------------------------------------- setup


def test_setup_is_simultaneous_and_hidden():
    g = load()
    a, b = g.new_state(), g.new_state()
    assert a.current_player == 0
    a.play("1234/4321")
    b.play("4321/1234")
    assert a.current_player == 1
    # player 1 cannot tell which layout player 0 chose
    assert a.information_state(1) == b.information_state(1)
    assert a.information_state(0) != b.information_state(0)
    assert "4321" not in a.render(1) and "?" in a.render(1)
    a.play("1122/3344")
    assert a.current_player == CHANCE
    assert sorted(a.chance_outcomes()) == [(First(0), 0.5), (First(1), 0.5)]
    a.play("first:2")
    assert a.current_player == 1


def test_setup_moves_distinct_layouts():
    g = load()
    moves = g.new_state().legal_moves()
    assert len(moves) == len(set(moves)) == 126
    assert all(m == m.canonical() for m in moves)
    # any arrangement is legal, even if it is not the listed representative
    s = g.new_state()
    m = s.parse_move("4321/1234")
    assert m not in moves and m.canonical() in moves
    s.play(m)
    assert s.layout[0] == Setup((4, 3, 2, 1), (1, 2, 3, 4))


@pytest.mark.parametrize("text,err", [
    ("1234/432", InvalidMoveError), ("12a4/4321", InvalidMoveError), ("/", InvalidMoveError),
    ("1234/4322", IllegalMoveError), ("12345/54321", IllegalMoveError), ("c1", IllegalMoveError),
    ("first:1", IllegalMoveError), ("x9", InvalidMoveError), ("c0", InvalidMoveError), ("", InvalidMoveError),
])
def test_bad_setups(text, err):
    s = load().new_state()
    with pytest.raises(err, match="qwatrobat"):
        s.parse_move(text)
    with pytest.raises(err):
        s.play(text)
    assert s.current_player == 0 and s.layout == [None, None]


# ----------------------------------------------------------------------------- pushing


def test_column_blocking_front_then_back():
    s = load(first=1).new_state("1234/4321 1234/1234")
    assert s.current_player == 0
    s.play("c1")                       # front 1
    assert s.field == ((1, 0),)
    s.play("c4")                       # player 1 pushes its front 4
    s.play("c1")                       # back of column 1: 4
    assert s.rem[0] == [0, 2, 2, 2]
    assert sorted(s.field) == [(1, 0), (4, 0), (4, 1)] or s.round == 1
    s.play("c4")
    # column 1 of player 0 is now empty
    with pytest.raises(IllegalMoveError, match="empty"):
        s.parse_move("c1")
    with pytest.raises(IllegalMoveError, match="only 4 columns"):
        s.parse_move("c5")
    with pytest.raises(IllegalMoveError):
        s.parse_move("1234/4321")


def test_turn_order_within_round():
    s = load(first=2).new_state("1234/1234 1234/1234")
    order = []
    for m in ("c1", "c1", "c2", "c3"):
        order.append(s.current_player)
        s.play(m)
    assert order == [1, 0, 1, 0]


# The full game from the rule file's cases, worked out by hand:
#   R1: 1@0 1@1 2@0 3@1 -> 1s removed, {2@0,3@1}: 2 cards, lowest (2, player 0) wins 2
#   R2: 3@0 2@1 4@0 4@1 -> everything paired: 0 cards, draw, first stays 0
#   R3: 1@0 2@1 3@0 4@1 -> 4 distinct: highest (4, player 1) wins 4, cleared
#   R4 (player 1 first): 1@1 2@0 3@1 4@0 -> 4 distinct: highest (4, player 0) wins 6
GAME = "1234/1234 1234/1234 c1 c1 c2 c3 c3 c2 c4 c4 c1 c2 c3 c4 c1 c2 c3 c4"


def test_full_game_by_hand():
    s = load(first=1).new_state("1234/1234 1234/1234")
    play(s, "c1 c1 c2 c3")
    assert s.round == 1 and s.scores == [2, 0] and s.field == ((2, 0), (3, 1)) and s.first == 0
    play(s, "c3 c2 c4 c4")
    assert s.round == 2 and s.scores == [2, 0] and s.field == () and s.first == 0
    play(s, "c1 c2 c3 c4")
    assert s.scores == [2, 4] and s.field == () and s.first == 1
    assert s.current_player == 1
    play(s, "c1 c2 c3 c4")
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.scores == [8, 4] and s.returns() == [1.0, -1.0]
    assert s.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        s.parse_move("c1")


def test_last_round_points_option():
    s = load(first=1, last_round_points=5).new_state(GAME)
    assert s.scores == [7, 4]


def test_clear_four_option_off():
    # without clearing, round 3's four cards stay and round 4's pushes pair them all
    s = load(first=1, clear_four=False).new_state(GAME.split()[:2 + 12])
    assert s.field == ((1, 0), (2, 1), (3, 0), (4, 1))
    play(s, "c1 c2 c3 c4")
    assert s.scores == [2, 4] and s.returns() == [-1.0, 1.0]


def test_one_and_three_cards():
    #   R1: 1@0 1@1 1@0 2@1 -> three 1s removed, {2@1}: 1 card, its owner (player 1) wins 2
    #   R2 (player 1 first): 4@1 3@0 1@1 4@0 -> 4s removed: {1@1,2@1,3@0}: median 2 (player 1) wins 3
    s = load(first=1).new_state("1123/2344 1234/1234 c1 c1 c2 c2")
    assert s.field == ((2, 1),) and s.scores == [0, 2] and s.first == 1
    play(s, "c4 c4 c1 c4")
    assert s.field == ((1, 1), (2, 1), (3, 0)) and s.scores == [0, 5] and s.first == 1


def test_resolve_field_cases():
    assert resolve_field(((1, 0), (2, 1), (3, 0), (4, 1)), True, 4) == ((), 1, True)
    assert resolve_field(((1, 0), (2, 1), (3, 0), (4, 1)), False, 4) == (((1, 0), (2, 1), (3, 0), (4, 1)), 1, False)
    assert resolve_field(((1, 1), (2, 0), (3, 1)), True, 4)[1] == 0        # median
    assert resolve_field(((2, 1), (3, 0)), True, 4)[1] == 1                # lowest
    assert resolve_field(((3, 0),), True, 4)[1] == 0                       # owner
    assert resolve_field(((3, 0), (3, 1)), True, 4) == ((), None, False)   # draw
    assert resolve_field(((1, 0), (2, 0), (3, 1), (4, 1), (5, 0)), True, 5) == ((), 0, True)


def test_draw_round_keeps_first_player():
    s = load(first=2).new_state("1234/1234 1234/1234 c1 c1 c2 c2")
    assert s.scores == [0, 0] and s.first == 1 and s.current_player == 1


def test_equal_totals_is_a_draw():
    # R1 draw, R2 draw, R3 p0 wins 4 (2 cards {1@0,4@1}? lowest), R4 ... built from a position
    g = load(first=1)
    s = g.state_from_position("1234/1234;1234/1234;0000;0000;-;5;0;1;6,6")
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


def test_ten_cards_game():
    g = load(cards=10, first=1)
    s = g.new_state("12345/12345 12345/12345")
    play(s, "c1 c2 c3 c4")   # 1@0 2@1 3@0 4@1 -> 4 distinct, highest (4@1) wins 2, cleared
    assert s.scores == [0, 2] and s.field == ()
    rng = random.Random(3)
    while not s.is_terminal():
        s.play(rng.choice(s.legal_moves()))
    assert s.round == 5 and sum(s.rem[0]) == sum(s.rem[1]) == 0


def test_skip_when_player_cannot_push():
    # not reachable under these rules; the engine must still skip the slot
    g = load(first=1)
    s = g.state_from_position("1234/1234;1234/1234;2222;2222;-;1;0;1;0,0")
    s.rem[0] = [0, 0, 0, 1]
    s.slot = 2
    s._skip()
    assert s.current_player == 0
    s.play("c4")                # 4@0
    s.play("c1")                # 1@1: {1@1, 4@0}, lowest: player 1 wins and starts round 2
    assert s.round == 1 and s.scores == [0, 2] and s.current_player == 1
    s.play("c2")
    # player 0 has no card left: its slot is skipped, player 1 pushes again
    assert s.slot == 2 and s.current_player == 1
    assert s.legal_moves() == [Push(0), Push(1), Push(2), Push(3)]


# ----------------------------------------------------------------------------- undo, clone, key, text


def test_undo_restores_everything():
    s = load().new_state()
    seen = []
    rng = random.Random(7)
    while not s.is_terminal():
        seen.append((s.position(), s.key()))
        moves = s.legal_moves() if s.current_player != CHANCE else [m for m, _ in s.chance_outcomes()]
        s.play(rng.choice(moves))
    for pos, key in reversed(seen):
        s.undo()
        assert s.position() == pos and s.key() == key
    with pytest.raises(IndexError):
        s.undo()


def test_moves_round_trip_text():
    s = load(first=1).new_state("1234/4321 2143/3412")
    for m in s.legal_moves():
        assert s.parse_move(str(m)) == m
        assert eval(repr(m), {"Push": Push, "Setup": Setup, "First": First}) == m
    assert str(Push(1)) == "c2" and str(Setup.parse("1234/4321")) == "1234/4321"


def test_str_and_render():
    s = load(first=1).new_state("1234/4321 4321/1234 c1")
    full = str(s)
    # seats are numbered from 1 in every printed text
    assert "battlefield: 1(player 1)" in full and "player 2: back  1 2 3 4" in full
    r0 = s.render(0)
    assert "player 1: back  4 3 2 1" in r0 and "player 2: back  ? ? ? ?" in r0
    spectator = s.render(None)
    assert "4 3 2 1" not in spectator
    assert "3 2 1" in load(first=1, open=True).new_state("1234/4321 4321/1234").render(1)


def test_position_round_trip_playouts():
    rng = random.Random(11)
    for opts in ({}, {"open": True, "first": 2}, {"cards": 10}, {"clear_four": False}):
        g = load(**opts)
        for _ in range(10):
            s = g.new_state()
            while True:
                t = g.state_from_position(s.position())
                assert t.position() == s.position() and t.key() == s.key()
                for p in (0, 1):
                    assert t.information_state(p) == s.information_state(p)
                if s.is_terminal():
                    break
                moves = s.legal_moves()
                s.play(rng.choice(moves))


@pytest.mark.parametrize("pos", [
    "", "1234/4321", "1234/4321;4321/1234;2222;2222;-;1;0;1;0,0;x",
    "1234/4322;4321/1234;2222;2222;-;1;0;1;0,0",          # wrong cards
    "1234/4321;4321/1234;2222;2220;-;1;0;1;0,0",          # pushes inconsistent with round/slot
    "1234/4321;4321/1234;2222;2222;9@1;1;0;1;0,0",        # card value
    "1234/4321;4321/1234;2222;2222;1@1;1;0;1;0,0",        # a card nobody pushed
    "1234/4321;4321/1234;2222;2222;-;7;0;1;0,0",          # round
    "1234/4321;4321/1234;2222;2222;-;1;0;3;0,0",          # first
    "1234/4321;4321/1234;2222;2222;-;1;0;0;0,0",          # first: seats are 1 and 2
    "1234/4321;4321/1234;2222;1222;4@0;1;1;1;0,0",        # an owner: seats are 1 and 2
    "1234/4321;4321/1234;2222;2222;-;1;0;1;5,0",          # scores before any round
    "1234/4321;4321/1234;1222;1222;1@1,1@2;1;2;?;0,0",    # play before the first-player draw
    "1234/4321;4321/1234;2122;2122;3@1,3@2;2;0;1;0,0",    # pairs left between rounds
    "-;4321/1234;-;2222;-;1;0;?;0,0",                     # player 2 laid out before player 1
    "1234/4321;-;1222;-;-;1;0;?;0,0",                     # a push before play starts
])
def test_corrupt_positions(pos):
    with pytest.raises(InvalidPositionError, match="qwatrobat"):
        load().state_from_position(pos)


# ----------------------------------------------------------------------------- hidden information


def test_information_state_and_determinization():
    g = load(first=1)
    s = g.new_state("1234/4321 4321/1234 c1 c2")
    info = s.information_state(0)
    assert "1234/4321" in info and "4321/1234" not in info
    assert "?3??/????" in info            # player 1 pushed its front 3 from column 2
    rng = random.Random(5)
    layouts = set()
    for _ in range(200):
        d = s.sample_determinization(0, rng)
        assert d.information_state(0) == info
        assert d.layout[0] == s.layout[0]
        lay = d.layout[1]
        assert lay.front[1] == 3 and tuple(sorted(lay.front + lay.back)) == g.hand
        layouts.add(lay)
        d.play(d.legal_moves()[0])        # determinizations are playable
    assert len(layouts) > 50              # 7 hidden cards 1 1 2 2 4 4 3: 630 arrangements
    # open game: nothing to sample once both layouts are down
    o = load(first=1, open=True).new_state("1234/4321 4321/1234")
    assert o.sample_determinization(1, rng).layout == o.layout
    assert "4321/1234" in o.information_state(0)


def test_determinization_during_setup():
    s = load().new_state("1234/4321")
    d = s.sample_determinization(1, random.Random(0))
    assert d.layout[1] is None and d.layout[0] is not None and d.current_player == 1
    assert d.information_state(1) == s.information_state(1)


def test_evaluate_in_range():
    s = load(first=1).new_state("1234/1234 1234/1234 c1 c1 c2 c3")
    v = s.evaluate()
    assert 0 < v[0] <= 1 and v[1] == -v[0]
    t = load(first=1).state_from_position("1234/1234;1234/1234;0000;0000;-;5;0;1;9,6")
    assert t.evaluate() == [1.0, -1.0]


# ----------------------------------------------------------------------------- exact solver

# Hand-made: round 3, last push (player 2), both layouts 1234/1234. Player 1 has
# only the backs 1, 2 left; player 2 the backs 1, 3, 4; the field holds 2@2 3@1 4@1.
#   c1 (1@2): 4 cards, highest 4@1 wins 4 for player 1; cleared; round 4 is
#             1@1 2@1 3@2 4@2: highest 4@2 wins 6 for player 2.      -> +4 / +6
#   c3 (3@2): 3s go, {2@2,4@1}: lowest 2@2 wins 4 for player 2; round 4 adds
#             1@1 2@1 1@2 4@2: everything pairs, draw round.         -> 0 / +4
#   c4 (4@2): 4s go, {2@2,3@1}: player 2 wins 4; round 4 pairs all.  -> 0 / +4
HAND = "1234/1234;1234/1234;1100;1011;2@2,3@1,4@1;3;3;1;{}"


@pytest.mark.parametrize("scores,result,margin", [
    ("2,3", 1, 5),     # c3/c4: 2-7
    ("5,0", -1, -1),   # c1: 9-6, c3/c4: 5-4 -> every move loses, the least by 1
    ("3,2", 1, 3),     # c1: 7-8, c3/c4: 3-6
])
def test_solver_hand_positions(scores, result, margin):
    g = load(open=True, first=1)
    s = g.state_from_position(HAND.format(scores))
    assert s.current_player == 1
    r = crossridor.search(s, algorithm="alphabeta", limits=crossridor.Limits(depth=1))
    assert r.score == result and r.extra["solved"]
    m = crossridor.search(s, algorithm="alphabeta", limits=crossridor.Limits(depth=1), objective="margin")
    assert m.score == margin and str(m.move) in ("c3", "c4")
    # the pv replays to a finished game with that margin
    t = s.clone()
    for mv in m.pv:
        t.play(mv)
    assert t.is_terminal() and t.scores[1] - t.scores[0] == margin


def test_solver_last_round_points_draw():
    # with 5 points for the last round, c1 gives 7-7 (draw) and c3 gives 3-6
    g = load(open=True, first=1, last_round_points=5)
    s = g.state_from_position(HAND.format("3,2"))
    assert solve(s).score == 1
    assert solve(s, "margin").score == 3
    t = s.clone()
    t.play("c1")
    assert solve_value(t) == 0.0


def test_solver_forced_last_round():
    # round 4: 1 2 against 3 4 is a four-card field whatever the order: 4@1 wins 6
    g = load(open=True, first=1)
    s = g.state_from_position("1234/1234;1234/1234;1100;0011;-;4;0;1;3,4")
    r = solve(s)
    assert r.score == -1 and r.extra["value"] == "loss"
    assert solve(s, "margin").score == -7


def _brute(s):
    """Plain minimax over the public State API: value for player 0."""
    if s.is_terminal():
        return s.returns()[0]
    vals = []
    for m in s.legal_moves():
        s.play(m)
        vals.append(_brute(s))
        s.undo()
    return max(vals) if s.current_player == 0 else min(vals)


def test_solver_matches_brute_force():
    g = load(open=True, first=1)
    rng = random.Random(2)
    for _ in range(6):
        s = g.new_state([rng.choice(g.setups()), rng.choice(g.setups())])
        for _ in range(8):                    # from round 3 on: brute force is small
            s.play(rng.choice(s.legal_moves()))
        assert solve_value(s) == _brute(s)


def test_solver_from_start_is_fast_and_never_loses_a_won_position():
    g = load(open=True, first=None)
    rng = random.Random(4)
    won = 0
    for i in range(6):
        s = g.new_state([rng.choice(g.setups()), rng.choice(g.setups()), "first:%d" % (i % 2 + 1)])
        r = solve(s)
        assert r.nodes < 50_000           # "fast" as work, not time: about 6,000-10,000 nodes today
        if r.score != 1:
            continue
        won += 1
        me = s.current_player
        while not s.is_terminal():
            if s.current_player == me:
                s.play(solve(s).move)
            else:
                s.play(rng.choice(s.legal_moves()))
        assert s.returns()[me] == 1.0
    assert won >= 1


def test_solver_refuses_setup_and_secret_game():
    o = load(open=True).new_state("1234/4321")
    with pytest.raises(UnsupportedGameError, match="start of play"):
        crossridor.search(o, algorithm="alphabeta", limits=crossridor.Limits(depth=1))
    s = load(open=True, first=1).new_state("1234/4321 4321/1234")
    with pytest.raises(UnsupportedGameError, match="objective"):
        solve(s, objective="points")
    secret = load(first=1).new_state("1234/4321 4321/1234")
    with pytest.raises(UnsupportedGameError, match="hidden information"):
        crossridor.search(secret, algorithm="alphabeta", limits=crossridor.Limits(depth=1))


def test_greedy_takes_a_winning_last_push():
    # player 1, last push of round 3 (see HAND): greedy wants the 4 points now
    g = load(first=1)
    s = g.state_from_position(HAND.format("2,3"))
    r = crossridor.search(s, algorithm="greedy", limits=crossridor.Limits(depth=1), seed=1)
    assert str(r.move) in ("c3", "c4")
    setup = crossridor.search(g.new_state(), algorithm="greedy", limits=crossridor.Limits(depth=1), seed=1)
    assert isinstance(setup.move, Setup)


def test_greedy_samples_end_at_the_stop_and_the_time_limit(monkeypatch):
    # a page may ask for 100,000 samples a push: the stop token and the time
    # limit still end the search (web caps rely on it)
    from crossridor.games.qwatrobat import players
    s = load(first=1).state_from_position(HAND.format("2,3"))
    token = crossridor.Stop()
    token.set()
    r = crossridor.search(s, algorithm="greedy", limits=crossridor.Limits(depth=1), seed=1,
                          stop=token, samples=100_000)
    assert r.nodes == 0 and r.move in s.legal_moves()
    ticks = iter(range(10 ** 6))      # a clock that moves one second a reading
    monkeypatch.setattr(players._time, "perf_counter", lambda: float(next(ticks)))
    r = crossridor.search(s, algorithm="greedy", limits=crossridor.Limits(time=5), seed=1, samples=100_000)
    assert 0 < r.nodes < 100 and r.move in s.legal_moves()
    full = crossridor.search(s, algorithm="greedy", limits=crossridor.Limits(depth=1), seed=1, samples=10)
    assert full.nodes >= 10 * len(s.legal_moves())

def test_endgame_evaluator():
    # 5 pushes left: exact, whatever the generator
    g = load(first=1)
    s = g.state_from_position(HAND.format("2,3"))
    assert endgame_evaluator(s, rng=random.Random(1)) == [-1.0, 1.0]
    assert endgame_evaluator(s, exact_pushes=16) == [-1.0, 1.0]
    # from the setup: a value in range, the state untouched
    t = g.new_state("1234/4321")
    v = endgame_evaluator(t, rng=random.Random(2))
    assert v[0] in (-1.0, 0.0, 1.0) and v[1] == -v[0] and t.layout[1] is None
    r = crossridor.search(load(first=1).new_state("1234/4321 4321/1234"), algorithm="ismcts",
                      limits=crossridor.Limits(sims=50), seed=3, evaluator=endgame_evaluator)
    assert isinstance(r.move, Push)


def test_setup_table_matches_its_generator():
    # SETUP_VALUES is the 6:16 weighted mean of compute_setup_values(game, 6, 1) and (game, 16, 2),
    # rounded to 4 places; a seeded layout recomputed (22 opponents, 44 exact solves: seconds each)
    from crossridor.games.qwatrobat.setups import SETUP_VALUES, compute_setup_values
    g = load(open=True)
    sample = [Setup.parse(k) for k in random.Random(22).sample(sorted(SETUP_VALUES), 1)]
    few = compute_setup_values(g, 6, 1, sample)
    many = compute_setup_values(g, 16, 2, sample)
    for layout in sample:
        k = str(layout)
        assert round((6 * few[k] + 16 * many[k]) / 22, 4) == SETUP_VALUES[k], k


def test_ismcts_lays_out_from_the_setup_table():
    from crossridor.games.qwatrobat.setups import SETUP_VALUES
    g = load()
    assert len(SETUP_VALUES) == len(g.setups()) and set(SETUP_VALUES) == set(map(str, g.setups()))
    ranked = sorted(SETUP_VALUES, key=lambda k: (-SETUP_VALUES[k], k))

    def lay(game, seed, **opts):
        return crossridor.search(game.new_state(), algorithm="ismcts", limits=crossridor.Limits(sims=20),
                                 seed=seed, **opts)
    r = lay(g, 1, setup_top=1)
    assert str(r.move) == ranked[0] and r.extra["setup"] == "table"
    picks = {str(lay(g, seed).move) for seed in range(24)}
    assert picks <= set(ranked[:4]) and len(picks) > 1          # the 4 best, seeded
    assert lay(g, 5).move == lay(g, 5).move
    # by the tree: a search of the 126 layouts; other rules have no table
    for r in (lay(g, 1, setup="search"), lay(load(cards=10), 1), lay(load(last_round_points=5), 1)):
        assert isinstance(r.move, Setup) and "setup" not in r.extra and r.nodes == 20
    with pytest.raises(CrossridorError, match="setup"):
        lay(g, 1, setup="best")


def test_ismcts_endgame_leaves():
    s = load(first=1).new_state("1234/4321 4321/1234")
    runs = [crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=40), seed=3, endgame=8)
            for _ in range(2)]
    assert isinstance(runs[0].move, Push) and runs[0].move == runs[1].move and runs[0].score == runs[1].score
    # 5 pushes left, won by player 1 to move (see test_endgame_evaluator): every leaf is solved
    t = load(first=1).state_from_position(HAND.format("2,3"))
    assert t.current_player == 1
    r = crossridor.search(t, algorithm="ismcts", limits=crossridor.Limits(sims=30), seed=1)   # default 10
    assert r.score == 1.0
    r = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=30), seed=1, endgame=0)
    assert isinstance(r.move, Push)                                     # random playouts
    with pytest.raises(CrossridorError, match="endgame"):
        crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=5), endgame=-1)


def test_ismcts_tree_depth():
    # round 2, player 1 to answer a 2: pushing the 4 (c1) or the 3 (c4) wins the open game, the 1 or the 2
    # only draws it; with a one-level tree each push is valued by the exact leaves right after it
    s = load().new_state("1124/3324 1123/4423 first:1 c1 c1 c3 c3 c3")
    assert s.current_player == 1
    one = [crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=200), seed=seed)  # default 1
           for seed in range(3)]
    assert all(str(r.move) in ("c1", "c4") for r in one)
    same = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=200, depth=1), seed=0)
    assert (same.move, same.score) == (one[0].move, one[0].score)
    deep = crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=200, depth=20), seed=0)
    assert deep.depth > 1 and one[0].depth == 1
    with pytest.raises(CrossridorError, match="tree"):          # not an option: --depth sets the depth
        crossridor.search(s, algorithm="ismcts", limits=crossridor.Limits(sims=5), tree=0)
