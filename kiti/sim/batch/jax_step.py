"""The batch simulator's step ported to JAX (optional: needs the ``[jax]`` extra; docs/batch.md).

The same games as :mod:`.state`, field for field (:class:`JaxState` has :class:`~.state.BatchState`'s
arrays under the same names, the game first), stepped by one pure, jit-compiled function over
the whole batch: no Python branch depends on the data.  The step is written for one game
(``_step_one``) and mapped over the batch with :func:`jax.vmap`; a rule that applies to some
games only is a mask, and the loops that add a catch card by card run at most as many times as
a space can hold cards (:data:`~.tables.ROUNDS`).  The rule facts are the NumPy simulator's
tables (:mod:`.tables`, read from the rules), never retyped.

- :func:`from_numpy` / :func:`to_numpy`: a NumPy :class:`~.state.BatchState` on the device and back;
- :func:`init_from_decks` (dealt and checked by NumPy's) and :func:`init` (dealt on the device);
- :func:`step` ``(state, actions) -> state``, :func:`legal_action_mask`, :func:`acting`;
- :func:`random_actions` (a uniform legal action per seat) and :func:`play_random` (whole
  games in one :func:`jax.lax.while_loop`, for measuring speed).

Unlike NumPy's step, this one does not check the actions: an illegal action gives a state the
rules never reach.  :mod:`tests.test_batch_jax_20` plays the same games through both.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

import numpy as np

try:
    import jax
    import jax.numpy as jnp
    from jax import lax
except ImportError as error:  # pragma: no cover - the module is optional
    raise ImportError(
        "kiti.sim.batch.jax_step needs jax: install the [jax] extra (pip install -e '.[jax]')"
    ) from error

from . import state as S
from . import tables as T
from .check import random_options
from .policies import greedy_actions
from .policies import random_actions as numpy_random_actions

Array = jax.Array
_Out = TypeVar("_Out")

_SMALL = jnp.int8  # cards (stock, lagoon, piles); every other count or seat is int32
_SLOTS = np.arange(T.STOCKED)
_DEPTH = np.arange(T.ROUNDS)  # the slots of a space: one card a round at most
_SPACES = np.arange(T.SPACES)
_BIG = np.iinfo(np.int32).max
#: An empty slot of a pile: above its top card, or where a card left (the piles stay in order).
_HOLE = -1


class JaxState(NamedTuple):
    """N games of Miaui on the device: :class:`~.state.BatchState`'s arrays, same names and
    meanings; cards ``int8``, other integers ``int32`` (the seats: ``hands.shape[1]``).  One
    difference: a card that leaves a pile (eaten, or a Jellyfish gone) leaves a hole
    (:data:`_HOLE`) where NumPy packs the pile; :func:`to_numpy` packs them."""

    no_fighting: Array
    taker_chooses: Array
    open_baskets: Array
    stock: Array
    burned: Array
    round: Array
    hands: Array
    lagoon: Array
    lagoon_len: Array
    veil: Array
    hide_next: Array
    piles: Array
    pile_len: Array
    jellies: Array
    points: Array
    kiti: Array
    catches: Array
    taker: Array
    taker_space: Array
    taking: Array
    moves: Array
    terminated: Array
    rewards: Array


_CARD_FIELDS = ("stock", "lagoon", "piles")


# ------------------------------------------------------------------ to and from NumPy
def from_numpy(state: S.BatchState) -> JaxState:
    """A NumPy batch on the default device (the arrays copied)."""
    fields = {}
    for name in JaxState._fields:
        value = np.asarray(getattr(state, name))
        if value.dtype.kind in "iu":
            value = value.astype(np.int8 if name in _CARD_FIELDS else np.int32)
        fields[name] = jnp.asarray(value)
    held = np.asarray(state.pile_len)[..., None] > _SLOTS
    fields["piles"] = jnp.asarray(np.where(held, state.piles, _HOLE).astype(np.int8))
    return JaxState(**fields)


def to_numpy(jstate: JaxState) -> S.BatchState:
    """The batch as NumPy's :class:`~.state.BatchState`, with its dtypes."""
    dtypes = _numpy_dtypes()
    fields = {name: np.asarray(value).astype(dtypes[name]) for name, value in jstate._asdict().items()}
    piles = fields["piles"]  # each pile's cards first, in order (NumPy keeps no holes)
    order = np.argsort(piles == _HOLE, axis=-1, kind="stable")
    fields["piles"] = np.maximum(np.take_along_axis(piles, order, axis=-1), 0)
    return S.BatchState(players=int(jstate.hands.shape[1]), **fields)


