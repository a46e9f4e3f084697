"""The play feature's words: the board as text, a scored round's summary, the result, and
the thread's lines (a turn timed out, your turn, a reminder).

The board as text is the accessible fallback beside the picture, readable on a phone.
Built only from a :class:`~engine.rules.views.PublicView`, so it cannot show a hidden card;
the players' names come markdown-safe (:func:`bot.words.player_names.markdown_safe`). The
geisha grid is a monospace block narrow enough for a phone (31 columns); everything
else is plain lines, never inline embed fields (they collapse on phones). Each move in
words is :mod:`bot.words.move_lines`, which a review shares.
"""

from __future__ import annotations

from bot.play.display_plan import ClaimOffer, Line, Overdue, RemindTurn, TimedOut, YourTurn
from bot.play.time_words import TurnTime, time_lines
from bot.words.i18n import counted, text
from bot.words.move_lines import recent_moves
from bot.words.names import action_name, card_name, item_name, offer_text
from bot.words.player_names import mention, needed_no_escaping
from engine.rules import Action, Phase, PublicView, Variant, card_letter
from engine.rules.cards import CHARM
from engine.rules.outcome import MatchOutcome, RoundResult, Termination

ITEM_MARK = "▮"
FAVOR_MARK = "★"
NEUTRAL_MARK = "·"
LEFT_MARK = "◀"
RIGHT_MARK = "▶"
_SIDE_WIDTH = 7
_NAME_WIDTH = 9
"""The longest item name the geisha column holds whole (``Sombrilla``, ``Pergamino``)."""


def _side(count: int, favor: bool, left: bool) -> str:
    items = ITEM_MARK * count
    mark = FAVOR_MARK if favor else " "
    shown = f"{items} {mark}" if left else f"{mark} {items}"
    return shown.rjust(_SIDE_WIDTH) if left else shown.ljust(_SIDE_WIDTH)


def _column_heads(names: tuple[str, str]) -> tuple[str, str]:
    """The names over the two sides when both fit their column and read the same in the
    code block as in text, else arrows the legend explains: a name is never cut, and no
    backtick in a name can close the block."""
    if all(len(n) <= _SIDE_WIDTH and needed_no_escaping(n) for n in names):
        return names
    return LEFT_MARK, RIGHT_MARK


def column_name(name: str) -> str:
    """An item name as the geisha column holds it: whole when it fits, else cut with a
    full stop, by the same rule in every language."""
    return name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 1] + "."


def geisha_grid(lang: str, public: PublicView, names: tuple[str, str]) -> str:
    """The seven geishas with both sides' items on show (a scored round's Secrets
    included while it is on show, as the picture draws them) and each favor marker."""
    left, right = _column_heads(names)
    items, favors = public.shown_items, public.shown_favor
    lines = [f"{left:>{_SIDE_WIDTH}}│{text(lang, 'board.geisha_column'):^15}│{right}"]
    for g in range(7):
        favor = favors[g]
        middle = f"{card_letter(g)} {column_name(item_name(lang, g)):<{_NAME_WIDTH}} {CHARM[g]}"
        centre = f"{middle} {NEUTRAL_MARK if favor is None else ' '}"
        lines.append(
            f"{_side(items[0][g], favor == 0, True)}│{centre}│"
            f"{_side(items[1][g], favor == 1, False)}".rstrip()
        )
    return "```\n" + "\n".join(lines) + "\n```"


def legend(lang: str, names: tuple[str, str]) -> str:
    """What the grid's sides and marks mean, with both names in full."""
    return text(
        lang,
        "board.legend",
        left=LEFT_MARK,
        right=RIGHT_MARK,
        first=names[0],
        second=names[1],
        item=f"`{ITEM_MARK}`",
        favor=f"`{FAVOR_MARK}`",
        neutral=f"`{NEUTRAL_MARK}`",
    )


def _markers(lang: str, public: PublicView, player: int) -> str:
    """Action markers: used ones struck through, so it is not colour alone."""
    parts = []
    for action in Action:
        name = action_name(lang, action)
        parts.append(f"~~{name}~~" if action in public.used[player] else name)
    return " · ".join(parts)


_FACE_DOWN_KEYS = {
    Action.SECRET: "board.face_down_secret",
    Action.TRADE_OFF: "board.face_down_trade_off",
}


def _face_down(lang: str, public: PublicView, player: int) -> str:
    hidden = [text(lang, _FACE_DOWN_KEYS[a]) for a in public.face_down(player)]
    return text(lang, "board.face_down", cards=", ".join(hidden)) if hidden else ""


def scored_line(lang: str, public: PublicView, names: tuple[str, str]) -> str | None:
    """While a scored round is on show: which round, and both Secrets it revealed (the
    grid above counts them on their owners' sides)."""
    scored = public.scored_on_show
    if scored is None:
        return None
    return text(
        lang,
        "board.scored",
        round=scored.round_number,
        first=names[0],
        first_secret=card_name(lang, scored.secrets[0]),
        second=names[1],
        second_secret=card_name(lang, scored.secrets[1]),
    )


def player_line(lang: str, public: PublicView, names: tuple[str, str], player: int) -> str:
    first = text(
        lang,
        "board.player_line",
        name=names[player],
        geishas=counted(lang, "geisha", public.geishas[player]),
        charm=public.charm[player],
        hand=counted(lang, "card", public.hand_sizes[player]),
        face_down=_face_down(lang, public, player),
    )
    return first + "\n" + text(lang, "board.actions_line", actions=_markers(lang, public, player))


