"""The board message: the picture with its alt text, the text board (the accessible
fallback), the match's time (the turn's deadline, both clocks, a turn-based match's days),
a Hand button while the match runs, a Moves button (the match log), while an offer waits
for a person its Take buttons (only the chooser may press them), and once an overdue
turn-based player's grace is over, their opponent's Claim the win, Let the AI play and
Keep waiting."""

from __future__ import annotations

from bot.discord_plumbing.pages import Page, Row
from bot.pictures.board_picture import board_picture
from bot.play.ai_turn_button import ai_turn_button
from bot.play.claim_button import claim_button
from bot.play.moves_button import moves_button
from bot.play.navigation_buttons import hand_button
from bot.play.show_board_button import show_board_button
from bot.play.take_button import take_buttons
from bot.play.time_words import TurnTime
from bot.play.wait_button import wait_button
from bot.play.words import board_text
from bot.words.card_faces import LETTERS, CardFaces
from bot.words.i18n import text
from engine.rules import PublicView


async def board_page(
    lang: str,
    match_id: int,
    public: PublicView,
    names: tuple[str, str],
    *,
    ai_seat: int | None,
    deadline: float | None = None,
    picture_names: tuple[str, str] | None = None,
    hints: bool = False,
    faces: CardFaces = LETTERS,
    time: TurnTime | None = None,
    show_button: bool = False,
) -> Page:
    """The board; ``deadline`` (Unix seconds, the service's clock) is when the turn ends;
    ``hints`` marks a hint match in the title (never in the picture, which a review draws
    again and must find the same: :mod:`bot.pictures.board_picture`); ``faces``, the card
    emojis a Gift's Take buttons show; ``time``, the match's time control as it stands
    (without it, ``deadline`` is shown as a per-turn timer's); ``show_button``, a board
    outside any server the bot is in, which only a press brings up to date (Show board).

    ``names`` are markdown-safe for the text; the picture and its alt text are not markdown
    and take ``picture_names`` (the raw names) when given."""
    deadline = deadline if public.outcome is None else None
    rows: tuple[Row, ...] = ((moves_button(lang, match_id),),)
    if public.outcome is None:
        rows = ((hand_button(lang, match_id), moves_button(lang, match_id)),)
        if public.pending is not None and public.current_player != ai_seat:
            rows = (take_buttons(lang, match_id, public.version, public.pending, faces), *rows)
        if time is not None and time.claim_offered:
            version = public.version
            choices = (
                claim_button(lang, match_id, version),
                ai_turn_button(lang, match_id, version),
                wait_button(lang, match_id, version),
            )
            rows = (choices, *rows)
    if show_button:
        *before, last = rows
        rows = (*before, (*last, show_board_button(lang, match_id)))
    title = text(lang, "board.title", first=names[0], second=names[1])
    picture = await board_picture(lang, public, picture_names or names, deadline=deadline)
    return Page(
        title=text(lang, "ai_hints.board_title", title=title) if hints else title,
        text=board_text(
            lang, public, names, deadline=deadline, time=time if public.outcome is None else None
        ),
        rows=rows,
        image=picture.file,
        image_description=picture.description,
    )
