"""Schema migrations, applied in order; the file number is the PRAGMA user_version it brings."""
