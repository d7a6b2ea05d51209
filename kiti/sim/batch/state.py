"""Miaui over many games at once: the batch state, :func:`init` and :func:`step`.

Every field of :class:`BatchState` is a NumPy array whose first axis is the game; seats,
spaces and card slots follow.  A card is its index in :data:`~.tables.CODES`; an action is
the engine's integer action (``n - 1`` dives diver ``n``, ``ROUNDS + i`` takes ``CODES[i]``).
Games move on independently: a game whose taker is ordering a No Fighting catch spends its
steps on takes while the others dive.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.errors import OptionError, SetupError, quoted
from ...games.miaui import rules as R
from . import tables as T

_SEAT = np.int8


@dataclass
class BatchState:
    """N games of Miaui (pgx's shape: a dataclass of arrays, game first)."""

    players: int
    no_fighting: np.ndarray  # [N] bool
    taker_chooses: np.ndarray  # [N] bool: No Fighting takers order their catches
    open_baskets: np.ndarray  # [N] bool (what seats see only; play is the same)
    stock: np.ndarray  # [N, STOCKED] cards in the order they are stocked, three a round
    burned: np.ndarray  # [N] the burned card
    round: np.ndarray  # [N] 1..ROUNDS
    hands: np.ndarray  # [N, P] int16 bit masks: bit n-1 set while diver n is in hand
    lagoon: np.ndarray  # [N, 3, ROUNDS] cards per space, oldest first
    lagoon_len: np.ndarray  # [N, 3]
    veil: np.ndarray  # [N, 3] seat that alone sees the space's first card (face down), or -1
    hide_next: np.ndarray  # [N, 3] seat whose Lantern hides the next card stocked there, or -1
    piles: np.ndarray  # [N, P, STOCKED] each seat's fish pile, bottom first
    pile_len: np.ndarray  # [N, P]
    jellies: np.ndarray  # [N, P] Jellyfish in each pile
    points: np.ndarray  # [N, P] int16: each pile's points
    kiti: np.ndarray  # [N] seat on Kiti's right, -1 with No Fighting
    catches: np.ndarray  # [N, 3] winner of each space not yet handed out this round, or -1
    taker: np.ndarray  # [N] the seat ordering a catch, or -1
    taker_space: np.ndarray  # [N] the space of that catch, or -1
    taking: np.ndarray  # [N, len(CODES)] cards of that catch still to take, per code
    moves: np.ndarray  # [N] moves played (the engine's history length)
    terminated: np.ndarray  # [N] bool
    rewards: np.ndarray  # [N, P] float32: each seat's share of the victory, on the last step

    @property
    def num_games(self) -> int:
        return len(self.round)

    @property
    def acting(self) -> np.ndarray:
        """[N, P] bool: the seats to act (every seat in a round's dives, else the taker)."""
        live = ~self.terminated
        acting = np.repeat((live & (self.taker < 0))[:, None], self.players, axis=1)
        rows = np.flatnonzero(live & (self.taker >= 0))
        acting[rows, self.taker[rows]] = True
        return acting

    @property
    def legal_action_mask(self) -> np.ndarray:
        """[N, P, NUM_ACTIONS] bool: each seat's legal actions (none for a seat not to act)."""
        mask = np.zeros((self.num_games, self.players, T.NUM_ACTIONS), dtype=bool)
        live = ~self.terminated
        diving = np.flatnonzero(live & (self.taker < 0))
        mask[diving, :, : T.ROUNDS] = T.HAND_BITS[self.hands[diving]]
        taking = np.flatnonzero(live & (self.taker >= 0))
        mask[taking, self.taker[taking], T.ROUNDS :] = self.taking[taking] > 0
        return mask

    def scores(self) -> np.ndarray:
        """[N, P]: each pile's points (final once the game is over)."""
        return self.points.copy()

    def copy(self) -> BatchState:
        return dataclasses.replace(self, **{f.name: getattr(self, f.name).copy() for f in _ARRAYS})

    def put(self, games: np.ndarray, new: BatchState) -> None:
        """Replace games ``games`` (indexes) by the games of ``new`` (as many, in order):
        how a vector env starts the next game of some envs."""
        for f in _ARRAYS:
            getattr(self, f.name)[games] = getattr(new, f.name)


def _at(state: BatchState, games: np.ndarray) -> slice | np.ndarray:
    """``games`` as an index: every game as a slice (no copies), else the array."""
    return slice(None) if len(games) == len(state.round) else games


_ARRAYS = [f for f in dataclasses.fields(BatchState) if f.name != "players"]


# --------------------------------------------------------------------- setup
def init(
    seed: int | np.random.Generator, num_games: int, players: int, options: Mapping[str, Any] | None = None
) -> BatchState:
    """``num_games`` new games: shuffled decks, the first card burned, round 1 stocked.

    As in the engine, a Seagull is never stocked in round 1: the first three cards stocked
    are drawn among the others and the rest is reshuffled.  ``options`` are Miaui's; each
    value a scalar (every game) or an array with one value per game."""
    rng = np.random.default_rng(seed)
    decks = T.DECK[np.argsort(rng.random((num_games, len(T.DECK)), dtype=np.float32), axis=1)]
    redo = np.flatnonzero(T.EATS[decks[:, 1 : 1 + T.SPACES]].any(1))
    stock = decks[redo, 1:]
    others = ~T.EATS[stock]
    place = np.cumsum(others, axis=1)  # the first three others go first, in their order
    keys = np.where(others & (place <= T.SPACES), place - T.SPACES - 1, rng.random(stock.shape, np.float32))
    decks[redo, 1:] = np.take_along_axis(stock, np.argsort(keys, axis=1), axis=1)
    return _deal(decks, players, _options(options, num_games, players))


def init_from_decks(decks: np.ndarray, players: int, options: Mapping[str, Any] | None = None) -> BatchState:
    """Games dealt from ``decks`` ([N, 37] card indexes: the burned card, then the cards in
    the order they are stocked), as the engine's ``setup={"deck": ...}`` deals them."""
    decks = np.asarray(decks, dtype=np.int8)
    n = len(decks)
    if not T.MIN_SEATS <= players <= T.MAX_SEATS:
        raise SetupError(f"Miaui is for {T.MIN_SEATS}-{T.MAX_SEATS} players, not {quoted(players)}")
    if decks.shape != (n, len(T.DECK)) or not (np.sort(decks, axis=1) == np.sort(T.DECK)).all():
        raise SetupError(f"decks must be [games, {len(T.DECK)}] orders of the Miaui deck")
    if T.EATS[decks[:, 1 : 1 + T.SPACES]].any():
        raise SetupError("a deck stocks a Seagull in round 1 (the engine would reshuffle it)")
    return _deal(decks, players, _options(options, n, players))


def _deal(decks: np.ndarray, players: int, opts: dict[str, np.ndarray]) -> BatchState:
    n = len(decks)
    state = BatchState(
        players=players,
        no_fighting=opts["no_fighting"],
        taker_chooses=opts["taker_chooses_order"],
        open_baskets=opts["open_baskets"],
        stock=decks[:, 1:].copy(),
        burned=decks[:, 0].copy(),
        round=np.ones(n, dtype=np.int8),
        hands=np.full((n, players), T.FULL_HAND, dtype=np.int16),
        lagoon=np.zeros((n, T.SPACES, T.ROUNDS), dtype=np.int8),
        lagoon_len=np.zeros((n, T.SPACES), dtype=np.int8),
        veil=np.full((n, T.SPACES), -1, dtype=_SEAT),
        hide_next=np.full((n, T.SPACES), -1, dtype=_SEAT),
        piles=np.zeros((n, players, T.STOCKED), dtype=np.int8),
        pile_len=np.zeros((n, players), dtype=np.int8),
        jellies=np.zeros((n, players), dtype=np.int8),
        points=np.zeros((n, players), dtype=np.int16),
        kiti=np.where(opts["no_fighting"], -1, opts["kiti_start"]).astype(_SEAT),
        catches=np.full((n, T.SPACES), -1, dtype=_SEAT),
        taker=np.full(n, -1, dtype=_SEAT),
        taker_space=np.full(n, -1, dtype=_SEAT),
        taking=np.zeros((n, len(T.CODES)), dtype=np.int8),
        moves=np.zeros(n, dtype=np.int16),
        terminated=np.zeros(n, dtype=bool),
        rewards=np.zeros((n, players), dtype=np.float32),
    )
    _stock(state, np.arange(n))
    return state


def _options(options: Mapping[str, Any] | None, n: int, players: int) -> dict[str, np.ndarray]:
    """Every option as an array of one value per game; each distinct combination is checked
    by the engine itself (the one place Miaui's option rules live)."""
    given = dict(options or {})
    unknown = sorted(set(given) - set(T.OPTION_NAMES))
    if unknown:
        raise OptionError(
            f"Miaui has no option {quoted(unknown[0])} (its options: {', '.join(T.OPTION_NAMES)})"
        )
    out: dict[str, np.ndarray] = {}
    for spec in R.OPTIONS:
        value = np.asarray(given.get(spec.name, spec.default))
        if value.ndim > 1 or (value.ndim == 1 and len(value) != n):
            raise OptionError(f"option {spec.name} must be one value or one per game ({n})")
        out[spec.name] = np.broadcast_to(value.astype(spec.type), (n,)).copy()
    code = np.zeros(n, dtype=np.int64)  # each combination as one number, to find them fast
    for spec in R.OPTIONS:
        code = code * (T.MAX_SEATS + 1) + out[spec.name].astype(np.int64)
    for first in np.unique(code, return_index=True)[1]:
        R.MiauiState.new(players, {spec.name: out[spec.name][first].item() for spec in R.OPTIONS}, 0)
    return out


# ---------------------------------------------------------------------- step
def step(state: BatchState, actions: Any, check: bool = True) -> BatchState:
    """The games after one step (a new state; ``state`` is unchanged): ``actions`` [N, P]
    holds every seat's action, read only for the seats to act (``acting``)."""
    new = state.copy()
    step_in_place(new, actions, check)
    return new


def step_in_place(state: BatchState, actions: Any, check: bool = True, only: Any = None) -> None:
    """:func:`step`, changing ``state`` itself (no copy); ``rewards`` hold this step's.
    ``only`` ([N] bool, optional): move only those games (the others keep still, rewards 0)."""
    actions = np.asarray(actions)
    if actions.shape != (state.num_games, state.players):
        raise ValueError(
            f"actions must be [games, players] = {[state.num_games, state.players]}, not {list(actions.shape)}"
        )
    live = ~state.terminated if only is None else ~state.terminated & np.asarray(only, dtype=bool)
    diving = np.flatnonzero(live & (state.taker < 0))
    taking = np.flatnonzero(live & (state.taker >= 0))
    if check:
        _check(state, actions, diving, taking)
    state.rewards[:] = 0
    if diving.size:
        _dive(state, diving, actions[diving])
    if taking.size:
        _take(state, taking, actions[taking, state.taker[taking]])


def _check(state: BatchState, actions: np.ndarray, diving: np.ndarray, taking: np.ndarray) -> None:
    """Refuse the step if a seat to act chose an illegal action (nothing changes): a diver
    in its hand, or a card its catch still holds."""
    dives = actions[diving]
    ok = (dives >= 0) & (dives < T.ROUNDS)
    ok &= (state.hands[diving] >> np.where(ok, dives, 0)) & 1 == 1
    bad = [(int(diving[g]), int(s)) for g, s in np.argwhere(~ok)[:1]]
    if taking.size:
        seat = state.taker[taking]
        card = actions[taking, seat] - T.ROUNDS
        fine = (card >= 0) & (card < len(T.CODES))
        fine &= state.taking[taking, np.where(fine, card, 0)] > 0
        bad += [(int(taking[g]), int(seat[g])) for g in np.flatnonzero(~fine)[:1]]
    if bad:
        game, seat = min(bad)
        raise ValueError(
            f"game {game}: action {quoted(actions[game, seat].item())} is not legal for seat {seat}"
        )


def _dive(state: BatchState, games: np.ndarray, actions: np.ndarray) -> None:
    """Every seat's dive in a round, then the reveal."""
    at = _at(state, games)
    state.hands[at] ^= np.left_shift(1, actions, dtype=np.int16)
    state.moves[at] += state.players
    _reveal(state, games, actions + 1)


def _reveal(state: BatchState, games: np.ndarray, dives: np.ndarray) -> None:
    state.catches[games] = _resolve(dives, state.kiti[games], state.players)
    _hand_out(state, games)


def _resolve(dives: np.ndarray, kiti: np.ndarray, players: int) -> np.ndarray:
    """[M, 3]: each depth's winner or -1, as :func:`~kiti.games.miaui.rules.resolve_depths`:
    one catch a seat at most; a tie goes by Kiti's order, or with No Fighting (no Kiti)
    nobody wins and the tied divers are out."""
    m = len(dives)
    left = np.ones((m, players), dtype=bool)
    out = np.full((m, T.SPACES), -1, dtype=_SEAT)
    rank = T.kiti_rank(players)[kiti]  # [M, 3, P]; -1 (no Kiti) picks the zero row
    key = dives.astype(np.int16) * (2 * T.MAX_SEATS)  # the dive first, then Kiti's order
    rows = np.arange(m)
    no_kiti = kiti < 0
    fights = not no_kiti.any()
    for space in range(T.SPACES):
        if T.TAKES_HIGHEST[space]:
            winner = np.where(left, key - rank[:, space], -1).argmax(1)
        else:
            winner = np.where(left, key + rank[:, space], np.iinfo(np.int16).max).argmin(1)
        if fights:  # with Kiti every depth has a winner
            out[:, space] = winner
            left[rows, winner] = False
            continue
        tied = left & (dives == dives[rows, winner][:, None])
        count = tied.sum(1)
        won = (count == 1) | ((count > 1) & ~no_kiti)
        out[won, space] = winner[won]
        left[rows[won], winner[won]] = False
        left &= ~(tied & (no_kiti & (count > 1))[:, None])
    return out


def _hand_out(state: BatchState, games: np.ndarray) -> None:
    """Give each won space to its winner, deepest first; a game pauses at the first catch
    its taker must order (the shallower ones wait); the others end the round.  A seat wins
    one space at most, so the catches handed out together go to distinct piles."""
    at = _at(state, games)
    seat = state.catches[at].copy()  # a slice of every game is a view: keep what was read
    length = state.lagoon_len[at].copy()
    most = int(length.max(initial=1))
    if most == 1 and (seat >= 0).all():
        _hand_out_one_each(state, games, seat)
        return
    cards = state.lagoon[at, :, :most]
    held = np.arange(most) < length[..., None]
    spaces = np.arange(T.SPACES)
    stop = np.full(len(games), T.SPACES)  # the space each game pauses at (3: none)
    if most > 1 and state.taker_chooses[at].any():
        mixed = (seat >= 0) & state.taker_chooses[at, None] & ((cards != cards[..., :1]) & held).any(-1)
        stop = np.where(mixed.any(1), mixed.argmax(1), T.SPACES)
    now = (seat >= 0) & (spaces <= stop[:, None])
    hides = (T.HIDES[state.round[at, None, None], cards] & held).any(-1) & now
    if hides.any():
        state.hide_next[at] = np.where(hides, seat, state.hide_next[at])
    state.lagoon_len[at] = np.where(now, 0, length)
    state.veil[at] = np.where(now, -1, state.veil[at])
    state.catches[at] = np.where(now, -1, seat)
    row, space = np.nonzero(now & (spaces < stop[:, None]))
    g, s, c, n = games[row], seat[row, space], cards[row, space], length[row, space]
    for k in range(most):
        if k:
            more = n > k
            g, s, c, n = g[more], s[more], c[more], n[more]
        _add(state, g, s, c[:, k])
    paused = stop < T.SPACES
    if paused.any():
        rows = np.flatnonzero(paused)
        at_stop = (rows, stop[rows])
        _pause(state, games[rows], seat[at_stop], stop[rows], cards[at_stop], held[at_stop])
        games = games[~paused]
    _end_round(state, games)


def _hand_out_one_each(state: BatchState, games: np.ndarray, seat: np.ndarray) -> None:
    """:func:`_hand_out` where every space holds one card and has a winner (always, with Kiti)."""
    at = _at(state, games)
    cards = state.lagoon[at, :, 0]
    hides = T.HIDES[state.round[at, None], cards]
    if hides.any():
        state.hide_next[at] = np.where(hides, seat, state.hide_next[at])
    state.lagoon_len[at] = 0
    state.veil[at] = -1
    state.catches[at] = -1
    _add(state, np.repeat(games, T.SPACES), seat.reshape(-1), cards.reshape(-1))
    _end_round(state, games)


def _pause(
    state: BatchState,
    games: np.ndarray,
    seat: np.ndarray,
    space: np.ndarray,
    cards: np.ndarray,
    held: np.ndarray,
) -> None:
    """The taker orders the catch (its cards wait in ``taking``)."""
    state.taker[games] = seat
    state.taker_space[games] = space
    counts = np.zeros((len(games), len(T.CODES)), dtype=np.int8)
    rows = np.repeat(np.arange(len(games)), held.sum(1))
    np.add.at(counts, (rows, cards[held]), 1)
    state.taking[games] = counts


def _take(state: BatchState, games: np.ndarray, actions: np.ndarray) -> None:
    """A taker adds one card of the catch; once the rest are alike they join on their own
    and the round goes on."""
    seat = state.taker[games].astype(np.intp)
    card = actions - T.ROUNDS
    state.taking[games, card] -= 1
    state.moves[games] += 1
    _add(state, games, seat, card)
    left = state.taking[games]
    done = (left > 0).sum(1) <= 1
    g, seat, left = games[done], seat[done], left[done]
    card, count = left.argmax(1), left.max(1)
    for k in range(int(count.max(initial=0))):
        now = k < count
        _add(state, g[now], seat[now], card[now])
    state.taking[g] = 0
    state.taker[g] = -1
    state.taker_space[g] = -1
    _hand_out(state, g)


def _add(state: BatchState, games: np.ndarray, seat: np.ndarray, card: np.ndarray) -> None:
    """One card joins each listed pile (each pile once at most), as
    :func:`~kiti.games.miaui.rules.add_to_pile`: a Seagull eats the top card, and a pile
    reaching the Jellyfish limit loses its Jellyfish."""
    p = state.players
    piles = state.piles.reshape(-1)  # views: [game, seat, slot] and [game, seat] flattened
    pile_len = state.pile_len.reshape(-1)
    jellies = state.jellies.reshape(-1)
    points = state.points.reshape(-1)
    pile = games * p + seat
    eats = T.EATS[card]
    if eats.any():
        gull = pile[eats]
        n = pile_len[gull]
        gull, n = gull[n > 0], n[n > 0] - 1
        eaten = piles[gull * T.STOCKED + n]
        jellies[gull] -= T.JELLY[eaten]
        points[gull] -= T.VALUES[eaten]
        pile_len[gull] = n
        pile, card = pile[~eats], card[~eats]
    n = pile_len[pile]
    piles[pile * T.STOCKED + n] = card
    pile_len[pile] = n + 1
    points[pile] += T.VALUES[card]
    jelly = pile[T.JELLY[card]]
    count = jellies[jelly] + 1
    jellies[jelly] = count
    full = count >= T.JELLY_LIMIT
    if full.any():
        _drop_jellies(state, jelly[full])


def _drop_jellies(state: BatchState, pile: np.ndarray) -> None:
    piles = state.piles.reshape(-1, T.STOCKED)
    pile_len = state.pile_len.reshape(-1)
    cards = piles[pile]
    held = np.arange(T.STOCKED) < pile_len[pile, None]
    keep = held & ~T.JELLY[cards]
    state.points.reshape(-1)[pile] -= (T.VALUES[cards] * (held & ~keep)).sum(1).astype(np.int16)
    piles[pile] = np.take_along_axis(cards, np.argsort(~keep, axis=1, kind="stable"), axis=1)
    pile_len[pile] = keep.sum(1)
    state.jellies.reshape(-1)[pile] = 0


def _end_round(state: BatchState, games: np.ndarray) -> None:
    """Kiti moves on; the last round ends the game, any other stocks the next (whose last
    divers play themselves in the last round)."""
    if not games.size:
        return
    at = _at(state, games)
    state.kiti[at] = T.kiti_after(state.players)[state.kiti[at]]
    last = state.round[at] == T.ROUNDS
    if last.any():
        _finish(state, games[last])
        games = games[~last]
        at = _at(state, games)
    if not games.size:
        return
    state.round[at] += 1
    _stock(state, games)
    final = games[state.round[at] == T.ROUNDS]
    if final.size:
        dives = T.HAND_PICK[state.hands[final], 0] + 1
        state.hands[final] = 0
        _reveal(state, final, dives)


def _finish(state: BatchState, games: np.ndarray) -> None:
    """The end: every top scorer shares the victory."""
    state.terminated[games] = True
    scores = state.points[games]
    top = scores == scores.max(1, keepdims=True)
    state.rewards[games] = top / top.sum(1, keepdims=True)


def _stock(state: BatchState, games: np.ndarray) -> None:
    """One card into each space, bottom first; a Lantern's catcher alone sees the card it hides."""
    at = _at(state, games)
    spaces = np.arange(T.SPACES)
    rounds = state.round[at]
    if (rounds == rounds[0]).all():  # the usual: every game in the same round
        start = (int(rounds[0]) - 1) * T.SPACES
        cards = state.stock[at, start : start + T.SPACES]
    else:
        first = (rounds.astype(np.intp) - 1) * T.SPACES
        cards = state.stock[games[:, None], first[:, None] + spaces]
    end = state.lagoon_len[at]
    if end.any():
        state.lagoon[games[:, None], spaces, end] = cards
    else:
        state.lagoon[at, :, 0] = cards
    state.lagoon_len[at] = end + 1
    hidden = state.hide_next[at]
    if (hidden >= 0).any():
        state.veil[at] = np.where(hidden >= 0, hidden, state.veil[at])
        state.hide_next[at] = -1
