"""Masked PPO by self-play (:func:`train`): the loop, its checkpoints and ``--resume``.

An iteration plays ``games`` whole games (:mod:`kiti.rl.train.selfplay`), then runs PPO's
clipped updates on the trained seats' decisions.  Everything random comes from one seeded
NumPy generator and PyTorch's seeded generator, whose states the checkpoint keeps with the
network, the optimiser, the pool of past selves and the counters: a run stopped after any
checkpoint and resumed goes on exactly as if it had not stopped."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ...core.errors import KitiError, quoted
from ...core.files import folder_problem
from ...core.game import MAX_SEED
from ...core.load import Game, load
from ...core.registry import game_ids
from .. import learned
from ..learned import ActionHeads, Features, Network, fingerprint
from ..tensors import encoder_for
from .imitate import TEACHERS, Demos, record
from .net import PolicyValueNet
from .selfplay import HEURISTIC, LEARNER, Batch, Rollouts, lineup_for

CHECKPOINT = "checkpoint.pt"
MAX_GAMES = 100_000  # games an iteration (more would hold an iteration's decisions for hours)
POLICY = "policy"
FROZEN = "frozen"


class TrainError(KitiError, ValueError):
    """A training run that cannot start or resume."""


@dataclass
class Config:
    game: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    steps: int | None = None  # stop once this many trained decisions are gathered
    minutes: float | None = None  # or once this much training time has passed
    observation: str | None = None  # None: the --init policy's, else "info_state"
    hidden: int | None = None  # None: the --init policy's width, else 64
    games: int = 16  # games an iteration
    epochs: int = 4
    minibatch: int = 256
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    gae_lambda: float = 0.95
    heuristic_share: float = 0.3  # of the other seats, played by the heuristic
    past_share: float = 0.3  # by a past self
    pool_size: int = 4
    snapshot_every: int = 10  # iterations between past selves added to the pool
    checkpoint_every: float = 60.0  # seconds between checkpoints
    against: str | None = None  # "heuristic" or a policy path/name: a best response to it
    init: str | None = None  # start from this policy's weights
    imitate: str | None = None  # "heuristic": clone its moves before PPO starts
    imitate_games: int = 2000  # games recorded with it in every seat
    imitate_epochs: int = 10  # passes over them
    imitate_lr: float = 1e-3
    margin: float = 0.0  # weight of the score margin added to the share as the reward


class Trainer:
    def __init__(self, config: Config, out: Path, device: str | None = None, resume: bool = False) -> None:
        """A run of ``config`` writing to ``out``; ``resume``: its checkpoint's weights will
        replace the start's, so the ``--init`` policy is not read (it may be gone since)."""
        _check(config)
        self.game: Game = load(config.game, players=config.players, **config.options)
        observation, hidden = _network_of(config, self.game)
        self.config = config = replace(config, observation=observation, hidden=hidden)
        #: what the network reads (``info_state`` or ``tensor``) and its width, settled
        self.observation, self.hidden = observation, hidden
        self.out = out
        self.players = self.game.players
        #: the seats of each team of more than one seat (none: every seat plays alone)
        self.teams = [team for team in self.game.new_state(0).teams() if len(team) > 1]
        self.options = dict(self.game.options)
        encoder = encoder_for(self.game)
        layout = encoder.info_state_layout if observation == "info_state" else encoder.observation_layout
        self.layout = layout
        self.features = Features(layout)
        self.heads = list(ActionHeads(self.game).sizes)
        self.rollouts = Rollouts(self.game, observation, self.features)
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        torch.manual_seed(config.seed)
        self.net = PolicyValueNet(self.features.size, hidden, self.heads).to(self.device)
        self.frozen = self._frozen()
        if config.init and not resume:
            try:
                self.net.load(
                    _policy_weights(config.init, self.game, "--init"),
                    f"the weights of --init {quoted(config.init)}",
                )
            except ValueError as exc:
                raise TrainError(f"{exc}: give --hidden and --observation as it was trained") from None
        self.opt = torch.optim.Adam(self.net.parameters(), lr=config.lr, eps=1e-5)
        self.imitation_opt = torch.optim.Adam(self.net.parameters(), lr=config.imitate_lr)
        self.imitated = 0  # imitation epochs done
        self.demos: Demos | None = None
        self.rng = np.random.default_rng(config.seed)
        self.pool: dict[str, dict[str, np.ndarray]] = {}
        self.iteration = self.steps = self.games = 0
        self.elapsed = 0.0
        self.history: list[dict[str, Any]] = []

    def _frozen(self) -> dict[str, np.ndarray] | None:
        against = self.config.against
        if against is None or against == HEURISTIC:
            return None
        return _policy_weights(against, self.game, "--against")

    # -- checkpoints --------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        return {
            "config": asdict(self.config),
            "net": self.net.state_dict(),
            "opt": self.opt.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "pool": self.pool,
            "counters": [self.iteration, self.steps, self.games, self.elapsed],
            "imitation": {"epochs": self.imitated, "opt": self.imitation_opt.state_dict()},
            "history": self.history,
        }

    def save(self) -> None:
        """The checkpoint (written whole, then renamed: a stop mid-write loses nothing) and
        the policy as it stands (``policy.npz``/``.json``, playable at once)."""
        self.out.mkdir(parents=True, exist_ok=True)
        tmp = self.out / (CHECKPOINT + ".tmp")
        torch.save(self.state(), tmp)
        os.replace(tmp, self.out / CHECKPOINT)
        learned.write(self.out / POLICY, self.meta(), self.net.export())

    def restore(self) -> None:
        path = self.out / CHECKPOINT
        if not path.is_file():
            raise TrainError(f"nothing to resume: there is no {CHECKPOINT} in {quoted(str(self.out))}")
        data = _read_checkpoint(path)
        _check_same_run(_saved_config(data), self, self.out)
        self.net.load_state_dict(data["net"])
        self.opt.load_state_dict(data["opt"])
        self.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        self.pool = data["pool"]
        self.iteration, self.steps, self.games, self.elapsed = data["counters"]
        self.history = data["history"]
        imitation = data.get("imitation", {"epochs": 0})
        self.imitated = imitation["epochs"]
        if "opt" in imitation:
            self.imitation_opt.load_state_dict(imitation["opt"])

    def meta(self) -> dict[str, Any]:
        c = self.config
        return {
            "game": self.game.id,
            "players": self.players,
            "options": self.options,
            "observation": c.observation,
            "layout": fingerprint(self.layout),
            "heads": self.heads,
            "actions": "flat"
            if len(self.heads) == 1 and self.heads[0] == self.game.codec.size
            else "factored",
            "hidden": c.hidden,
            "training": {
                "algorithm": _algorithm(c),
                "seed": c.seed,
                "iterations": self.iteration,
                "decisions": self.steps,
                "games": self.games,
                "seconds": round(self.elapsed, 1),
                "config": asdict(c),
                "torch": torch.__version__,
            },
        }

    # -- the loop -----------------------------------------------------------------------

    def done(self) -> bool:
        c = self.config
        if c.steps is not None and self.steps >= c.steps:
            return True
        return c.minutes is not None and self.elapsed >= c.minutes * 60

    def imitating(self) -> bool:
        c = self.config
        return c.imitate is not None and self.imitated < c.imitate_epochs

    def run(self, progress: Callable[[Trainer], None] | None = None) -> None:
        last_save = time.monotonic()
        while self.imitating() or not self.done():
            start = time.monotonic()
            self.imitate() if self.imitating() else self.step()
            self.elapsed += time.monotonic() - start
            if progress:
                progress(self)
            if time.monotonic() - last_save >= self.config.checkpoint_every:
                self.save()
                last_save = time.monotonic()
        self.save()

    def step(self) -> None:
        """One iteration: play, then update."""
        c = self.config
        current = Network(self.net.export(), len(self.heads))
        nets = {LEARNER: current, **{k: Network(w, len(self.heads)) for k, w in self.pool.items()}}
        against = c.against
        if self.frozen is not None:
            nets[FROZEN] = Network(self.frozen, len(self.heads))
            against = FROZEN
        keys = sorted(self.pool)
        lineups = [
            lineup_for(self.players, self.rng, keys, against, (c.heuristic_share, c.past_share), self.teams)
            for _ in range(c.games)
        ]
        seeds = [int(s) for s in self.rng.integers(2**31, size=c.games)]
        batch = Batch()
        outcomes = self.rollouts.play(lineups, seeds, nets, self.rng, batch, (1.0, c.gae_lambda), c.margin)
        losses = self.update(batch)
        self.iteration += 1
        self.steps += len(batch)
        self.games += len(outcomes)
        if self.iteration % c.snapshot_every == 0 and against is None:
            self.pool[f"past{self.iteration}"] = current.w
            while len(self.pool) > c.pool_size:
                del self.pool[min(self.pool, key=lambda k: int(k[4:]))]
        self.history.append(
            {"iteration": self.iteration, "decisions": self.steps, **losses, **_shares(outcomes)}
        )

    def imitate(self) -> None:
        """One epoch of imitation (the demonstrations recorded first, from the seed alone):
        cross-entropy of the teacher's moves, squared error of the value against the share."""
        c = self.config
        dev = self.device
        if self.demos is None:
            self.demos = record(self.game, self.observation, self.features, c.imitate_games, c.seed)
            self._demo_tensors = (
                torch.as_tensor(self.demos.x, device=dev),
                torch.as_tensor(self.demos.share, device=dev),
                _head_arrays(self.demos.batch, len(self.heads), dev),
            )
        batch = self.demos.batch
        x, share, heads = self._demo_tensors
        stats = {"imitation_loss": 0.0, "value_loss": 0.0, "chosen_p": 0.0}
        order = self.rng.permutation(len(batch))
        count = 0
        for lo in range(0, len(batch), c.minibatch):
            mb = torch.as_tensor(np.sort(order[lo : lo + c.minibatch]), device=dev)
            logp, _, value = self._evaluate(x[mb], heads, mb)
            nll = -logp.mean()
            value_loss = ((value - share[mb]) ** 2).mean()
            self.imitation_opt.zero_grad()
            (nll + c.value_coef * value_loss).backward()  # type: ignore[no-untyped-call]
            self.imitation_opt.step()
            stats["imitation_loss"] += nll.item()
            stats["value_loss"] += value_loss.item()
            stats["chosen_p"] += logp.exp().mean().item()
            count += 1
        self.imitated += 1
        self.history.append(
            {"imitation_epoch": self.imitated, "demonstrations": len(batch)}
            | {k: round(v / max(count, 1), 5) for k, v in stats.items()}
        )

    def update(self, batch: Batch) -> dict[str, float]:
        c = self.config
        n = len(batch)
        if not n:
            return {}
        dev = self.device
        x = torch.as_tensor(np.stack(batch.x), device=dev)
        old_logp = torch.as_tensor(np.array(batch.logp, np.float32), device=dev)
        adv = np.array(batch.advantage, np.float32)
        ret = torch.as_tensor(np.array(batch.ret, np.float32), device=dev)
        adv_t = torch.as_tensor((adv - adv.mean()) / (adv.std() + 1e-8), device=dev)
        heads = _head_arrays(batch, len(self.heads), dev)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0}
        count = 0
        for _ in range(c.epochs):
            order = self.rng.permutation(n)
            for lo in range(0, n, c.minibatch):
                mb = torch.as_tensor(np.sort(order[lo : lo + c.minibatch]), device=dev)
                logp, entropy, value = self._evaluate(x[mb], heads, mb)
                ratio = torch.exp(logp - old_logp[mb])
                a = adv_t[mb]
                policy_loss = -torch.min(ratio * a, ratio.clamp(1 - c.clip, 1 + c.clip) * a).mean()
                value_loss = ((value - ret[mb]) ** 2).mean()
                loss = policy_loss + c.value_coef * value_loss - c.entropy * entropy.mean()
                self.opt.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.opt.step()
                stats["policy_loss"] += policy_loss.item()
                stats["value_loss"] += value_loss.item()
                stats["entropy"] += entropy.mean().item()
                count += 1
        return {k: round(v / max(count, 1), 5) for k, v in stats.items()}

    def _evaluate(
        self, x: torch.Tensor, heads: list[dict[str, torch.Tensor]], mb: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.net.trunk(x)
        value = self.net.value(h)
        logp = torch.zeros(len(mb), device=x.device)
        entropy = torch.zeros(len(mb), device=x.device)
        for k, arrays in enumerate(heads):
            used = arrays["used"][mb]
            if not bool(used.any()):
                continue
            rows = torch.nonzero(used)[:, 0]
            legal = arrays["legal"][mb][rows]
            chosen = arrays["chosen"][mb][rows]
            prefix = arrays["prefix"][mb][rows]
            lp = self.net.head(h[rows], k, prefix, legal)
            logp = logp.index_add(0, rows, lp.gather(1, chosen[:, None])[:, 0])
            p = lp.exp() * (legal >= 0)
            entropy = entropy.index_add(0, rows, -(p * lp.clamp(min=-1e4)).sum(-1))
        return logp, entropy, value


def _head_arrays(batch: Batch, heads: int, dev: torch.device) -> list[dict[str, torch.Tensor]]:
    """Per head: which decisions used it, their legal tokens (padded with -1), the position of
    the chosen one among them, and the tokens chosen before it."""
    n = len(batch)
    out = []
    for k in range(heads):
        width = max((len(legal[k]) for legal in batch.legal if len(legal) > k), default=1)
        legal = np.full((n, width), -1, np.int64)
        chosen = np.zeros(n, np.int64)
        prefix = np.zeros((n, max(k, 1)), np.int64)
        used = np.zeros(n, bool)
        for i, (tokens, legals) in enumerate(zip(batch.tokens, batch.legal)):
            if len(legals) > k:
                used[i] = True
                legal[i, : len(legals[k])] = legals[k]
                chosen[i] = int(np.flatnonzero(legals[k] == tokens[k])[0])
                prefix[i, :k] = tokens[:k]
        out.append(
            {
                name: torch.as_tensor(a, device=dev)
                for name, a in {"legal": legal, "chosen": chosen, "prefix": prefix, "used": used}.items()
            }
        )
    return out


def _shares(outcomes: list[dict[str, Any]]) -> dict[str, float]:
    """The learner's mean share of the victory: against the heuristic (games with one) and
    over all games."""
    vs_h: list[float] = []
    every: list[float] = []
    for o in outcomes:
        mine = [r for a, r in zip(o["lineup"], o["returns"]) if a == LEARNER]
        share = float(np.mean(mine))
        every.append(share)
        if HEURISTIC in o["lineup"]:
            vs_h.append(share)
    out = {"share": round(float(np.mean(every)), 4)}
    if vs_h:
        out["share_vs_heuristic"] = round(float(np.mean(vs_h)), 4)
    return out


def _check(c: Config) -> None:
    """Refuse settings that cannot train (before anything is built)."""
    if c.imitate is not None and c.imitate not in TEACHERS:
        raise TrainError(f"--imitate takes {', '.join(TEACHERS)}, not {quoted(c.imitate)}")
    if c.imitate and min(c.imitate_games, c.imitate_epochs) < 1:
        raise TrainError("imitation needs at least one game and one epoch")
    if c.games < 1:
        raise TrainError(f"--games must be at least 1 an iteration, not {quoted(c.games)}")
    if c.games > MAX_GAMES:
        raise TrainError(f"--games must be at most {MAX_GAMES:,} an iteration, not {quoted(c.games)}")
    if not 0 <= c.seed < MAX_SEED:
        raise TrainError(f"--seed must be 0 to 2**63-1, not {quoted(c.seed)}")
    if c.steps is not None and c.steps < 0:
        raise TrainError(f"--steps must be 0 or more, not {quoted(c.steps)}")
    if c.minutes is not None and not c.minutes > 0:
        raise TrainError(f"--minutes must be above 0, not {quoted(c.minutes)}")
    if c.minutes is not None and c.minutes == math.inf:
        raise TrainError("--minutes must be a finite number (stop an endless run with Ctrl-C)")
    if not 0 <= c.checkpoint_every < math.inf:
        raise TrainError(f"--checkpoint-every must be 0 seconds or more, not {quoted(c.checkpoint_every)}")
    if c.hidden is not None and not 1 <= c.hidden <= 4096:
        raise TrainError(f"--hidden must be 1 to 4096 units, not {quoted(c.hidden)}")
    if c.observation not in (None, "info_state", "tensor"):
        raise TrainError(f"--observation must be info_state or tensor, not {quoted(c.observation)}")
    if not 0 <= c.margin <= 10:
        raise TrainError(f"--margin must be 0 to 10, not {quoted(c.margin)}")
    for lr in (c.lr, c.imitate_lr):
        if not lr > 0:
            raise TrainError(f"the learning rate must be above 0, not {lr}")
        if lr == math.inf:
            raise TrainError("the learning rate must be a finite number, not inf")


#: The settings that make a run what it is: a resumed run must have its checkpoint's, or it
#: would not go on as the unbroken run.  The others (the budget, how often to checkpoint) may
#: change; where the updates run is given anew each time (``device``).
RUN_SETTINGS = tuple(f.name for f in fields(Config) if f.name not in ("steps", "minutes", "checkpoint_every"))
#: Run settings whose ``None`` means "not said": a resumed run takes the checkpoint's.
UNSAID = ("players", "observation", "hidden", "against", "init", "imitate")


def _as_saved(c: Config, out: Path) -> Config:
    """``c`` with the checkpoint's settings in ``out`` where ``c`` leaves them unsaid (None:
    the players, the network's input and width, ``against``, ``init``, ``imitate``) and its
    budget where ``c`` gives none; restore refuses whatever else differs."""
    path = out / CHECKPOINT
    if not path.is_file():
        raise TrainError(f"nothing to resume: there is no {CHECKPOINT} in {quoted(str(out))}")
    saved = _saved_config(_read_checkpoint(path))
    unsaid = {name: getattr(saved, name) for name in UNSAID if getattr(c, name) is None}
    if c.steps is None and c.minutes is None:
        unsaid.update(steps=saved.steps, minutes=saved.minutes)
    return replace(c, **unsaid)


def resume_settings(game: str, given: dict[str, Any], out: str | Path) -> Config:
    """The settings of ``kiti train --resume``: those given (by name) over the checkpoint's in
    ``out``, and the budget given, else the checkpoint's.  A given setting that differs from
    the checkpoint's is refused when the run resumes, naming it."""
    path = Path(out) / CHECKPOINT
    if not path.is_file():
        return Config(game=game, **given)  # (restore says there is nothing to resume)
    saved = _saved_config(_read_checkpoint(path))
    if given.get("steps") is not None or given.get("minutes") is not None:
        given = {"steps": None, "minutes": None, **given}
    return replace(saved, game=game, **given)


def _saved_config(data: dict[str, Any]) -> Config:
    """The settings a checkpoint was trained with (its players the table's where left to it)."""
    known = {f.name for f in fields(Config)}
    saved = Config(**{k: v for k, v in data["config"].items() if k in known})
    if saved.players is None:  # the game's default seat count
        saved.players = load(saved.game, **saved.options).players
    return saved


def _check_same_run(saved: Config, trainer: Trainer, out: Path) -> None:
    """Refuse to resume with a run setting other than the checkpoint's, naming the first."""
    mine = replace(trainer.config, players=trainer.players)
    for name in RUN_SETTINGS:
        was, now = getattr(saved, name), getattr(mine, name)
        if name == "options":
            was = dict(load(saved.game, players=saved.players, **saved.options).options)
            now = trainer.options
        if was != now:
            raise TrainError(
                f"the checkpoint in {quoted(str(out))} was trained with {name}={getattr(saved, name)!r}, "
                f"not {getattr(mine, name)!r}: resume with the checkpoint's settings (one left out is "
                "taken from it), or start a new run in another folder"
            )


def _check_out(out: Path) -> None:
    """Refuse a folder that could not be made or written (a file in the way, a name the
    system refuses), before anything is trained."""
    problem = folder_problem(out)
    if problem is not None:
        raise TrainError(f"{quoted(str(out))} cannot be a folder: {problem}")


def _read_checkpoint(path: Path) -> dict[str, Any]:
    """A run's checkpoint as written; TrainError where it cannot be read back."""
    try:
        data = torch.load(path, weights_only=False)
        if not isinstance(data, dict) or "config" not in data:
            raise ValueError("not a kiti train checkpoint")
    except Exception as exc:  # a damaged or foreign file: pickle, zip and torch all raise their own
        raise TrainError(
            f"the checkpoint {quoted(str(path))} cannot be read ({type(exc).__name__}): "
            "resume from another folder or start a new run"
        ) from None
    return data


def _network_of(c: Config, game: Game) -> tuple[str, int]:
    """What the network reads and its width: ``c``'s, else those of the ``--init`` policy
    where the run starts from one (its weights fit only a network of its shape), else the
    information state and 64 units."""
    start = (
        _resolve(c.init, game, "--init") if c.init and (c.hidden is None or c.observation is None) else None
    )
    observation = c.observation or (start.observation if start else "info_state")
    hidden = c.hidden or (int(start.net.w["w1"].shape[1]) if start else 64)
    return observation, hidden


def _algorithm(c: Config) -> str:
    start = (
        f"imitation of the {c.imitate} ({c.imitate_games} games, {c.imitate_epochs} epochs), then "
        if c.imitate
        else ""
    )
    reward = f"; reward: the share plus {c.margin:g} x the score margin" if c.margin else ""
    if c.against:
        return f"{start}masked PPO, a best response to {c.against} (frozen in every other seat){reward}"
    return f"{start}masked PPO, self-play against a pool of past selves and the heuristic{reward}"


def _unprefixed(spec: str) -> str:
    """A policy as ``--against``/``--init`` name it, also written as its bot spec (``policy:miaui``)."""
    return spec.strip().removeprefix("policy:")


def _resolve(spec: str, game: Game, flag: str) -> learned.LearnedPolicy:
    """The learned policy ``flag`` (``--against``, ``--init``) names; TrainError saying what
    it takes where the name is no policy's (``--against random`` is no game's policy)."""
    target = _unprefixed(spec)
    if not learned.is_path(target) and target.partition(".")[0] not in game_ids():
        takes = "heuristic or a learned policy" if flag == "--against" else "a learned policy"
        raise TrainError(
            f"{flag} takes {takes} (policy:{game.id}, {game.id}.NAME, or a training run's folder "
            f"written with a /), not {quoted(spec)}"
        )
    return learned.resolve(target, game)


def _policy_weights(spec: str, game: Game, flag: str) -> dict[str, np.ndarray]:
    """The float32 weights of a policy (a saved file, or a shipped name) that plays ``game``."""
    policy = _resolve(spec, game, flag)
    return {k: v.astype(np.float32) for k, v in policy.net.w.items()}


def train(
    config: Config,
    out: str | Path,
    resume: bool = False,
    progress: Callable[[Trainer], None] | None = None,
    device: str | None = None,
) -> Trainer:
    """Train (or resume) a run in ``out``; returns the trainer once the run's budget is spent.
    A resumed run takes the checkpoint's settings that ``config`` leaves unsaid (None) and
    refuses any other that differs from the checkpoint's (:data:`RUN_SETTINGS`)."""
    _check_out(Path(out))
    if resume:
        config = _as_saved(config, Path(out))
    if config.steps is None and config.minutes is None:
        raise TrainError("say how long to train: steps or minutes")
    torch.set_num_threads(1)
    if device is not None and device.partition(":")[0] not in ("cpu", "cuda"):
        raise TrainError(f"--device must be cpu or cuda (cuda:N), not {quoted(device)}")
    if device is not None and device.startswith("cuda") and not torch.cuda.is_available():
        raise TrainError(f"--device {quoted(device)}: this PyTorch sees no CUDA GPU (use --device cpu)")
    trainer = Trainer(config, Path(out), device, resume=resume)
    if resume:
        trainer.restore()
    elif (trainer.out / CHECKPOINT).exists():
        raise TrainError(
            f"{quoted(str(out))} holds a run already: resume it (--resume) or pick another folder"
        )
    trainer.run(progress)
    (trainer.out / "history.json").write_text(json.dumps(trainer.history) + "\n")
    return trainer
