"""What the tournament feature says: the registration message, pairings, results and
standings as text, and the refusals of its commands and buttons (both languages)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.words.i18n import text
from bot.words.refusals import refusal_text
from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.service import tournament_errors as errors
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
}


def tournament_refusal(lang: str, error: Exception) -> str:
    """A refusal in the user's words; the setting errors quote what was typed."""
    if isinstance(error, errors.BadTournamentSettings):
        return text(lang, "tournaments.refusal.bad_setting", detail=error.message)
    for kind, key in _REFUSALS.items():
        if isinstance(error, kind):
            values = {"most": getattr(error, "most", 0), "players": getattr(error, "players", 0)}
            return text(lang, key, **values)
    return refusal_text(lang, error)


def format_name(lang: str, tournament: Tournament) -> str:
    return text(lang, f"tournaments.format.{tournament.format.value}")


def registration_embed(
    lang: str, tournament: Tournament, entries: Sequence[TournamentEntry], names: dict[int, str]
) -> discord.Embed:
    """The public registration message: what the event is, who is in, how to join."""
    lines = [
        text(lang, "tournaments.registration.format", format=format_name(lang, tournament)),
        text(lang, "tournaments.registration.organiser", organiser=f"<@{tournament.organiser_id}>"),
    ]
    if tournament.rounds is not None:
        lines.append(text(lang, "tournaments.registration.rounds", rounds=tournament.rounds))
    if tournament.max_players is not None:
        lines.append(text(lang, "tournaments.registration.cap", most=tournament.max_players))
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


def pairings_text(
    lang: str, round_number: int, games: Sequence[TournamentGame], names: dict[int, str]
) -> str:
    """Round N's tables: who starts (first named), and the bye."""
    lines = [text(lang, "tournaments.thread.round", round=round_number)]
    for game in games:
        first = names.get(game.first, f"<@{game.first}>")
        if game.second is None:
            lines.append(text(lang, "tournaments.thread.bye", table=game.table, name=first))
        else:
            second = names.get(game.second, f"<@{game.second}>")
            lines.append(
                text(lang, "tournaments.thread.table", table=game.table, first=first, second=second)
            )
    return "\n".join(lines)


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
