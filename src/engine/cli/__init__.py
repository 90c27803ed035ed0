"""The command line `crossridor` (`main`): it parses and prints; the work is
in the library."""
