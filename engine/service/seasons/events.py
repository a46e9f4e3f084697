"""What the seasons feature tells: a season ended (:class:`~engine.seasons.SeasonEnded`,
a value of the pure seasons package: its podium, where to announce it, the season after)."""

from engine.seasons import SeasonEnded

__all__ = ["SeasonEnded"]
