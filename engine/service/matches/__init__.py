"""Matches from start to end: decisions, turns and timers, the AI's seat, what players and
spectators are shown, where a match lives, and ending those whose place is gone."""
