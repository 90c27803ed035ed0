"""Matches: engine specs and the game loop (`workers`), the runner and its
pool, openings and records (`runner`), statistics (`stats`), tournaments,
PGN, the Dask cluster, and outside engines (`outside_engine`)."""
