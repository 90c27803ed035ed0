"""Crosswise (2 to 4 players): the state and notation over the compiled core
(`game`), its learning codec (`learning`) and its picture (`svg`); `entry`
declares it to the registry (light: no compiled core until the game is
loaded)."""
