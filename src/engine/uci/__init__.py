"""`crossridor uci`: the engine as a UCI-style text engine (`engine`)."""
