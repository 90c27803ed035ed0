"""Matches: engine specs (`specs`) and the game loop (`game_loop`), the
runner and its pool, openings and records (`runner`), statistics (`stats`),
tournaments, PGN, outside engines (`outside_engine`), and the self-play runs
behind Quoridor's learned evaluation (`selfplay`). The Dask cluster a match
may run on is `crossridor.engine.cluster`."""