@functools.cache
def _numpy_dtypes() -> dict[str, np.dtype[Any]]:
    """The dtype of every field of NumPy's batch (read from a one-game batch)."""
    one = S.init(0, 1, T.MIN_SEATS)
    return {name: getattr(one, name).dtype for name in JaxState._fields}


# ----------------------------------------------------------------------------- setup
def init_from_decks(decks: Any, players: int, options: Mapping[str, Any] | None = None) -> JaxState:
    """Games dealt from ``decks`` ([N, 37]: the burned card, then the stock in order), checked
    and dealt as NumPy's :func:`~.state.init_from_decks` does, on the device."""
    return from_numpy(S.init_from_decks(decks, players, options))


def init(key: Array, num_games: int, players: int, options: Mapping[str, Any] | None = None) -> JaxState:
    """``num_games`` new games shuffled on the device (as NumPy's :func:`~.state.init`: the
    first card burned, no Seagull among the three cards stocked in round 1)."""
    opts = _device_options(options, num_games, players)
    dealt: JaxState = _init(key, opts, num_games, players)
    return dealt


def _device_options(options: Mapping[str, Any] | None, n: int, players: int) -> dict[str, Array]:
    """The options checked as NumPy's batch checks them (the engine, once per combination)."""
    return {name: jnp.asarray(value) for name, value in S._options(options, n, players).items()}


@functools.partial(jax.jit, static_argnums=(2, 3))
def _init(key: Array, opts: dict[str, Array], n: int, players: int) -> JaxState:
    deck = jnp.asarray(T.DECK, jnp.int32)
    shuffle, again = jax.random.split(key)
    decks = deck[_order(jax.random.bits(shuffle, (n, len(T.DECK))) >> 7)]
    stock = decks[:, 1:]
    eats = jnp.asarray(T.EATS)
    redo = eats[stock[:, : T.SPACES]].any(1)
    others = ~eats[stock]
    place = jnp.cumsum(others, axis=1, dtype=jnp.uint32)  # the first three others go first, in order
    noise = (jax.random.bits(again, stock.shape) >> 7) + T.SPACES
    redone = jnp.take_along_axis(
        stock, _order(jnp.where(others & (place <= T.SPACES), place - 1, noise)), axis=1
    )
    stock = jnp.where(redo[:, None], redone, stock)
    return _deal(decks[:, 0], stock, opts, players)


def _order(keys: Array) -> Array:
    """[N, K]: the order of each row of ``keys`` (uint32 below 2**26), ties by position: one
    sort of each key with its position in the low bits (XLA sorts one array much faster)."""
    width = keys.shape[1]
    low = int(width - 1).bit_length()
    return (jnp.sort((keys << low) | jnp.arange(width, dtype=jnp.uint32), axis=1) & ((1 << low) - 1)).astype(
        jnp.int32
    )


