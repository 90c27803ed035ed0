"""`crossridor serve`: a local web app to play, analyse and replay games
(needs the optional `web` extra).

- `app.py`       the Starlette application: pages, JSON API, one WebSocket per tab
- `sessions.py`  a tab's game (play or analyse): seats, engine, undo, hint, and
                 the messages it sends, built only from `state.view(seat)`
- `searching.py` searches in worker threads, stopped when the tab goes away
- `reviewing.py` game reviews in a worker thread within the caps, and a review
                 as the page may see it (a seat's own view of a hidden game)
- `static/`      the page (HTML, CSS, JavaScript; no outside libraries)
"""
