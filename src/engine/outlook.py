"""What a search's score means to a person: the expected score of the side
to move (win 1, draw 1/2, loss 0), its chances of a win, a draw and a loss
in permille, and "wins in n plies" / "loses in n plies" where the search
proved the result. The one place that reads raw scores (UCI's `score cp X`,
`win N`, `loss N` too); the doors only print what it says.

A proven result comes from the game's declaration (`Calibration.proven`,
by algorithm: Quoridor's win scores and solved table, Qwatrobat's exact
solver) or, for the engine's own alpha-beta, from its win scores (a win in
n plies scores WIN - n). Any other score goes through a model fitted on
self-play (bench/calibrate_outlook.py, docs/analysis.md), of the shape of
Stockfish's WDL model:

    two sides:   W = sigmoid((s - a) / b), L = sigmoid((-s - a) / b), D = 1 - W - L
                 (a = 0, so D = 0, in a game without draws)
    more sides:  W = sigmoid((s - a) / b), L = 1 - W (D = 0; W is the chance
                 of winning, the fair share is 1 / sides)

with a and b per game, algorithm family and variant (the game's
`Calibration`, found through its registry entry). A score no model covers
is read as a mean return (alpha-beta's in centi-units of the return) and
mapped linearly to the side's expected share of the win: the uncalibrated
baseline the calibration is measured against.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import GameTraits, SearchResult, State

__all__ = ["Calibration", "Model", "Outlook", "Proof", "outlook", "score_text", "sides", "win_scale",
           "with_outlook"]


@dataclass(frozen=True)
class Outlook:
    """A score as a person reads it, for the side to move: `expected` in
    [0, 1] (win 1, draw 1/2, loss 0), `wdl` the chances of a win, a draw
    and a loss in permille (summing to 1000), `result_in` None or +n (wins
    in n plies, proven) / -n (loses in n plies, proven); `proven` also for
    a proven draw."""

    expected: float
    wdl: tuple[int, int, int]
    result_in: int | None = None
    proven: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"expected": round(self.expected, 4), "wdl": list(self.wdl), "result_in": self.result_in,
                "proven": self.proven}

    def text(self) -> str:
        """`expected 0.62 (W 620 D 0 L 380)`, `wins in 7 plies`, `loses in
        1 ply` or `a draw, proven`."""
        if self.result_in is not None:
            n = abs(self.result_in)
            return f"{'wins' if self.result_in > 0 else 'loses'} in {n} pl{'y' if n == 1 else 'ies'}"
        if self.proven:
            return "a win, proven" if self.wdl[0] else "a loss, proven" if self.wdl[2] else "a draw, proven"
        w, d, lost = self.wdl
        return f"expected {self.expected:.2f} (W {w} D {d} L {lost})"


@dataclass(frozen=True)
class Proof:
    """A result the search proved for the side to move: `result` +1 win, 0
    draw, -1 loss; `plies` until it (None where the search does not say)."""

    result: int
    plies: int | None = None


@dataclass(frozen=True)
class Model:
    """Fitted constants of W = sigmoid((s - a) / b) (see the module
    docstring); `b` > 0, in the score's own units."""

    a: float
    b: float

    def __post_init__(self) -> None:
        if not (self.b > 0 and math.isfinite(self.b) and math.isfinite(self.a)):
            raise CrossridorError(f"outlook model: a must be finite and b positive, got {self}")

    def chances(self, score: float, sides: int) -> tuple[float, float, float]:
        """(W, D, L) of `score` for a game of `sides` sides."""
        win = _sigmoid((score - self.a) / self.b)
        if sides > 2:
            return win, 0.0, 1.0 - win
        loss = _sigmoid((-score - self.a) / self.b)
        return win, max(0.0, 1.0 - win - loss), loss


ProofReader = Callable[[State, float, Mapping[str, Any]], "Proof | None"]


@dataclass(frozen=True)
class Calibration:
    """What a game declares about its scores (`games/<game>/outlook.py`,
    loaded through `GameEntry.outlook`).

    `models[(family, variant)]`: fitted constants; `families` maps an
    algorithm to the family whose scores it shares (default: itself);
    `variants(game)`: the variant keys to try, most specific first (the
    board and players where they matter); `proven[algorithm](state, score,
    extra)`: the Proof a score holds, or None (`extra`: the search's
    figures, e.g. a solved table's `source`); `units[algorithm]`: score
    units per unit of return, for reading an uncalibrated score as a mean
    return (default: 100 for alphabeta, else 1)."""

    models: Mapping[tuple[str, str], Model] = field(default_factory=dict)
    families: Mapping[str, str] = field(default_factory=dict)
    variants: Callable[[Any], tuple[str, ...]] = lambda game: ("",)
    proven: Mapping[str, ProofReader] = field(default_factory=dict)
    units: Mapping[str, float] = field(default_factory=dict)

    def model(self, game: Any, algorithm: str) -> Model | None:
        family = self.families.get(algorithm, algorithm)
        for variant in self.variants(game):
            found = self.models.get((family, variant))
            if found is not None:
                return found
        return None


def win_scale(win: float, bound: float) -> ProofReader:
    """The proof reader of an alpha-beta whose win in n plies scores win - n
    (and its loss -(win - n)), every such score beyond `bound`."""
    def read(state: State, score: float, extra: Mapping[str, Any]) -> Proof | None:
        if abs(score) > bound:
            return Proof(1 if score > 0 else -1, round(win - abs(score)))
        return None
    return read