def _deal(burned: Array, stock: Array, opts: dict[str, Array], players: int) -> JaxState:
    """The games before their first move: round 1 stocked, Kiti where ``kiti_start`` says."""
    n = stock.shape[0]
    no_fighting = opts["no_fighting"].astype(bool)

    def full(shape: tuple[int, ...], value: int, dtype: Any = jnp.int32) -> Array:
        return jnp.full((n, *shape), value, dtype)

    lagoon = full((T.SPACES, T.ROUNDS), 0, _SMALL).at[:, :, 0].set(stock[:, : T.SPACES].astype(_SMALL))
    return JaxState(
        no_fighting=no_fighting,
        taker_chooses=opts["taker_chooses_order"].astype(bool),
        open_baskets=opts["open_baskets"].astype(bool),
        stock=stock.astype(_SMALL),
        burned=burned.astype(jnp.int32),
        round=full((), 1),
        hands=full((players,), T.FULL_HAND),
        lagoon=lagoon,
        lagoon_len=full((T.SPACES,), 1),
        veil=full((T.SPACES,), -1),
        hide_next=full((T.SPACES,), -1),
        piles=full((players, T.STOCKED), _HOLE, _SMALL),
        pile_len=full((players,), 0),
        jellies=full((players,), 0),
        points=full((players,), 0),
        kiti=jnp.where(no_fighting, -1, opts["kiti_start"]).astype(jnp.int32),
        catches=full((T.SPACES,), -1),
        taker=full((), -1),
        taker_space=full((), -1),
        taking=full((len(T.CODES),), 0),
        moves=full((), 0),
        terminated=jnp.zeros(n, bool),
        rewards=jnp.zeros((n, players), jnp.float32),
    )


# ------------------------------------------------------------------- what seats may do
@jax.jit
def acting(jstate: JaxState) -> Array:
    """[N, P] bool: the seats to act (every seat in a round's dives, else the taker)."""
    players = jstate.hands.shape[1]
    live = ~jstate.terminated
    diving = live & (jstate.taker < 0)
    taker = live[:, None] & (jnp.arange(players) == jstate.taker[:, None])
    return diving[:, None] | taker


@jax.jit
def legal_action_mask(jstate: JaxState) -> Array:
    """[N, P, NUM_ACTIONS] bool: each seat's legal actions (none for a seat not to act)."""
    live = ~jstate.terminated
    seats = acting(jstate)
    dives = jnp.asarray(T.HAND_BITS)[jstate.hands] & (live & (jstate.taker < 0))[:, None, None]
    takes = (jstate.taking > 0)[:, None, :] & (seats & (jstate.taker >= 0)[:, None])[:, :, None]
    return jnp.concatenate([dives, takes], axis=-1)


@jax.jit
def random_actions(jstate: JaxState, key: Array) -> Array:
    """[N, P]: a uniformly random legal action for every seat to act (as NumPy's policy)."""
    dive_key, take_key = jax.random.split(key)
    hands = jstate.hands
    noise = jax.random.uniform(dive_key, hands.shape)
    size = jnp.asarray(T.HAND_SIZE, jnp.int32)[hands]
    pick = jnp.minimum((noise * size).astype(jnp.int32), jnp.maximum(size - 1, 0))
    dives = jnp.asarray(T.HAND_PICK, jnp.int32)[hands, pick]
    noise = jax.random.uniform(take_key, jstate.taking.shape)
    card = jnp.where(jstate.taking > 0, noise, -1.0).argmax(-1).astype(jnp.int32)
    taker = jnp.arange(hands.shape[1]) == jstate.taker[:, None]
    return jnp.where(taker, T.ROUNDS + card[:, None], dives)


# ------------------------------------------------------------------------------ step
@jax.jit
def step(jstate: JaxState, actions: Array) -> JaxState:
    """The games after one step of every game still on (a pure function): ``actions`` [N, P]
    holds every seat's action, read only for the seats to act; ``rewards`` hold this step's.

    Each part is written for one game and mapped over the batch; a part that no game of the
    batch needs this step (a take, the last round's hand-out) is skipped (``lax.cond``, and
    a ``lax.while_loop`` of two passes at most for the hand-outs)."""
    actions = jnp.asarray(actions, jnp.int32)
    live = ~jstate.terminated
    diving = live & (jstate.taker < 0)
    s = jax.vmap(_dive)(jstate, actions, diving)
    taking = live & (jstate.taker >= 0)
    s, done = _when(taking, jax.vmap(_take), (s, actions, taking), (s, taking))

    def hand_out(carry: tuple[JaxState, Array, Array]) -> tuple[JaxState, Array, Array]:
        s, active, passes = carry
        return (*jax.vmap(_hand_out_round)(s, active), passes + 1)

    # A round's catches, then (in the games that reach the last round) the last divers' own.
    s, _, _ = lax.while_loop(lambda c: c[1].any() & (c[2] < 2), hand_out, (s, diving | done, jnp.int32(0)))
    return s


