"""Benchmarks: each module at this level is a script that prints its figures."""
