"""Flatten a message to the text a user would read, for assertions and failure output."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any


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


def component_lines(components: Iterable[dict[str, Any]]) -> Iterator[str]:
    """Labels, placeholders and option labels of buttons, selects and text displays."""
    for component in components:
        kind = component.get("type")
        if kind == 2:
            label = component.get("label") or (component.get("emoji") or {}).get("name") or ""
            disabled = " (disabled)" if component.get("disabled") else ""
            yield f"[button] {label}{disabled}"
        elif kind in (3, 5, 6, 7, 8):
            yield f"[select] {component.get('placeholder') or component.get('custom_id')}"
            for option in component.get("options") or []:
                yield f"[option] {option.get('label', '')}"
                if option.get("description"):
                    yield f"[option description] {option['description']}"
        elif kind == 4:
            yield f"[text input] {component.get('label') or component.get('placeholder') or ''}"
        elif kind == 10:
            yield f"[text] {component.get('content', '')}"
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
    lines: list[str] = [content] if content else []
    for embed in embeds:
        lines.extend(embed_lines(embed))
    lines.extend(component_lines(components))
    lines.extend(f"[attachment] {name}" for name in attachment_names)
    return "\n".join(lines)
