"""The stats feature's words: `/hanamikoji stats`, `leaderboard` (all time and a season's)
and `history`, plain strings from engine values in a given language (no discord.py here).

Players are shown as mentions (``<@id>``): inside an embed Discord renders them as the
viewer sees the member's name, pings nobody, and needs no name lookup per row. Ratings read
as everywhere else (:mod:`bot.words.ratings`); who is ranked, and at which rank, is the
engine's answer (:class:`engine.ratings.AllTimePage`, :class:`engine.seasons.SeasonPage`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.words.i18n import text
from bot.words.player_names import mention
from bot.words.ratings import provisional_legend, rating_text, signed_change
from engine.model import FinishedMatch
from engine.ratings import AllTimePage, PlayerStats
from engine.ratings.reliability import MIN_MATCHES, Reliability
from engine.rules.outcome import Termination
from engine.seasons import MemberSeasons, Season, SeasonPage

_REASON_KEYS = {
    Termination.CHARM: "stats.reason_charm",
    Termination.GEISHAS: "stats.reason_geishas",
    Termination.ROUND_LIMIT: "stats.reason_round_limit",
    Termination.DRAW: "stats.reason_draw",
    Termination.RESIGNATION: "stats.reason_resignation",
    Termination.TIMEOUT: "stats.reason_timeout",
}
_HOW_KEYS = {
    Termination.CHARM: "stats.how_charm",
    Termination.GEISHAS: "stats.how_geishas",
    Termination.ROUND_LIMIT: "stats.how_round_limit",
    Termination.DRAW: "stats.how_draw",
    Termination.RESIGNATION: "stats.how_resignation",
    Termination.TIMEOUT: "stats.how_timeout",
}
"""How a match ended, as the end of a history line reads: "Won vs ben · on charm"."""
_WAYS_SHOWN_ALWAYS = (Termination.CHARM, Termination.GEISHAS)
"""The two ways to win on the cards are always listed, even at 0; others only once seen."""


def reason_text(lang: str, reason: Termination) -> str:
    return text(lang, _REASON_KEYS[reason])


def stats_text(lang: str, stats: PlayerStats, name: str) -> str:
    """The body of the stats embed: rating, record, streak, ways of winning, AI games,
    reliability."""
    standing = stats.standing
    if standing.games == 0 and stats.ai_games == 0:
        return text(lang, "stats.no_games", name=name)
    lines = []
    rating = rating_text(standing.rating)
    if standing.games:
        change = signed_change(standing.last_change)
        lines.append(text(lang, "stats.rating", rating=rating, change=change))
        lines.append(
            text(
                lang,
                "stats.record",
                games=standing.games,
                wins=standing.wins,
                losses=standing.losses,
                draws=standing.draws,
                win_rate=round(100 * standing.win_rate),
            )
        )
        lines.append(streak_text(lang, standing.streak))
        lines.append(text(lang, "stats.wins_by", ways=_ways(lang, stats.wins_by)))
    else:
        lines.append(text(lang, "stats.unrated", rating=rating))
    if stats.ai_games:
        lines.append(text(lang, "stats.ai_record", wins=stats.ai_wins, games=stats.ai_games))
    lines.append(reliability_text(lang, stats.reliability))
    if standing.is_provisional:
        lines.append(provisional_legend(lang))
    return "\n".join(lines)


def reliability_text(lang: str, reliability: Reliability) -> str:
    """How often the member sees their matches through, or how far from being rated."""
    percent = reliability.percent
    if percent is None:
        return text(lang, "time.reliability_unrated", ended=reliability.ended, needed=MIN_MATCHES)
    return text(
        lang,
        "time.reliability",
        percent=percent,
        finished=reliability.finished,
        abandoned=reliability.abandoned,
    )


def streak_text(lang: str, streak: int) -> str:
    if streak == 1:
        return text(lang, "stats.streak_one_win")
    if streak > 1:
        return text(lang, "stats.streak_wins", count=streak)
    if streak == -1:
        return text(lang, "stats.streak_one_loss")
    if streak < -1:
        return text(lang, "stats.streak_losses", count=-streak)
    return text(lang, "stats.streak_none")


def _ways(lang: str, counts: Mapping[Termination, int]) -> str:
    shown = [
        reason
        for reason in _REASON_KEYS
        if reason in _WAYS_SHOWN_ALWAYS or counts.get(reason, 0) > 0
    ]
    return " · ".join(
        text(lang, "stats.way", way=reason_text(lang, r), count=counts.get(r, 0)) for r in shown
    )


def leaderboard_text(lang: str, page: AllTimePage, page_size: int) -> str:
    """The ranking lines of one page and which page it is, or why nobody is ranked yet; the
    ranks and the minimum of games are the engine's (:mod:`engine.ratings.leaderboard`)."""
    if not page.entries:
        return text(lang, "stats.leaderboard_empty", min_games=page.min_games)
    lines = [
        text(
            lang,
            "stats.leaderboard_entry",
            rank=line.rank,
            player=mention(line.standing.user_id),
            rating=rating_text(line.standing.rating),
            games=line.standing.games,
            win_rate=round(100 * line.standing.win_rate),
        )
        for line in page.entries
    ]
    lines.append("")
    lines.append(
        text(
            lang,
            "stats.leaderboard_footer",
            page=page.offset // page_size + 1,
            pages=page_count(page.total, page_size),
            min_games=page.min_games,
        )
    )
    if any(line.standing.is_provisional for line in page.entries):
        lines.append(provisional_legend(lang))
    return "\n".join(lines)


def page_count(total: int, page_size: int) -> int:
    """How many pages of ``page_size`` lines ``total`` lines fill (one, when empty)."""
    return max(1, -(-total // page_size))


def history_text(
    lang: str,
    user_id: int,
    results: Sequence[FinishedMatch],
    opponents: Mapping[int, str],
    in_progress: Sequence[tuple[int, str]] = (),
) -> str:
    """One line per recent match: id, date, result, opponent, how it ended.

    ``opponents`` maps a match id to how its opponent is shown; ``in_progress`` lists
    (match id, opponent) of matches still being played, which have no record yet.
    """
    lines = [
        text(lang, "stats.history_in_progress", match=match_id, opponent=opponent)
        for match_id, opponent in in_progress
    ]
    for result in results:
        if result.winner_id is None:
            outcome = text(lang, "stats.result_drew")
        elif result.winner_id == user_id:
            outcome = text(lang, "stats.result_won")
        else:
            outcome = text(lang, "stats.result_lost")
        lines.append(
            text(
                lang,
                "stats.history_entry",
                match=result.match_id,
                date=f"<t:{int(result.finished_at)}:d>",
                result=outcome,
                opponent=opponents[result.match_id],
                reason=text(lang, _HOW_KEYS[result.reason]),
            )
        )
    if results:
        lines += ["", text(lang, "stats.history_footer")]
    return "\n".join(lines)


# -- seasons ------------------------------------------------------------------------------


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
