"""Why a database cannot be used; start-up stops with these and leaves the file untouched."""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's own errors."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        self.path = path
        self.found = found
        self.supported = supported
        super().__init__(
            f"database {path!r} has schema version {found}, but this bot knows only up to "
            f"{supported}; upgrade the bot (the database was not modified)"
        )


class CorruptDatabase(StoreError):
    """The file is not a readable SQLite database, or fails its integrity check."""

    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(
            f"database {path!r} is corrupt or not a SQLite database ({detail}); "
            "restore it from a backup (the file was not modified)"
        )


class CannotOpenDatabase(StoreError):
    """The path cannot hold a database: a missing folder, a directory, no permission to write."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot open database {path!r}: {reason}")


class StorageFull(StoreError):
    """The disk (SQLite's SQLITE_FULL) has no room for a write; the write was not made."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"database {path!r} cannot grow: the disk is full (nothing was written)")


class DatabaseFailure(StoreError):
    """SQLite failed while opening or migrating the database for another reason (an I/O
    error, a lock held too long); a migration under way was rolled back."""

    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"database {path!r} could not be opened and migrated: {detail}")


class MatchConflict(StoreError):
    """A write found its match no longer as the caller saw it (another process, or a
    repeated write, moved it on first); nothing was written."""

    def __init__(self, match_id: int, expected: str, found: str) -> None:
        self.match_id = match_id
        self.expected = expected
        self.found = found
        super().__init__(
            f"match {match_id} changed under the write: expected {expected}, found {found}"
        )


class DatabaseUnavailable(StoreError):
    """The database did not answer in time, lost the connection, or cannot take one now
    (stalled, restarting, unreachable).

    ``outcome_unknown`` is False when nothing was written (the call failed before its
    commit was sent, or it only read). It is True when a write's commit had been sent and
    no answer came: the write may or may not have been made, and only reading the database
    again tells which.
    """

    def __init__(self, where: str, reason: str, *, outcome_unknown: bool = False) -> None:
        self.where = where
        self.reason = reason
        self.outcome_unknown = outcome_unknown
        outcome = (
            "the write may or may not have been made" if outcome_unknown else "nothing was written"
        )
        super().__init__(f"database {where!r} is not answering ({reason}); {outcome}")


class DuplicateKey(StoreError):
    """A write whose row is already there (a round paired twice, a player joining twice);
    nothing of it was written."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"already stored: {what}")
