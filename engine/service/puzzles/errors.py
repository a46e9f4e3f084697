"""Why a puzzle call was refused, each naming the puzzle or member."""

from __future__ import annotations

from engine.service.errors import ServiceError


class NoPuzzleLeft(ServiceError):
    """The member has attempted every puzzle there is for them in this server."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        self.guild_id = guild_id
        self.user_id = user_id
        super().__init__(f"user {user_id} has tried every puzzle of server {guild_id}")


class PuzzleNotFound(ServiceError):
    """A puzzle key no puzzle has (a forged or very old button), or whose match is gone."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"there is no puzzle {key!r}")


class AlreadyAttempted(ServiceError):
    """A second answer to a puzzle (a stale button, a double press): the first counts."""

    def __init__(self, key: str, user_id: int) -> None:
        self.key = key
        self.user_id = user_id
        super().__init__(f"user {user_id} already answered puzzle {key!r}")


class NotAChoice(ServiceError):
    """An answer that is not one of the puzzle's choices (a forged button)."""

    def __init__(self, key: str, choice: str) -> None:
        self.key = key
        self.choice = choice
        super().__init__(f"{choice!r} is not a choice of puzzle {key!r}")


class NotInStreak(ServiceError):
    """A streak answer to a puzzle the member's streak does not pose now (an old streak
    button, or the streak ended): nothing is counted."""

    def __init__(self, key: str, user_id: int) -> None:
        self.key = key
        self.user_id = user_id
        super().__init__(f"user {user_id} has no streak posing puzzle {key!r}")


class LadderClimbed(ServiceError):
    """No harder puzzle is left for the member's streak: it ends unbroken at ``solved``."""

    def __init__(self, user_id: int, solved: int, best: int) -> None:
        self.user_id = user_id
        self.solved = solved
        self.best = best
        super().__init__(f"user {user_id} climbed every puzzle: a streak of {solved}")