def _when(games: Array, part: Callable[..., _Out], args: tuple[Any, ...], skip: _Out) -> _Out:
    """``part(*args)`` if any of ``games``, else ``skip`` (every game stays as it is)."""
    out: _Out = lax.cond(games.any(), lambda: part(*args), lambda: skip)
    return out


def _dive(s: JaxState, actions: Array, diving: Array) -> JaxState:
    """One game's dives (when ``diving``), revealed: each depth's winner in ``catches``;
    every game's ``rewards`` back to 0."""
    players = s.hands.shape[0]
    dive = jnp.where(diving, actions, 0)
    return s._replace(
        rewards=jnp.zeros_like(s.rewards),
        hands=jnp.where(diving, s.hands ^ (1 << dive), s.hands),
        moves=s.moves + jnp.where(diving, players, 0),
        catches=jnp.where(diving, _resolve(dive + 1, s.kiti), s.catches),
    )


def _hand_out_round(s: JaxState, active: Array) -> tuple[JaxState, Array]:
    """One game's catches handed out and, unless its taker must order one, the round ended
    (the second value: the next round is the last, whose dives wait to be handed out)."""
    s, ended = _hand_out(s, active)
    return _end_round(s, ended)


def _resolve(dives: Array, kiti: Array) -> Array:
    """[3]: each depth's winner or -1, as :func:`~kiti.games.miaui.rules.resolve_depths`: one
    catch a seat at most; a tie goes by Kiti's order, or with No Fighting (no Kiti) nobody wins
    and the tied divers are out."""
    players = dives.shape[0]
    seats = jnp.arange(players)
    no_kiti = kiti < 0
    rank = jnp.asarray(T.kiti_rank(players), jnp.int32)[jnp.where(no_kiti, players, kiti)]
    key = dives * (2 * T.MAX_SEATS)  # the dive first, then Kiti's order
    left = jnp.ones(players, bool)
    out = []
    for space in range(T.SPACES):
        if T.TAKES_HIGHEST[space]:
            winner = jnp.where(left, key - rank[space], -1).argmax()
        else:
            winner = jnp.where(left, key + rank[space], _BIG).argmin()
        tied = left & (dives == dives[winner])
        count = tied.sum()
        won = (count == 1) | ((count > 1) & ~no_kiti)
        out.append(jnp.where(won, winner, -1))
        left &= ~((seats == winner) & won) & ~(tied & no_kiti & (count > 1))
    return jnp.stack(out).astype(jnp.int32)


def _hand_out(s: JaxState, active: Array) -> tuple[JaxState, Array]:
    """Give each won space to its winner (when ``active``), as NumPy's ``_hand_out``: the game
    pauses at the first catch its taker must order, else the round is over (the second value)."""
    seat, length = s.catches, s.lagoon_len
    cards = s.lagoon.astype(jnp.int32)
    held = length[:, None] > _DEPTH
    mixed = (seat >= 0) & s.taker_chooses & ((cards != cards[:, :1]) & held).any(-1)
    stop = jnp.where(mixed.any(), mixed.argmax(), T.SPACES)
    now = active & (seat >= 0) & (stop >= _SPACES)
    hides = (jnp.asarray(T.HIDES)[s.round][cards] & held).any(-1) & now
    give = now & (stop > _SPACES)
    paused = active & (stop < T.SPACES)
    at = jnp.minimum(stop, T.SPACES - 1)
    counts = (jax.nn.one_hot(cards[at], len(T.CODES), dtype=jnp.int32) * held[at, :, None]).sum(0)
    s = s._replace(
        hide_next=jnp.where(hides, seat, s.hide_next),
        lagoon_len=jnp.where(now, 0, length),
        veil=jnp.where(now, -1, s.veil),
        catches=jnp.where(now, -1, seat),
        taker=jnp.where(paused, seat[at], s.taker),
        taker_space=jnp.where(paused, stop, s.taker_space),
        taking=jnp.where(paused, counts, s.taking),
    )
    players = s.hands.shape[0]
    mine = give[:, None] & (seat[:, None] == jnp.arange(players))  # [space, seat]
    held_by = (mine * length[:, None]).sum(0)  # [seat]: how many cards join each pile

    def add(k: Array, piles: _Piles) -> _Piles:
        card = (mine * cards[:, k, None]).sum(0)
        return _add(piles, card, k < held_by)

    return _loop(held_by.max(), add, s), active & ~paused


