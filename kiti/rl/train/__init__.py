"""Training learned players (the ``[train]`` extra: PyTorch): masked PPO by self-play against
a pool of past selves and Kiti's heuristic.  ``kiti train`` runs it; what it writes is played
with NumPy only by :mod:`kiti.rl.learned`.  See docs/rl.md, "Training"."""

from __future__ import annotations

from .ppo import Config, Trainer, TrainError, train

__all__ = ["Config", "TrainError", "Trainer", "train"]
