"""Draws a message the way Discord's phone app shows it (dark theme, 360 px wide), so a
person can look at a layout, Components V2 or legacy, without a phone.

``phone_png(snapshot)`` returns PNG bytes; ``preview_file(snapshot, path)`` writes them.
It is an approximation for eyes, not a pixel copy: sizes and colours are Discord mobile's
as judged by eye, the fonts are DejaVu (the machine's, else the one bundled with the
pictures). Layout is in logical px (360 wide) multiplied by ``scale`` for crisp output.

Everything is laid out first, as a list of paint steps with their positions, so the
picture's height is known before a pixel is drawn.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Literal, TypedDict, Unpack

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

from tests.discord_emulator.layout_rules import ATTACHMENT_SCHEME
from tests.discord_emulator.limits import MESSAGE_FLAG_COMPONENTS_V2
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.world import World

Colour = tuple[int, int, int]
Tint = tuple[int, int, int, int]
"""RGBA, blended over what lies below (chips on whatever background they sit on)."""
Face = Literal["regular", "bold", "italic", "bolditalic", "mono"]
Paint = Callable[[Image.Image, ImageDraw.ImageDraw], None]
Box = tuple[int, int, int, int]

PHONE_WIDTH = 360

BACKGROUND: Colour = (49, 51, 56)
TEXT: Colour = (219, 222, 225)
HEADING: Colour = (242, 243, 245)
MUTED: Colour = (148, 155, 164)
WHITE: Colour = (255, 255, 255)
LINK: Colour = (0, 168, 252)
CONTAINER: Colour = (43, 45, 49)
EMBED_BAR: Colour = (30, 31, 34)
CODE_BLOCK: Colour = (30, 31, 34)
CODE_EDGE: Colour = (24, 25, 28)
SELECT_BG: Colour = (30, 31, 34)
DIVIDER: Colour = (66, 68, 74)
QUOTE_BAR: Colour = (78, 80, 88)
BLURPLE: Colour = (88, 101, 242)
MENTION_TEXT: Colour = (201, 205, 251)
MENTION_CHIP: Tint = (88, 101, 242, 77)
TIME_CHIP: Tint = (255, 255, 255, 18)
CODE_CHIP: Tint = (0, 0, 0, 70)
SPOILER_CHIP: Tint = (30, 31, 34, 255)
PLACEHOLDER: Colour = (64, 66, 72)
BUTTON_COLOURS: Mapping[int, Colour] = {
    1: BLURPLE,
    2: (78, 80, 88),
    3: (36, 128, 70),
    4: (218, 55, 60),
    5: (78, 80, 88),
    6: BLURPLE,
}

# Logical px of the phone's message list.
EDGE = 16
AVATAR = 40
CONTENT_X = EDGE + AVATAR + 12
TOP = 12
GAP = 8


@dataclass(frozen=True, slots=True)
class TextKind:
    """A font size and its line height, logical px."""

    size: int
    line: int
    face: Face = "regular"
    colour: Colour = TEXT


BODY = TextKind(16, 22)
H1 = TextKind(24, 30, "bold", HEADING)
H2 = TextKind(20, 26, "bold", HEADING)
H3 = TextKind(16, 22, "bold", HEADING)
SUBTEXT = TextKind(12, 16, colour=MUTED)
EMBED_TEXT = TextKind(14, 19)
CODE = TextKind(13, 18, "mono")
BUTTON_LABEL = TextKind(14, 18, "bold", WHITE)

_FONT_FILES: Mapping[Face, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
    "bolditalic": "DejaVuSans-BoldOblique.ttf",
    "mono": "DejaVuSansMono.ttf",
}
_BUNDLED_FONT = (
    Path(__file__).resolve().parents[2] / "bot" / "pictures" / "fonts" / "DejaVuSansCondensed.ttf"
)


@lru_cache(maxsize=128)
def _font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    try:
        # Pillow looks a bare file name up in the system's font folders.
        return ImageFont.truetype(_FONT_FILES[face], size)
    except OSError:
        # The pictures' own font has no bold or mono face, but always exists.
        return ImageFont.truetype(str(_BUNDLED_FONT), size)


_INVISIBLE = dict.fromkeys((0xFE0E, 0xFE0F, 0x200D))


def _drawable(text: str) -> str:
    """Without variation selectors and joiners: DejaVu lacks them, each would be a box."""
    return text.translate(_INVISIBLE)


def _ellipsize(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _file_size(count: int) -> str:
    if count < 1024:
        return f"{count} bytes"
    return f"{count / 1024:.2f} KB" if count < 1024**2 else f"{count / 1024**2:.2f} MB"


def _rgb(value: Any) -> Colour | None:
    if not isinstance(value, int):
        return None
    return ((value >> 16) & 255, (value >> 8) & 255, value & 255)


# --- Unicode emoji --------------------------------------------------------------------

# Where a colour emoji font is installed (Noto Color Emoji), emoji are drawn from it, as
# Discord draws them as pictures; elsewhere they stay text (DejaVu has a few, the rest
# show as the font's empty box).
_EMOJI_FONT_FILE = "NotoColorEmoji.ttf"
_EMOJI_FONT_SIZE = 109
"""The one size Noto Color Emoji's bitmaps come in."""
# Below U+1F000 only these default to emoji presentation (Unicode's emoji-data.txt); any
# other character is an emoji only when U+FE0F follows it.
_BMP_EMOJI_RANGES = (
    "231A-231B 23E9-23EC 23F0 23F3 25FD-25FE 2614-2615 2648-2653 267F 2693 26A1 26AA-26AB "
    "26BD-26BE 26C4-26C5 26CE 26D4 26EA 26F2-26F3 26F5 26FA 26FD 2705 270A-270B 2728 274C "
    "274E 2753-2755 2757 2795-2797 27B0 27BF 2B1B-2B1C 2B50 2B55"
)
_BMP_EMOJI = frozenset(
    code
    for span in _BMP_EMOJI_RANGES.split()
    for code in range(int(span[:4], 16), int(span[-4:], 16) + 1)
)
_REGIONAL = range(0x1F1E6, 0x1F200)
_MODIFIERS = frozenset((0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)))


@lru_cache(maxsize=1)
def _emoji_font() -> ImageFont.FreeTypeFont | None:
    try:
        return ImageFont.truetype(_EMOJI_FONT_FILE, _EMOJI_FONT_SIZE)
    except OSError:
        return None


@lru_cache(maxsize=512)
def unicode_emoji(cluster: str) -> Image.Image | None:
    """The emoji font's picture of one emoji (a ZWJ sequence, a flag…), if it has one."""
    font = _emoji_font()
    if font is None:
        return None
    left, top, right, bottom = font.getbbox(cluster)
    if bottom <= top or right <= left:
        return None  # the font has no such glyph: it draws nothing
    picture = Image.new("RGBA", (int(right - left), int(bottom - top)))
    ImageDraw.Draw(picture).text((-left, -top), cluster, font=font, embedded_color=True)
    return picture


