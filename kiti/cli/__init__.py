"""Kiti's command line (``kiti``)."""
