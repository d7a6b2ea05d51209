"""The game protocol every Kiti game implements, and the one API everything else reads.

A game is a subclass of :class:`State` that declares a :class:`GameInfo` once (id, name,
seat range, options, version, event kinds, move limit) and implements the rules through a
few hooks (``_setup``, ``parse_move``, ``all_moves``, ``legal_moves``, ``_illegal_reason``,
``_apply``, ``scores``, ``_view``, ``_copy_parts``, ``resample``).  Front ends, bots, records
and simulations only use the public names below, so they work for every game.

**The State API, one name per idea.**

- *Start*: ``State.new(players, options, seed, setup)``; the class methods
  ``option_applies``, ``replays_version``, ``move_limit``; ``all_moves`` (every move there
  can ever be) and ``parse_move`` (notation to a Move, no state needed).
- *Whose turn*: ``to_act()``; ``over`` (an attribute: the game has ended, ``truncated`` too
  when the move limit stopped it).
- *What may be played*: ``legal_moves``, ``random_move``, ``illegal_reason`` (None when
  legal), ``move_steps`` (a move token by token), ``many_moves``, ``secret_choice``;
  ``legal_actions`` and ``random_action`` (the same as integers of ``codec()``, the action
  codec).
- *Playing*, three entries: ``apply(seat, move)`` takes a :class:`~.moves.Move` and checks
  it (a refusal raises and changes nothing); ``play(seat, text)`` parses notation and
  applies it checked, returning the Move; ``step(seat, action)`` is the unchecked fast
  path on action integers (the caller only picks legal actions).  ``apply_all`` applies a
  whole simultaneous choice, checked.  Searches and playouts use ``step``; the core's own
  playouts (:mod:`kiti.core.turns`) use the private ``_advance``.
- *Words*: ``describe_move``, ``explain_move``.
- *Seeing*: ``view(seat)`` (the typed view), ``observation(seat)`` (it as JSON; the
  referee's with ``REFEREE``), ``events``, ``event_count``, ``information_state``.
- *Results*: ``scores``, ``teams``, ``parties``, ``party_scores``, ``tiebreaks``,
  ``result``, ``winners``, ``returns``.
- *Copies and records*: ``clone``, ``resample``, ``record``, ``undo``, ``undo_refusal``;
  replaying a record is :func:`kiti.core.records.replay`.
- *For the rules*: ``rng``, ``setup``, ``check_invariants`` (events are logged through the
  game's generated emitters, :func:`kiti.core.contract.emitters`).

**Declared attributes.**  A state's attributes are declared as class annotations (the
core's below, a game's in its class body); :meth:`State.clone` and :meth:`State.undo`
copy exactly the declared attributes, then the game's ``_copy_parts`` copies its mutable
parts.  An attribute a game sets without declaring it is not copied.

**One turn rule.**  :meth:`State.to_act` is the set of seats that must act now.  One seat:
an ordinary decision.  Several seats: a *simultaneous secret choice* in which every listed
seat must commit; a seat leaves the set when it has committed, and nobody sees a committed
choice until the game reveals it.  Optional responses (a defence, a renewal) are asked one
seat at a time, with explicit decline moves.  :meth:`State.apply` refuses a seat that is
not to act with :class:`NotYourTurnError` and changes nothing.

**Chance** comes only from the state's seeded generator (``self.rng``), so a state is a
pure function of (seat count, options, seed, setup, moves): its record.

**Events** are logged as compact facts with an audience (:mod:`kiti.core.events`); views
come from the game's one ``_view(viewer)`` function.  Viewers: a seat, ``None`` (a
spectator) or :data:`~kiti.core.events.REFEREE`.

**Results** (:mod:`kiti.core.results`): parties (teams, or non-seat parties such as a solo
opponent), scores, tie-breaks, winners and returns.  A game that reaches its move limit is
stopped and scored as a draw (``truncated``).

**Undo** is decided here, from the log: see :meth:`State.undo_refusal`.
"""

from __future__ import annotations

import dataclasses
import json
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from .chance import seeded
from .contract import event_fields, to_json
from .errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    SetupError,
    UndoError,
    quoted,
)
from .events import REFEREE, Entry, EventIndex, Viewer, seen_by_others
from .moves import MAX_NOTATION, ActionCodec, Move, Step, field_problem, steps_from_moves
from .options import OptionSpec, resolve_options
from .results import Party, Result, make_result, seat_parties

JSON = Any
MAX_SEED = 2**63


