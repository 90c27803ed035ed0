"""Kreuz & Quer: the position string of a state (`KState.position`) and its
parser (`KState.from_position`, `game.state_from_position`), with the checks
that a parsed position is one the rules can reach. The format is in `game`'s
doc."""

from __future__ import annotations

from crossridor.engine.errors import InvalidPositionError
from crossridor.engine.views import seat
from crossridor.games.kreuzundquer.deck import NT, ROOMS, TERRAIN_COUNTS, TERRAIN_NAMES, TERRAINS
from crossridor.games.kreuzundquer.fields import KFields
from crossridor.games.kreuzundquer.paths import START

PHASES = ("build", "goal", "collect", "flip", "decide", "penalty", "over")


class PositionText(KFields):
    """`position()` and `from_position()` of `state.KState`."""

    def position(self) -> str:
        def ids(xs):
            return ",".join(map(str, xs)) if xs else "-"
        up = "".join(TERRAINS[t] * self.up[t] for t in range(NT)) or "-"
        fields = [self.phase, str(self.race + 1), str(self.stage + 1), str(self.tick), str(self.turn),
                  TERRAINS[self.pending] if self.pending >= 0 else "-",
                  str(seat(self.stopper)) if self.stopper >= 0 else "-", up, ids(self.pile)]
        for p in range(self.game.n):
            hand = ids(self.hands[p]) if self.hands[p] is not None else "-"
            tp = self.pile_text(p) or "-"
            goal = TERRAINS[self.goal[p]] if self.goal[p] >= 0 else "-"
            fields.append(f"{hand}/{ids(self.route[p])}/{ids(self.aside[p])}/{ids(self.box[p])}/{goal}/"
                          f"{self.pos[p]}/{tp}/{self.pts[p]}")
        return ";".join(fields)

    @classmethod
    def from_position(cls, game, position: str):
        def bad(why):
            raise InvalidPositionError(f"kreuzundquer: bad position {position!r}: {why}")
        if not isinstance(position, str):
            bad("not a string")
        n = game.n
        f = position.strip().split(";")
        if len(f) != 9 + n:
            bad(f"expected {9 + n} fields separated by ';' for {n} players, got {len(f)}")

        def ids(text, what):
            if text == "-":
                return []
            try:
                out = [int(x) for x in text.split(",")]
            except ValueError:
                bad(f"{what} {text!r}: expected card numbers like 3,17 or '-'")
            for c in out:
                if not 1 <= c <= game.ncards:
                    bad(f"{what}: no route card {c}")
            return out

        def terr(ch, what):
            if ch.lower() not in TERRAINS or len(ch) != 1:
                bad(f"{what}: unknown terrain {ch!r}")
            return TERRAINS.index(ch.lower())

        def num(text, what, lo, hi):
            try:
                v = int(text)
            except ValueError:
                bad(f"{what} {text!r} is not a number")
            if not lo <= v <= hi:
                bad(f"{what} {v} out of range {lo}..{hi}")
            return v
        s = cls(game)
        if f[0] not in PHASES:
            bad(f"phase {f[0]!r} (known: {', '.join(PHASES)})")
        s.phase = f[0]
        s.race = num(f[1], "race", 1, game.races + (1 if s.phase == "over" else 0)) - 1
        s.stage = num(f[2], "stage", 1, game.max_stages) - 1
        s.tick = num(f[3], "tick", 0, 10 ** 4)
        s.turn = num(f[4], "turn", 0, n - 1)
        s.pending = -1 if f[5] == "-" else terr(f[5], "pending")
        s.stopper = -1 if f[6] == "-" else num(f[6], "stopper (a seat)", 1, n) - 1
        s.up = [0] * NT
        if f[7] != "-":
            for ch in f[7]:
                s.up[terr(ch, "face-up cards")] += 1
        s.pile = sorted(ids(f[8], "pile"))
        for p in range(n):
            sub = f[9 + p].split("/")
            if len(sub) != 8:
                bad(f"player {p + 1}: expected hand/route/aside/box/goal/pos/tpile/points, got {f[9 + p]!r}")
            s.hands[p] = tuple(sorted(ids(sub[0], f"player {p + 1} hand"))) if sub[0] != "-" else None
            s.route[p] = ids(sub[1], f"player {p + 1} route")
            s.aside[p] = ids(sub[2], f"player {p + 1} aside")
            s.box[p] = sorted(ids(sub[3], f"player {p + 1} box"))
            s.goal[p] = -1 if sub[4] == "-" else terr(sub[4], f"player {p + 1} goal")
            s.pos[p] = num(sub[5], f"player {p + 1} pos", -2, ROOMS * max(1, len(s.route[p])) - 1)
            if sub[6] != "-":
                for ch in sub[6]:
                    s.tp[p].append(terr(ch, f"player {p + 1} pile"))
                    s.tk[p].append(ch.isupper())
            s.pts[p] = num(sub[7], f"player {p + 1} points", 0, 10 ** 4)
        # route cards: each exactly once
        seen = list(s.pile)
        for p in range(n):
            seen += list(s.hands[p] or ()) + s.route[p] + s.aside[p] + s.box[p]
        if sorted(seen) != list(range(1, game.ncards + 1)):
            dup = sorted(set(c for c in seen if seen.count(c) > 1))
            miss = sorted(set(range(1, game.ncards + 1)) - set(seen))
            bad(f"route cards must each appear once (repeated: {dup}, missing: {miss})")
        # terrain cards
        down = list(TERRAIN_COUNTS)
        for t in range(NT):
            down[t] -= s.up[t] + sum(pl.count(t) for pl in s.tp) + (s.pending == t)
            if down[t] < 0:
                bad(f"more than {TERRAIN_COUNTS[t]} {TERRAIN_NAMES[t]} cards")
        s.down = down
        # phase consistency
        building = s.phase == "build"
        if building != any(h is not None for h in s.hands):
            bad("hands are held exactly during the build phase")
        for p in range(n):
            if s.hands[p] is not None and (s.route[p] or s.box[p]):
                bad(f"player {p + 1} holds a hand and a route")
            if s.hands[p] is not None and len(s.hands[p]) != game.deal:
                bad(f"player {p + 1} must hold {game.deal} cards while building")
            if s.hands[p] is None and building and len(s.box[p]) != 2:
                bad(f"player {p + 1} has built but returned {len(s.box[p])} cards")
            if s.phase in ("build", "goal") and (s.tp[p] or s.pos[p] != START):
                bad("no play before the goals are drawn")
            if s.phase not in ("build", "goal") and s.goal[p] < 0:
                bad(f"player {p + 1} has no goal")
            if s.phase not in ("build", "over") and not s.route[p]:
                bad(f"player {p + 1} has an empty route")
        goals = [g for g in s.goal if g >= 0]
        if len(set(goals)) != len(goals) or any(g not in game.deck.goals for g in goals):
            bad("goals must be distinct goal cards of the deck")
        if s.phase == "goal" and -1 not in s.goal:
            bad("every goal is drawn already")
        if s.phase != "goal" and s.phase != "build" and -1 in s.goal:
            bad("a goal is missing")
        if (s.pending >= 0) != (s.phase == "decide"):
            bad("a pending card is there exactly while its player decides")
        if (s.stopper >= 0) != (s.phase == "penalty"):
            bad("a stopper is kept only while the penalty is drawn")
        if s.phase == "penalty" and not s.pile:
            bad("no route card left to draw")
        if s.phase in ("collect", "flip", "decide") and not any(s.down) and s.phase != "decide":
            bad("collection is over once no face-down card is left")
        if s.phase not in ("collect", "flip", "decide") and (any(s.up) or any(s.tp)):
            bad("terrain cards are on the table only during collection")
        return s
