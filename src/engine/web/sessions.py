"""A browser tab's game: play (human seats against the engine) or analysis,
and the review of a finished or replayed game.

Everything a tab is sent is built by `state_message` from `state.view(seat)`,
the games' one filter of what a seat may see (`crossridor show --viewer`
uses it too); the picture is drawn from that view alone. The full state,
the seed of a deal and the engine's thoughts about hidden cards stay on the
server: a review of a hidden-information game is sent as the seat saw the
others' plies (`reviewing.review_message`), and the engine's evaluation in
play only where nothing is hidden.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Any, Awaitable, Callable

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import DealtChance, derive_seed, winner_index
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.options import refuse_file_options
from crossridor.engine.protocol import CHANCE, SearchResult
from crossridor.engine.registry import click_paths, load_game, picture, read_params
from crossridor.engine.search_api import search_options
from crossridor.engine.stop import Stop
from crossridor.engine.views import player_index, seat, view_in_seats
from crossridor.engine.web.reviewing import review_message, review_moves, review_spec, run_review, seat_bar
from crossridor.engine.web.searching import Caps, analyse, stoppable_search, submit

MAX_PLIES = 1000           # a game longer than this is stopped (a draw)

Send = Callable[[dict], Awaitable[None]]


MAX_MOVES = 2000           # moves a page may give for one position
MAX_SEED = 2 ** 64 - 1
PAGE_REFUSED_OPTIONS = {"chance": "the chance variants are for learning agents"}


def seed_value(value, name: str = "seed") -> int | None:
    """A seed from a page: None or an integer in [0, 2^64)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise CrossridorError(f"{name} must be an integer in [0, 2^64), got {str(value)[:40]}")
    return value


def make_state(msg: dict):
    """The game and position a page asks for: game, options, and moves (a
    list or the CLI's text) or a position string; seed for a deal. No option
    that reads a file (see SECURITY.md)."""
    options = msg.get("options") or {}
    if not isinstance(options, dict):
        raise CrossridorError("options must be an object of name: value")
    refuse_file_options(options, "the web app")
    for name, why in PAGE_REFUSED_OPTIONS.items():
        if name in options:
            raise CrossridorError(f"option {name} is not offered here: {why}")
    name = str(msg.get("game", ""))
    # a form's values are text, read by each parameter's declared kind
    game = load_game(name, **read_params(name, options))
    seed = seed_value(msg.get("seed"))
    position = msg.get("position")
    moves = msg.get("moves") or []
    if not isinstance(moves, (str, list)):
        raise CrossridorError("moves must be a list of moves or a text")
    if len(moves if isinstance(moves, list) else moves.split()) > MAX_MOVES:
        raise CrossridorError(f"at most {MAX_MOVES} moves here")
    if position:
        if moves:
            raise CrossridorError("give moves or a position, not both")
        return game.state_from_position(str(position))
    state = game.new_state(None, seed=seed) if seed is not None else game.new_state()
    if isinstance(moves, str):
        state = game.new_state(moves, seed=seed) if seed is not None else game.new_state(moves)
    else:
        for i, text in enumerate(moves):
            try:
                state.play(str(text))
            except ValueError as exc:
                raise type(exc)(f"move {i + 1}: {exc}") from None
    return state


def default_engine_for(traits) -> str:
    """As `crossridor best`: alpha-beta, or ISMCTS where information is hidden."""
    return "ismcts:time=1" if traits.hidden_information else "alphabeta:time=1"


def default_engine(state) -> str:
    return default_engine_for(state.game.traits)


def default_review_engine(state) -> str:
    """A short search per position: a review searches every ply once or twice."""
    return default_engine(state).partition(":")[0] + ":time=0.25"


def evaluation(state, info: SearchResult | None, played: bool = False) -> dict | None:
    """The page's evaluation bar for a search of `state` (`seat_bar`), None
    without a score people can read. `played`: the bar is shown after the
    search's move was played, one ply nearer a proven result (0: the game
    is decided)."""
    outlook = None if info is None else info.outlook
    if outlook is None or state.current_player < 0:
        return None
    result_in = outlook.result_in
    if played and result_in is not None:
        result_in -= 1 if result_in > 0 else -1
    return seat_bar(state.game.traits, state.current_player, outlook.expected, result_in)