def _emoji_runs(text: str) -> list[tuple[str, Image.Image | None]]:
    """``text`` cut into plain runs and emoji clusters (each with its picture)."""
    runs: list[tuple[str, Image.Image | None]] = []
    plain: list[str] = []
    i = 0
    while i < len(text):
        code = ord(text[i])
        after = text[i + 1] if i + 1 < len(text) else ""
        if code < 0x1F000 and code not in _BMP_EMOJI and after != "\ufe0f":
            plain.append(text[i])
            i += 1
            continue
        j = i + 2 if code in _REGIONAL and after and ord(after) in _REGIONAL else i + 1
        while j < len(text):
            if ord(text[j]) in _MODIFIERS:
                j += 1
            elif text[j] == "\u200d" and j + 1 < len(text):
                j += 2
            else:
                break
        cluster = text[i:j]
        picture = unicode_emoji(cluster)
        if picture is None:
            plain.append(cluster)
        else:
            if plain:
                runs.append(("".join(plain), None))
                plain.clear()
            runs.append((cluster, picture))
        i = j
    if plain:
        runs.append(("".join(plain), None))
    return runs


# --- Markdown -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Look:
    """How one run of text is drawn; ``size`` in device px."""

    size: int
    face: Face = "regular"
    colour: Colour = TEXT
    strike: bool = False
    underline: bool = False
    chip: Tint | None = None
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class _Span:
    text: str
    look: _Look
    emoji: Image.Image | None = None
    whole: bool = False
    """Never broken across lines (a mention), unless longer than one."""


@dataclass(frozen=True, slots=True)
class _Atom:
    """A word, a run of spaces or an emoji, measured; what line wrapping moves around."""

    text: str
    look: _Look
    width: float
    group: int
    """The span it came from: one chip background spans a group's atoms on a line."""
    emoji: Image.Image | None = None
    pad_left: float = 0.0
    space: bool = False


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    kind: TextKind
    quote: bool = False
    bullet: str | None = None
    depth: int = 0


@dataclass(frozen=True, slots=True)
class _CodeBlock:
    lines: tuple[str, ...]
    quote: bool = False


_HEADING = re.compile(r"(#{1,3}) +(.*)")
_BULLET = re.compile(r"( *)([-*]|\d{1,3}\.) +(.*)")


