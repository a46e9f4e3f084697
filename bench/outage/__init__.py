"""The database outage benchmark's pieces (bench/db_outage.py runs them)."""
