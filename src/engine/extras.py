"""How to install an optional extra, in the words every message uses: the
command differs for an installed package and for a source checkout."""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """`the web extra (pip install "crossridor[web]"; in a source checkout:
    pip install ".[web]")` for extra="web"."""
    return f'the {extra} extra (pip install "crossridor[{extra}]"; in a source checkout: pip install ".[{extra}]")'
