"""`python -m crossridor` runs the command line."""

from .engine.cli import main

raise SystemExit(main())
