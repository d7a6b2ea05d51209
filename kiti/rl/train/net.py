"""The policy-and-value network in PyTorch, with the weights' names and shapes that
:class:`kiti.rl.learned.Network` reads in NumPy (the two forward passes agree: tested)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch
from torch import nn

#: A head with more tokens than this reads its logits through a projection of this rank
#: (MOTU's 11,772 positions), so the file stays small.
WIDE_HEAD = 256
WIDE_RANK = 8


def head_rank(tokens: int, hidden: int) -> int:
    return hidden if tokens <= WIDE_HEAD else WIDE_RANK


class PolicyValueNet(nn.Module):
    """Trunk (two ReLU layers), value head, and one head per move step (see the module doc)."""

    def __init__(self, inputs: int, hidden: int, heads: Sequence[int]) -> None:
        super().__init__()
        self.heads = list(heads)
        p = nn.ParameterDict()
        p["w1"] = nn.Parameter(_ortho(inputs, hidden, np.sqrt(2)))
        p["b1"] = nn.Parameter(torch.zeros(hidden))
        p["w2"] = nn.Parameter(_ortho(hidden, hidden, np.sqrt(2)))
        p["b2"] = nn.Parameter(torch.zeros(hidden))
        p["wv"] = nn.Parameter(_ortho(hidden, 1, 1.0))
        p["bv"] = nn.Parameter(torch.full((1,), 0.5))
        for k, tokens in enumerate(self.heads):
            rank = head_rank(tokens, hidden)
            p[f"p{k}"] = nn.Parameter(_ortho(hidden, rank, 1.0))
            p[f"e{k}"] = nn.Parameter(_ortho(tokens, rank, 0.01))
            p[f"o{k}"] = nn.Parameter(torch.zeros(tokens))
            if k < len(self.heads) - 1:
                p[f"c{k}"] = nn.Parameter(_ortho(tokens, hidden, 0.1))
        self.p = p

    def trunk(self, x: torch.Tensor) -> torch.Tensor:
        p = self.p
        h = torch.relu(x @ p["w1"] + p["b1"])
        return torch.relu(h @ p["w2"] + p["b2"])

    def value(self, h: torch.Tensor) -> torch.Tensor:
        return (h @ self.p["wv"] + self.p["bv"])[:, 0]  # type: ignore[no-any-return]

    def head(self, h: torch.Tensor, k: int, prefix: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
        """Head ``k``'s log-probabilities over each row's ``legal`` tokens (-1: padding, given
        a log-probability of -1e9), after the tokens ``prefix`` (rows, k)."""
        p = self.p
        for j in range(k):
            h = h + p[f"c{j}"][prefix[:, j]]
        z = h @ p[f"p{k}"]
        tokens = legal.clamp(min=0)
        logits = (p[f"e{k}"][tokens] * z[:, None, :]).sum(-1) + p[f"o{k}"][tokens]
        logits = logits.masked_fill(legal < 0, -1e9)
        return torch.log_softmax(logits, dim=-1)

    def export(self) -> dict[str, np.ndarray]:
        """The weights as float32 NumPy arrays (what :class:`kiti.rl.learned.Network` reads)."""
        return {k: v.detach().cpu().numpy().astype(np.float32).copy() for k, v in self.p.items()}

    def load(self, weights: Mapping[str, np.ndarray], what: str = "the weights") -> None:
        """Copy ``weights`` (as :meth:`export` gives them) in; a ValueError naming ``what``
        where they are another network's shape, before anything is copied."""
        for k, v in self.p.items():
            shape = tuple(np.shape(weights[k])) if k in weights else None
            if shape != tuple(v.shape):
                raise ValueError(
                    f"{what} do not fit this network: its {k} is {shape or 'missing'}, "
                    f"not {tuple(v.shape)} (another width, tensor or game)"
                )
        with torch.no_grad():
            for k, v in self.p.items():
                v.copy_(torch.as_tensor(np.asarray(weights[k], np.float32)))


def _ortho(rows: int, cols: int, gain: float) -> torch.Tensor:
    w = torch.empty(rows, cols)
    nn.init.orthogonal_(w, gain=gain)
    return w
