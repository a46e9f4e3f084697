"""Pieces of bench/cluster_load.py: the players (:mod:`.players`), the worker process that
hosts a match service and some of the seats (:mod:`.worker`), the PostgreSQL server and
CPU readings from /proc (:mod:`.server`), and the check of what the databases hold
(:mod:`.audit`)."""
