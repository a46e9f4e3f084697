"""Typed refusals of tournament commands; each ``message`` quotes what was asked."""

from __future__ import annotations

from engine.service.errors import ServiceError


class TournamentNotFound(ServiceError):
    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"there is no tournament {tournament_id}")


class BadTournamentSettings(ServiceError):
    """A setting out of range: a name too long, 0 rounds, a cap of one player..."""


class RegistrationClosed(ServiceError):
    """Join or Leave on a tournament that started, finished or was cancelled."""

    def __init__(self, tournament_id: int, status: str) -> None:
        self.tournament_id = tournament_id
        self.status = status
        super().__init__(f"tournament {tournament_id} is {status}: registration is closed")


class AlreadyRegistered(ServiceError):
    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        super().__init__(f"user {user_id} is already registered for tournament {tournament_id}")


class NotRegistered(ServiceError):
    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        super().__init__(f"user {user_id} is not playing in tournament {tournament_id}")


class TournamentFull(ServiceError):
    def __init__(self, tournament_id: int, most: int) -> None:
        self.tournament_id = tournament_id
        self.most = most
        super().__init__(f"tournament {tournament_id} is full ({most} players)")


class OrganiserCannotLeave(ServiceError):
    """The organiser runs the tournament: they cancel it rather than leave it."""

    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        super().__init__(
            f"user {user_id} organises tournament {tournament_id}: cancel it instead of leaving"
        )


class NotOrganiser(ServiceError):
    def __init__(self, tournament_id: int, user_id: int, action: str) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        super().__init__(f"only the organiser of tournament {tournament_id} can {action}")


class MayNotOrganise(ServiceError):
    """Creating a tournament takes Manage Server or the server's tournament role."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        self.guild_id = guild_id
        self.user_id = user_id
        super().__init__(
            f"user {user_id} may not create tournaments in server {guild_id}: it takes"
            " Manage Server or the server's tournament role"
        )


class NotEnoughPlayers(ServiceError):
    def __init__(self, tournament_id: int, players: int) -> None:
        self.tournament_id = tournament_id
        self.players = players
        super().__init__(
            f"tournament {tournament_id} has {players} player(s); it needs at least 2 to start"
        )


class TournamentNotRunning(ServiceError):
    def __init__(self, tournament_id: int, status: str) -> None:
        self.tournament_id = tournament_id
        self.status = status
        super().__init__(f"tournament {tournament_id} is {status}, not running")


class TournamentAlreadyOpen(ServiceError):
    """Create while the server has a tournament registering or running: every tournament
    command acts on the server's one open tournament."""

    def __init__(self, guild_id: int, tournament_id: int, name: str) -> None:
        self.guild_id = guild_id
        self.tournament_id = tournament_id
        self.name = name
        super().__init__(
            f"server {guild_id} already has an open tournament, {name!r} ({tournament_id})"
        )
