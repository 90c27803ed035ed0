"""The compiled Crosswise core against the pure-Python reference rules, and
seeded random playouts through many games with invariants."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import crossridor
from crossridor import Limits
from crossridor.games.crosswise import notation as nt
from crosswise_positions import TOTAL, tiles_of
from crosswise_reference import CELLS, COLUMNS, ROWS, SYMBOLS, RefState, greedy_key, line_points, six_of

TEAM = {0: "Rows", 1: "Columns", 2: "draw"}


def ref_from(st) -> RefState:
    c = st._c
    board = {nt.cell_name(i): str(v + 1) for i, v in enumerate(c.board()) if v >= 0}
    hands = [Counter(st.hand(p).replace("-", "")) for p in range(st.game.players)]
    bag = [nt.TILE_CHARS[t] for t in c.bag()]
    played = Counter({"MRPS"[i]: k for i, k in enumerate(c.played())})
    return RefState(st.game.players, board, hands, bag, played, c.slot, c.passes)


def compare(st, ref):
    assert {str(m) for m in st.legal_moves()} == ref.legal_moves()
    assert st.scores() == ref.scores()
    assert st.current_player == (crossridor.TERMINAL if ref.winner else ref.to_move())
    assert (TEAM[st.winner_team()] if st.is_terminal() else None) == ref.winner
    for p in range(st.game.players):
        assert Counter(st.hand(p).replace("-", "")) == +ref.hands[p]
    assert [nt.TILE_CHARS[t] for t in st._c.bag()] == ref.bag


def action_heavy_choice(rng, moves):
    """Random move, but favour action tiles so every kind gets exercised."""
    actions = [m for m in moves if m.kind != nt.KIND_PLACE]
    if actions and rng.random() < 0.5:
        return rng.choice(actions)
    return rng.choice(moves)


@pytest.mark.parametrize("position", [
    # three players, seats 2 and 3 stuck, seat 1 not: passes by 2, 3, 2, then seat 1 moves
    "....../....../....../....../....../...... 2>3 1234,MMMRRR,PPPS ?40 - 0",
    "....../....../....../....../....../...... 2>1 1234,MMMRRR,PPPS ?40 - 0",
    # two players, both stuck: two passes end it
    "....../....../....../....../....../...... 1 MRPS,MRPS ?42 MRPS 0",
])
def test_core_matches_reference_through_passes(position):
    rng = random.Random(0)
    st = crossridor.load_game("crosswise", players=position.count(",") + 1).state_from_position(position, seed=0)
    ref = ref_from(st)
    for _ in range(400):
        compare(st, ref)
        if st.is_terminal():
            break
        m = rng.choice(st.legal_moves())
        st.play(m)
        ref.play(str(m))
    else:
        raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_matches_reference_on_random_playouts(players):
    rng = random.Random(players)
    g = crossridor.load_game("crosswise", players=players)
    kinds = Counter()
    for seed in range(12):
        st = g.new_state(seed=seed)
        ref = ref_from(st)
        while True:
            compare(st, ref)
            if st.is_terminal():
                break
            m = action_heavy_choice(rng, st.legal_moves())
            kinds[m.kind] += 1
            st.play(m)
            ref.play(str(m))
    assert all(kinds[k] > 0 for k in range(5))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_conserve_tiles_and_undo(players):
    g = crossridor.load_game("crosswise", players=players)
    rng = random.Random(100 + players)
    ends = Counter()
    for seed in range(60):
        st = g.new_state(seed=seed)
        start = st.position()
        positions = [start]
        while not st.is_terminal():
            assert tiles_of(st) == TOTAL
            bag = st._c.bag_count
            for p in range(players):
                n = len(st.hand(p).replace("-", ""))
                assert n == st._c.hand_size(p) or bag == 0
            st.play(action_heavy_choice(rng, st.legal_moves()))
            positions.append(st.position())
        assert tiles_of(st) == TOTAL
        ends["six" if st._c.six >= 0 else "full" if 0 not in st.board() else "pass"] += 1
        r = st.returns()
        assert r in ([0.0] * players, [1.0 if p % 2 == st.winner_team() else -1.0 for p in range(players)])
        # undo walks back through the very same positions
        while positions:
            assert st.position() == positions.pop()
            if positions:
                st.undo()
        with pytest.raises(IndexError):
            st.undo()
    assert ends["full"] > 0


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.one_of(hs.none(), hs.integers(1, 6)), min_size=6, max_size=6))
def test_line_score_matches_reference(line):
    if Counter(x for x in line if x).most_common(1) and Counter(x for x in line if x).most_common(1)[0][1] > 7:
        return
    st = crossridor.load_game("crosswise").new_state(seed=0)
    # put the line on rank 2 of an otherwise empty board, through a position string
    rank = "".join("." if x is None else str(x) for x in line)
    used = Counter(rank.replace(".", "")) + Counter("12341234")
    pos = f"....../....../....../....../{rank}/...... 1 1234,1234 ?{54 - sum(used.values())} - 0"
    if any(used[s] > 7 for s in "123456"):
        return
    st = crossridor.load_game("crosswise").state_from_position(pos)
    expect = line_points([None if x is None else str(x) for x in line])
    if expect == "six":
        assert st.is_terminal() and st.winner_team() == 0
    else:
        assert st.line_scores()[0][1] == expect


def test_core_rejects_garbage():
    from crossridor.engine._core import CrosswiseCore
    c = CrosswiseCore()                       # never set up: nothing may be played
    assert c.legal_codes() == [] and not c.is_legal(20480)
    for call in (lambda: c.play(20480), lambda: c.greedy(), lambda: c.random_move(1),
                 lambda: c.pimc(10, 0.0, 1, 30, 1, 2), lambda: c.determinize(0, 1), lambda: c.hand(0)):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ValueError):
        c.setup(5, [-1] * 36, [], [], [], [0] * 4, 0, 0)
    with pytest.raises(ValueError):
        c.setup(2, [9] * 36, [[0] * 10] * 2, [[0] * 10] * 2, [], [0] * 4, 0, 0)
    with pytest.raises((ValueError, OverflowError)):
        c.setup(2, [-1] * 36, [[300] + [0] * 9] * 2, [[0] * 10] * 2, [], [0] * 4, 0, 0)
    c.deal(2, 1)
    for bad in (-1, 1 << 40, 24575, 5 << 12 | 1, "x", None, 3.0):
        assert not c.is_legal(bad)
        with pytest.raises((ValueError, TypeError)):
            c.play(bad)
    with pytest.raises(ValueError):
        c.determinize(7, 1)
    with pytest.raises(IndexError):
        c.undo()


def threat_position(rng, players):
    """A random position (full: every hand and the bag order) with lines
    holding four or five of one symbol, where sixes, threats of six and
    their blocks decide the greedy move."""
    while True:
        left = Counter({s: 7 for s in SYMBOLS})
        board = {}
        for _ in range(rng.randrange(1, 4)):
            line = rng.choice(ROWS + COLUMNS)
            s = rng.choice(SYMBOLS)
            for c in rng.sample(line, rng.choice((4, 5))):
                if c not in board and left[s]:
                    board[c] = s
                    left[s] -= 1
        for c in rng.sample(CELLS, rng.randrange(0, 20)):
            s = rng.choice(SYMBOLS)
            if c not in board and left[s]:
                board[c] = s
                left[s] -= 1
        if six_of(board):
            continue
        rest = list(left.elements()) + [a for a in "MRPS" for _ in range(3)]
        rng.shuffle(rest)
        size = [6 if (players == 3 and p == 1) else 4 for p in range(players)]
        hands, k = [], 0
        for n in size:
            hands.append("".join(sorted(rest[k:k + n], key="123456MRPS".index)))
            k += n
        turn = rng.randrange(players) + 1          # the seat to move
        if players == 3 and turn == 2:
            turn = f"2>{rng.choice((1, 3))}"
        board_field = "/".join("".join(board.get(f"{f}{r}", ".") for f in "abcdef") for r in range(6, 0, -1))
        return f"{board_field} {turn} {','.join(hands)} {''.join(rest[k:]) or '-'} - 0"


def assert_greedy_as_reference(st) -> tuple:
    """The core's greedy move has the best key of the greedy rule written
    over the reference rules (greedy_key: own six, then fewest threats of
    the other team, then the score difference): it is that move or one the
    rule values equally (the core breaks ties by generation order, which
    the reference has not). Returns the keys of every legal move."""
    ref = ref_from(st)
    move = str(crossridor.search(st, "greedy", Limits(sims=1)).move)
    keys = {m: greedy_key(ref, m) for m in ref.legal_moves()}
    best = max(keys.values())
    assert keys.get(move) == best, (st.position(), move, keys.get(move), best)
    return keys


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_greedy_plays_a_best_move_of_the_reference_greedy(players):
    # seeded positions of whole games (random moves favouring action tiles,
    # mixed with greedy ones) and seeded positions built around lines of four
    # or five of a symbol, so that sixes and threats of six are decided too
    g = crossridor.load_game("crosswise", players=players)
    wins = threatened = 0
    for seed in range(2):
        st, rng = g.new_state(seed=100 * players + seed), random.Random(seed)
        while not st.is_terminal():
            assert_greedy_as_reference(st)
            moves = st.legal_moves()
            st.play(action_heavy_choice(rng, moves) if rng.random() < 0.5 else
                    crossridor.search(st, "greedy", Limits(sims=1)).move)
    rng = random.Random(players)
    for _ in range(50):
        keys = assert_greedy_as_reference(g.state_from_position(threat_position(rng, players)))
        wins += any(k[0] for k in keys.values())
        threatened += len({k[1] for k in keys.values()}) > 1
    assert wins >= 3 and threatened >= 20
