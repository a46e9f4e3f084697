"""The PostgreSQL schema as ordered ``NNNN_*.sql`` files (applied by :mod:`..connection`)."""
