"""MOTU's card data (JSON files only; ``kiti.games.motu.cards`` loads and checks them).

This folder is a package so that its JSON files ship with Kiti like every other data file.
"""