def _take(s: JaxState, actions: Array, taking: Array) -> tuple[JaxState, Array]:
    """The taker (when ``taking``) adds one card of her catch; once the rest are alike they
    join on their own (the second value: the catch is done, the hand-out goes on)."""
    players = s.hands.shape[0]
    seat = jnp.maximum(s.taker, 0)
    card = jnp.clip(actions[seat] - T.ROUNDS, 0, len(T.CODES) - 1)
    hers = taking & (jnp.arange(players) == seat)
    left = s.taking - jnp.where(taking, jax.nn.one_hot(card, len(T.CODES), dtype=jnp.int32), 0)
    done = taking & ((left > 0).sum() <= 1)
    rest = left.argmax()

    def add(k: Array, piles: _Piles) -> _Piles:
        return _add(piles, jnp.full(players, jnp.where(k == 0, card, rest)), hers)

    count = taking + jnp.where(done, left.max(), 0)  # hers, then the rest once alike
    s = _loop(count, add, s._replace(taking=left, moves=s.moves + taking))
    s = s._replace(
        taking=jnp.where(done, 0, s.taking),
        taker=jnp.where(done, -1, s.taker),
        taker_space=jnp.where(done, -1, s.taker_space),
    )
    return s, done


class _Piles(NamedTuple):
    """The fields of one game's state that adding cards to piles changes."""

    piles: Array
    pile_len: Array
    jellies: Array
    points: Array


def _loop(count: Array, body: Callable[[Array, _Piles], _Piles], s: JaxState) -> JaxState:
    """``body(k, piles)`` for ``k`` below ``count`` (at most :data:`~.tables.ROUNDS`: a space
    holds a card a round), on the piles alone; mapped over games, it runs as often as the
    batch's largest ``count``."""
    start = _Piles(s.piles, s.pile_len, s.jellies, s.points)
    done: _Piles = lax.fori_loop(0, jnp.minimum(count, T.ROUNDS), body, start)
    return s._replace(**done._asdict())


def _add(s: _Piles, card: Array, valid: Array) -> _Piles:
    """``card[p]`` joins pile ``p`` where ``valid[p]``, as
    :func:`~kiti.games.miaui.rules.add_to_pile`: a Seagull eats the top card, and a pile
    reaching the Jellyfish limit loses its Jellyfish.  A card that leaves a pile leaves a
    hole (:data:`_HOLE`) in its slot; a card joins above the pile's top card."""
    values, jelly = jnp.asarray(T.VALUES, jnp.int32), jnp.asarray(T.JELLY)
    piles = s.piles.astype(jnp.int32)
    last = jnp.where(piles != _HOLE, _SLOTS, -1).max(1)  # the top card's slot, -1: empty
    top = jnp.where(last[:, None] == _SLOTS, piles, 0).sum(1)
    eats = jnp.asarray(T.EATS)[card]
    ate = valid & eats & (last >= 0)
    put = valid & ~eats
    joins = jelly[card] & put
    jellies = s.jellies - (ate & jelly[top]) + joins
    slot = jnp.where(ate, last, last + 1)[:, None] == _SLOTS
    piles = jnp.where(slot & ate[:, None], _HOLE, piles)
    piles = jnp.where(slot & put[:, None], card[:, None], piles)
    s = _Piles(
        piles=piles,
        pile_len=s.pile_len - ate + put,
        jellies=jellies,
        points=s.points - jnp.where(ate, values[top], 0) + jnp.where(put, values[card], 0),
    )
    return _drop_jellies(s, joins & (jellies >= T.JELLY_LIMIT))


