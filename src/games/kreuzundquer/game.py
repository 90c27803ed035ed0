"""Kreuz & Quer (Kosmos 2006) as a turn-based game (rules: docs/rules/kreuzundquer.md).

Pure Python. This module: `load` and the game; the package's
other modules: the material and the deck file format (`deck`), the path
helper ("from here, with this pile, how far do I get, which cards would
extend my path": `paths`), moves and their notation (`moves`), the state
and its rules (`state`), the position string (`position`), the table as
text and SVG (`table`), points to values (`scoring`), the playing policies
(`policy`), the stage playout (`rollout`), the search fast paths (`search`),
the learning codec (`learning`) and the route-card deal as chance nodes
(`chance`).

Parameters: declared once, in `entry.PARAMS` (`crossridor options
kreuzundquer` lists them); `load` takes them checked.

Course of a game (phases)
    build    each player in seat order returns 2 of the dealt route cards to
             the box (8 dealt with 2 players, 7 with 3-4); the kept cards are
             laid in the order of their numbers [decision]. Other players'
             hands and choices stay hidden until everyone has built.
    goal     chance: a goal card is drawn for each player in seat order.
    collect  ticks; in each tick every player, in seat order from player
             (race + stage + tick) mod n, plays one of:
               flip    turn a face-down card: a chance node (`@s`, the card
                       is sand), then the same player plays keep / leave
               take:s  take a face-up sand card onto their pile
               stop    end the collection
             Collection also ends once no face-down card is left.
    movement automatic: the stopper first (else seat order from player
             (race + stage) mod n), each pawn follows its pile as
             `paths.walk` describes (the player's choice is made for them:
             the farthest end). The first to reach the goal wins the race.
    penalty  chance (`draw:17`): a stopper who did not reach the goal adds
             a route card from the pile to the end of their route.
    Then crossed route cards are set aside, the 48 terrain cards go face
    down again, and a new stage begins; after a race routes and goals pass to
    the left (player p's to p+1) and pawns restart.

Move notation: `x3,17` (build: return cards 3 and 17), `goal:w` (chance),
`flip`, `@s` (chance), `keep`, `leave`, `take:s`, `stop`, `draw:17` (chance).
Terrain letters: b e m f w c g s (see `deck`).

Position string (`state.position()`, `game.state_from_position`): fields
separated by ";":
    phase;race;stage;tick;turn;pending;stopper;up;pile;P1;P2;...
    phase    build | goal | collect | flip | decide | penalty | over
    race, stage   1-based; tick, turn 0-based
    pending  terrain just flipped, awaiting keep/leave, or "-"
    stopper  the seat (1..n) that called stop, or "-"
    up       face-up terrain cards as letters ("ssg"), "-" if none
    pile     route cards in the draw pile, "3,9,12" or "-"
    Pn       hand/route/aside/box/goal/pos/tpile/points:
             hand, route (in order), aside (set aside this race), box
             (returned): card numbers "1,4" or "-"; goal a letter or "-";
             pos -1 before the route, -2 on the goal, else the room index
             row*3+lane counted from the first card of the current route;
             tpile the collected terrain cards in order, upper case for a
             card taken face up (public), "-" if empty; points so far.
Face-down cards are what the 48 less the others hold.

Search fast paths (`search.native_search`): "greedy": the heuristic player
`policy.heuristic_move`. "ismcts" runs the generic ISMCTS with the game's
defaults (`search_options`): prior = `policy.policy_move` (progressive
bias) and, with rollout=auto and no evaluator, evaluator =
`rollout.stage_evaluator`; its own options are deny and take_deny (the
prior's). Every other algorithm runs the generic module;
`evaluate()` is a cheap heuristic (distance to the goal counting the pile,
points), and `rollout.stage_evaluator` a playout of the rest of the stage
with the heuristic rules, for `evaluator=` of mcts / ismcts.

Hidden information: face-down cards are unknown to all (a flip is a chance
node); a player knows their own pile and, of the others', the cards taken
face up; others' hands and returned cards, and the route pile, are hidden.
`sample_determinization` deals the unseen cards again, assuming [decision]
that the cards others kept extend their paths (see there).
"""

