"""Timing scripts, each comparing this library with a peer in the same run.

Run them as modules from the repository root, e.g. ``python -m benchmarks.bss``
(``make bench`` runs all three).
"""
