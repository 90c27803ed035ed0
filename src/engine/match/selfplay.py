"""Self-play runs for Quoridor's learned evaluation (`crossridor selfplay`):
a match of one engine against itself on the match runner (its workers,
seeds, ply cap, records file and resume), each game from its own seeded
random opening, every searched move's score kept in the records. The rows
the evaluation trains on are made from those records by
`crossridor.games.quoridor.training.selfplay_arrays`."""

from __future__ import annotations

import dataclasses

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import GameRecord, GameTask
from crossridor.engine.match.runner import Match, MatchConfig
from crossridor.engine.match.specs import EngineSpec


class SelfPlayMatch(Match):
    """A match of an engine against itself where every game gets its own
    random opening (a plain match shares one per round, and the same engine
    in both seats would play the round's games alike) and keeps its scores."""

    def task(self, index: int) -> GameTask:
        task = super().task(index)
        return dataclasses.replace(task, opening=self.opening(index), record_scores=True)

    def check_resumed(self, record: GameRecord, where: str) -> None:
        # the match's checks, and a score per searched move: a plain match's records have none
        super().check_resumed(record, where)
        if not isinstance(record.scores, list) or len(record.scores) != record.plies - record.opening_plies:
            raise CrossridorError(f"{where}: game {record.index} has no search score per move: "
                                  f"not a selfplay record")

    @property
    def engine(self) -> EngineSpec:
        """The engine playing both sides."""
        engine: EngineSpec = self.config.engines[0]
        return engine


def selfplay_match(engine: EngineSpec, games: int, params: dict, concurrency: int | None = None,
                   seed: int | None = None, random_openings: int = 4, max_plies: int | None = None,
                   records: str | None = None, resume: bool = False) -> SelfPlayMatch:
    """The self-play run; `records`: its JSON-lines records file (one
    finished game a line, as `crossridor match --records`), `resume`:
    continue the run that file holds (its seed, its finished games)."""
    if engine.command is not None:
        raise CrossridorError("selfplay needs a built-in engine (its search scores are recorded), "
                              f"not {engine}")
    if params.get("players", 2) != 2:
        raise CrossridorError("selfplay data exists for 2-player Quoridor only")
    return SelfPlayMatch(MatchConfig(game="quoridor", params=params, engines=[engine, engine], games=games,
                                     concurrency=concurrency, random_openings=random_openings,
                                     seed=seed, max_plies=max_plies, records=records, resume=resume))
