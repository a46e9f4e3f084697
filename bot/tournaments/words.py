"""What the tournament feature says: the registration message, pairings, results and
standings as text, and the refusals of its commands and buttons (both languages)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.words.i18n import text
from bot.words.paces import pace_text
from bot.words.refusals import refusal_text
from engine.clocks import BadTimeControl, TimeControl
from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.service.challenges.errors import NotReliableEnough
from engine.service.tournaments import errors
from engine.tournaments import Standing, shown_points

MOST_LISTED = 60
"""Players named on the registration message; more are counted (an embed holds 4096
characters, and a long list reads nowhere)."""

_REFUSALS: dict[type[Exception], str] = {
    errors.TournamentNotFound: "tournaments.refusal.not_found",
    errors.RegistrationClosed: "tournaments.refusal.closed",
    errors.AlreadyRegistered: "tournaments.refusal.already_in",
    errors.NotRegistered: "tournaments.refusal.not_in",
    errors.TournamentFull: "tournaments.refusal.full",
    errors.OrganiserCannotLeave: "tournaments.refusal.organiser_leaving",
    errors.NotOrganiser: "tournaments.refusal.not_organiser",
    errors.NotEnoughPlayers: "tournaments.refusal.too_few",
    errors.MayNotOrganise: "tournaments.refusal.manage_server",
    errors.TournamentNotRunning: "tournaments.refusal.not_running",
    errors.TournamentAlreadyOpen: "tournaments.refusal.already_open",
}


def tournament_refusal(lang: str, error: Exception) -> str:
    """A refusal in the user's words; the setting errors quote what was typed."""
    if isinstance(error, errors.BadTournamentSettings):
        return text(lang, "tournaments.refusal.bad_setting", detail=error.message)
    if isinstance(error, NotReliableEnough):
        return text(
            lang,
            "time.refusal.not_reliable_tournament",
            minimum=error.minimum,
            percent=error.percent or 0,
        )
    for kind, key in _REFUSALS.items():
        if isinstance(error, kind):
            values = {
                "most": getattr(error, "most", 0),
                "players": getattr(error, "players", 0),
                "name": getattr(error, "name", ""),
            }
            return text(lang, key, **values)
    return refusal_text(lang, error)


def format_name(lang: str, tournament: Tournament) -> str:
    return text(lang, f"tournaments.format.{tournament.format.value}")


def registration_embed(
    lang: str, tournament: Tournament, entries: Sequence[TournamentEntry], names: dict[int, str]
) -> discord.Embed:
    """The public registration message: what the tournament is, who is in, how to join."""
    lines = [
        text(lang, "tournaments.registration.format", format=format_name(lang, tournament)),
        text(lang, "tournaments.registration.organiser", organiser=f"<@{tournament.organiser_id}>"),
    ]
    if tournament.rounds is not None:
        lines.append(text(lang, "tournaments.registration.rounds", rounds=tournament.rounds))
    if tournament.max_players is not None:
        lines.append(text(lang, "tournaments.registration.cap", most=tournament.max_players))
    lines.extend(_time_lines(lang, tournament))
    if tournament.starts_at is not None and tournament.status is TournamentStatus.REGISTERING:
        lines.append(
            text(lang, "tournaments.registration.starts", when=f"<t:{int(tournament.starts_at)}:R>")
        )
    listed = [names.get(e.user_id, f"<@{e.user_id}>") for e in entries[:MOST_LISTED]]
    more = len(entries) - len(listed)
    players = ", ".join(listed) or text(lang, "tournaments.registration.nobody")
    if more:
        players += " " + text(lang, "tournaments.registration.more", count=more)
    lines.append(
        text(lang, "tournaments.registration.players", count=len(entries), players=players)
    )
    status = {
        TournamentStatus.REGISTERING: "tournaments.registration.open",
        TournamentStatus.RUNNING: "tournaments.registration.started",
        TournamentStatus.FINISHED: "tournaments.registration.finished",
        TournamentStatus.CANCELLED: "tournaments.registration.cancelled",
    }[tournament.status]
    lines.append(text(lang, status))
    return discord.Embed(
        title=text(lang, "tournaments.registration.title", name=tournament.name),
        description="\n".join(lines),
        colour=EMBED_COLOUR,
    )


