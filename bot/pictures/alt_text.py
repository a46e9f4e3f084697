"""What the pictures show, in words: the attachment's ``description`` (its alt text), which
screen readers speak and Discord shows when the image does not load."""

from __future__ import annotations

from bot.pictures.board_facts import (
    round_limit,
    short_name,
    status_line,
    taken_cards,
)
from bot.pictures.turn_deadline import Deadline, when_text
from bot.words.i18n import shortened, text
from bot.words.names import action_name, letters, offer_text
from engine.rules import Action, PlayerView, PublicView
from engine.rules.cards import CHARM, GEISHAS
from engine.rules.notation import HiddenAction

DESCRIPTION_LIMIT = 1024
"""Discord's longest attachment description."""


def _say(lang: str, key: str, /, **values: object) -> str:
    """The alt-text words ``key`` in ``lang``."""
    return text(lang, f"pictures.alt.{key}", **values)


def _fit(parts: list[str]) -> str:
    """The sentences joined, cut to Discord's limit."""
    return shortened(" ".join(p for p in parts if p), DESCRIPTION_LIMIT)


def board_alt_text(
    lang: str,
    public: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
) -> str:
    """The board picture in words, at most 1024 characters: round, scores, hands, whose turn
    and until when, the open offer, the last move, and each geisha's cards and favor."""
    limit = round_limit(lang, public)
    parts = [_say(lang, "board", round=public.round_number, limit=limit)]
    parts.append(f"{status_line(lang, public, names, cut=False)}.")
    if deadline is not None and public.outcome is None:
        if isinstance(deadline, str):
            parts.append(deadline if deadline.endswith(".") else deadline + ".")
        else:
            parts.append(_say(lang, "deadline", when=when_text(lang, deadline)))
    for seat in (0, 1):
        used = [action_name(lang, a) for a in Action if a in public.used[seat]]
        parts.append(
            _say(
                lang,
                "player",
                name=names[seat],
                geishas=public.geishas[seat],
                charm=public.charm[seat],
                hand=public.hand_sizes[seat],
                cards=_say(lang, "card" if public.hand_sizes[seat] == 1 else "cards"),
                used=_say(lang, "used", actions=", ".join(used)) if used else "",
            )
        )
    revealed = public.scored_on_show
    if public.pending is not None and public.outcome is None:
        offerer = public.mover(len(public.moves) - 1)
        parts.append(
            _say(
                lang,
                "pending",
                name=names[1 - offerer],
                offerer=names[offerer],
                action=action_name(lang, public.pending.action),
                cards=offer_text(public.pending),
            )
        )
    elif public.moves:
        parts.append(_last_move(lang, public, names))
    if revealed is not None:
        parts.append(
            _say(
                lang,
                "scored",
                round=revealed.round_number,
                first=names[0],
                second=names[1],
                a=GEISHAS[revealed.secrets[0]],
                b=GEISHAS[revealed.secrets[1]],
            )
        )
    items, favor = public.shown_items, public.shown_favor
    short = (short_name(names[0]), short_name(names[1]))
    geishas = []
    for g in range(7):
        holder = favor[g]
        geishas.append(
            _say(
                lang,
                "geisha",
                letter=GEISHAS[g],
                charm=CHARM[g],
                a=items[0][g],
                b=items[1][g],
                holder=_say(lang, "neutral") if holder is None else short[holder],
            )
        )
    parts.append(
        _say(lang, "geishas", first=short[0], second=short[1]) + " " + "; ".join(geishas) + "."
    )
    return _fit(parts)


def _last_move(lang: str, public: PublicView, names: tuple[str, str]) -> str:
    index = len(public.moves) - 1
    move = public.moves[index]
    mover = public.mover(index)
    action = move.action
    if isinstance(action, HiddenAction):
        what = _say(lang, f"hidden_{action.action.size}")
    else:
        what = _say(
            lang,
            "took",
            action=action_name(lang, action.action),
            cards=offer_text(action),
            name=names[1 - mover],
            taken=letters(taken_cards(move)),
        )
    return _say(lang, "last", name=names[mover], move=what)


def hand_alt_text(lang: str, view: PlayerView) -> str:
    """The hand picture in words: the cards, the one just drawn, the face-down ones."""
    none = _say(lang, "none")
    description = _say(lang, "hand", count=len(view.hand), cards=letters(view.hand) or none)
    if view.drawn is not None:
        description += _say(lang, "new", card=GEISHAS[view.drawn])
    secret = GEISHAS[view.secret] if view.secret is not None else none
    trade_off = letters(view.trade_off) if view.trade_off is not None else none
    description += _say(lang, "face_down", secret=secret, trade_off=trade_off)
    return _fit([description])
