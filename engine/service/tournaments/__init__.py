"""Tournaments from registration to podium; the pure pairing and scoring rules are
:mod:`engine.tournaments`."""