def _time_lines(lang: str, tournament: Tournament) -> list[str]:
    """The tournament's time control, when it chose one, and the reliability it asks."""
    lines = []
    if tournament.time_control is not None:
        try:
            pace = pace_text(lang, TimeControl.parse(tournament.time_control))
        except BadTimeControl:
            pace = tournament.time_control  # stored by the service, which checked it
        lines.append(text(lang, "time.invitation_time", pace=pace))
    if tournament.min_reliability:
        lines.append(text(lang, "time.min_reliability", minimum=tournament.min_reliability))
    return lines


LONGEST_MESSAGE = 2000
"""Discord's limit on a message's content, in characters."""
MOST_MENTIONED_USERS = 100
"""Discord's limit on the users a message's allowed mentions may name."""


@dataclass(frozen=True, slots=True)
class MessagePart:
    """One message of a long text, and the users it mentions (to allow them)."""

    content: str
    users: tuple[int, ...]


def started_parts(lang: str, players: Sequence[int]) -> list[MessagePart]:
    """The tournament started, naming every player: as many messages as Discord's limits ask."""
    frame = text(lang, "tournaments.thread.started", players="")
    chunks = _pack([(f"<@{p}>", (p,)) for p in players], " ", first_room=len(frame))
    if not chunks:
        return [MessagePart(frame, ())]
    first, *rest = chunks
    started = text(lang, "tournaments.thread.started", players=first.content)
    return [MessagePart(started, first.users), *rest]


def pairings_parts(
    lang: str, round_number: int, games: Sequence[TournamentGame], names: dict[int, str]
) -> list[MessagePart]:
    """Round N's tables (who starts is named first, and the bye), in as many messages as
    Discord's limits ask; each part mentions only its own tables' players."""
    lines: list[tuple[str, tuple[int, ...]]] = [
        (text(lang, "tournaments.thread.round", round=round_number), ())
    ]
    for game in games:
        first = names.get(game.first, f"<@{game.first}>")
        if game.second is None:
            line = text(lang, "tournaments.thread.bye", table=game.table, name=first)
            lines.append((line, (game.first,)))
        else:
            second = names.get(game.second, f"<@{game.second}>")
            line = text(
                lang, "tournaments.thread.table", table=game.table, first=first, second=second
            )
            lines.append((line, (game.first, game.second)))
    return _pack(lines, "\n")


def _pack(
    lines: Sequence[tuple[str, tuple[int, ...]]], separator: str, first_room: int = 0
) -> list[MessagePart]:
    """Lines (each with the users it mentions) joined into as few messages as fit Discord's
    limits; the first message keeps ``first_room`` characters for its frame."""
    parts: list[MessagePart] = []
    said: list[str] = []
    users: list[int] = []
    used = first_room
    for line, mentioned in lines:
        longer = used + (len(separator) if said else 0) + len(line)
        if said and (
            longer > LONGEST_MESSAGE or len(users) + len(mentioned) > MOST_MENTIONED_USERS
        ):
            parts.append(MessagePart(separator.join(said), tuple(users)))
            said, users, used = [], [], 0
            longer = len(line)
        said.append(line)
        users.extend(mentioned)
        used = longer
    if said:
        parts.append(MessagePart(separator.join(said), tuple(users)))
    return parts


def standings_text(lang: str, standings: Sequence[Standing], names: dict[int, str]) -> str:
    """The standings as lines (Discord's 2000 characters at most: the rest is counted)."""
    lines = [text(lang, "tournaments.thread.standings")]
    for index, line in enumerate(standings):
        name = names.get(line.player, f"<@{line.player}>")
        if line.withdrawn:
            name = text(lang, "tournaments.picture.withdrawn", name=name)
        entry = text(
            lang,
            "tournaments.thread.standing",
            place=line.place,
            name=name,
            points=shown_points(line.points),
            buchholz=shown_points(line.buchholz),
            berger=shown_points(line.sonneborn_berger),
        )
        if sum(len(x) + 1 for x in lines) + len(entry) > 1900:
            lines.append(text(lang, "tournaments.registration.more", count=len(standings) - index))
            break
        lines.append(entry)
    return "\n".join(lines)


def podium_text(lang: str, name: str, standings: Sequence[Standing], names: dict[int, str]) -> str:
    medals = ("🥇", "🥈", "🥉")
    podium = [
        f"{medals[line.place - 1]} {names.get(line.player, f'<@{line.player}>')}"
        for line in standings
        if line.place <= 3
    ]
    return text(lang, "tournaments.thread.podium", name=name, podium=" · ".join(podium))
