"""Pictures of the board and of a hand, drawn in code with Pillow from engine views only,
and their alt text (the attachment description)."""

from bot.pictures.alt_text import board_alt_text, hand_alt_text
from bot.pictures.board_image import BOARD_FILE, render_board, render_board_async
from bot.pictures.hand_image import HAND_FILE, render_hand, render_hand_async

__all__ = [
    "BOARD_FILE",
    "HAND_FILE",
    "board_alt_text",
    "hand_alt_text",
    "render_board",
    "render_board_async",
    "render_hand",
    "render_hand_async",
]
