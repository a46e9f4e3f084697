"""The two player panels, seat 0 above the geishas and seat 1 below: seat marker, name,
score, the four action markers (used ones struck through or shown face down) and the
hand count; the panel of the one to play is framed in gold and labelled."""

from __future__ import annotations

from bot.pictures.board_layout import BODY, MARGIN, NAME, PANELS, SMALL, WIDTH, band, initial
from bot.pictures.glyphs import card_back, seat_marker
from bot.pictures.lettering import Lettering
from bot.pictures.palette import (
    CARD_BACK,
    CARD_BACK_LINE,
    DIM,
    GOLD,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
)
from bot.words.i18n import text
from bot.words.names import action_name
from engine.rules import Action, PublicView
from engine.rules.notation import HiddenAction

_PILL_H = 34


def _pill(
    pen: Lettering,
    x: int,
    cy: int,
    label: str,
    *,
    used: bool,
    face_down: int,
    highlight: bool,
) -> int:
    """An action marker; returns its width. Face-down cards show as small backs inside."""
    icons = 0 if not face_down else 8 + 9 * face_down
    w = pen.width(label, SMALL) + 20 + icons
    box = (x, cy - _PILL_H // 2, x + w, cy + _PILL_H // 2)
    draw = pen.draw
    if face_down:
        draw.rounded_rectangle(box, radius=8, fill=CARD_BACK, outline=CARD_BACK_LINE, width=2)
        for i in range(face_down):
            ix = x + 8 + 9 * i
            draw.rounded_rectangle(
                (ix, cy - 10, ix + 12, cy + 10), radius=2, fill=CARD_BACK, outline=CARD_BACK_LINE
            )
        pen.write((x + 10 + icons, cy), label, SMALL, TEXT)
    elif used:
        draw.rounded_rectangle(box, radius=_PILL_H // 2, fill=DIM)
        pen.write((x + 10, cy), label, SMALL, MUTED)
        draw.line((x + 8, cy, x + w - 8, cy), fill=MUTED, width=2)  # struck through
    else:
        draw.rounded_rectangle(box, radius=_PILL_H // 2, outline=GOLD, width=2)
        pen.write((x + 10, cy), label, SMALL, TEXT)
    if highlight:
        draw.rounded_rectangle(
            (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), radius=12, outline=TEXT, width=3
        )
    return w


def draw_panel(
    lang: str,
    pen: Lettering,
    public: PublicView,
    names: tuple[str, str],
    seat: int,
) -> None:
    """One seat's panel; a Secret stays face down until its round is scored."""
    top, bottom = PANELS[seat]
    draw = pen.draw
    name_y, actions_y = top + 23, top + 62
    seat_marker(pen, MARGIN + 15, name_y, seat, initial(names[seat]), r=15, size=SMALL)
    right = WIDTH - MARGIN
    if public.current_player == seat and public.outcome is None:
        # Whose move it is: a gold frame and a label, not the colour alone.
        draw.rounded_rectangle(band(top, bottom), radius=12, outline=GOLD, width=3)
        badge = text(lang, "pictures.to_play")
        badge_w = pen.width(badge, SMALL) + 24
        draw.rounded_rectangle(
            (right - badge_w, name_y - 16, right, name_y + 16), radius=16, fill=GOLD
        )
        pen.write((right - badge_w // 2, name_y), badge, SMALL, PANEL, anchor="mm")
        right -= badge_w + 12
    score = text(lang, "pictures.score", geishas=public.geishas[seat], charm=public.charm[seat])
    score_w = pen.write((right, name_y), score, BODY, TEXT, anchor="rm")
    name_x = MARGIN + 40
    pen.write(
        (name_x, name_y),
        names[seat],
        NAME,
        SEAT_COLOURS[seat],
        max_width=right - score_w - 16 - name_x,
    )
    last = public.moves[-1] if public.moves else None
    hidden_last = (
        last.action.action
        if last is not None
        and isinstance(last.action, HiddenAction)
        and public.mover(len(public.moves) - 1) == seat
        else None
    )
    x = MARGIN
    for action in Action:
        used = action in public.used[seat]
        face_down = action.size if action in public.face_down(seat) else 0
        x += 6 + _pill(
            pen,
            x,
            actions_y,
            action_name(lang, action),
            used=used,
            face_down=face_down,
            highlight=hidden_last is action,
        )
    # The hand: a card back with the count on it, and the word.
    hx = x + 8
    card_back(pen, hx, actions_y - 19, 30, 38, label=str(public.hand_sizes[seat]), size=SMALL)
    pen.write((hx + 38, actions_y), text(lang, "pictures.labels.hand"), SMALL, MUTED)
