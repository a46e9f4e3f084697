"""Why a season command was refused."""

from __future__ import annotations

from engine.service.errors import ServiceError


class NoSeasonRunning(ServiceError):
    """A season ended (by hand) in a server where none runs: never started, or ended."""

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id
        super().__init__(f"no season is running in server {guild_id}")


class SeasonAlreadyRunning(ServiceError):
    def __init__(self, guild_id: int, number: int) -> None:
        self.guild_id = guild_id
        self.number = number
        super().__init__(f"season {number} is already running in server {guild_id}")


class SeasonNotFound(ServiceError):
    def __init__(self, guild_id: int, number: int | None) -> None:
        self.guild_id = guild_id
        self.number = number
        what = "no season yet" if number is None else f"no season {number}"
        super().__init__(f"server {guild_id} has {what}")