def with_multipv(state, spec: EngineSpec, value, caps: Caps) -> EngineSpec:
    """`spec` asking for `value` lines (the analysis's number field), where
    its algorithm declares multipv (the others give their one line); an
    engine spec that names multipv itself keeps its own."""
    if value is None:
        return spec
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= caps.multipv:
        raise CrossridorError(f"multipv must be an integer in 1..{caps.multipv}, got {str(value)[:40]}")
    options = dict(spec.options)
    if "multipv" in options or value == 1 or \
            "multipv" not in {p.name for p in search_options(state, spec.algorithm)}:
        return spec
    return replace(spec, options=tuple(sorted({**options, "multipv": value}.items())))


def legal_list(state, game_name: str) -> list[dict]:
    return [{"move": str(m), "paths": click_paths(game_name, str(m))} for m in state.legal_moves()]


def state_message(state, viewer, legal: bool, **extra) -> dict:
    """What a tab is sent about `state`, seen by player index `viewer`
    (None: everything, only for positions the page itself set up). Its
    view counts seats 1..n (`views.view_in_seats`)."""
    view = state.view(viewer)
    msg = {"type": "state", "view": view_in_seats(view), "svg": picture(view), "legal": [], **extra}
    if legal and not state.is_terminal() and state.current_player >= 0:
        msg["legal"] = legal_list(state, view["game"])
    return msg


def seat_name(game_name: str, index: int) -> str:
    """Player index `index` as the page names its seat."""
    return f"player {seat(index)}" if game_name == "quoridor" else f"seat {seat(index)}"


def result_text(state, humans) -> str:
    name = state.game.name
    winner = winner_index(list(state.returns()))
    teams = state.game.traits.teams
    if winner is None:
        best = max(state.returns())
        winners = [s for s, r in enumerate(state.returns()) if r == best]
        if teams and any(set(winners) == set(t) for t in teams):
            return ("you win" if set(winners) & set(humans) else "the engine wins") + \
                f" ({' and '.join(seat_name(name, s) for s in winners)})"
        return "a draw"
    return "you win" if winner in humans else f"the engine ({seat_name(name, winner)}) wins"


