"""Alembic migrations of the server's database, applied automatically at start."""