@dataclass(frozen=True, eq=False)
class GameInfo:
    """What a game declares about itself, once."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    version: str
    options: tuple[OptionSpec, ...] = ()
    notation: str = ""
    #: Event kinds and their field names, in the order of a log entry's ``args``.
    events: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The classes of this game's moves (anything else is refused).
    move_types: tuple[type, ...] = (Move,)
    #: The most moves a game may take; past it the game is stopped as a draw (truncated).
    max_moves: int = 10_000
    #: A typical score difference between first and second (scales search rewards).
    margin_scale: float = 50.0
    #: Earlier rules versions whose records still replay under some options: version ->
    #: those options, in words (see :meth:`State.replays_version`).
    old_versions: Mapping[str, str] = field(default_factory=dict)
    #: The game's typed view (a frozen dataclass, :mod:`kiti.core.contract`); ``_view``
    #: builds it.  None: a game whose ``_view`` still returns plain JSON.
    view_type: type | None = None
    #: The event kinds (:func:`kiti.core.contract.declare_events`); when given, ``events``
    #: (each kind's field names) is derived from them.
    event_types: Mapping[str, type] = field(default_factory=dict)
    #: Option combinations the rulings single out (each a partial mapping, the other options
    #: at their defaults): the conformance suite (:mod:`kiti.testing`) checks each of them
    #: at every seat count where it is valid, on top of its pairwise cover.
    notable_options: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.event_types and not self.events:
            object.__setattr__(self, "events", event_fields(self.event_types))


class State(ABC):
    """A game in progress.  Subclasses implement the rules of one game."""

    info: ClassVar[GameInfo]

    players: int
    options: dict[str, Any]
    seed: int
    history: list[tuple[int, Move]]
    log: list[Entry]
    acting: frozenset[int]  # the seats to act (maintained by the game)
    over: bool  # set by the game at its end (and by truncation)
    truncated: bool
    limit: int
    resampled: bool
    _rng: random.Random | None  # None until first asked for in a resampled copy (see rng)
    _rng_seed: int  # what a resampled copy's generator is seeded with when first asked for
    _setup_json: str | None
    _chance_at: int  # len(history) when the generator was last handed out
    _undo_mark: tuple[int, int] | None  # (history, log) lengths before the last checked move
    _codec: ActionCodec | None  # this game's action codec, once asked for
    _seen: EventIndex  # where each viewer's events lie in ``log`` (a copy has its own)

    #: The declared instance attributes of the class (the core's and the game's), which
    #: :meth:`clone` and :meth:`undo` copy; set for each subclass.
    _attributes: ClassVar[tuple[str, ...]] = ()
    _attribute_names: ClassVar[frozenset[str]] = frozenset()  # the same, as a set

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._attributes = _declared_attributes(cls)
        cls._attribute_names = frozenset(cls._attributes)
        if cls.random_move is State.random_move and cls.random_action is State.random_action:
            cls.random_action = State._random_legal_action  # type: ignore[method-assign]

    # ----------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> State:
        """A new game: ``players`` seats, validated ``options``, a seed (random if None)."""
        info = cls.info
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError(f"players must be an integer, not {quoted(players)}")
        if not info.min_seats <= players <= info.max_seats:
            raise SetupError(f"{info.name} is for {info.min_seats}-{info.max_seats} players, not {players}")
        opts = resolve_options(info.options, options)
        if seed is None:
            seed = random.SystemRandom().randrange(MAX_SEED)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"seed must be an integer, not {quoted(seed)}")
        if not 0 <= seed < MAX_SEED:
            raise SetupError(f"seed must be an integer 0 to 2**63-1, not {quoted(seed)}")
        if setup is not None and not isinstance(setup, Mapping):
            raise SetupError(f"setup must be a mapping (a JSON object), not {quoted(setup)}")
        state = cls.__new__(cls)
        state.players = players
        state.options = opts
        state.seed = seed
        state._setup_json = None if setup is None else _freeze(setup)
        state.history = []
        state.log = []
        state.acting = frozenset()
        state.over = False
        state.truncated = False
        state.resampled = False
        state.limit = cls.move_limit(players, opts)
        state._rng = seeded(seed)
        state._rng_seed = 0  # only a resampled copy makes its generator late (see _generator)
        state._chance_at = 0
        state._undo_mark = None
        state._codec = None
        state._seen = EventIndex()
        state._setup(opts, state.setup)
        return state

    @abstractmethod
    def _setup(self, options: dict[str, Any], setup: dict[str, Any] | None) -> None:
        """Lay out the table: validate option combinations and ``setup``, set ``acting``."""

    @classmethod
    def option_applies(cls, name: str, players: int) -> bool:
        """Whether option ``name`` can change a game of ``players`` seats (default: every
        option does).  Test suites vary only the options that apply."""
        return True

    @classmethod
    def replays_version(cls, version: str, options: Mapping[str, Any]) -> bool:
        """Whether a record written by rules ``version`` with ``options`` replays to the same
        game under today's rules (default: only today's version does).  A game whose
        change touched one option only overrides it to accept older records without it."""
        return version == cls.info.version

    @classmethod
    def move_limit(cls, players: int, options: Mapping[str, Any]) -> int:
        """The most moves this game may take (default: ``info.max_moves``)."""
        return cls.info.max_moves

    @property
    def rng(self) -> random.Random:
        """The state's seeded generator: every chance event of the game comes from here.

        Handing it out marks the current move as having used chance (undo refuses then).
        """
        self._chance_at = len(self.history)
        return self._generator()

    def _generator(self) -> random.Random:
        """The generator, made now where a resampled copy has not asked for it yet (a search
        makes a copy an iteration and most never draw from it: seeding costs more than the
        draws it saves); the same draws as one seeded when the copy was made."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._rng_seed)
        return rng

    @property
    def setup(self) -> dict[str, Any] | None:
        """A fresh copy of the explicit setup the game was created with (None if none)."""
        return None if self._setup_json is None else json.loads(self._setup_json)

    # ------------------------------------------------------------- turns
    def to_act(self) -> frozenset[int]:
        """The seats that must act now; several: a simultaneous secret choice; none: over."""
        return self.acting

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now (empty if it is not to act)."""

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """A legal move of ``seat`` (to act), uniformly at random (games may do it faster)."""
        return rng.choice(self.legal_moves(seat))

    def _random_choice(self, seats: frozenset[int], rng: random.Random) -> list[tuple[int, Move]]:
        """A simultaneous choice's random moves (the core's playouts): for each of ``seats``,
        lowest first, the move :meth:`random_move` draws, from the same generator in the same
        order.  A game may draw them all in one call (Miaui's dives)."""
        random_move = self.random_move
        return [(seat, random_move(seat, rng)) for seat in sorted(seats)]

    def _random_action_choice(self, seats: frozenset[int], rng: random.Random) -> list[tuple[int, int]]:
        """:meth:`_random_choice` as actions (the integer playouts): for each of ``seats``,
        lowest first, the action :meth:`random_action` draws, from the same generator in the
        same order.  A game that draws a choice in one call does so here too."""
        random_action = self.random_action
        return [(seat, random_action(seat, rng)) for seat in sorted(seats)]

    def random_action(self, seat: int, rng: random.Random) -> int:
        """:meth:`random_move` as its action integer (the integer path's counterpart, at its
        cost: a game's faster ``random_move`` serves both)."""
        codec = self._codec or self.codec()
        move = self.random_move(seat, rng)
        try:  # a subscript, not the mapping proxy's slower .get
            return codec.identity[id(move)]
        except KeyError:
            return _encode_one(codec, move)

    def _random_legal_action(self, seat: int, rng: random.Random) -> int:
        """:meth:`random_action` of a game that keeps the default :meth:`random_move`: the
        same draw, one call fewer (set by ``__init_subclass__``)."""
        codec = self._codec or self.codec()
        move = rng.choice(self.legal_moves(seat))
        try:
            return codec.identity[id(move)]
        except KeyError:
            return _encode_one(codec, move)

    def secret_choice(self, seat: int) -> bool:
        """True while ``seat``'s decision is part of a simultaneous secret choice (others may
        already have chosen, face down).  A bot should then play a mixed strategy.  Default:
        several seats to act; a game whose last chooser acts alone overrides it."""
        return len(self.acting) > 1 and seat in self.acting

    def many_moves(self, seat: int) -> bool:
        """True where ``seat`` may have so many moves that listing them is costly (then
        searches sample with :meth:`random_move` and front ends use :meth:`move_steps`)."""
        return False

    def move_steps(self, seat: int, prefix: tuple[str, ...] = ()) -> list[Step]:
        """The tokens ``seat`` may pick next after ``prefix`` (see :mod:`kiti.core.moves`)."""
        return steps_from_moves(self.legal_moves(seat), tuple(prefix))

    def illegal_reason(self, seat: int, move: Any) -> str | None:
        """Why ``move`` by ``seat`` is not allowed now, or None if it is legal."""
        refusal = self._refusal(seat, move)
        return None if refusal is None else refusal[1]

    def _refusal(self, seat: Any, move: Any) -> tuple[type[IllegalMoveError], str] | None:
        if type(seat) is not int or not 0 <= seat < self.players:
            return IllegalMoveError, (
                f"there is no seat {quoted(seat)} in this "
                f"{self.players}-player game (seats are 0-{self.players - 1})"
            )
        if self.over:
            end = " (stopped at its move limit)" if self.truncated else ""
            return GameOverError, f"the game is over{end}: no more moves"
        if not isinstance(move, self.info.move_types):
            return IllegalMoveError, f"{quoted(move)} is not a {self.info.name} move"
        problem = field_problem(move)
        if problem is not None:
            return IllegalMoveError, f"not a {self.info.name} move: {problem}"
        if seat not in self.acting:
            return NotYourTurnError, self._not_to_act_reason(seat)
        reason = self._illegal_reason(seat, cast(Move, move))
        return None if reason is None else (IllegalMoveError, reason)

    def _not_to_act_reason(self, seat: int) -> str:
        waiting = " and ".join(f"seat {s}" for s in sorted(self.acting))
        return f"it is not seat {seat}'s turn (waiting for {waiting})"

    @abstractmethod
    def _illegal_reason(self, seat: int, move: Move) -> str | None:
        """Why a move of this game by a seat that is to act is illegal (None: legal)."""

    def _legal_among(self, seat: int, actions: Iterable[int]) -> list[int]:
        """Those of ``actions`` (the codec's) that ``seat``, which is to act, may play now, in
        their order: a search's yes or no, by :meth:`_illegal_reason` here (a game may answer
        faster, without wording a refusal)."""
        moves = (self._codec or self.codec()).moves
        reason = self._illegal_reason
        return [a for a in actions if reason(seat, moves[a]) is None]

    @abstractmethod
    def _apply(self, seat: int, move: Move) -> None:
        """Apply a legal move (no checks); update ``acting`` and ``over``."""

    def apply(self, seat: int, move: Move) -> None:
        """Apply ``move`` for ``seat``, checked: the one entry for a Move.

        A bad move raises :class:`IllegalMoveError` (or its subclasses
        :class:`NotYourTurnError`, :class:`GameOverError`) and leaves the state exactly as it
        was.  A Move whose fields do not hold their declared types (``Word(None)``) is
        refused before the game's rules see it, naming the field
        (:func:`~kiti.core.moves.field_problem`).  Text goes through :meth:`play`, the
        unchecked fast path is :meth:`step`.
        """
        refusal = self._refusal(seat, move)
        if refusal is not None:
            raise refusal[0](seat, move, refusal[1])
        self._undo_mark = (len(self.history), len(self.log))
        self._advance(seat, move)

    def play(self, seat: int, text: str) -> Move:
        """Parse the notation ``text`` and apply that move for ``seat``, checked; return it.

        Text that is not a move raises :class:`NotationError`, a refused move as
        :meth:`apply`; either way nothing changes."""
        if type(text) is not str:
            raise NotationError(f"a move must be text, not {quoted(text)}")
        move = self.parse_move(text)
        self.apply(seat, move)
        return move

    def step(self, seat: int, action: int) -> None:
        """The unchecked fast path: apply the move numbered ``action`` by :meth:`codec`.

        The caller only picks legal actions (:meth:`legal_actions`); nothing is checked, so
        an illegal one leaves the game in a state its rules never reach.  It costs what the
        game's ``_apply`` costs, plus a tuple look-up."""
        codec = self._codec
        if codec is None:
            codec = self.codec()
        move = codec.moves[action]
        history = self.history
        history.append((seat, move))
        self._apply(seat, move)
        if len(history) >= self.limit:
            self._truncate()

    def _advance(self, seat: int, move: Move) -> None:
        """Apply a legal Move, unchecked (the core's playouts; everyone else: :meth:`step`)."""
        history = self.history
        history.append((seat, move))
        self._apply(seat, move)
        if len(history) >= self.limit:
            self._truncate()

    def apply_all(self, moves: Mapping[int, Move]) -> None:
        """Apply a whole simultaneous choice at once, checked: one move for every seat in
        ``to_act()``.

        The same as applying each seat's move in seat order (records list them that way),
        in one call: what a driver holding every seat's choice uses (OpenSpiel's
        ``apply_actions``, a server collecting sealed choices).  The seats must be exactly
        those to act and every move legal, else the first refusal is raised and nothing
        changes.
        """
        self._advance_all(self._checked_choice(moves))

    def _advance_all(self, pairs: list[tuple[int, Move]]) -> None:
        """Apply legal moves of a simultaneous choice, in seat order, unchecked."""
        history = self.history
        if len(history) + len(pairs) >= self.limit:
            for seat, move in pairs:  # the limit falls inside the choice: move by move
                self._advance(seat, move)
            return
        history.extend(pairs)
        self._apply_all(pairs)

    def _checked_choice(self, moves: Any) -> list[tuple[int, Move]]:
        if not isinstance(moves, Mapping):
            raise IllegalMoveError(
                None, moves, f"a simultaneous choice is a mapping of seat to move, not {quoted(moves)}"
            )
        pairs = sorted(moves.items(), key=_seat_order)  # a seat that is no seat last, and refused
        for seat, move in pairs:
            refusal = self._refusal(seat, move)
            if refusal is not None:
                raise refusal[0](seat, move, refusal[1])
        missing = sorted(self.acting - {seat for seat, _ in pairs})
        if missing:
            waiting = " and ".join(f"seat {s}" for s in missing)
            raise IllegalMoveError(
                missing[0], None, f"a simultaneous choice needs every seat to act: no move for {waiting}"
            )
        self._undo_mark = (len(self.history), len(self.log))
        return pairs

    def _apply_all(self, pairs: list[tuple[int, Move]]) -> None:
        """Apply a simultaneous choice's legal moves, in seat order (games may do it faster)."""
        for seat, move in pairs:
            self._apply(seat, move)

    def _random_finish(self, rng: random.Random, left: int) -> None:
        """At most ``left`` uniform random moves (a search's random rollout), as
        :func:`~kiti.core.turns.play_random_actions` plays them: a simultaneous choice (or what
        is left of it) draws every seat's action, lowest seat first, and is applied at once;
        where ``left`` ends inside a choice, its seats move one by one in the order of
        :func:`~kiti.core.turns.turns`.

        A game may play them faster, with the same draws in the same order and the same
        result, skipping what only viewers read (events, history): afterwards the state
        serves ``over`` and ``result()`` only, never a view, a move or a copy, and, where a
        search stops its rollouts early, the game heuristic's ``evaluate``: a game that has
        one and plays quietly must keep what ``evaluate`` reads (Miaui, which plays quietly,
        has no ``evaluate``)."""
        random_action = self.random_action
        random_choice = self._random_action_choice
        step = self.step
        advance_all = self._advance_all
        pairs = self.codec().pairs(self.players)
        while left > 0:
            acting = self.acting
            if len(acting) == 1:
                for seat in acting:
                    step(seat, random_action(seat, rng))
                left -= 1
            elif not acting:
                return
            elif len(acting) <= left:
                advance_all([pairs[seat][action] for seat, action in random_choice(acting, rng)])
                left -= len(acting)
            else:  # the budget ends inside the choice
                from .turns import turns  # it imports this module

                for _, seat in zip(range(left), turns(self)):
                    step(seat, random_action(seat, rng))
                return

    def _truncate(self) -> None:
        if self.over:
            return
        self.over = True
        self.truncated = True
        self.acting = frozenset()

    @classmethod
    @abstractmethod
    def parse_move(cls, text: str) -> Move:
        """Parse move notation; raise :class:`NotationError` naming what is wrong."""

    def describe_move(self, seat: int, move: Move) -> str:
        """A sentence for people explaining what ``move`` does (front ends use it)."""
        return str(move)

    def explain_move(self, seat: int, move: Move) -> str:
        """What legal ``move`` by ``seat`` would do now, for a person who asks ``why``: which
        play it is and its effect, worded from the game's rules module (one or a few
        sentences, plain text, seats named "seat N"; front ends word them for the viewer).
        Default: :meth:`describe_move`."""
        return self.describe_move(seat, move)

    # ---------------------------------------------------------- actions
    @classmethod
    @abstractmethod
    def all_moves(cls, players: int, options: Mapping[str, Any]) -> list[Move]:
        """Every move that can ever be legal in a game with these seats and options."""

    def codec(self) -> ActionCodec:
        """This game's integer action codec (its seat count and options), built once per
        such game and shared: ``codec().moves[action]`` is a Move, ``codec().index[move]``
        its action.  A fresh state finds it by its options as they are (already checked and
        complete), without :func:`codec_for` checking them again: every integer playout asks
        this once per game, most often for the game it asked for last (compared as it is,
        with no key to build)."""
        codec = self._codec
        if codec is None:
            last = _LAST_BY_STATE.get(type(self))
            if last is not None and last[0] == self.players and last[1] == self.options:
                codec = self._codec = last[2]
                return codec
            key = (type(self), self.players, tuple(self.options.items()))
            codec = _BY_STATE.get(key)
            if codec is None:
                codec = _BY_STATE[key] = codec_for(type(self), self.players, self.options)
            _LAST_BY_STATE[type(self)] = (self.players, dict(self.options), codec)
            self._codec = codec
        return codec

    def legal_actions(self, seat: int) -> list[int]:
        """The legal moves of ``seat`` as action integers, in increasing order."""
        actions = _encode_all(self._codec or self.codec(), self.legal_moves(seat))
        actions.sort()
        return actions

    # ----------------------------------------------------------- results
    @abstractmethod
    def scores(self) -> list[float]:
        """Current score per seat (final once the game is over)."""

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each team (each seat alone unless the game has teams)."""
        return _ALONE[self.players]

    def parties(self) -> tuple[Party, ...]:
        """The contestants: one per team, plus any that are not seats (a solo opponent)."""
        return seat_parties(self.teams())

    def party_scores(self) -> list[float]:
        """Score per party (a team's is the sum of its seats')."""
        scores = self.scores()
        if self.teams() is _ALONE[self.players] and type(self).parties is State.parties:
            return scores
        return [sum(scores[s] for s in party.seats) for party in self.parties()]

    def tiebreaks(self) -> list[tuple[float, ...]] | None:
        """Per party, the values compared after equal scores (None: ties are shared)."""
        return None

    def result(self) -> Result:
        """Parties ranked as things stand (final once over; a draw if truncated)."""
        return make_result(self.parties(), self.party_scores(), self.tiebreaks(), self.truncated)

    def winners(self) -> list[int]:
        """Seats sharing the victory (empty until the game is over, or if no seat won)."""
        return self.result().winning_seats() if self.over else []

    def returns(self) -> list[float]:
        """Each seat's share of the victory (0 for every seat until the game is over)."""
        return self.result().seat_returns(self.players) if self.over else [0.0] * self.players

    # ------------------------------------------------------------- views
    @abstractmethod
    def _view(self, viewer: Viewer) -> JSON:
        """The one place a view is made: a seat's, a spectator's (None) or the referee's."""

    def _viewer(self, viewer: Any) -> Viewer:
        if viewer is None or viewer == REFEREE:
            return viewer
        if type(viewer) is not int or not 0 <= viewer < self.players:
            raise SetupError(
                f"there is no seat {quoted(viewer)} in this {self.players}-player "
                f"game (seats are 0-{self.players - 1}; None is a spectator)"
            )
        return viewer

    def view(self, seat: Viewer = None) -> Any:
        """The table now as ``seat`` sees it (None: a spectator; REFEREE: everything), as the
        game's typed view (``info.view_type``): what bots, renderers and encoders read.

        Once the game is over the end shows every card to everyone (as at a real table, and
        as the server's ``reveal``): the whole table, still seen from ``seat``."""
        viewer = self._viewer(seat)
        return self._end_view(viewer) if self.over else self._view(viewer)

    def observation(self, seat: Viewer = None) -> JSON:
        """:meth:`view` as JSON (:func:`kiti.core.contract.to_json`, the one place views
        become JSON): what the server sends and records show."""
        return to_json(self.view(seat))

    def _end_view(self, viewer: Viewer) -> Any:
        """A finished game as ``viewer`` sees it.  Default: the referee's view, its ``viewer``
        set to ``viewer`` (so that front ends still say "you"); a game whose end leaves
        some cards hidden (cards never in play) overrides it."""
        view = self._view(REFEREE)
        if viewer == REFEREE:
            return view
        if isinstance(view, dict):
            view["viewer"] = viewer
            return view
        return dataclasses.replace(view, viewer=viewer)

    def events(self, viewer: Viewer = None, since: int = 0) -> list[dict[str, Any]]:
        """What ``viewer`` saw happen, oldest first, after its first ``since`` events."""
        if type(since) is not int or since < 0:
            raise SetupError(f"since must be a count of events (0 or more), not {quoted(since)}")
        return self._seen.events(self.log, self._viewer(viewer), self.info.events, self.players, since)

    def event_count(self, viewer: Viewer = None) -> int:
        """How many events ``viewer`` has seen: the cursor for ``events(viewer, since=...)``."""
        return self._seen.count(self.log, self._viewer(viewer))

    def information_state(self, seat: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` (None: a spectator) has seen, and sees now. JSON-serialisable."""
        viewer = self._viewer(seat)
        return {"seat": viewer, "events": self.events(viewer), "now": self.observation(viewer)}

    # ------------------------------------------------------------ copies
    def clone(self) -> State:
        """An independent copy, its generator included: it shares nothing mutable."""
        new = self._bare_copy()
        if self._rng is not None:  # else the copy makes its own from the same seed
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            new._rng = rng
        return new

    def _bare_copy(self) -> State:
        new = type(self).__new__(type(self))
        self._transfer(new)
        new.options = dict(self.options)
        new.history = self.history.copy()
        new.log = self.log.copy()  # entries are immutable tuples
        new._seen = EventIndex()
        self._copy_parts(new)
        return new

    def _transfer(self, new: State) -> None:
        """Give ``new`` every declared attribute of this state, shallow (values shared): in
        one copy of the instance dict where it holds nothing else (the usual case, and the
        one a search's copies pay for), else one attribute at a time."""
        values = self.__dict__
        if values.keys() <= self._attribute_names:
            new.__dict__.update(values)
            return
        for name in self._attributes:
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:
                setattr(new, name, value)

    @abstractmethod
    def _copy_parts(self, new: State) -> None:
        """Give ``new`` (a shallow copy of self: every declared attribute shared) its own
        copy of every mutable game part."""

    @abstractmethod
    def resample(self, seat: int, rng: random.Random) -> State:
        """A full state drawn at random among those ``seat`` cannot tell from this one.

        It gives ``seat`` the identical observation, information state and events, has a
        fresh generator, no seed worth knowing and no record.
        """

    def _resampled_copy(self, rng: random.Random) -> State:
        """A copy for :meth:`resample` to redraw: fresh generator, no seed, no setup."""
        new = self._bare_copy()
        new._rng = None  # made from this seed when first asked for (see _generator)
        new._rng_seed = rng.getrandbits(64)
        new.seed = 0
        new._setup_json = None
        new.resampled = True
        new._undo_mark = None
        return new

    # ----------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The game record (setup + moves), a fresh dict: replaying it gives this state."""
        if self.resampled:
            raise SetupError("a resampled state is a guess at hidden cards and has no record")
        rec: dict[str, Any] = {
            "game": self.info.id,
            "version": self.info.version,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self._setup_json is not None:
            rec["setup"] = self.setup
        rec["moves"] = [[seat, str(move)] for seat, move in self.history]
        return rec

    # -------------------------------------------------------------- undo
    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last move now; None if it may.

        A seat may take back a move when it was the last move of the game, was made through
        the checked :meth:`apply`, used no chance, and nothing it caused was shown to any
        other viewer (a seat or a spectator): every event logged since is the mover's alone.
        """
        if self.resampled:
            return "a guess at hidden cards cannot be taken back"
        if not self.history:
            return "no move has been made yet"
        last, move = self.history[-1]
        if last != seat:
            return (
                f"seat {last} has moved since (only the last move of the game can be "
                f"taken back, by the seat that made it)"
            )
        mark = self._undo_mark
        if mark is None or mark[0] != len(self.history) - 1:
            return f"{move} was not made at this table"
        if self._chance_at > mark[0]:
            return f"{move} brought chance into play (a card was drawn or the cards were shuffled)"
        if self.over:
            return "the game is over"
        shown = seen_by_others(self.log, seat, mark[1])
        if shown is not None:
            others = (
                "another player" if shown[0] & ((1 << self.players) - 1) & ~(1 << seat) else "the spectators"
            )
            return f"what {move} led to has already been shown to {others}"
        return None

    def undo(self, seat: int) -> Move:
        """Take back ``seat``'s last move (see :meth:`undo_refusal`); return the move."""
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise UndoError(f"cannot take back: {reason}")
        move = self.history[-1][1]
        earlier = type(self).new(self.players, self.options, self.seed, self.setup)
        for s, m in self.history[:-1]:
            earlier.apply(s, m)
        earlier._transfer(self)
        return move

    # -------------------------------------------------------------- misc
    def check_invariants(self) -> None:  # noqa: B027  (a game without invariants keeps this)
        """Raise AssertionError if a rule invariant of the game fails (conformance suite)."""

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} seed={self.seed} "
            f"moves={len(self.history)} over={self.over}>"
        )


#: Where a declared attribute has no value yet.
_UNSET: Any = object()


def _declared_attributes(cls: type) -> tuple[str, ...]:
    """The instance attributes ``cls`` and its bases declare (annotations, no ClassVar)."""
    names: dict[str, None] = {}
    for klass in reversed(cls.__mro__):
        for name, kind in vars(klass).get("__annotations__", {}).items():
            if "ClassVar" not in str(kind):
                names[name] = None
    return tuple(names)


State._attributes = _declared_attributes(State)


def codec_for(cls: type[State], players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
    """The integer action codec of (game ``cls``, ``players``, ``options``), built once."""
    opts = resolve_options(cls.info.options, options)
    key = (cls, players, tuple(sorted(opts.items())))
    codec = _CODECS.get(key)
    if codec is None:
        codec = _CODECS[key] = ActionCodec(cls.all_moves(players, opts))
    return codec


_CODECS: dict[tuple[Any, ...], ActionCodec] = {}
#: The codec by (class, seats, a state's resolved options in their order): :meth:`State.codec`.
_BY_STATE: dict[tuple[Any, ...], ActionCodec] = {}
#: Per class, the seats, options and codec :meth:`State.codec` found last.
_LAST_BY_STATE: dict[type, tuple[int, dict[str, Any], ActionCodec]] = {}
#: Per codec, per move class: its fields' getter and the action by field values, or None for
#: a class that is not a dataclass equal by its fields (see :func:`_encode_all`; the codec's
#: own objects are found by identity first, ``ActionCodec.identity``).
_KEYED: dict[ActionCodec, dict[type, tuple[Callable[[Any], Any], dict[Any, int]] | None]] = {}


def _encode_all(codec: ActionCodec, moves: list[Move]) -> list[int]:
    """The actions of ``moves``: the same as ``[codec.index[m] for m in moves]``, faster.

    A game that hands out the very Move objects its ``all_moves`` built (interned values)
    is answered by their identity: the codec keeps them alive, so no other object has
    their ``id``.  Otherwise a dataclass move is equal to another of its class with the
    same field values, so its action is looked up by those values (read by
    :func:`operator.attrgetter`, hashed and compared in C) instead of through the class's
    generated ``__hash__`` and ``__eq__``, which Python runs for every move a game builds
    afresh.  Anything else goes through ``codec.index``."""
    keyed = _KEYED.get(codec)
    if keyed is None:
        keyed = _KEYED[codec] = _keyed(codec)
    by_id = codec.identity
    out = []
    for move in moves:
        action = by_id.get(id(move))
        if action is None:
            entry = keyed.get(type(move))
            action = None if entry is None else entry[1].get(entry[0](move))
            if action is None:
                action = codec.index[move]
        out.append(action)
    return out


def _encode_one(codec: ActionCodec, move: Move) -> int:
    """The action of one ``move``, as :func:`_encode_all` finds it."""
    action = codec.identity.get(id(move))
    if action is not None:
        return action
    keyed = _KEYED.get(codec)
    if keyed is None:
        keyed = _KEYED[codec] = _keyed(codec)
    entry = keyed.get(type(move))
    action = None if entry is None else entry[1].get(entry[0](move))
    return codec.index[move] if action is None else action


def _keyed(codec: ActionCodec) -> dict[type, tuple[Callable[[Any], Any], dict[Any, int]] | None]:
    keyed: dict[type, tuple[Callable[[Any], Any], dict[Any, int]] | None] = {}
    for action, move in enumerate(codec.moves):
        kind = type(move)
        if kind not in keyed:
            params = getattr(kind, "__dataclass_params__", None)
            names = (
                [f.name for f in dataclasses.fields(cast(Any, kind))]
                if params is not None and params.eq
                else []
            )
            keyed[kind] = (operator.attrgetter(*names), {}) if names else None
        entry = keyed[kind]
        if entry is not None:
            entry[1][entry[0](move)] = action
    return keyed


_ALONE = [tuple((s,) for s in range(n)) for n in range(64)]


def _seat_order(pair: tuple[Any, Any]) -> tuple[bool, int]:
    seat = pair[0]
    return (False, seat) if type(seat) is int else (True, 0)


def _freeze(setup: Mapping[str, Any]) -> str:
    """The setup as canonical JSON text (an immutable copy), or SetupError."""
    try:
        return json.dumps(setup, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SetupError(f"setup must be plain JSON data: {exc}") from None


def check_notation(text: object) -> str:
    """Normalise move text (strip, lower-case, single spaces)."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {quoted(text)}")
    if len(text) > MAX_NOTATION:
        raise NotationError(
            f"move text is {len(text)} characters long: no move is longer than {MAX_NOTATION}"
        )
    out = " ".join(text.split()).lower()
    if not out:
        raise NotationError("empty move")
    return out
