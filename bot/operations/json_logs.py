"""Logs as one JSON object per line (``[logging] format = "json"``), for a log collector.

Each line holds ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, ``exc_info``
when the record carries an exception, and ``match_id``, ``guild_id``, ``shard_id`` where
known: given with ``extra=`` on the call, or bound for the task handling an interaction
(:func:`bind_log_fields`; a contextvar, so each task has its own). The standard library's
json writes the line: a message with quotes or newlines stays one valid line.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
from typing import Any

CONTEXT_FIELDS = ("match_id", "guild_id", "shard_id")

_bound: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "hanamikoji_log_fields", default=None
)


def bind_log_fields(**fields: int | None) -> None:
    """Add ``fields`` (of :data:`CONTEXT_FIELDS`) to every record the current task logs."""
    known = {k: v for k, v in fields.items() if k in CONTEXT_FIELDS and v is not None}
    if known:
        _bound.set({**(_bound.get() or {}), **known})


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        bound = _bound.get() or {}
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is None:
                value = bound.get(name)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc_info"] = record.exc_text
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str, format: str) -> None:
    """The root logger's level and format: ``"text"`` lines or ``"json"`` objects."""
    handler = logging.StreamHandler()
    formatter = JsonFormatter() if format == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(formatter)
    logging.basicConfig(level=level, handlers=[handler])
