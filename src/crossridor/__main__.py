"""`python -m crossridor` runs the command line."""

from crossridor.engine.cli.main import main

raise SystemExit(main())
