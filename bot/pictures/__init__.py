"""Pictures of the table and of a hand, drawn in code with Pillow from engine views only."""

from bot.pictures.board_image import render_board, render_board_async
from bot.pictures.hand_image import render_hand, render_hand_async

__all__ = ["render_board", "render_board_async", "render_hand", "render_hand_async"]
