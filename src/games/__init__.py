"""The games, one package each (`quoridor`, `crosswise`, `qwatrobat`,
`kreuzundquer`), with the shared SVG helpers (`svg`) and learning methods
(`learning`). Importing this package registers the four games: each
package's `entry` module declares its game to the registry (light: no game
module is imported until a game is loaded)."""

from crossridor.games.crosswise import entry as _crosswise_entry  # noqa: F401
from crossridor.games.kreuzundquer import entry as _kreuzundquer_entry  # noqa: F401
from crossridor.games.quoridor import entry as _quoridor_entry  # noqa: F401
from crossridor.games.qwatrobat import entry as _qwatrobat_entry  # noqa: F401