def _drop_jellies(s: _Piles, full: Array) -> _Piles:
    """The piles ``full`` lose their Jellyfish (holes in their slots; the rest stay in order).
    Compares the slots with each Jellyfish card (elementwise: no table looked up per slot)."""
    gone = jnp.zeros(s.piles.shape, bool)
    lost = jnp.zeros_like(s.points)
    for code in np.flatnonzero(T.JELLY):
        these = full[:, None] & (s.piles == code)
        gone |= these
        lost += these.sum(1) * int(T.VALUES[code])
    return _Piles(
        piles=jnp.where(gone, _HOLE, s.piles).astype(_SMALL),
        pile_len=s.pile_len - gone.sum(1),
        jellies=jnp.where(full, 0, s.jellies),
        points=s.points - lost,
    )


def _end_round(s: JaxState, active: Array) -> tuple[JaxState, Array]:
    """Kiti moves on (when ``active``); the last round ends the game, any other stocks the
    next; when that is the last round its divers play themselves and are revealed (the second
    value: those games' catches wait to be handed out)."""
    players = s.hands.shape[0]
    after = jnp.asarray(T.kiti_after(players), jnp.int32)
    kiti = jnp.where(active, after[jnp.where(s.kiti < 0, players, s.kiti)], s.kiti)
    over = active & (s.round == T.ROUNDS)
    top = s.points == s.points.max()
    on = active & ~over
    s = _stock(s._replace(kiti=kiti), on)
    s = s._replace(
        terminated=s.terminated | over,
        rewards=jnp.where(over, top / top.sum(), s.rewards),
    )
    last = on & (s.round == T.ROUNDS)
    dives = jnp.asarray(T.HAND_PICK, jnp.int32)[s.hands, 0] + 1
    s = s._replace(
        hands=jnp.where(last, 0, s.hands),
        catches=jnp.where(last, _resolve(dives, kiti), s.catches),
    )
    return s, last


def _stock(s: JaxState, on: Array) -> JaxState:
    """The next round (when ``on``): one card into each space, bottom first; a Lantern's
    catcher alone sees the card it hides."""
    cards = lax.dynamic_slice(s.stock, (s.round * T.SPACES,), (T.SPACES,))
    put = on & (s.lagoon_len[:, None] == _DEPTH)
    hidden = on & (s.hide_next >= 0)
    return s._replace(
        round=s.round + on,
        lagoon=jnp.where(put, cards[:, None], s.lagoon),
        lagoon_len=s.lagoon_len + on,
        veil=jnp.where(hidden, s.hide_next, s.veil),
        hide_next=jnp.where(on, -1, s.hide_next),
    )


# -------------------------------------------------------------------- whole games
def play_random(
    key: Array, num_games: int, players: int, options: Mapping[str, Any] | None = None
) -> tuple[JaxState, Array]:
    """``num_games`` games dealt on the device and played to the end by uniformly random
    seats, in one :func:`jax.lax.while_loop`: the state at the end and each seat's share of
    the victory ([N, P]; call ``block_until_ready`` on it to time it)."""
    opts = _device_options(options, num_games, players)
    played: tuple[JaxState, Array] = _play_random(key, opts, num_games, players)
    return played


@functools.partial(jax.jit, static_argnums=(2, 3))
def _play_random(key: Array, opts: dict[str, Array], n: int, players: int) -> tuple[JaxState, Array]:
    deal, key = jax.random.split(key)
    Carry = tuple[JaxState, Array, Array]

    def turn(carry: Carry) -> Carry:
        jstate, returns, key = carry
        key, now = jax.random.split(key)
        jstate = step(jstate, random_actions(jstate, now))
        return jstate, returns + jstate.rewards, key

    start = _init(deal, opts, n, players)
    carry = (start, jnp.zeros_like(start.rewards), key)
    jstate, returns, _ = lax.while_loop(lambda carry: ~carry[0].terminated.all(), turn, carry)
    return jstate, returns


