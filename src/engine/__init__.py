"""crossridor.engine: the compiled core (`_core`), the game protocol, the
searches, the match runner and the command line. The public API is
re-exported by the top-level `crossridor` package."""
