"""What the pictures show, in words: the attachment's ``description`` (its alt text), which
screen readers speak and Discord shows when the image does not load."""

from __future__ import annotations

from bot.pictures.board_image import revealed_round, short_name, status_line
from bot.pictures.picture_words import Deadline, say, when_text
from bot.words.i18n import text
from bot.words.names import action_name
from engine.rules import Action, Competition, PlayerView, PublicView
from engine.rules.cards import CHARM, GEISHAS, cards_text
from engine.rules.decisions import CompetitionChoice, GiftChoice
from engine.rules.notation import HiddenAction

DESCRIPTION_LIMIT = 1024
"""Discord's longest attachment description."""


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(GEISHAS[c] for c in cards)


def _offer(offer: object) -> str:
    if isinstance(offer, Competition):
        return " | ".join(cards_text(pair) for pair in offer.pairs)
    return _cards(tuple(getattr(offer, "cards", ())))


def _fit(parts: list[str]) -> str:
    """The sentences joined, cut to Discord's limit at a sentence where possible."""
    description = " ".join(p for p in parts if p)
    if len(description) <= DESCRIPTION_LIMIT:
        return description
    return description[: DESCRIPTION_LIMIT - 1].rstrip() + "…"


def board_alt_text(
    lang: str,
    table: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
) -> str:
    """The board picture in words, at most 1024 characters: round, scores, hands, whose turn
    and until when, the open offer, the last move, and each geisha's cards and favor."""
    limit = text(lang, "board.of_three") if str(table.variant) == "three-rounds" else ""
    parts = [say(lang, "alt_board", round=table.round_number, limit=limit)]
    parts.append(f"{status_line(lang, table, names, cut=False)}.")
    if deadline is not None and table.outcome is None:
        if isinstance(deadline, str):
            parts.append(deadline if deadline.endswith(".") else deadline + ".")
        else:
            parts.append(say(lang, "alt_deadline", when=when_text(lang, deadline)))
    for seat in (0, 1):
        used = [action_name(lang, a) for a in Action if a in table.used[seat]]
        parts.append(
            say(
                lang,
                "alt_player",
                name=names[seat],
                geishas=table.geishas[seat],
                charm=table.charm[seat],
                hand=table.hand_sizes[seat],
                cards=say(lang, "card" if table.hand_sizes[seat] == 1 else "cards"),
                used=say(lang, "alt_used", actions=", ".join(used)) if used else "",
            )
        )
    revealed = revealed_round(table)
    if table.pending is not None and table.outcome is None:
        offerer = table.mover(len(table.moves) - 1)
        parts.append(
            say(
                lang,
                "alt_pending",
                name=names[1 - offerer],
                offerer=names[offerer],
                action=action_name(lang, table.pending.action),
                cards=_offer(table.pending),
            )
        )
    elif table.moves:
        parts.append(_last_move(lang, table, names))
    if revealed is not None:
        parts.append(
            say(
                lang,
                "alt_scored",
                round=revealed.round_number,
                first=names[0],
                second=names[1],
                a=GEISHAS[revealed.secrets[0]],
                b=GEISHAS[revealed.secrets[1]],
            )
        )
    items = revealed.items if revealed is not None else table.items
    favor = revealed.favor if revealed is not None else table.favor
    short = (short_name(names[0]), short_name(names[1]))
    geishas = []
    for g in range(7):
        holder = favor[g]
        geishas.append(
            say(
                lang,
                "alt_geisha",
                letter=GEISHAS[g],
                charm=CHARM[g],
                a=items[0][g],
                b=items[1][g],
                holder=say(lang, "alt_neutral") if holder is None else short[holder],
            )
        )
    parts.append(
        say(lang, "alt_geishas", first=short[0], second=short[1]) + " " + "; ".join(geishas) + "."
    )
    return _fit(parts)


def _last_move(lang: str, table: PublicView, names: tuple[str, str]) -> str:
    index = len(table.moves) - 1
    move = table.moves[index]
    mover = table.mover(index)
    action = move.action
    if isinstance(action, HiddenAction):
        what = say(lang, f"alt_hidden_{action.action.size}")
    else:
        taken: tuple[int, ...] = ()
        if isinstance(move.choice, GiftChoice):
            taken = (move.choice.card,)
        elif isinstance(move.choice, CompetitionChoice):
            taken = move.choice.pair
        what = say(
            lang,
            "alt_took",
            action=action_name(lang, action.action),
            cards=_offer(action),
            name=names[1 - mover],
            taken=_cards(taken),
        )
    return say(lang, "alt_last", name=names[mover], move=what)


def hand_alt_text(lang: str, view: PlayerView) -> str:
    """The hand picture in words: the cards, the one just drawn, the face-down ones."""
    none = say(lang, "alt_none")
    description = say(lang, "alt_hand", count=len(view.hand), cards=_cards(view.hand) or none)
    if view.drawn is not None:
        description += say(lang, "alt_new", card=GEISHAS[view.drawn])
    secret = GEISHAS[view.secret] if view.secret is not None else none
    trade_off = _cards(view.trade_off) if view.trade_off is not None else none
    description += say(lang, "alt_face_down", secret=secret, trade_off=trade_off)
    return _fit([description])
