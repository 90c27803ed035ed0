"""The games, one package each (`quoridor`, `crosswise`, `qwatrobat`,
`kreuzundquer`), with the shared SVG helpers (`svg`) and learning methods
(`learning`)."""
