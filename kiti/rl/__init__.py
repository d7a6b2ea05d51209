"""Kiti for reinforcement learning (the optional extra ``[rl]``: numpy, gymnasium, pettingzoo,
open-spiel): tensors of a seat's sight (:mod:`kiti.rl.tensors`), their speed
(:mod:`kiti.rl.bench`).  See ``docs/rl.md``.

Importing :mod:`kiti.rl` imports nothing else; each face is its own module."""
