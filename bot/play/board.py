"""The board message: the picture with its alt text, the text board (the accessible
fallback), the turn's deadline, a Hand button while the match runs, a Moves button (the
match log), and while an offer waits for a person, its Take buttons (only the chooser may
press them)."""

from __future__ import annotations

from bot.discord_plumbing.pages import Page, Row
from bot.pictures.board_picture import board_picture
from bot.play.moves_button import moves_button
from bot.play.navigation_buttons import hand_button
from bot.play.take_button import take_buttons
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
) -> Page:
    """The board; ``deadline`` (Unix seconds, the service's clock) is when the turn ends;
    ``hints`` marks a hint match in the title (never in the picture, which a review draws
    again and must find the same: :mod:`bot.pictures.board_picture`); ``faces``, the card
    emojis a Gift's Take buttons show.

    ``names`` are markdown-safe for the text; the picture and its alt text are not markdown
    and take ``picture_names`` (the raw names) when given."""
    deadline = deadline if public.outcome is None else None
    rows: tuple[Row, ...] = ((moves_button(lang, match_id),),)
    if public.outcome is None:
        rows = ((hand_button(lang, match_id), moves_button(lang, match_id)),)
        if public.pending is not None and public.current_player != ai_seat:
            rows = (take_buttons(lang, match_id, public.version, public.pending, faces), *rows)
    title = text(lang, "board.title", first=names[0], second=names[1])
    picture = await board_picture(lang, public, picture_names or names, deadline=deadline)
    return Page(
        title=text(lang, "ai_hints.board_title", title=title) if hints else title,
        text=board_text(lang, public, names, deadline=deadline),
        rows=rows,
        image=picture.file,
        image_description=picture.description,
    )