from __future__ import annotations

import random

from crossridor.engine.errors import UnknownGameError
from crossridor.engine.files import read_regular_file
from crossridor.engine.protocol import GameTraits, play_moves
from crossridor.games.kreuzundquer.deck import Deck, generate_deck, parse_deck_text
from crossridor.games.kreuzundquer.paths import Track
from crossridor.games.kreuzundquer.state import KState
from crossridor.games.learning import LearningGame

__all__ = ["load", "KreuzUndQuer"]


MAX_DECK_BYTES = 2 ** 20      # a deck is a few kB


def load(players=2, races=None, deck_seed=0, deck_file=None, deck_text=None, max_stages=20,
         chance=False) -> LearningGame:
    """The game of `crossridor.load_game('kreuzundquer', ...)`, whose
    parameters the registry has checked (`entry.PARAMS`). What no single
    parameter can check is checked here: deck_file or deck_text, not both;
    the deck holds the route cards dealt to the players. chance: the
    route-card deal as chance nodes (for learning agents)."""
    if chance:
        from crossridor.games.kreuzundquer.chance import ChanceKreuzUndQuer
        return ChanceKreuzUndQuer(load(players=players, races=races, deck_seed=deck_seed, deck_file=deck_file,
                                       deck_text=deck_text, max_stages=max_stages))
    if deck_file is not None and deck_text is not None:
        raise UnknownGameError("kreuzundquer: give deck_file or deck_text, not both")
    if deck_file is not None:
        data = read_regular_file(deck_file, "kreuzundquer: deck_file", MAX_DECK_BYTES, UnknownGameError)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise UnknownGameError(f"kreuzundquer: deck_file {deck_file!r} is not UTF-8 text") from None
        deck = parse_deck_text(text, where=deck_file)
    elif deck_text is not None:
        deck = parse_deck_text(deck_text, where="deck_text")
    else:
        deck = generate_deck(deck_seed)
    deal = 8 if players == 2 else 7
    if len(deck.routes) < deal * players:
        raise UnknownGameError(f"kreuzundquer: the deck has {len(deck.routes)} route cards, "
                               f"{deal * players} are dealt to {players} players")
    params = {"players": players, "races": players if races is None else races, "deck_seed": deck_seed,
              "deck_file": deck_file, "deck_text": deck_text, "max_stages": max_stages}
    return KreuzUndQuer(deck, params)


class KreuzUndQuer(LearningGame):
    name = "kreuzundquer"

    def __init__(self, deck: Deck, params: dict):
        self.deck = deck
        self.params = dict(params)
        self.n = params["players"]
        self.races = params["races"]
        self.max_stages = params["max_stages"]
        self.deal = 8 if self.n == 2 else 7
        self.ncards = len(deck.routes)
        self.traits = GameTraits(name="kreuzundquer", num_players=self.n, chance=True,
                                 hidden_information=True, zero_sum=True, min_return=-1.0, max_return=1.0)
        self._tracks: dict[tuple, Track] = {}

    def __repr__(self):
        shown = {k: v for k, v in self.params.items() if v is not None}
        return f"load_game('kreuzundquer', {', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def track(self, route: tuple, goal: int) -> Track:
        key = (route, goal)
        tr = self._tracks.get(key)
        if tr is None:
            if len(self._tracks) > 20000:
                self._tracks.clear()
            tr = Track(tuple(self.deck.routes[c - 1] for c in route), goal)
            self._tracks[key] = tr
        return tr

    def new_state(self, moves=None, seed=None) -> "KState":
        """A new game; the route cards are dealt from `random.Random(seed)`
        (seed None = 0, so a move list replays)."""
        s = KState(self)
        rng = random.Random(0 if seed is None else seed)
        ids = list(range(1, self.ncards + 1))
        rng.shuffle(ids)
        for p in range(self.n):
            s.hands[p] = tuple(sorted(ids[p * self.deal:(p + 1) * self.deal]))
        s.pile = sorted(ids[self.n * self.deal:])
        return play_moves(s, moves)

    def state_from_position(self, position: str) -> "KState":
        return KState.from_position(self, position)
