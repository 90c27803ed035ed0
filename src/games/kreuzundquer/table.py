"""Kreuz & Quer: what a player may see of a state (`view`, the one filter of
hidden cards) and the table drawn from it, as text (`render`) or SVG."""

from __future__ import annotations

from crossridor.engine.errors import UnsupportedGameError
from crossridor.engine.protocol import CHANCE, SPECTATOR, TERMINAL
from crossridor.games.kreuzundquer.deck import LANES, NT, ROWS, TERRAIN_NAMES, TERRAINS
from crossridor.games.kreuzundquer.fields import KFields
from crossridor.games.kreuzundquer.paths import GOAL, START


class TableView(KFields):
    """`view()`, `render()` and `to_svg()` of `state.KState`."""

    def view(self, viewer=None) -> dict:
        """What `viewer` may see, as plain data: a seat, SPECTATOR (the public
        part) or None (everything). The one filter of hidden cards: `render`,
        `to_svg` and the web app use it. Hidden: other players' hands, routes
        while building and returned cards, their pile cards not taken face
        up, a flipped card before its player decides, the route pile."""
        g = self.game
        if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                                   or not (viewer == SPECTATOR or 0 <= viewer < g.n)):
            raise UnsupportedGameError(f"kreuzundquer: no player index {viewer!r} in a {g.n}-player game "
                                       f"(0..{g.n - 1}, seat - 1)")
        def card(c):
            return {"card": c, "rooms": "".join(TERRAINS[t] for t in g.deck.routes[c - 1])}
        seats = []
        for p in range(g.n):
            sees = viewer is None or viewer == p
            entry = {"points": self.pts[p], "aside": len(self.aside[p]),
                     "goal": TERRAINS[self.goal[p]] if self.goal[p] >= 0 else None,
                     "pos": self.pos[p], "box": list(self.box[p]) if sees else len(self.box[p]),
                     "hand": None, "route": None,
                     "pile": self.pile_text(p, sees)}
            if self.hands[p] is not None:
                entry["hand"] = [card(c) for c in self.hands[p]] if sees else len(self.hands[p])
            elif not (self.phase == "build" and not sees):
                entry["route"] = [card(c) for c in self.route[p]]
            seats.append(entry)
        pending = None
        if self.phase == "decide":
            pending = TERRAINS[self.pending] if viewer is None or viewer == self.collector() else "?"
        history = []
        moves = self._hist
        for i, (mv, snap) in enumerate(moves):
            text = str(mv)
            if viewer is not None:
                # the player who moved (or, for a flip, who decides next)
                race, stage, tick, turn = snap[1:5]
                mover = (race + stage + tick + turn) % g.n
                if mv.kind == "build":
                    mover = next(q for q in range(g.n) if snap[5][q] is not None)
                    if mover != viewer:
                        text = "x?,?"
                elif mv.kind == "reveal" and mover != viewer and not (
                        i + 1 < len(moves) and moves[i + 1][0].kind == "leave"):
                    text = "@?"
            history.append(text)
        p = self.current_player
        return {"game": "kreuzundquer", "players": g.n, "viewer": viewer, "phase": self.phase,
                "race": self.race, "races": g.races, "stage": self.stage, "seats": seats,
                "up": "".join(TERRAINS[t] * self.up[t] for t in range(NT)),
                "down": sum(self.down), "pending": pending, "route_pile": len(self.pile),
                "log": list(self.log), "to_move": p if p >= 0 else None,
                "chance": p == CHANCE, "over": p == TERMINAL, "history": history}

    @staticmethod
    def _route_text(seat: dict) -> list:
        lines = []
        for i, card in enumerate(seat["route"]):
            rows = []
            for r in range(ROWS):
                cells = ""
                for lane in range(LANES):
                    ch = card["rooms"][r * LANES + lane]
                    if seat["pos"] == (i * ROWS + r) * LANES + lane:
                        ch = ch.upper()
                    cells += ch
                rows.append(cells)
            lines.append(f"    #{card['card']:<3} " + " ".join(rows))
        return lines

    def render(self, viewer=None, full: bool = False) -> str:
        """A readable table. Cards `viewer` may not see are '?'; viewer=None
        is a spectator, full=True shows everything (`view()` as text). The
        pawn is the upper-case room; route cards are listed first card first,
        rows from the start."""
        v = self.view(None if full else (SPECTATOR if viewer is None else viewer))
        out = [f"Kreuz & Quer, race {min(v['race'] + 1, v['races'])}/{v['races']}, stage {v['stage'] + 1}, "
               f"phase {v['phase']}"]
        for p, seat in enumerate(v["seats"]):
            goal = TERRAIN_NAMES[TERRAINS.index(seat["goal"])] if seat["goal"] else "not drawn"
            where = {START: "before the route", GOAL: "on the goal"}.get(seat["pos"], "")
            out.append(f"player {p + 1}: {seat['points']} points, {seat['aside']} cards set aside, "
                       f"goal {goal}" + (f", pawn {where}" if where else ""))
            if seat["hand"] is not None:
                hand = seat["hand"]
                out.append("  hand: " + (",".join(str(c["card"]) for c in hand) if isinstance(hand, list)
                                         else "? " * hand))
            elif seat["route"] is None:
                out.append("  route: (hidden until everyone has built)")
            else:
                out.append("  route:")
                out.extend(self._route_text(seat))
            if seat["pile"]:
                out.append(f"  collected (first first, upper case = taken face up): {seat['pile']}")
        if v["phase"] in ("collect", "flip", "decide"):
            up = " ".join(f"{t}x{v['up'].count(t)}" for t in TERRAINS if t in v["up"]) or "none"
            out.append(f"face up: {up}; face down: {v['down']}")
            if v["phase"] == "decide":
                out.append(f"flipped: {v['pending']}")
        out.append(f"route cards in the pile: {v['route_pile']}")
        if v["log"]:
            out.append("last movement: " + "; ".join(v["log"]))
        if v["over"]:
            out.append("game over: points " + ", ".join(str(s["points"]) for s in v["seats"]))
        else:
            out.append("to move: " + ("chance" if v["chance"] else f"player {v['to_move'] + 1}"))
        return "\n".join(out)

    def to_svg(self, viewer=None, last_move: bool = True, arrows=()) -> str:
        """The table as `viewer` sees it, as SVG text (see kreuzundquer/svg.py)."""
        from crossridor.games.kreuzundquer.svg import kreuzundquer_svg
        return kreuzundquer_svg(self.view(viewer), last_move=last_move)

    def _repr_svg_(self) -> str:
        return self.to_svg()
