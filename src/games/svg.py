"""Small helpers for the SVG pictures (games/<game>/svg.py; the registry
finds each game's picture): pure functions that build SVG text, with no
fonts, images or style sheets loaded from outside (text uses the viewer's
generic sans-serif face). Modelled on python-chess `chess/svg.py`. Imports
no game."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

# one colour per seat, chosen to be told apart with the common colour blindnesses
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
INK = "#222"
PAPER = "#fbf8f0"
FONT = "font-family:sans-serif"


def attrs(**kw) -> str:
    """Keyword arguments as XML attributes: `class_` -> class, `data_move` -> data-move."""
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):
            v = f"{v:.2f}".rstrip("0").rstrip(".")
        out.append(f" {name}={quoteattr(str(v))}")
    return "".join(out)


def el(tag: str, body: str | None = None, **kw) -> str:
    if body is None:
        return f"<{tag}{attrs(**kw)}/>"
    return f"<{tag}{attrs(**kw)}>{body}</{tag}>"


def text(x, y, s, size=12, anchor="middle", fill=INK, weight=None, **kw) -> str:
    style = f"{FONT};font-size:{size}px" + (f";font-weight:{weight}" if weight else "")
    return el("text", escape(str(s)), x=x, y=y, text_anchor=anchor, dominant_baseline="central",
              fill=fill, style=style, **kw)


def document(width, height, body: list[str], title: str = "") -> str:
    """A standalone SVG document (with an arrow-head marker for `arrow`)."""
    defs = ('<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" '
            'markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            'fill="#15781b"/></marker></defs>')
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">')
    t = f"<title>{escape(title)}</title>" if title else ""
    return head + t + defs + el("rect", x=0, y=0, width=width, height=height, fill=PAPER) + "".join(body) + "</svg>"


def arrow(x1, y1, x2, y2, colour="#15781b", width=6, opacity=0.75, class_="arrow") -> str:
    return el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=width,
              stroke_linecap="round", opacity=opacity, marker_end="url(#arrowhead)", class_=class_)


def card_back(x, y, w, h, **kw) -> str:
    """A face-down card or tile: a hatched back, the same for every card."""
    return (el("rect", x=x, y=y, width=w, height=h, rx=4, fill="#5b6b8c", stroke=INK, stroke_width=1, **kw)
            + el("rect", x=x + 3, y=y + 3, width=w - 6, height=h - 6, rx=3, fill="none",
                 stroke="#c9d2e6", stroke_width=1, stroke_dasharray="3 2"))