class Tab:
    """One WebSocket: at most one game and one search at a time."""

    def __init__(self, send: Send, caps: Caps = Caps()):
        self.send = send
        self.caps = caps
        self.job = None            # the search thread of this tab (one at a time)
        self.mode: str | None = None
        self.state: Any = None           # the tab's game state once a game is set up
        self.humans: list[int] = []      # player indices of the people at the table
        self.viewer: int | None = None
        self.spec: EngineSpec | None = None
        self.seed = 0
        self.plies = 0
        self.human_plies: list[int] = []
        self.task: asyncio.Task | None = None
        self.stop = Stop()
        self.chance = DealtChance(self.seed)
        self.bar: dict | None = None     # the engine's last evaluation in play (perfect information)
        self.reviewing = False

    # --- lifetime
    async def cancel(self) -> None:
        """Stop the running search (its thread ends at its next check) and
        the task waiting for it."""
        self.stop.set()
        self.reviewing = False
        task, self.task = self.task, None
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        job, self.job = self.job, None
        if job is not None and not job.done():     # its thread ends at its next check
            try:
                await asyncio.wrap_future(job)
            except Exception:  # noqa: BLE001 - a stopped search's failure concerns no one
                pass
        self.stop = Stop()

    async def search(self, fn, *args):
        """`fn(*args)` in the search pool: this tab's one search."""
        self.job = submit(fn, *args)
        return await asyncio.wrap_future(self.job)

    async def close(self) -> None:
        await self.cancel()

    def start(self, coro) -> None:
        self.task = asyncio.get_running_loop().create_task(self._guard(coro))

    async def _guard(self, coro) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except ValueError as exc:                # bad engine options and the like
            await self.send({"type": "error", "message": str(exc)})
        except MemoryError:
            await self.send({"type": "error", "message": "out of memory"})
        except Exception as exc:  # noqa: BLE001 - reported to the page, the server goes on
            await self.send({"type": "error", "message": f"internal error: {type(exc).__name__}"})

    # --- messages from the page
    async def handle(self, msg: dict) -> None:
        kind = msg.get("type")
        handler = {"new": self.new_game, "move": self.move, "undo": self.undo, "hint": self.hint,
                   "analyse": self.analyse, "stop": self.stop_search, "review": self.review,
                   "show": self.show}.get(str(kind))
        if handler is None:
            raise CrossridorError(f"unknown message type {kind!r}")
        await handler(msg)

    async def new_game(self, msg: dict) -> None:
        await self.cancel()
        state = make_state({k: msg.get(k) for k in ("game", "options")})
        n = state.game.traits.num_players
        seats = msg.get("seats", [1])
        if not isinstance(seats, list) or not seats or not all(
                isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= n for s in seats):
            raise CrossridorError(f"seats must be a non-empty list of seats 1..{n}")
        humans = sorted({player_index(s, n) for s in seats})
        self.spec = self.caps.check(str(msg.get("engine") or default_engine(state)))
        self.mode = "play"
        self.humans = humans
        seed = seed_value(msg.get("seed"))
        # 64 secret bits: a hand seen must not narrow the deal to a few seeds
        self.seed = secrets.randbits(64) if seed is None else seed
        if state.game.traits.hidden_information:   # the deal comes from the session's seed
            state = state.game.new_state(None, seed=self.seed)
        self.state = state
        self.viewer = self.humans[0]
        self.plies = 0
        self.human_plies = []
        self.chance = DealtChance(self.seed)
        self.bar = None
        self.start(self.advance())

    def _viewer(self):
        """The human seat whose eyes the page shows: the one to move, else the last."""
        p = self.state.current_player
        if p in self.humans:
            self.viewer = p
        return self.viewer

    def _play_message(self, thinking=False, **extra) -> dict:
        st = self.state
        viewer = self._viewer()
        mine = not st.is_terminal() and st.current_player in self.humans and not thinking
        msg = state_message(st, viewer, legal=mine, mode="play", seat=seat(viewer),
                            humans=[seat(p) for p in self.humans],
                            thinking=thinking, engine=str(self.spec), **extra)
        if self.bar is not None:
            msg["eval"] = self.bar
        if st.is_terminal():
            msg["result"] = result_text(st, self.humans)
        elif self.plies >= MAX_PLIES:
            msg["result"] = f"stopped after {MAX_PLIES} moves"
        return msg

    async def advance(self) -> None:
        """Chance and engine moves until a human seat is to move."""
        st = self.state
        while not st.is_terminal() and self.plies < MAX_PLIES:
            p = st.current_player
            if p in self.humans:
                break
            if p == CHANCE:
                move = self.chance.move(st, self.plies)
            else:
                await self.send(self._play_message(thinking=True))
                result = await self.search(stoppable_search, st.clone(), self.spec,
                                           derive_seed(self.seed, self.plies), self.stop)
                if result is None:
                    return
                move = result.move
                # the engine's own evaluation reads its hidden cards: shown only where nothing is hidden
                if not st.game.traits.hidden_information:
                    self.bar = evaluation(st, result, played=True)
            st.play(move)
            self.plies += 1
        await self.send(self._play_message())

    async def move(self, msg: dict) -> None:
        if self.mode != "play" or self.state is None:
            raise CrossridorError("no game: start a new game first")
        st = self.state
        if self.task is not None and not self.task.done():
            await self.send({"type": "refused", "message": "wait: the engine is thinking"})
            return
        if st.is_terminal() or st.current_player not in self.humans:
            await self.send({"type": "refused", "message": "it is not your move"})
            return
        try:
            move = st.parse_move(str(msg.get("move", "")))
        except ValueError as exc:
            await self.send({"type": "refused", "message": str(exc)})
            return
        self.human_plies.append(self.plies)
        st.play(move)
        self.plies += 1
        self.start(self.advance())

    async def undo(self, msg: dict) -> None:
        if self.mode != "play" or not self.human_plies:
            await self.send({"type": "refused", "message": "nothing to undo"})
            return
        await self.cancel()
        target = self.human_plies.pop()
        while self.plies > target:
            self.state.undo()
            self.plies -= 1
        self.chance.undo_to(target)
        self.bar = None
        await self.send(self._play_message(message="took back your last move"))

    async def hint(self, msg: dict) -> None:
        st = self.state
        if self.mode != "play" or st is None or st.is_terminal() or st.current_player not in self.humans:
            await self.send({"type": "refused", "message": "no move to hint"})
            return
        if self.task is not None and not self.task.done():
            await self.send({"type": "refused", "message": "the engine is busy"})
            return

        async def run():
            # the search sees the whole state but plays from the seat's knowledge
            # (hidden-information searches sample what the seat cannot see)
            result = await self.search(stoppable_search, st.clone(), self.spec,
                                       derive_seed(self.seed, "hint", self.plies), self.stop)
            if result is not None:
                name = st.game.name
                await self.send({"type": "hint", "move": str(result.move),
                                 "paths": click_paths(name, str(result.move))})
        self.start(run())

    async def analyse(self, msg: dict) -> None:
        await self.cancel()
        state = make_state(msg)
        spec = self.caps.check(str(msg.get("engine") or default_engine(state).partition(":")[0]))
        spec = with_multipv(state, spec, msg.get("multipv"), self.caps)
        search_seed = seed_value(msg.get("search_seed"), "search_seed")
        self.mode, self.state, self.spec = "analyse", state, spec
        await self.send(state_message(state, None, legal=True, mode="analyse",
                                      history=[str(m) for m in state.view(None)["history"]]))
        if state.is_terminal() or state.current_player < 0 or not msg.get("run", True):
            return
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        stop = self.stop

        def on_info(info: SearchResult) -> None:       # called in the search thread
            loop.call_soon_threadsafe(queue.put_nowait, info)

        async def run():
            job = asyncio.ensure_future(self.search(analyse, state.clone(), spec, search_seed, stop, on_info,
                                                    self.caps))
            try:
                while not (job.done() and queue.empty()):
                    try:
                        info = await asyncio.wait_for(queue.get(), 0.1)
                    except asyncio.TimeoutError:
                        continue
                    await self.send(self._info(state, info, "info"))
                best = job.result()
                if best is not None:
                    await self.send(self._info(state, best, "bestmove"))
                else:
                    await self.send({"type": "bestmove", "move": None})
            finally:
                stop.set()
        self.start(run())

    @staticmethod
    def _info(state, info: SearchResult, kind: str) -> dict:
        pv = [str(m) for m in info.pv]
        msg: dict[str, Any] = {"type": kind, "move": None if info.move is None else str(info.move), "depth": info.depth,
               "score": info.score, "nodes": info.nodes, "nps": round(info.nps), "seconds": round(info.seconds, 3),
               "pv": pv}
        if info.outlook is not None:
            msg.update(info.outlook.as_dict())      # expected, wdl, result_in, proven
        # the lines best first, each ranked (multipv), and the bar's reading of the best
        msg["lines"] = [{"rank": k, **line.as_dict()} for k, line in enumerate(info.lines, 1)]
        msg["eval"] = evaluation(state, info)
        arrows: list = []
        if hasattr(state, "pv_arrows"):
            # the other lines' first moves fainter, under the best line's first plies
            for line in info.lines[1:]:
                arrows += [{"arrow": a, "faint": True} for a in state.pv_arrows([str(line.move)])]
            arrows += state.pv_arrows(pv[:4])
        msg["svg"] = picture(state.view(None), arrows=arrows)
        return msg

    async def stop_search(self, msg: dict) -> None:
        """Stop an analysis (it still reports its best move) or a review (it
        still reports the plies done). A game's engine is not stopped: the
        page sends stop whenever it changes mode."""
        if self.mode == "analyse" or self.reviewing:
            self.stop.set()

    # --- reviews
    async def review(self, msg: dict) -> None:
        """Review a game: {"game", "options", "moves", "seed"}, moves the page
        gives (a replayed record: it sees everything), or without "game" the
        tab's own game once it is over (seen from its human seats). Progress
        messages, then one review message (`reviewing.review_message`)."""
        busy = self.task is not None and not self.task.done()
        if busy and self.mode == "play" and not self.reviewing:
            await self.send({"type": "refused", "message": "wait: the engine is thinking"})
            return
        search_seed = seed_value(msg.get("search_seed"), "search_seed")
        if msg.get("game") is not None:
            moves = review_moves(msg.get("moves"), self.caps)
            deal_seed = seed_value(msg.get("seed"))
            state = make_state({"game": msg.get("game"), "options": msg.get("options"), "moves": moves,
                                "seed": deal_seed})
            shown = history = None
        else:
            if self.mode != "play" or self.state is None:
                raise CrossridorError("review: no game to review: play one, or give game and moves")
            state = self.state
            if not state.is_terminal() and self.plies < MAX_PLIES:
                await self.send({"type": "refused", "message": "the game is not over: review it when it ends"})
                return
            moves = review_moves([str(m) for m in state.view(None)["history"]], self.caps)
            hidden = state.game.traits.hidden_information
            deal_seed = self.seed if hidden else None
            shown = set(self.humans) if hidden else None
            history = [str(m) for m in state.view(self.viewer)["history"]] if hidden else None
        spec = review_spec(str(msg.get("engine") or default_review_engine(state)), self.caps, state)
        if search_seed is None:
            search_seed = secrets.randbits(63)
        await self.cancel()
        stop, total, game = self.stop, len(moves), state.game
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def on_ply(_ply) -> None:       # in the search thread: only that a ply is done leaves it
            loop.call_soon_threadsafe(queue.put_nowait, 1)

        async def run():
            try:
                job = asyncio.ensure_future(self.search(run_review, game, moves, spec, search_seed, deal_seed,
                                                        stop, self.caps, on_ply))
                # a review cancelled with its tab still ends in its thread: its outcome concerns no one
                job.add_done_callback(lambda f: f.cancelled() or f.exception())
                done = 0
                while not (job.done() and queue.empty()):
                    try:
                        done += await asyncio.wait_for(queue.get(), 0.1)
                    except asyncio.TimeoutError:
                        continue
                    await self.send({"type": "review_progress", "done": done, "total": total,
                                     "text": f"ply {done} of {total}"})
                rev, why = job.result()
            finally:
                self.reviewing = False
                stop.set()
            await self.send(review_message(rev, shown, history, why))
        await self.send({"type": "review_progress", "done": 0, "total": total, "text": f"ply 0 of {total}"})
        self.reviewing = True           # from now on a stop message stops it
        self.start(run())

    async def show(self, msg: dict) -> None:
        """The position after ply `ply` of the tab's game once it is over
        (a review's graph point), as the seat saw it then."""
        st = self.state
        if self.mode != "play" or st is None or not (st.is_terminal() or self.plies >= MAX_PLIES):
            await self.send({"type": "refused", "message": "show: only the plies of a finished game"})
            return
        moves = [str(m) for m in st.view(None)["history"]]
        ply = msg.get("ply")
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(moves):
            raise CrossridorError(f"show: ply must be an integer in 0..{len(moves)}")
        game = st.game
        then = game.new_state(None, seed=self.seed) if game.traits.hidden_information else game.new_state()
        for move in moves[:ply]:
            then.play(move)
        await self.send(state_message(then, self.viewer, legal=False, mode="play", ply=ply,
                                      **{"type": "position"}))
