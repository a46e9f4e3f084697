"""The words of a season's leaderboard and of the season lines under `/hanamikoji stats`:
plain strings from engine values, in a given language (no discord.py here)."""

from __future__ import annotations

from bot.stats.stats_text import mention, page_count, provisional_legend, rating_text
from bot.words.i18n import text
from engine.seasons import MemberSeasons, Season, SeasonPage


def season_state_text(lang: str, season: Season) -> str:
    """Running (until when) or ended (when)."""
    if season.ended_at is not None:
        return text(lang, "seasons.leaderboard_ended", when=f"<t:{int(season.ended_at)}:f>")
    if season.ends_at is None:
        return text(lang, "seasons.leaderboard_running_by_hand")
    return text(lang, "seasons.leaderboard_running", when=f"<t:{int(season.ends_at)}:f>")


def season_leaderboard_text(lang: str, page: SeasonPage, page_size: int) -> str:
    """The season's state, the ranking lines of one page and which page it is, or why
    nobody is ranked yet."""
    lines = [season_state_text(lang, page.season), ""]
    if not page.entries:
        lines.append(text(lang, "seasons.leaderboard_empty", min_games=page.min_games))
        return "\n".join(lines)
    lines += [
        text(
            lang,
            "stats.leaderboard_entry",
            rank=standing.rank,
            player=mention(standing.user_id),
            rating=rating_text(standing.rating),
            games=standing.games,
            win_rate=round(100 * standing.wins / standing.games),
        )
        for standing in page.entries
    ]
    lines.append("")
    lines.append(
        text(
            lang,
            "seasons.leaderboard_footer",
            page=page.offset // page_size + 1,
            pages=page_count(page.total, page_size),
            min_games=page.min_games,
        )
    )
    if any(standing.rating.is_provisional for standing in page.entries):
        lines.append(provisional_legend(lang))
    return "\n".join(lines)


def member_seasons_text(lang: str, seasons: MemberSeasons) -> list[str]:
    """The member's line in the running season and their best season (none if no season
    was ever played here)."""
    lines = []
    current, standing = seasons.current, seasons.standing
    if current is not None:
        if standing is None:
            lines.append(text(lang, "seasons.stats_current_none", number=current.number))
        elif standing.rank is None:
            lines.append(
                text(
                    lang,
                    "seasons.stats_current_unranked",
                    number=current.number,
                    games=standing.games,
                    min_games=seasons.min_games,
                    wins=standing.wins,
                )
            )
        else:
            lines.append(
                text(
                    lang,
                    "seasons.stats_current",
                    number=current.number,
                    rating=rating_text(standing.rating),
                    rank=standing.rank,
                    games=standing.games,
                    wins=standing.wins,
                )
            )
    best = seasons.best
    if best is not None:
        lines.append(
            text(
                lang,
                "seasons.stats_best",
                rank=best.rank,
                number=best.number,
                rating=round(best.rating),
            )
        )
    return lines
