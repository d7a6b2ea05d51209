"""MOTU (Scott Almes): build an island by overlapping cards.

So far this package holds the card data (``cards``), the island model (``island``), the Sources of
harmony (``sources``) and drawing (``draw``). It is not registered as a game yet.
"""