def status_line(lang: str, public: PublicView, names: tuple[str, str]) -> str:
    """Whose turn it is and what they must do, or how the match ended."""
    if public.outcome is not None:
        return outcome_line(lang, public.outcome, names)
    who = names[public.current_player] if public.current_player is not None else "?"
    if public.phase is Phase.GIFT_CHOICE:
        return text(lang, "board.gift_choice", name=who, offer=offer_text(public.pending))
    if public.phase is Phase.COMPETITION_CHOICE:
        return text(lang, "board.competition_choice", name=who, offer=offer_text(public.pending))
    return text(lang, "board.turn", name=who)


_OUTCOME_KEYS = {
    Termination.CHARM: "outcome.charm",
    Termination.GEISHAS: "outcome.geishas",
    Termination.ROUND_LIMIT: "outcome.round_limit",
    Termination.RESIGNATION: "outcome.resignation",
    Termination.TIMEOUT: "outcome.timeout",
}


def outcome_line(lang: str, outcome: MatchOutcome, names: tuple[str, str]) -> str:
    if outcome.winner is None:
        return text(lang, "outcome.draw")
    winner, loser = names[outcome.winner], names[1 - outcome.winner]
    return text(lang, _OUTCOME_KEYS[outcome.termination], winner=winner, loser=loser)


def deadline_line(lang: str, deadline: float) -> str:
    """When the turn ends, as Discord's live countdown in each reader's own time zone."""
    return text(lang, "board.deadline", when=f"<t:{int(deadline)}:R>")


def board_text(
    lang: str,
    public: PublicView,
    names: tuple[str, str],
    *,
    deadline: float | None = None,
    time: TurnTime | None = None,
) -> str:
    """The whole board as one embed description (well under Discord's 4096 characters).

    ``time``, the match's time control as it stands (:mod:`bot.play.time_words`), while the
    match runs; without it, ``deadline`` is shown as a per-turn timer's."""
    limit = text(lang, "board.of_three") if public.variant is Variant.THREE_ROUNDS else ""
    head = text(
        lang,
        "board.head",
        round=public.round_number,
        limit=limit,
        pile=counted(lang, "card", public.pile_size),
    )
    recent = recent_moves(lang, public, names) if public.outcome is None else []
    moves = [text(lang, "board.recent"), *(f"• {line}" for line in recent), ""] if recent else []
    scored = scored_line(lang, public, names)
    return "\n".join(
        [
            head,
            geisha_grid(lang, public, names),
            *([scored] if scored is not None else []),
            legend(lang, names),
            player_line(lang, public, names, 0),
            player_line(lang, public, names, 1),
            "",
            *moves,
            status_line(lang, public, names),
            *_time(lang, names, deadline, time),
        ]
    )


def _time(
    lang: str, names: tuple[str, str], deadline: float | None, time: TurnTime | None
) -> list[str]:
    if time is not None:
        return time_lines(lang, time, names)
    return [deadline_line(lang, deadline)] if deadline is not None else []


def round_summary(lang: str, result: RoundResult, names: tuple[str, str]) -> str:
    """Round end: both Secrets revealed, each geisha's counts, which markers moved, the score."""
    lines = [
        text(
            lang,
            "summary.head",
            round=result.round_number,
            first=names[0],
            first_secret=card_letter(result.secrets[0]),
            second=names[1],
            second_secret=card_letter(result.secrets[1]),
        )
    ]
    for g in range(7):
        holder = result.favor[g]
        moved = "→ " if g in result.moved else ""
        verdict = text(lang, "summary.neutral") if holder is None else f"{moved}{names[holder]}"
        lines.append(
            text(
                lang,
                "summary.geisha_line",
                letter=card_letter(g),
                item=item_name(lang, g),
                charm=CHARM[g],
                first_count=result.items[0][g],
                second_count=result.items[1][g],
                verdict=verdict,
            )
        )
    lines.append(
        text(
            lang,
            "summary.score",
            first=names[0],
            first_geishas=result.geishas[0],
            first_charm=result.charm[0],
            second=names[1],
            second_geishas=result.geishas[1],
            second_charm=result.charm[1],
        )
    )
    return "\n".join(lines)


def line_text(lang: str, line: Line, names: tuple[str, str]) -> str:
    """One line of a post in the thread (:mod:`bot.play.display_plan`)."""
    if isinstance(line, TimedOut):
        return text(lang, "match.timed_out", name=names[line.seat])
    if isinstance(line, YourTurn):
        return text(lang, "match.your_turn", mention=mention(line.user_id))
    if isinstance(line, RemindTurn):
        when = f"<t:{int(line.deadline)}:R>"
        return text(lang, "match.reminder", mention=mention(line.user_id), when=when)
    if isinstance(line, Overdue):
        return text(
            lang,
            "play_overdue.days_ran_out",
            mention=mention(line.user_id),
            waiting=names[1 - line.seat],
            when=f"<t:{int(line.claim_at)}:R>",
        )
    assert isinstance(line, ClaimOffer)
    return text(
        lang, "play_overdue.choose", mention=mention(line.user_id), late=names[1 - line.seat]
    )
