"""Flatten a message to the text a user would read, for assertions and failure output.

Content and text displays read as themselves; everything else is a `[kind] ...` line. A
custom emoji reads `:name:`, as in the Discord client's text, so transcripts do not depend
on emoji ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tests.discord_emulator.component_media import media_name

_CUSTOM_EMOJI = re.compile(r"<a?:(?P<name>\w+):\d+>")


def emoji_text(text: str) -> str:
    """`<:name:id>` and `<a:name:id>` as `:name:`."""
    return _CUSTOM_EMOJI.sub(r":\g<name>:", text)


def emoji_name(emoji: Any) -> str:
    """A component's emoji: a custom one as `:name:`, a Unicode one as itself."""
    if not isinstance(emoji, dict) or not emoji.get("name"):
        return ""
    name = str(emoji["name"])
    return f":{name}:" if emoji.get("id") else name


def embed_lines(embed: dict[str, Any]) -> Iterator[str]:
    author = (embed.get("author") or {}).get("name")
    if author:
        yield f"[embed author] {author}"
    if embed.get("title"):
        yield f"[embed title] {embed['title']}"
    if embed.get("description"):
        yield f"[embed description] {embed['description']}"
    for field in embed.get("fields") or []:
        yield f"[embed field] {field.get('name', '')}: {field.get('value', '')}"
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        yield f"[embed footer] {footer}"


def _labelled(emoji: Any, label: Any) -> str:
    return " ".join(part for part in (emoji_name(emoji), str(label or "")) if part)


def _media_line(kind: str, media: Any, description: Any) -> str:
    url = media.get("url") if isinstance(media, dict) else None
    line = f"[{kind}] {media_name(url if isinstance(url, str) else '')}"
    return f"{line} — {description}" if description else line


def component_lines(components: Iterable[dict[str, Any]]) -> Iterator[str]:
    """Labels, placeholders and options of buttons and selects; the text, pictures, files
    and separators of a components V2 layout; a modal's labels and inputs."""
    for component in components:
        kind = component.get("type")
        if kind == 2:
            disabled = " (disabled)" if component.get("disabled") else ""
            yield f"[button] {_labelled(component.get('emoji'), component.get('label'))}{disabled}"
        elif kind in (3, 5, 6, 7, 8):
            yield f"[select] {component.get('placeholder') or component.get('custom_id')}"
            for option in component.get("options") or []:
                yield f"[option] {_labelled(option.get('emoji'), option.get('label', ''))}"
                if option.get("description"):
                    yield f"[option description] {option['description']}"
        elif kind == 4:
            yield f"[text input] {component.get('label') or component.get('placeholder') or ''}"
        elif kind == 10:
            yield str(component.get("content", ""))
        elif kind == 11:
            yield _media_line("thumbnail", component.get("media"), component.get("description"))
        elif kind == 12:
            for item in component.get("items") or []:
                yield _media_line("image", item.get("media"), item.get("description"))
        elif kind == 13:
            yield _media_line("file", component.get("file"), None)
        elif kind == 14:
            yield "[separator]"
        elif kind == 18:
            yield f"[label] {component.get('label', '')}"
            if component.get("description"):
                yield f"[label description] {component['description']}"
        inner = component.get("component")
        if isinstance(inner, dict):
            yield from component_lines([inner])
        yield from component_lines(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield from component_lines([accessory])


def message_text(
    content: str,
    embeds: Sequence[dict[str, Any]],
    components: Sequence[dict[str, Any]],
    attachment_names: Sequence[str],
) -> str:
    """`attachment_names`: the attachments the reader sees (in a V2 message, only those its
    components show: `component_media.shown_attachments`)."""
    lines: list[str] = [content] if content else []
    for embed in embeds:
        lines.extend(embed_lines(embed))
    lines.extend(component_lines(components))
    lines.extend(f"[attachment] {name}" for name in attachment_names)
    return "\n".join(emoji_text(line) for line in lines)