# ------------------------------------------------------------- checked against NumPy
def compare(games: int, players: int, seed: int = 0) -> dict[str, Any]:
    """Play one batch through NumPy's step and this one: the same deals (NumPy's, options
    drawn per game as :mod:`.check` draws them) and the same actions (each seat NumPy's greedy
    or random policy, at random).  Counts the games where, at some step, the legal masks or the
    seats to act differ or :func:`random_actions` drew an illegal action, and where at the end
    the scores, the shares of the victory, the moves or the table (:func:`same_table`) differ;
    with the steps played and the games in which rules that change play came up."""
    rng = np.random.default_rng(seed)
    options = random_options(rng, games, players)
    ours = S.init(rng, games, players, options)
    theirs = init_from_decks(np.concatenate([ours.burned[:, None], ours.stock], axis=1), players, options)
    greedy = rng.random((games, players)) < 0.5
    key = jax.random.key(seed)
    differ = {name: np.zeros(games, bool) for name in ("mask", "acting", "random_illegal")}
    seen = {name: np.zeros(games, bool) for name in ("take", "carried_over", "lantern", "pile_shrank")}
    returns = np.zeros((2, games, players))
    steps = 0
    while not ours.terminated.all():
        mask = ours.legal_action_mask
        differ["mask"] |= (np.asarray(legal_action_mask(theirs)) != mask).any((1, 2))
        differ["acting"] |= (np.asarray(acting(theirs)) != ours.acting).any(1)
        key, now = jax.random.split(key)
        drawn = np.asarray(random_actions(theirs, now))
        legal = np.take_along_axis(mask, drawn[..., None], -1)[..., 0]
        differ["random_illegal"] |= (ours.acting & ~legal).any(1)
        actions = np.where(greedy, greedy_actions(ours), numpy_random_actions(ours, rng))
        before = ours.pile_len.copy()
        S.step_in_place(ours, actions)
        theirs = step(theirs, actions)
        returns += [ours.rewards, np.asarray(theirs.rewards)]
        seen["take"] |= ours.taker >= 0
        seen["carried_over"] |= (ours.lagoon_len > 1).any(1)
        seen["lantern"] |= (ours.veil >= 0).any(1)
        seen["pile_shrank"] |= (ours.pile_len < before).any(1)
        steps += 1
    final = to_numpy(theirs)
    differ["scores"] = (final.scores() != ours.scores()).any(1)
    differ["returns"] = ~np.isclose(returns[0], returns[1]).all(1)
    differ["moves"] = final.moves != ours.moves
    differ["table"] = ~same_table(final, ours)
    out: dict[str, Any] = {"games": games, "players": players, "steps": steps}
    out["differ"] = {name: int(rows.sum()) for name, rows in differ.items()}
    out["seen"] = {name: int(rows.sum()) for name, rows in seen.items()}
    return out


def same_table(a: S.BatchState, b: S.BatchState) -> np.ndarray:
    """[N]: the games whose every field is equal (the piles up to their length and the
    lagoon up to each space's: the slots above hold what was there before)."""
    same = np.ones(a.num_games, bool)
    for name in JaxState._fields:
        x, y = getattr(a, name), getattr(b, name)
        if name in _FILLED:
            length, size = _FILLED[name]
            x, y = (
                np.where(np.arange(size) < getattr(s, length)[..., None], getattr(s, name), -1)
                for s in (a, b)
            )
        same &= (x == y).reshape(a.num_games, -1).all(1)
    return same


#: The fields whose slots are filled up to a length: that length's field and the slots.
_FILLED = {"piles": ("pile_len", T.STOCKED), "lagoon": ("lagoon_len", T.ROUNDS)}
