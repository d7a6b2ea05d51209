"""Simulation: benchmarks, tournaments, statistics and plots."""