def _engine_alphabeta(state: State, score: float, extra: Mapping[str, Any]) -> Proof | None:
    from crossridor.engine.algorithms.alphabeta import MATE_BAND, WIN
    return win_scale(WIN, MATE_BAND)(state, score, extra)


# the engine's own algorithms, for a game that declares nothing for them
GENERIC = Calibration(proven={"alphabeta": _engine_alphabeta})
CENTI_UNITS = {"alphabeta": 100.0}      # the engine's alpha-beta scores 100 * return


@cache
def _declared(name: str) -> Calibration | None:
    from crossridor.engine.registry import game_entry
    try:
        entry = game_entry(name)
    except CrossridorError:
        return None         # a game nobody registered (a plug-in, a test's toy)
    if entry.outlook is None:
        return None
    found = entry.outlook()
    if not isinstance(found, Calibration):
        raise CrossridorError(f"{entry.name}: its outlook declaration is not a Calibration")
    return found


def calibration(state: State) -> Calibration:
    """The declaration for `state`'s game (GENERIC when it has none)."""
    return _declared(state.game.traits.name) or GENERIC


def sides(traits: GameTraits) -> int:
    """Sides that play for a result: the teams, or the players."""
    return len(traits.teams) if traits.teams else traits.num_players


def proof(state: State, algorithm: str, score: float, extra: Mapping[str, Any] | None = None) -> Proof | None:
    """The result `score` proves for the side to move, or None."""
    declared = calibration(state)
    reader = declared.proven.get(algorithm) or GENERIC.proven.get(algorithm)
    return reader(state, float(score), extra or {}) if reader is not None else None


def outlook(state: State, algorithm: str, score: float, extra: Mapping[str, Any] | None = None) -> Outlook:
    """What `score`, found by `algorithm` at `state` for the side to move,
    means to a person. `extra`: the search's figures (`SearchResult.extra`),
    which some proofs read (a solved table's answer, Qwatrobat's solver)."""
    score = float(score)
    if not math.isfinite(score):
        raise CrossridorError(f"outlook: the score {score!r} is not a finite number")
    found = proof(state, algorithm, score, extra)
    if found is not None:
        return _proven(found)
    traits = state.game.traits
    n = sides(traits)
    declared = calibration(state)
    model = declared.model(state.game, algorithm)
    if model is not None:
        if n == 2:
            # computed for |s| and mirrored: the outlook of -s is exactly that of s seen from the other side
            w, d, loss = model.chances(abs(score), 2)
            chances = (w, d, loss) if score >= 0 else (loss, d, w)
        else:
            chances = model.chances(score, n)
        return _from_chances(*chances)
    return baseline(traits, score, declared.units.get(algorithm, CENTI_UNITS.get(algorithm, 1.0)))


def baseline(traits: GameTraits, score: float, units: float) -> Outlook:
    """The uncalibrated reading: `score / units` as a mean return r, the
    side's expected share of the win ((sides - 1) r / max_return + 1) /
    sides, clipped to [0, 1] (two sides: (r + 1) / 2); all of it a win or
    a loss (D = 0)."""
    n = sides(traits)
    r = score / units / (traits.max_return or 1.0)
    if n == 2:
        share = min(1.0, (abs(r) + 1) / 2)
        share = share if score >= 0 else 1.0 - share
    else:
        share = min(1.0, max(0.0, ((n - 1) * r + 1) / n))
    return _from_chances(share, 0.0, 1.0 - share)


def _proven(found: Proof) -> Outlook:
    if found.result > 0:
        return Outlook(1.0, (1000, 0, 0), found.plies, proven=True)
    if found.result < 0:
        return Outlook(0.0, (0, 0, 1000), None if found.plies is None else -found.plies, proven=True)
    return Outlook(0.5, (0, 1000, 0), None, proven=True)


def _from_chances(w: float, d: float, loss: float) -> Outlook:
    pw, pl = round(1000 * w), round(1000 * loss)
    if pw + pl > 1000:          # both rounded up with (almost) no draws
        if pw >= pl:
            pw = 1000 - pl
        else:
            pl = 1000 - pw
    return Outlook(min(1.0, max(0.0, w + d / 2)), (pw, 1000 - pw - pl, pl))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def with_outlook(state: State, algorithm: str, result: SearchResult) -> SearchResult:
    """`result` with an Outlook on each of its lines (a line made of the
    result itself when it has none). `state`: the position searched."""
    from crossridor.engine.protocol import Line
    lines = result.lines or (Line(result.move, result.score, result.depth, result.pv),)
    done = tuple(dataclasses.replace(line, outlook=_line_outlook(state, algorithm, line, result.extra))
                 for line in lines)
    return dataclasses.replace(result, lines=done)


def _line_outlook(state: State, algorithm: str, line: Any, extra: Mapping[str, Any]) -> Outlook | None:
    """None for a score that is not a number (a plug-in's search may give one)."""
    score = line.score
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
        return None
    return outlook(state, algorithm, score, {**extra, **line.extra})


def score_text(state: State, algorithm: str, score: float, extra: Mapping[str, Any] | None = None) -> str:
    """The UCI score: `win N` / `loss N` for a result proven in N plies,
    else `cp X` (X: the score, an MCTS mean return times 100)."""
    found = proof(state, algorithm, score, extra)
    if found is not None and found.result and found.plies is not None:
        return f"{'win' if found.result > 0 else 'loss'} {found.plies}"
    if algorithm in ("mcts", "ismcts"):
        return f"cp {round(100 * float(score))}"      # mean return in [-1, 1], times 100
    return f"cp {round(float(score))}"
