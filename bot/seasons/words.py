"""The seasons feature's words: when a season ends, what the member who ended one is told,
and the podium's lines (mentions that ping nobody)."""

from __future__ import annotations

from bot.words.i18n import text
from bot.words.player_names import mention
from bot.words.ratings import rating_number
from engine.seasons import Season, SeasonEnded

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def ends_text(lang: str, season: Season) -> str:
    if season.ends_at is None:
        return text(lang, "seasons.ends_by_hand")
    return text(lang, "seasons.ends_on", when=f"<t:{int(season.ends_at)}:f>")


def ended_text(lang: str, ended: SeasonEnded) -> str:
    """What the member who ended a season is told: where its podium goes, what comes next."""
    following = ended.next_season
    if following is None or following.ends_at is None:
        next_text = text(lang, "seasons.no_next")
    else:
        when = f"<t:{int(following.ends_at)}:f>"
        next_text = text(lang, "seasons.next_started", number=following.number, when=when)
    number = ended.season.number
    if ended.channel_id is None:
        return text(lang, "seasons.ended_nowhere", number=number, next=next_text)
    channel = f"<#{ended.channel_id}>"
    return text(lang, "seasons.ended", number=number, channel=channel, next=next_text)


def podium_text(lang: str, ended: SeasonEnded) -> str:
    """The podium's message: a line per ranked place, best first."""
    lines = [
        text(
            lang,
            "seasons.announcement_place",
            medal=MEDALS.get(s.rank or 0, ""),
            rank=s.rank,
            player=mention(s.user_id),
            rating=rating_number(s.rating.rating),
            wins=s.wins,
            games=s.games,
        )
        for s in ended.podium
    ]
    number = ended.season.number
    return text(lang, "seasons.announcement", number=number, places="\n".join(lines))