def _blocks(text: str) -> list[_Line | _CodeBlock]:
    """Discord's block markdown: each source line is its own paragraph."""
    out: list[_Line | _CodeBlock] = []
    lines = text.split("\n")
    quote_rest = False
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        quote = quote_rest
        if line.startswith(">>> "):
            quote_rest = quote = True
            line = line[4:]
        elif line.startswith("> "):
            quote, line = True, line[2:]
        if line.lstrip(" ").startswith("```"):
            rest = line.lstrip(" ")[3:]
            if "```" in rest:
                out.append(_CodeBlock((rest[: rest.index("```")],), quote))
                continue
            # A lone word after the fence names the language; Discord does not show it.
            body = [rest] if rest.strip() and " " in rest.strip() else []
            while i < len(lines) and "```" not in lines[i]:
                body.append(lines[i])
                i += 1
            if i < len(lines):
                tail = lines[i][: lines[i].index("```")]
                body += [tail] if tail.strip() else []
                i += 1
            out.append(_CodeBlock(tuple(body), quote))
            continue
        if line.startswith("-# "):
            out.append(_Line(line[3:], SUBTEXT, quote))
        elif heading := _HEADING.fullmatch(line):
            kind = (H1, H2, H3)[len(heading[1]) - 1]
            out.append(_Line(heading[2], kind, quote))
        elif bullet := _BULLET.fullmatch(line):
            depth = min(len(bullet[1]) // 2, 2)
            mark = bullet[2] if bullet[2][0].isdigit() else ("•", "◦", "▪")[depth]
            out.append(_Line(bullet[3], BODY, quote, mark, depth))
        else:
            out.append(_Line(line, BODY, quote))
    return out


_INLINE = re.compile(
    r"\\(?P<esc>[^\w\s])"
    r"|(?P<tick>`+)(?P<code>.+?)(?P=tick)"
    r"|<t:(?P<ts>-?\d+)(?::(?P<style>[tTdDfFR]))?>"
    r"|<(?P<mention>@!?|@&|#)(?P<mid>\d+)>"
    r"|<a?:(?P<ename>\w+):(?P<eid>\d+)>"
    r"|\[(?P<label>[^\]\n]+)\]\(<?(?P<target>https?://[^)\s>]+)>?\)"
    r"|(?P<url>https?://[^\s<>]*[^\s<>.,;:!?)\]'\"])"
    r"|(?P<mark>\*\*|__|~~|\|\||\*|_)"
)
_MONTHS: tuple[str, ...] = ("January", "February", "March", "April", "May", "June")
_MONTHS += ("July", "August", "September", "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _relative(seconds: float) -> str:
    """Discord's (moment.js's) wording of a distance in time."""
    s = abs(seconds)
    steps = (
        (45, "a few seconds", 0),
        (90, "a minute", 0),
        (45 * 60, "{} minutes", 60),
        (90 * 60, "an hour", 0),
        (22 * 3600, "{} hours", 3600),
        (36 * 3600, "a day", 0),
        (26 * 86400, "{} days", 86400),
        (45 * 86400, "a month", 0),
        (320 * 86400, "{} months", 30 * 86400),
        (548 * 86400, "a year", 0),
    )
    words = next(
        (w.format(round(s / unit)) if unit else w for limit, w, unit in steps if s < limit),
        f"{round(s / (365 * 86400))} years",
    )
    return f"in {words}" if seconds > 0 else f"{words} ago"


def timestamp_text(unix: int, style: str, *, now: float, tz: dt.tzinfo) -> str:
    """A ``<t:unix:style>`` as Discord's en-US client writes it."""
    if style == "R":
        return _relative(unix - now)
    at = dt.datetime.fromtimestamp(unix, tz)
    hour = f"{at.hour % 12 or 12}:{at.minute:02}"
    noon = "AM" if at.hour < 12 else "PM"
    day = f"{_MONTHS[at.month - 1]} {at.day}, {at.year}"
    return {
        "t": f"{hour} {noon}",
        "T": f"{hour}:{at.second:02} {noon}",
        "d": f"{at.month:02}/{at.day:02}/{at.year}",
        "D": day,
        "F": f"{_WEEKDAYS[at.weekday()]}, {day} {hour} {noon}",
    }.get(style, f"{day} {hour} {noon}")


# --- Options --------------------------------------------------------------------------


class PhoneOptions(TypedDict, total=False):
    """The keywords of :func:`phone_png` (and so of :func:`preview_file`)."""

    bot_name: str
    emoji_images: Mapping[int, bytes] | None
    names: Mapping[int, str] | None
    avatar: bytes | None
    scale: int
    now: float | None
    tz: dt.tzinfo


def phone_png(
    snapshot: MessageSnapshot,
    *,
    bot_name: str = "Hanamikoji",
    emoji_images: Mapping[int, bytes] | None = None,
    names: Mapping[int, str] | None = None,
    avatar: bytes | None = None,
    scale: int = 2,
    now: float | None = None,
    tz: dt.tzinfo = dt.UTC,
) -> bytes:
    """The message as a phone shows it, as PNG bytes ``360 * scale`` px wide.

    ``emoji_images``: PNG bytes of custom (application) emoji by id, drawn where
    ``<:name:id>`` or a button's emoji names them (``:name:`` without one). ``names``:
    display names by id for ``<@id>``, ``<@&id>`` and ``<#id>``. ``avatar``: the bot's
    picture (a blurple circle with its initial without one). ``now`` (Unix seconds) is
    what ``<t:…:R>`` counts from, ``tz`` where the other timestamps are read.
    """
    painter = _Painter(
        snapshot,
        scale=scale,
        emoji_images=emoji_images or {},
        names=names or {},
        now=time.time() if now is None else now,
        tz=tz,
    )
    image = painter.render(bot_name, avatar)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def preview_file(
    snapshot: MessageSnapshot, path: str | os.PathLike[str], **options: Unpack[PhoneOptions]
) -> None:
    """Writes :func:`phone_png` of the message to ``path``."""
    Path(path).write_bytes(phone_png(snapshot, **options))


def world_options(world: World) -> PhoneOptions:
    """What the emulator knows that a preview needs: the application emojis' pictures and
    everyone's display names (``phone_png(snapshot, **world_options(emulator.world))``)."""
    names = {u.id: u.nick or u.global_name or u.username for u in world.users.values()}
    names |= {r.id: r.name for r in world.roles.values()}
    names |= {c.id: c.name for c in world.channels.values() if c.name}
    emoji = {e.id: e.image for e in world.application_emojis.values()}
    return {"emoji_images": emoji, "names": names}


# --- Layout and painting --------------------------------------------------------------

_GALLERY_ROWS: Mapping[int, tuple[int, ...]] = {
    1: (1,),
    2: (2,),
    3: (1, 2),
    4: (2, 2),
    5: (2, 3),
    6: (3, 3),
    7: (1, 3, 3),
    8: (2, 3, 3),
    9: (3, 3, 3),
    10: (1, 3, 3, 3),
}


def _rounded_mask(size: tuple[int, int], radius: int) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius, fill=255)
    return mask


def _faded(box: Box, paint: Paint, opacity: float) -> Paint:
    """``paint`` at ``opacity`` over what ``box`` held before (a disabled button)."""

    def step(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        before = image.crop(box)
        paint(image, draw)
        image.paste(Image.blend(before, image.crop(box), opacity), box[:2])

    return step


class _Painter:
    def __init__(
        self,
        snapshot: MessageSnapshot,
        *,
        scale: int,
        emoji_images: Mapping[int, bytes],
        names: Mapping[int, str],
        now: float,
        tz: dt.tzinfo,
    ) -> None:
        self.snapshot = snapshot
        self.scale = scale
        self.emoji_bytes = emoji_images
        self.names = names
        self.now = now
        self.tz = tz
        self.steps: list[Paint] = []
        self.files = dict(snapshot.attachments)
        self._opened: dict[str, Image.Image | None] = {}
        self._emoji: dict[int, Image.Image | None] = {}
        self._resized: dict[tuple[int, int], Image.Image] = {}

    def px(self, logical: float) -> int:
        return round(logical * self.scale)

    def look(self, kind: TextKind) -> _Look:
        return _Look(self.px(kind.size), kind.face, kind.colour)

    # --- the message --------------------------------------------------------------

    def render(self, bot_name: str, avatar: bytes | None) -> Image.Image:
        width = self.px(PHONE_WIDTH)
        x, w = self.px(CONTENT_X), self.px(PHONE_WIDTH - CONTENT_X - EDGE)
        self._header(bot_name, avatar)
        y = self.px(TOP + 24)
        snap = self.snapshot
        parts: list[Callable[[int], int]] = []
        if snap.loading:
            thinking = TextKind(16, 22, "italic", MUTED)
            parts.append(lambda at: self._markdown(f"{bot_name} is thinking…", x, at, w, thinking))
        elif snap.flags & MESSAGE_FLAG_COMPONENTS_V2:
            parts += [partial(self._component, c, x, w=w) for c in snap.components]
        else:
            # Discord's order: the text, pictures and files, embeds, then the buttons.
            if snap.content:
                parts.append(lambda at: self._markdown(snap.content, x, at, w, BODY))
            loose = self._loose_attachments()
            parts += [partial(self._loose_attachment, name, x, w=w) for name in loose]
            parts += [partial(self._embed, e, x, w=w) for e in snap.embeds]
            parts += [partial(self._component, c, x, w=w) for c in snap.components]
        if snap.ephemeral:
            parts.append(lambda at: self._ephemeral_note(x, at, w))
        for index, part in enumerate(parts):
            gap = self.px(GAP) if index else 0
            y += gap + part(y + gap)
        height = max(y, self.px(TOP + AVATAR)) + self.px(EDGE)
        image = Image.new("RGB", (width, height), BACKGROUND)
        draw = ImageDraw.Draw(image, "RGBA")
        for step in self.steps:
            step(image, draw)
        return image

    def _header(self, bot_name: str, avatar: bytes | None) -> None:
        size, left, top = self.px(AVATAR), self.px(EDGE), self.px(TOP)
        picture = self._open(avatar) if avatar else None
        name_font = _font("bold", self.px(16))
        tag_font = _font("bold", self.px(10))
        name_x = self.px(CONTENT_X)
        middle = top + self.px(11)
        name_w = name_font.getlength(bot_name)

        def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            if picture is not None:
                face = ImageOps.fit(picture.convert("RGB"), (size, size), Image.Resampling.LANCZOS)
                circle = Image.new("L", (size, size), 0)
                ImageDraw.Draw(circle).ellipse((0, 0, size - 1, size - 1), fill=255)
                image.paste(face, (left, top), circle)
            else:
                draw.ellipse((left, top, left + size - 1, top + size - 1), fill=BLURPLE)
                initial = (bot_name[:1] or "?").upper()
                draw.text(
                    (left + size / 2, top + size / 2),
                    initial,
                    font=_font("bold", self.px(18)),
                    fill=WHITE,
                    anchor="mm",
                )
            draw.text((name_x, middle), bot_name, font=name_font, fill=HEADING, anchor="lm")
            tag_x = name_x + name_w + self.px(6)
            tag_w = tag_font.getlength("APP") + self.px(8)
            draw.rounded_rectangle(
                (tag_x, middle - self.px(7.5), tag_x + tag_w, middle + self.px(7.5)),
                radius=self.px(3),
                fill=BLURPLE,
            )
            draw.text((tag_x + tag_w / 2, middle), "APP", font=tag_font, fill=WHITE, anchor="mm")

        self.steps.append(paint)

    def _ephemeral_note(self, x: int, y: int, w: int) -> int:
        return self._markdown(
            "-# Only you can see this • [Dismiss message](https://discord.com)", x, y, w, BODY
        )

    # --- text ---------------------------------------------------------------------

    def _markdown(self, text: str, x: int, y: int, w: int, kind: TextKind) -> int:
        """Lays out a text with Discord's markdown; returns its height (device px)."""
        top = y
        for index, block in enumerate(_blocks(text)):
            indent = self.px(12) if block.quote else 0
            start = y
            if isinstance(block, _CodeBlock):
                y += self.px(4) if index else 0
                y += self._code_block(block.lines, x + indent, y, w - indent)
            else:
                line_kind = kind if block.kind is BODY else block.kind
                if block.kind in (H1, H2, H3) and index:
                    y += self.px(6)
                y += self._paragraph(block, x + indent, y, w - indent, line_kind)
            if block.quote:
                self._quote_bar(x, start, y)
        return y - top

    def _quote_bar(self, x: int, top: int, bottom: int) -> None:
        bar = (x, top, x + self.px(4) - 1, bottom - 1)
        self.steps.append(lambda _i, d: d.rounded_rectangle(bar, self.px(2), fill=QUOTE_BAR))

    def _paragraph(self, line: _Line, x: int, y: int, w: int, kind: TextKind) -> int:
        indent = self.px(8 + 18 * line.depth + 14) if line.bullet else 0
        base = self.look(kind)
        spans = self._inline(line.text, base)
        jumbo = any(s.emoji is not None for s in spans) and all(
            s.emoji is not None or not s.text.strip() for s in spans
        )
        if jumbo:
            # Discord draws a message of emoji only at 48 px.
            spans = [replace(s, look=replace(s.look, size=self.px(48 / 1.25))) for s in spans]
        height = self._flow(spans, x + indent, y, w - indent, base, self.px(kind.line))
        if line.bullet:
            bullet, font = line.bullet, _font(base.face, base.size)
            mark_x = x + indent - self.px(6)
            baseline = self._baseline(base, y, self.px(kind.line))
            self.steps.append(
                lambda _i, d: d.text(
                    (mark_x, baseline), bullet, font=font, fill=base.colour, anchor="rs"
                )
            )
        return height

    def _inline(self, text: str, base: _Look) -> list[_Span]:
        """Discord's inline markdown, mentions, timestamps and custom emoji, as spans."""
        spans: list[_Span] = []
        active: list[str] = []

        def current() -> _Look:
            bold = base.face in ("bold", "bolditalic") or "**" in active
            italic = base.face in ("italic", "bolditalic") or "*" in active or "_" in active
            face: Face = "bolditalic" if bold and italic else "bold" if bold else "regular"
            face = "italic" if italic and not bold else face
            hidden = "||" in active
            return replace(
                base,
                face=face,
                strike=base.strike or "~~" in active,
                underline=base.underline or "__" in active,
                chip=SPOILER_CHIP if hidden else base.chip,
                hidden=hidden,
            )

        def plain(piece: str, look: _Look | None = None) -> None:
            for run, picture in _emoji_runs(piece):
                spans.append(_Span(run, look or current(), emoji=picture))

        pos = 0
        for m in _INLINE.finditer(text):
            plain(text[pos : m.start()])
            pos = m.end()
            look = current()
            chip_size = max(self.px(11), round(look.size * 0.875))
            if m["esc"]:
                plain(m["esc"])
            elif m["tick"]:
                code = replace(look, face="mono", size=chip_size, chip=look.chip or CODE_CHIP)
                spans.append(_Span(m["code"], code))
            elif m["ts"]:
                words = timestamp_text(int(m["ts"]), m["style"] or "f", now=self.now, tz=self.tz)
                spans.append(_Span(words, replace(look, chip=TIME_CHIP)))
            elif m["mention"]:
                sign = "#" if m["mention"] == "#" else "@"
                fallback = {"#": "channel", "@&": "role"}.get(m["mention"], "user")
                name = self.names.get(int(m["mid"]), fallback)
                chip = replace(look, colour=MENTION_TEXT, chip=MENTION_CHIP)
                spans.append(_Span(f"{sign}{name}", chip, whole=True))
            elif m["ename"]:
                picture = self._emoji_source(int(m["eid"]))
                if picture is None:
                    plain(f":{m['ename']}:")
                else:
                    spans.append(_Span(m[0], look, emoji=picture))
            elif m["label"] or m["url"]:
                plain(m["label"] or m["url"], replace(look, colour=LINK))
            else:
                mark = m["mark"]
                before = text[m.start() - 1] if m.start() else " "
                after = text[m.end()] if m.end() < len(text) else " "
                if mark in active:
                    if mark == "_" and after.isalnum():
                        plain(mark)
                    else:
                        active.remove(mark)
                elif text.find(mark, m.end() + 1) > m.end() and not (
                    mark == "_" and before.isalnum()
                ):
                    active.append(mark)
                else:
                    plain(mark)
        plain(text[pos:])
        return spans

    def _atoms(self, spans: Sequence[_Span]) -> list[_Atom]:
        atoms: list[_Atom] = []
        for group, span in enumerate(spans):
            look = span.look
            if span.emoji is not None:
                emoji = self._sized(span.emoji, round(look.size * 1.25))
                atoms.append(
                    _Atom(span.text, look, emoji.width + self.px(2), group, emoji, self.px(1))
                )
                continue
            font = _font(look.face, look.size)
            pad = self.px(2) if look.chip else 0
            pieces = [span.text] if span.whole else re.findall(r"\s+|\S+", span.text)
            for index, piece in enumerate(pieces):
                left = pad if index == 0 else 0
                right = pad if index == len(pieces) - 1 else 0
                width = font.getlength(_drawable(piece)) + left + right
                space = piece.isspace() and not span.whole
                atoms.append(_Atom(piece, look, width, group, pad_left=left, space=space))
        return atoms

    def _flow(
        self, spans: Sequence[_Span], x: int, y: int, w: int, base: _Look, line_height: int
    ) -> int:
        """Wraps spans at spaces to width ``w`` (breaking a too-long word anywhere)."""
        lines: list[list[_Atom]] = [[]]
        filled = 0.0
        pending: list[_Atom] = []
        word: list[_Atom] = []

        def place_word() -> None:
            nonlocal filled
            if not word:
                return
            need = sum(a.width for a in word)
            room = sum(a.width for a in pending)
            if lines[-1] and filled + room + need <= w:
                lines[-1].extend(pending + word)
                filled += room + need
            else:
                if lines[-1]:
                    lines.append([])
                    filled = 0.0
                if need <= w:
                    lines[-1].extend(word)
                    filled = need
                else:
                    for atom in word:
                        filled = self._break_atom(atom, lines, filled, w)
            pending.clear()
            word.clear()

        for atom in self._atoms(spans):
            if atom.space:
                place_word()
                pending.append(atom)
            else:
                word.append(atom)
        place_word()
        top = y
        for line in lines:
            tallest = max((a.emoji.height for a in line if a.emoji is not None), default=0)
            sized = max((a.look.size for a in line), default=0)
            height = max(line_height, tallest + self.px(4), round(sized * 1.3))
            self._line(line, x, y, height, base)
            y += height
        return y - top

    def _break_atom(self, atom: _Atom, lines: list[list[_Atom]], filled: float, w: int) -> float:
        if atom.emoji is not None or len(atom.text) < 2:
            if filled and filled + atom.width > w:
                lines.append([])
                filled = 0.0
            lines[-1].append(atom)
            return filled + atom.width
        font = _font(atom.look.face, atom.look.size)
        text = atom.text
        while text:
            fit = 0
            while fit < len(text) and font.getlength(text[: fit + 1]) <= w - filled:
                fit += 1
            if fit == 0 and filled:
                lines.append([])
                filled = 0.0
                continue
            fit = max(fit, 1)
            piece, text = text[:fit], text[fit:]
            lines[-1].append(replace(atom, text=piece, width=font.getlength(piece)))
            filled += font.getlength(piece)
            if text:
                lines.append([])
                filled = 0.0
        return filled

    def _baseline(self, base: _Look, y: int, height: int) -> float:
        ascent, descent = _font(base.face, base.size).getmetrics()
        return y + (height - ascent - descent) / 2 + ascent

    def _line(self, line: list[_Atom], x: int, y: int, height: int, base: _Look) -> None:
        baseline = self._baseline(base, y, height)
        placed: list[tuple[float, _Atom]] = []
        at = float(x)
        for atom in line:
            placed.append((at, atom))
            at += atom.width
        radius = self.px(3)

        def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            # Chips first, so the letters lie on them.
            i = 0
            while i < len(placed):
                left, atom = placed[i]
                j = i
                while j + 1 < len(placed) and placed[j + 1][1].group == atom.group:
                    j += 1
                right = placed[j][0] + placed[j][1].width
                if atom.look.chip is not None:
                    size = atom.look.size
                    box = (left, baseline - size * 0.95, right, baseline + size * 0.3)
                    draw.rounded_rectangle(box, radius, fill=atom.look.chip)
                i = j + 1
            for left, atom in placed:
                look = atom.look
                if atom.emoji is not None:
                    top = y + (height - atom.emoji.height) // 2
                    image.paste(atom.emoji, (round(left + atom.pad_left), top), atom.emoji)
                    continue
                if not atom.space and not look.hidden:
                    draw.text(
                        (left + atom.pad_left, baseline),
                        _drawable(atom.text),
                        font=_font(look.face, look.size),
                        fill=look.colour,
                        anchor="ls",
                    )
                thick = max(1, look.size // 14)
                for on, rise in ((look.strike, 0.3), (look.underline, -0.12)):
                    if on and not look.hidden:
                        level = baseline - look.size * rise
                        draw.line((left, level, left + atom.width, level), look.colour, thick)

        self.steps.append(paint)

    def _code_block(self, lines: Sequence[str], x: int, y: int, w: int) -> int:
        """No wrapping, as on a phone (it scrolls sideways): what does not fit is cut off."""
        pad, line_height = self.px(8), self.px(CODE.line)
        height = 2 * pad + line_height * max(1, len(lines))
        font = _font("mono", self.px(CODE.size))
        box = (x, y, x + w - 1, y + height - 1)
        ascent, descent = font.getmetrics()
        first = y + pad + (line_height - ascent - descent) / 2 + ascent

        def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            draw.rounded_rectangle(box, self.px(4), fill=CODE_BLOCK, outline=CODE_EDGE)
            right = (x + w - pad, y, image.width, y + height)
            kept = image.crop(right)
            for index, text in enumerate(lines):
                at = (x + pad, first + index * line_height)
                shown = _drawable(text.expandtabs(4))
                draw.text(at, shown, font=font, fill=TEXT, anchor="ls")
            image.paste(kept, right[:2])

        self.steps.append(paint)
        return height

    def _label(
        self, text: str, x: float, y: float, kind: TextKind, w: float, anchor: str = "ls"
    ) -> None:
        """One line of plain text, cut with an ellipsis to ``w``."""
        font = _font(kind.face, self.px(kind.size))
        shown = _ellipsize(_drawable(text), font, w)
        colour = kind.colour
        self.steps.append(
            lambda _i, d: d.text((x, y), shown, font=font, fill=colour, anchor=anchor)
        )

    # --- pictures -----------------------------------------------------------------

    def _open(self, data: bytes) -> Image.Image | None:
        try:
            with Image.open(io.BytesIO(data)) as opened:
                return opened.convert("RGBA")
        except (OSError, ValueError, Image.DecompressionBombError):
            return None

    def _media(self, url: Any) -> Image.Image | None:
        url = str(url or "")
        if url not in self._opened:
            name = (
                url.removeprefix(ATTACHMENT_SCHEME) if url.startswith(ATTACHMENT_SCHEME) else None
            )
            data = self.files.get(name) if name is not None else None
            self._opened[url] = self._open(data) if data is not None else None
        return self._opened[url]

    def _emoji_source(self, emoji_id: int) -> Image.Image | None:
        if emoji_id not in self._emoji:
            data = self.emoji_bytes.get(emoji_id)
            self._emoji[emoji_id] = self._open(data) if data is not None else None
        return self._emoji[emoji_id]

    def _sized(self, picture: Image.Image, height: int) -> Image.Image:
        """``picture`` ``height`` px tall, its shape kept (sources stay cached, so their
        ``id`` is a stable key)."""
        key = (id(picture), height)
        if key not in self._resized:
            width = max(1, round(picture.width * height / picture.height))
            self._resized[key] = picture.resize((width, height), Image.Resampling.LANCZOS)
        return self._resized[key]

    def _missing_emoji(self, height: int) -> Image.Image:
        """A custom emoji whose picture was not given, in a button: an empty frame the
        emoji's size, so the button keeps its real layout."""
        frame = Image.new("RGBA", (height, height))
        ImageDraw.Draw(frame).rounded_rectangle(
            (0, 0, height - 1, height - 1),
            self.px(4),
            fill=(255, 255, 255, 40),
            outline=(255, 255, 255, 110),
            width=max(1, self.px(1)),
        )
        return frame

    def _picture(
        self,
        picture: Image.Image | None,
        box: Box,
        *,
        cover: bool,
        radius: int,
        spoiler: bool = False,
        missing: str = "",
    ) -> None:
        """A picture filling ``box`` (cropped to it with ``cover``, else stretched to it)."""
        left, top, right, bottom = box
        size = (right - left, bottom - top)
        if size[0] <= 0 or size[1] <= 0:
            return
        mask = _rounded_mask(size, radius)

        def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            if picture is None:
                draw.rounded_rectangle((left, top, right - 1, bottom - 1), radius, PLACEHOLDER)
                font = _font("regular", self.px(12))
                shown = _ellipsize(missing or "image", font, size[0] - self.px(8))
                middle = (left + size[0] / 2, top + size[1] / 2)
                draw.text(middle, shown, font=font, fill=MUTED, anchor="mm")
                return
            resample = Image.Resampling.LANCZOS
            fitted = (
                ImageOps.fit(picture, size, resample) if cover else picture.resize(size, resample)
            )
            if spoiler:
                fitted = fitted.filter(ImageFilter.GaussianBlur(self.px(12)))
            image.paste(
                fitted.convert("RGB"),
                (left, top),
                ImageChops.multiply(mask, fitted.getchannel("A")),
            )
            if spoiler:
                font = _font("bold", self.px(12))
                middle = (left + size[0] / 2, top + size[1] / 2)
                chip = draw.textbbox(middle, "SPOILER", font=font, anchor="mm")
                grown = (
                    chip[0] - self.px(8),
                    chip[1] - self.px(5),
                    chip[2] + self.px(8),
                    chip[3] + self.px(5),
                )
                draw.rounded_rectangle(grown, self.px(12), fill=(0, 0, 0, 150))
                draw.text(middle, "SPOILER", font=font, fill=WHITE, anchor="mm")

        self.steps.append(paint)

    def _aspect_height(self, picture: Image.Image | None, w: int) -> int:
        if picture is None:
            return round(w * 9 / 16)
        return max(1, round(w * picture.height / picture.width))

    # --- components ---------------------------------------------------------------

    def _component(self, c: dict[str, Any], x: int, y: int, w: int) -> int:
        kind = c.get("type")
        if kind == 17:
            return self._container(c, x, y, w)
        if kind == 10:
            return self._markdown(str(c.get("content") or ""), x, y, w, BODY)
        if kind == 9:
            return self._section(c, x, y, w)
        if kind == 12:
            return self._gallery(c.get("items") or [], x, y, w)
        if kind == 11:
            return self._thumbnail(c, x, y, w)
        if kind == 13:
            url = str((c.get("file") or {}).get("url") or "")
            return self._file_box(url.removeprefix(ATTACHMENT_SCHEME), x, y, w)
        if kind == 14:
            return self._separator(c, x, y, w)
        if kind == 1:
            children = c.get("components") or []
            if children and children[0].get("type") != 2:
                return self._select(children[0], x, y, w)
            return self._buttons(children, x, y, w)
        if kind == 2:
            return self._buttons([c], x, y, w)
        if kind in (3, 5, 6, 7, 8):
            return self._select(c, x, y, w)
        return self._markdown(f"-# (component type {kind} not drawn)", x, y, w, BODY)

    def _stack(self, components: Sequence[dict[str, Any]], x: int, y: int, w: int) -> int:
        top = y
        for index, component in enumerate(components):
            y += self.px(GAP) if index else 0
            y += self._component(component, x, y, w)
        return y - top

    def _container(self, c: dict[str, Any], x: int, y: int, w: int) -> int:
        accent = _rgb(c.get("accent_color"))
        bar = self.px(4) if accent is not None else 0
        pad = self.px(12)
        first = len(self.steps)
        inner = self._stack(c.get("components") or [], x + bar + pad, y + pad, w - bar - 2 * pad)
        box = (x, y, x + w - 1, y + inner + 2 * pad - 1)
        radius = self.px(8)

        def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            if accent is not None:
                draw.rounded_rectangle(box, radius, fill=accent)
            body = (box[0] + bar, *box[1:])
            corners = (accent is None, True, True, accent is None)
            draw.rounded_rectangle(body, radius, fill=CONTAINER, corners=corners)

        self.steps.insert(first, paint)
        return inner + 2 * pad

    def _section(self, c: dict[str, Any], x: int, y: int, w: int) -> int:
        accessory = c.get("accessory") or {}
        gap = self.px(12)
        if accessory.get("type") == 11:
            side = self.px(84)
            text_h = self._stack(c.get("components") or [], x, y, w - side - gap)
            return max(text_h, self._thumbnail(accessory, x + w - side, y, side))
        if accessory.get("type") == 2:
            width = min(self._button_width(accessory), w // 2)
            text_h = self._stack(c.get("components") or [], x, y, w - width - gap)
            button_h = self.px(38)
            top = y + max(0, (text_h - button_h) // 2)
            self._button(accessory, x + w - width, top, width)
            return max(text_h, button_h)
        return self._stack(c.get("components") or [], x, y, w)

    def _thumbnail(self, c: dict[str, Any], x: int, y: int, side: int) -> int:
        """Fitted inside a square, its shape kept."""
        picture = self._media((c.get("media") or {}).get("url"))
        w, h = side, side
        if picture is not None:
            ratio = min(side / picture.width, side / picture.height)
            w, h = max(1, round(picture.width * ratio)), max(1, round(picture.height * ratio))
        box = (x + side - w, y, x + side, y + h)
        spoiler = bool(c.get("spoiler"))
        self._picture(picture, box, cover=False, radius=self.px(8), spoiler=spoiler)
        return h

    def _gallery(self, items: Sequence[dict[str, Any]], x: int, y: int, w: int) -> int:
        """Discord's arrangements: one picture at full width with its shape, more in rows
        of two or three square tiles."""
        items = items[:10]
        rows = _GALLERY_ROWS.get(len(items), ())
        gap, radius, top = self.px(4), self.px(8), y
        index = 0
        for count in rows:
            tile_w = (w - gap * (count - 1)) / count
            row = items[index : index + count]
            pictures = [self._media((item.get("media") or {}).get("url")) for item in row]
            if count == 1:
                height = self._aspect_height(pictures[0], w)
                if len(items) > 1:
                    height = min(height, round(w * 9 / 16))
            else:
                height = round(tile_w)
            for n, (item, picture) in enumerate(zip(row, pictures, strict=True)):
                left = round(x + n * (tile_w + gap))
                right = round(x + n * (tile_w + gap) + tile_w)
                url = str((item.get("media") or {}).get("url") or "")
                self._picture(
                    picture,
                    (left, y, right, y + height),
                    cover=count > 1 or len(items) > 1,
                    radius=radius,
                    spoiler=bool(item.get("spoiler")),
                    missing=url.removeprefix(ATTACHMENT_SCHEME),
                )
            index += count
            y += height + gap
        return max(0, y - gap - top)

    def _separator(self, c: dict[str, Any], x: int, y: int, w: int) -> int:
        space = self.px(12 if c.get("spacing") == 2 else 4)
        if c.get("divider", True):
            line = (x, y + space, x + w - 1, y + space + self.px(1) - 1)
            self.steps.append(lambda _i, d: d.rectangle(line, fill=DIVIDER))
        return 2 * space + self.px(1)

    def _file_box(self, name: str, x: int, y: int, w: int) -> int:
        height, pad = self.px(56), self.px(12)
        data = self.files.get(name)
        size = "missing" if data is None else _file_size(len(data))
        box = (x, y, x + w - 1, y + height - 1)
        icon = (x + pad, y + self.px(12), x + pad + self.px(24), y + self.px(44))

        def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            draw.rounded_rectangle(box, self.px(8), fill=CONTAINER, outline=CODE_EDGE)
            draw.rounded_rectangle(icon, self.px(3), fill=MUTED)

        self.steps.append(paint)
        text_x = x + pad + self.px(36)
        room = w - pad - self.px(36) - pad
        self._label(name, text_x, y + self.px(25), TextKind(15, 20, colour=LINK), room)
        self._label(size, text_x, y + self.px(43), SUBTEXT, room)
        return height

    # --- buttons and selects ------------------------------------------------------

    def _button_parts(self, c: dict[str, Any]) -> tuple[Image.Image | str | None, str]:
        """The button's emoji (a picture, or text to draw) and its label."""
        emoji = c.get("emoji") or {}
        label = str(c.get("label") or "")
        if c.get("style") == 5:
            label = f"{label} ↗" if label else "↗"
        height = self.px(18)
        if emoji.get("id"):
            picture = self._emoji_source(int(emoji["id"]))
            if picture is None:
                return self._missing_emoji(height), label
            return self._sized(picture, height), label
        name = str(emoji.get("name") or "")
        drawn = unicode_emoji(name) if name else None
        return (self._sized(drawn, height) if drawn is not None else name or None), label

    def _one_line(
        self, text: str, font: ImageFont.FreeTypeFont, width: float
    ) -> list[str | Image.Image]:
        """``text`` as plain runs and emoji pictures at the font's height, cut with an
        ellipsis to ``width``."""
        height = round(font.size * 1.2)
        runs: list[str | Image.Image] = [
            _drawable(run) if picture is None else self._sized(picture, height)
            for run, picture in _emoji_runs(text)
        ]
        if self._runs_width(runs, font) <= width:
            return runs
        ellipsis = font.getlength("…")
        while runs and self._runs_width(runs, font) + ellipsis > width:
            last = runs[-1]
            if isinstance(last, str) and len(last) > 1:
                runs[-1] = last[:-1].rstrip()
            else:
                runs.pop()
        return [*runs, "…"]

    def _runs_width(self, runs: Sequence[str | Image.Image], font: ImageFont.FreeTypeFont) -> float:
        return sum(
            font.getlength(run) if isinstance(run, str) else run.width + self.px(2) for run in runs
        )

    def _paint_runs(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        runs: Sequence[str | Image.Image],
        at: tuple[float, float],
        font: ImageFont.FreeTypeFont,
        colour: Colour,
    ) -> None:
        """Runs from ``at`` (their left end, their vertical middle)."""
        x, middle = at
        for run in runs:
            if isinstance(run, str):
                draw.text((x, middle), run, font=font, fill=colour, anchor="lm")
            else:
                image.paste(run, (round(x) + self.px(1), round(middle - run.height / 2)), run)
            x += self._runs_width([run], font)

    def _button_width(self, c: dict[str, Any]) -> int:
        emoji, label = self._button_parts(c)
        font = _font(BUTTON_LABEL.face, self.px(BUTTON_LABEL.size))
        width = self.px(12) * 2 + self._runs_width(self._one_line(label, font, 1e9), font)
        if isinstance(emoji, Image.Image):
            width += emoji.width
        elif emoji:
            width += _font("regular", self.px(18)).getlength(_drawable(emoji))
        if emoji and label:
            width += self.px(6)
        return round(width + 0.5)

    def _buttons(self, buttons: Sequence[dict[str, Any]], x: int, y: int, w: int) -> int:
        """Buttons of a row share its width equally; when a label would not fit its share,
        the row wraps (as many buttons on each line as fit)."""
        gap, height = self.px(8), self.px(38)
        needs = [self._button_width(b) for b in buttons]
        top, start = y, 0
        while start < len(buttons):
            count = len(buttons) - start
            while count > 1 and max(needs[start : start + count]) > (w - gap * (count - 1)) / count:
                count -= 1
            share = (w - gap * (count - 1)) / count
            for n in range(count):
                left = round(x + n * (share + gap))
                right = round(x + n * (share + gap) + share)
                self._button(buttons[start + n], left, y, right - left)
            start += count
            y += height + gap
        return y - gap - top

    def _button(self, c: dict[str, Any], x: int, y: int, w: int) -> None:
        height, pad, gap = self.px(38), self.px(12), self.px(6)
        colour = BUTTON_COLOURS.get(int(c.get("style") or 1), BUTTON_COLOURS[2])
        emoji, label = self._button_parts(c)
        font = _font(BUTTON_LABEL.face, self.px(BUTTON_LABEL.size))
        emoji_font = _font("regular", self.px(18))
        emoji_w = 0.0
        if isinstance(emoji, Image.Image):
            emoji_w = emoji.width
        elif emoji:
            emoji_w = emoji_font.getlength(_drawable(emoji))
        spacing = gap if emoji and label else 0
        shown = self._one_line(label, font, max(0.0, w - 2 * pad - emoji_w - spacing))
        content = emoji_w + spacing + self._runs_width(shown, font)
        left = x + (w - content) / 2
        middle = y + height / 2
        box = (x, y, x + w, y + height)

        def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            draw.rounded_rectangle((x, y, x + w - 1, y + height - 1), self.px(8), fill=colour)
            if isinstance(emoji, Image.Image):
                image.paste(emoji, (round(left), round(middle - emoji.height / 2)), emoji)
            elif emoji:
                draw.text(
                    (left, middle), _drawable(emoji), font=emoji_font, fill=WHITE, anchor="lm"
                )
            self._paint_runs(image, draw, shown, (left + emoji_w + spacing, middle), font, WHITE)

        self.steps.append(_faded(box, paint, 0.5) if c.get("disabled") else paint)

    def _select(self, c: dict[str, Any], x: int, y: int, w: int) -> int:
        height, pad = self.px(44), self.px(12)
        chosen = [str(o.get("label")) for o in c.get("options") or [] if o.get("default")]
        text = ", ".join(chosen) or str(c.get("placeholder") or "Make a selection")
        kind = TextKind(15, 20, colour=TEXT if chosen else MUTED)
        font = _font(kind.face, self.px(kind.size))
        shown = self._one_line(text, font, w - 2 * pad - self.px(24))
        box = (x, y, x + w, y + height)
        middle = y + height / 2
        cx, arm = x + w - pad - self.px(6), self.px(5)

        def paint(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            draw.rounded_rectangle(
                (x, y, x + w - 1, y + height - 1), self.px(8), fill=SELECT_BG, outline=CODE_EDGE
            )
            self._paint_runs(image, draw, shown, (x + pad, middle), font, kind.colour)
            chevron = [
                (cx - arm, middle - arm / 2),
                (cx, middle + arm / 2),
                (cx + arm, middle - arm / 2),
            ]
            draw.line(chevron, fill=TEXT, width=self.px(2), joint="curve")

        self.steps.append(_faded(box, paint, 0.5) if c.get("disabled") else paint)
        return height

    # --- legacy messages ----------------------------------------------------------

    def _referenced(self) -> set[str]:
        """Attachment names an embed shows; Discord does not show those again below."""
        names: set[str] = set()
        for embed in self.snapshot.embeds:
            for key in ("image", "thumbnail", "author", "footer"):
                part = embed.get(key) or {}
                for field in ("url", "icon_url"):
                    url = str(part.get(field) or "")
                    if url.startswith(ATTACHMENT_SCHEME):
                        names.add(url.removeprefix(ATTACHMENT_SCHEME))
        return names

    def _loose_attachments(self) -> list[str]:
        shown = self._referenced()
        return [name for name, _ in self.snapshot.attachments if name not in shown]

    def _loose_attachment(self, name: str, x: int, y: int, w: int) -> int:
        picture = self._media(ATTACHMENT_SCHEME + name)
        if picture is None:
            return self._file_box(name, x, y, w)
        # Phones cap a tall picture's height; its shape is kept.
        ratio = min(w / picture.width, self.px(400) / picture.height)
        size = (round(picture.width * ratio), round(picture.height * ratio))
        self._picture(picture, (x, y, x + size[0], y + size[1]), cover=False, radius=self.px(8))
        return size[1]

    def _embed(self, e: dict[str, Any], x: int, y: int, w: int) -> int:
        bar, pad = self.px(4), self.px(12)
        accent = _rgb(e.get("color")) or EMBED_BAR
        first = len(self.steps)
        inner_x, inner_w = x + bar + pad, w - bar - 2 * pad
        thumb = self._media((e.get("thumbnail") or {}).get("url"))
        side = self.px(80) if thumb is not None else 0
        text_w = inner_w - (side + self.px(12) if side else 0)
        top = y + pad
        parts: list[Callable[[int], int]] = []
        author = (e.get("author") or {}).get("name")
        if author:
            byline = TextKind(13, 18, "bold", HEADING)
            parts.append(lambda at: self._markdown(str(author), inner_x, at, text_w, byline))
        if e.get("title"):
            title = TextKind(15, 20, "bold", LINK if e.get("url") else HEADING)
            parts.append(lambda at: self._markdown(str(e["title"]), inner_x, at, text_w, title))
        if e.get("description"):
            description = str(e["description"])
            parts.append(lambda at: self._markdown(description, inner_x, at, text_w, EMBED_TEXT))
        if e.get("fields"):
            parts.append(lambda at: self._fields(e["fields"], inner_x, at, text_w))
        cursor = top
        for index, part in enumerate(parts):
            cursor += self.px(4) if index else 0
            cursor += part(cursor)
        if thumb is not None:
            ratio = min(side / thumb.width, side / thumb.height)
            tw, th = round(thumb.width * ratio), round(thumb.height * ratio)
            left = inner_x + inner_w - tw
            self._picture(thumb, (left, top, left + tw, top + th), cover=False, radius=self.px(4))
            cursor = max(cursor, top + th)
        image_url = (e.get("image") or {}).get("url")
        if image_url:
            picture = self._media(image_url)
            cursor += self.px(12) if cursor > top else 0
            height = self._aspect_height(picture, inner_w)
            box = (inner_x, cursor, inner_x + inner_w, cursor + height)
            missing = str(image_url).removeprefix(ATTACHMENT_SCHEME)
            self._picture(picture, box, cover=False, radius=self.px(4), missing=missing)
            cursor += height
        footer = (e.get("footer") or {}).get("text")
        stamp = e.get("timestamp")
        if footer or stamp:
            words = [str(footer)] if footer else []
            if stamp:
                try:
                    when = dt.datetime.fromisoformat(str(stamp))
                    words.append(
                        timestamp_text(int(when.timestamp()), "f", now=self.now, tz=self.tz)
                    )
                except ValueError:
                    pass
            cursor += self.px(8) if cursor > top else 0
            small = TextKind(12, 16, colour=TEXT)
            cursor += self._markdown(" • ".join(words), inner_x, cursor, inner_w, small)
        bottom = max(cursor, top) + pad
        box = (x, y, x + w - 1, bottom - 1)
        radius = self.px(4)

        def paint(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            draw.rounded_rectangle(box, radius, fill=accent)
            draw.rounded_rectangle(
                (x + bar, *box[1:]), radius, fill=CONTAINER, corners=(False, True, True, False)
            )

        self.steps.insert(first, paint)
        return bottom - y

    def _fields(self, fields: Sequence[dict[str, Any]], x: int, y: int, w: int) -> int:
        """Inline fields share a line, up to three; the others take a line each."""
        rows: list[list[dict[str, Any]]] = []
        for f in fields:
            if f.get("inline") and rows and rows[-1][-1].get("inline") and len(rows[-1]) < 3:
                rows[-1].append(f)
            else:
                rows.append([f])
        top, gap = y, self.px(8)
        name_kind = TextKind(13, 18, "bold", HEADING)
        for index, row in enumerate(rows):
            y += self.px(4) if index else 0
            share = (w - gap * (len(row) - 1)) // len(row)
            tallest = 0
            for n, f in enumerate(row):
                left = x + n * (share + gap)
                used = self._markdown(str(f.get("name") or ""), left, y, share, name_kind)
                used += self._markdown(str(f.get("value") or ""), left, y + used, share, EMBED_TEXT)
                tallest = max(tallest, used)
            y += tallest
        return y - top
