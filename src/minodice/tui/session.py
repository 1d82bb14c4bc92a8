"""`minodice play`: one person against bots in the terminal, saved and resumable.

`run(PlaySettings(...))` sets the table up (or resumes a saved record), lets
the bots act through `runner.Match`, prints what the person's seat may know
(`Game.observe` and `Game.events_for` only) and asks for bids and dice until
the game ends. Every refusal of a move is the engine's `IllegalAction` message.
The save file also keeps the random streams (`streams`), so a resumed game
rolls the dice and makes the bots' choices the unbroken game would have.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from .. import record as records
from ..bots import BUILTIN, Bot, BotSpecError, bot_seed, make_bot, parse_spec
from ..bots.runner import Fault, Match
from ..codes import printable, quoted
from ..dice import MAX_SEATS, MIN_SEATS, Die, Face
from ..errors import IllegalAction
from ..game import Bid, Chance, Game, Phase, Roll, SeededChance
from ..jitcache import warmed
from ..preparing import preparing
from ..rules import Rules
from ..warm import prepare_bots, prepare_seconds
from . import prompts
from .render import Screen
from .runnable import Runnable
from .streams import KEY as STREAMS
from .streams import State, Streams

__all__ = ["PlaySettings", "SetupError", "ShowBeforeDeal", "run"]

#: Exit codes: a finished or left game, a bad setup, an interrupt (Ctrl-C).
EXIT_OK, EXIT_SETUP, EXIT_INTERRUPT = 0, 2, 130
#: Seconds between bots' rolls on a terminal; `MINODICE_DELAY` overrides (0: none).
DEFAULT_DELAY = 0.3
#: Longest name a person may take at the table (longer ones are cut).
MAX_NAME = 24


@dataclass
class PlaySettings:
    """How to set up `minodice play` (the CLI's options)."""

    bots: list[str]
    name: str = "You"
    seed: int | None = None
    seat: int = 0
    rules: Rules = field(default_factory=Rules)
    save: Path | None = None
    resume: Path | None = None
    timeout: float = 10.0
    #: Start `cmd:` bots named in a resumed file (a save file from elsewhere could name any program).
    trust_bots: bool = False
    #: The level (`bots.levels`) that chose the bots, if one did: their seats are named after it.
    level: str | None = None
    #: How the person runs minodice: the resume and verify lines the game prints are written so.
    runnable: Runnable = field(default_factory=Runnable)


class SetupError(Exception):
    """The table cannot be set up as asked; the message says why (exit code 2)."""


class _Quit(Exception):
    """The player typed quit."""


def run(
    settings: PlaySettings,
    *,
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
    delay: float | None = None,
) -> int:
    """Play one game in the terminal; return the exit code (0 done or left, 2 bad setup, 130 Ctrl-C).

    A setup that cannot be is one line on stderr, `minodice play: why`; Ctrl-C saves the game and says
    where and how to resume it. `console`, `ask` (prompt → typed line; raises EOFError at end of input)
    and `delay` (seconds before each bot roll) are for tests and embedding.
    """
    errors = console or Console(stderr=True, highlight=False)
    console = console or Console(highlight=False)
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C must save and leave even when started with SIGINT ignored (e.g. from a background job).
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        session = Session.create(settings, console, ask, _delay() if delay is None else delay)
    except SetupError as exc:
        errors.print(escape(printable(f"minodice play: {exc}")), soft_wrap=True)
        return EXIT_SETUP
    except KeyboardInterrupt:
        errors.print("minodice play: interrupted while setting up the game; nothing was saved", soft_wrap=True)
        return EXIT_INTERRUPT
    try:
        return session.play()
    finally:
        with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C while the bots stop
            session.close()


def _delay() -> float:
    """The pause before each bot roll: MINODICE_DELAY if set, else a short one on a terminal, else 0."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return 0.0
    value = os.environ.get("MINODICE_DELAY")
    if value is None:
        return DEFAULT_DELAY
    try:
        seconds = float(value)
    except ValueError:
        return 0.0
    return min(seconds, 5.0) if seconds > 0 else 0.0  # NaN and negatives: no pause


class Session:
    """One game at the terminal: the game, its bots, the screen and the save file."""

    def __init__(
        self,
        game: Game,
        me: int,
        bots: dict[int, Bot],
        specs: dict[int, str],
        seed: int,
        console: Console,
        ask: Callable[[str], str] | None,
        delay: float,
        save: Path | None,
        resumed: Path | None,
        *,
        continued: bool = False,
        unmoved: dict[int, State | None] | None = None,
        runnable: Runnable | None = None,
    ) -> None:
        self.game = game
        self.me = me
        self.specs = specs
        self.seed = seed
        self.console = console
        self.ask = ask or self._input
        self.delay = delay
        self.save_path = save
        self.resumed = resumed
        self.continued = continued  # resumed with the saved random streams: the game goes on unchanged
        self.runnable = runnable or Runnable()  # how the lines printed to run next are written
        # each bot's random state as it was made: a stream that has not moved is not saved
        self.unmoved = unmoved if unmoved is not None else {s: _rng_state(b) for s, b in bots.items()}
        self.screen = Screen(console, game.names, me, game.rules, game.hands)
        if game.chance is not None:
            game.chance = ShowBeforeDeal(game.chance, self.flush)
        self.match = Match(game, bots, on_fault=self._fault)
        self.seen = 0  # events shown so far
        self.snapshot: dict[str, Any] = {}
        self._save_failed = False
        self._early_faults: list[Fault] = []  # faults while the bots started, shown after the intro

    # --- setting up ---------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        settings: PlaySettings,
        console: Console,
        ask: Callable[[str], str] | None = None,
        delay: float = 0.0,
    ) -> Session:
        """A new game, or the resumed one; SetupError with the reason if it cannot be."""
        resumed = _resume(settings.resume, settings.seed) if settings.resume is not None else None
        if resumed is not None:
            game, me, specs, seed = resumed.game, resumed.me, resumed.specs, resumed.seed
            save = settings.save or settings.resume
        else:
            seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(1, 10**6)
            game, me, specs, save = None, settings.seat, {}, settings.save
        bots = _prepared_bots(settings, specs if resumed is not None else None, me, seed)
        try:
            unmoved = {s: _rng_state(bot) for s, (_spec, bot) in bots.items()}
            if game is None:
                specs = {s: spec for s, (spec, _bot) in bots.items()}
                names = _names(settings.name, me, bots, settings.level)
                game = Game(len(names), names=names, rules=settings.rules, seed=seed)
            elif resumed is not None:
                _restore_bots(bots, resumed)
            session = cls(game, me, {s: b for s, (_spec, b) in bots.items()}, specs, seed, console,
                          ask, delay, save, settings.resume,
                          continued=resumed is not None and resumed.continued, unmoved=unmoved,
                          runnable=settings.runnable)
            session.checkpoint()
            if save is not None and session._save_failed:
                raise SetupError(f"cannot write the save file {save}")
            session._start_bots()
        except BaseException:
            for _spec, bot in bots.values():
                _close(bot)
            raise
        return session

    def _start_bots(self) -> None:
        """Tell the bots a game begins (external programs start here); SetupError if one cannot play."""
        early: list[Fault] = []
        self.match.on_fault = early.append
        self.match.start()
        self.match.on_fault = self._fault
        for fault in early:
            if fault.seat in self.match.replaced:
                raise SetupError(f"bot {quoted(self.specs[fault.seat])} for seat {fault.seat}: {fault.detail}")
        self._early_faults = early

    def close(self) -> None:
        """Stop the bots (external programs end here)."""
        self.match.close()

    # --- playing ------------------------------------------------------------------------

    def play(self) -> int:
        """Run the game to its end (or until the player leaves); return the exit code."""
        try:
            self.intro()
            while True:
                self.match.advance()
                self.flush()
                self.checkpoint()
                if self.game.over:
                    break
                self.human_move()
        except _Quit:
            self.leave("You left")  # saved like Ctrl-C: to --save, or a file named after the seed
            return EXIT_OK
        except EOFError:
            self.leave("End of input")
            return EXIT_OK
        except KeyboardInterrupt:
            self.leave("Interrupted")
            return EXIT_INTERRUPT
        except Exception:
            self.leave("Something went wrong")
            raise
        self.console.print()
        if self.save_path is not None:
            self.console.print(f"[dim]The game record is saved in {escape(str(self.save_path))} "
                               f"(check it with: {escape(self.runnable.command('verify', self.save_path))}).[/]",
                               soft_wrap=True)
        with contextlib.suppress(EOFError, KeyboardInterrupt):
            self.after_game()
        return EXIT_OK

    def after_game(self) -> None:
        """Offer the review of this seat's decisions against a search bot (what `minodice analyze` shows);
        any other answer leaves."""
        raw = prompts.clean(self.ask(
            "Type review to see how your decisions compare with a search bot's (a few seconds), "
            "or press Enter to leave"))
        if raw in ("review", "r"):
            self.review()

    def review(self) -> None:
        """This seat's decisions judged from what it could see, the worst first (`minodice.review`)."""
        from ..review import DEFAULT_BOT, analyze
        from ..review.render import render_seat

        with self.console.status("Judging your decisions…"):
            analysis = analyze(self.snapshot, [self.me], DEFAULT_BOT, seed=0)
        self.console.print(render_seat(analysis.seats[0]))

    def intro(self) -> None:
        """The table: seats, rules, seed; when resuming, the sheet so far and the hand in progress."""
        game, p = self.game, self.console.print
        seats = [
            f"{s} [bold underline]{escape(printable(game.names[s]))}[/] (you)" if s == self.me
            else f"{s} {escape(printable(game.names[s]))}"
            for s in range(game.seats)
        ]
        p(f"[bold]Mino Dice[/] · {game.seats} players · {game.hands} hands")
        self.screen.flow("Seats: ", seats)
        rules = game.rules.to_dict()
        changed = {k: v for k, v in rules.items() if Rules().to_dict()[k] != v}
        if changed:
            p("[dim]House rules: " + ", ".join(f"{k}={v}" for k, v in changed.items()) + "[/]")
        if self.continued:
            p(f"Resumed from {escape(str(self.resumed))}: seed {self.seed}, the same dice and bots' "
              "choices as if the game had never stopped.")
        elif self.resumed is not None:
            p(f"Resumed from {escape(str(self.resumed))}; new dice come from seed {self.seed}.")
        else:
            p(f"Seed {self.seed} (the same seed and moves give the same game: --seed {self.seed}).")
        if self.save_path is not None:
            p(f"[dim]Saving to {escape(str(self.save_path))} after every move.[/]")
        p("[dim]Type help at any prompt for commands; quit to leave.[/]")
        for fault in self._early_faults:
            self._fault(fault)
        events = self.game.events_for(self.me, 0)
        if self.resumed is not None:
            last_deal = max((i for i, e in enumerate(events) if e.kind == "drawn"), default=0)
            if game.over:
                last_deal = len(events) - 2  # only the last hand's score and the podium
            for e in events[:last_deal]:
                self.screen.show(e, quiet=True)
            if game.over:
                p("This game is already over.")
            elif self.screen.rows:
                self.screen.sheet()
            self.seen = last_deal

    def flush(self) -> None:
        """Print the events not shown yet, read against this seat's view now (bots' rolls paced by `delay`)."""
        events = self.game.events_for(self.me, self.seen)
        if not events:
            return
        self.seen += len(events)
        view = self.game.observe(self.me)
        for e in events:
            self.screen.show(e, view, pace=self.delay)

    def human_move(self) -> None:
        """Ask for this seat's bid or roll until the game accepts one."""
        game = self.game
        if game.phase is Phase.BID and self.me in game.to_act():
            self._ask_until_done(bidding=True)
        elif game.phase is Phase.ROLL and game.turn == self.me:
            self._ask_until_done(bidding=False)
        else:  # pragma: no cover - the match stops only for this seat or the end
            raise RuntimeError(f"nothing to do for seat {self.me} in phase {game.phase.value}")

    def _ask_until_done(self, *, bidding: bool) -> None:
        view = self.game.observe(self.me)
        menu: tuple[Die, ...] = ()
        if bidding:
            prompt = self.screen.bid_menu(view)
        else:
            prompt, menu = self.screen.roll_menu(view)
        while True:
            raw = self.ask(prompt)
            wish = prompts.parse_bid(raw) if bidding else prompts.parse_die(raw, view.dice, menu)
            if isinstance(wish, prompts.Command):
                self._command(wish.name, view)
                if bidding:
                    prompt = self.screen.bid_menu(view)
                else:
                    prompt, menu = self.screen.roll_menu(view)
                continue
            if isinstance(wish, prompts.Problem):
                self.screen.problem(wish.message)
                continue
            action = Roll(self.me, wish) if isinstance(wish, Die) else Bid(self.me, wish)
            try:
                self.game.apply(action)
            except IllegalAction as exc:
                self.screen.problem(exc.message)
                continue
            self.checkpoint()
            return

    def _command(self, name: str, view: Any) -> None:
        if name == "help":
            self.screen.help()
        elif name == "sheet":
            self.screen.sheet(view)
        elif name == "hint":
            self.screen.hint(view)
        elif name == "quit":
            raise _Quit

    # --- saving -------------------------------------------------------------------------

    def checkpoint(self) -> None:
        """Take the host record of the game now; write it if saving."""
        info = [{"bot": self.specs[s]} if s in self.specs else {} for s in range(self.game.seats)]
        self.snapshot = records.from_game(self.game, seat_info=info)
        self.snapshot[STREAMS] = self.streams().to_json()
        if self.save_path is not None:
            self._write(self.save_path, quiet=True)

    def streams(self) -> Streams:
        """The random streams now (the seed; while the game goes on, the dice's and moved bots' states)."""
        streams = Streams(self.seed)
        if self.game.over:
            return streams
        chance = self.game.chance
        inner = chance.inner if isinstance(chance, ShowBeforeDeal) else chance
        if isinstance(inner, SeededChance):
            streams.dice = inner.rng.getstate()
        for seat, bot in self.match.bots.items():
            state = _rng_state(bot)
            if state is not None and state != self.unmoved.get(seat):
                streams.bots[seat] = state
        return streams

    def _write(self, path: Path, *, quiet: bool = False) -> bool:
        try:
            records.save(self.snapshot, path)
        except OSError as exc:
            if not self._save_failed or not quiet:
                self.screen.warn(f"could not save the game to {path}: {exc.strerror or exc}")
            self._save_failed = True
            return False
        return True

    def leave(self, why: str) -> None:
        """Save the game (to --save, or a file named after the seed) and say how to resume."""
        try:
            self.console.print()
            if not self.snapshot or (self.game.over and self.save_path is None):
                self.console.print(f"{why}: leaving the game.")
                return
            path = self.save_path or Path(f"minodice-save-{self.seed}.json")
            if self._write(path):
                self.console.print(f"{why}: the game is saved in {escape(str(path))}.", soft_wrap=True)
                self._how_to_resume(path)
        except KeyboardInterrupt:  # a second Ctrl-C while saving: leave at once
            pass

    def _how_to_resume(self, path: Path) -> None:
        self.console.print(f"Resume it with: [bold]{escape(self.runnable.play('--resume', path))}[/]",
                           soft_wrap=True)

    # --- helpers ------------------------------------------------------------------------

    def _input(self, prompt: str) -> str:
        return self.console.input(f"[bold]{escape(prompt)}[/]")

    def _fault(self, fault: Fault) -> None:
        name = self.game.names[fault.seat]
        got = f" (it answered {fault.line[:80]!r})" if fault.line else ""
        self.screen.warn(f"{name}: {fault.detail}{got} — it plays its first legal choice instead")


class ShowBeforeDeal:
    """The game's chance source, wrapped so the events of a hand are shown before the next is drawn.

    A seeded game draws the next hand the moment the last trick is won, so
    afterwards the seat's view is of the new hand; `before_deal` (the session's
    `flush`) runs first, while the view is still that of the hand just scored.
    The outcomes are the wrapped source's, so the same seed gives the same game.
    """

    def __init__(self, inner: Chance, before_deal: Callable[[], None]) -> None:
        self.inner = inner
        self.before_deal = before_deal

    def deal(self, game: Game, hand: int, each: int) -> Sequence[Sequence[Die]]:
        self.before_deal()
        return self.inner.deal(game, hand, each)

    def land(self, game: Game, seat: int, die: Die) -> Face:
        return self.inner.land(game, seat, die)

    def copy(self) -> Chance:
        """A copy of the wrapped source (copies of the game show nothing)."""
        return self.inner.copy()


# --- setup helpers ------------------------------------------------------------------------


def _close(bot: Bot) -> None:
    with contextlib.suppress(Exception):
        bot.close()


def _refuse_untrusted_programs(specs: dict[int, str], settings: PlaySettings) -> None:
    """SetupError if a resumed file names an external program and the player has not said to trust it."""
    if settings.trust_bots:
        return
    for seat, spec in specs.items():
        if spec.strip().startswith("cmd:"):
            raise SetupError(
                f"{settings.resume} would start the program {printable(spec[4:].strip())!r} for seat {seat}: "
                "a save file can name any program, so it runs only with --trust-bots "
                "(check the file, then resume with --resume FILE --trust-bots)"
            )


def _prepared_bots(
    settings: PlaySettings, resumed: dict[int, str] | None, me: int, seed: int
) -> dict[int, tuple[str, Bot]]:
    """`_make_bots`, and on a first run (before `minodice warm`) the kernels they decide with compiled now,
    a line saying so, rather than in the middle of the game."""
    specs = [str(s) for s in (resumed.values() if resumed is not None else settings.bots)]
    what = f"the {settings.level} bots" if settings.level else "the bots"
    with preparing(what, prepare_seconds(specs)):
        bots = _make_bots(settings, resumed, me, seed)
        if not warmed():
            prepare_bots([spec for spec, _bot in bots.values()], len(bots) + 1)
    return bots


def _make_bots(
    settings: PlaySettings, resumed: dict[int, str] | None, me: int, seed: int
) -> dict[int, tuple[str, Bot]]:
    """Each bot seat's spec and bot (new game: the other seats in order); SetupError if any fails."""
    if resumed is None:
        specs = list(settings.bots)
        for spec in specs:  # a misspelt bot is named first, before the count of bots
            try:
                parse_spec(spec)
            except BotSpecError as exc:
                raise SetupError(str(exc)) from None
        if not MIN_SEATS - 1 <= len(specs) <= MAX_SEATS - 1:
            raise SetupError(
                f"play needs {MIN_SEATS - 1} to {MAX_SEATS - 1} bots (one --bot per other seat), "
                f"got {len(specs)}"
            )
        seats = len(specs) + 1
        if not 0 <= me < seats:
            raise SetupError(
                f"--seat {me} is out of range: with {seats} players the seats go from 0 to {seats - 1}"
            )
        wanted = dict(zip([s for s in range(seats) if s != me], specs))
    else:
        wanted = resumed
        _refuse_untrusted_programs(wanted, settings)
    bots: dict[int, tuple[str, Bot]] = {}
    try:
        for s, spec in wanted.items():
            try:
                bot = make_bot(spec, seed=bot_seed(seed, s), timeout=settings.timeout)
            except BotSpecError as exc:  # it names the bot and the option at fault
                raise SetupError(f"seat {s}: {exc}") from None
            except Exception as exc:
                raise SetupError(f"bot {quoted(spec)} for seat {s}: {exc}") from None
            bots[s] = (spec, bot)
    except BaseException:
        for _spec, bot in bots.values():
            _close(bot)
        raise
    return bots


def _names(name: str, me: int, bots: dict[int, tuple[str, Bot]], level: str | None = None) -> list[str]:
    """The seats' names: the person's, then "greedy-1", "random-2" … or an external bot's own name;
    "expert-1", "expert-2" … when a level chose the bots (a player picked "expert", not a search spec)."""
    human = " ".join("".join(ch for ch in name if ch.isprintable() or ch.isspace()).split())
    human = human[:MAX_NAME] or "You"
    names: list[str] = []
    for s in range(len(bots) + 1):
        if s == me:
            names.append(human)
            continue
        spec, bot = bots[s]
        builtin = spec.partition(":")[0].strip() in BUILTIN and not spec.startswith("cmd:")
        base = level or str(getattr(bot, "name", "") or "bot")
        label = f"{base}-{s}" if builtin or level else base  # an external bot keeps its own name
        if label in names or label == human:
            label = f"{base}-{s}"
        if label in names or label == human:
            label = f"{base}-{s}-bot"
        names.append(label)
    return names


@dataclass
class Resumed:
    """A save file read back: the game, the person's seat, the bots' specs and the random streams."""

    game: Game
    me: int
    specs: dict[int, str]
    seed: int
    continued: bool  # the dice go on from the saved generator state
    bot_states: dict[int, State]
    path: Path


def _resume(path: Path, seed: int | None) -> Resumed:
    """The saved game and what continues it; SetupError if the file is bad or `seed` contradicts it."""
    try:
        rec = records.load(path)
    except records.RecordError as exc:
        raise SetupError(f"cannot resume {path}: {exc}") from None
    me, specs = _seats(rec, path)
    try:
        streams = Streams.of(rec)
    except ValueError as exc:
        raise SetupError(f"cannot resume {path}: {exc}") from None
    if streams is not None and seed is not None and seed != streams.seed:
        raise SetupError(f"--seed {seed} does not apply: {path} goes on with the dice of its own seed "
                         f"{streams.seed} (leave --seed out to resume it)")
    if streams is not None:
        seed = streams.seed
    elif seed is None:  # a record without streams (written elsewhere): new dice from a new seed
        seed = random.SystemRandom().randrange(1, 10**6)
    chance = None
    if streams is not None and streams.dice is not None:
        chance = SeededChance(seed)
        try:
            chance.rng.setstate(streams.dice)
        except (TypeError, ValueError):
            raise SetupError(f"cannot resume {path}: its saved dice state is damaged") from None
    try:
        game = records.to_game(rec, seed=seed, chance=chance)
    except (ValueError, KeyError, TypeError, IllegalAction) as exc:
        raise SetupError(f"cannot resume {path}: {exc}") from None
    return Resumed(game, me, specs, seed, chance is not None, streams.bots if streams else {}, path)


def _seats(rec: dict[str, Any], path: Path) -> tuple[int, dict[int, str]]:
    """The person's seat (the one without a "bot") and the bot seats' specs; SetupError if not so."""
    seats = rec.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise SetupError(f"cannot resume {path}: its \"seats\" is not a list of seats")
    specs: dict[int, str] = {}
    people: list[int] = []
    for i, entry in enumerate(seats):
        spec = entry.get("bot")
        if spec is None:
            people.append(i)
        elif isinstance(spec, str) and spec.strip():
            specs[i] = spec
        else:
            raise SetupError(f"cannot resume {path}: seat {i} has a \"bot\" that is not a bot spec")
    if len(people) != 1:
        raise SetupError(
            f"cannot resume {path}: the terminal game needs exactly one seat without a \"bot\" "
            f"(yours), this record has {len(people)}"
        )
    return people[0], specs


def _rng_state(bot: Bot) -> State | None:
    """The state of a bot's own random stream (None if it has none)."""
    rng = getattr(bot, "rng", None)
    return rng.getstate() if isinstance(rng, random.Random) else None


def _restore_bots(bots: dict[int, tuple[str, Bot]], resumed: Resumed) -> None:
    """Set the saved bots' random streams back; SetupError if one names a seat without a bot."""
    for seat, state in resumed.bot_states.items():
        rng = getattr(bots[seat][1], "rng", None) if seat in bots else None
        if not isinstance(rng, random.Random):
            raise SetupError(f"cannot resume {resumed.path}: its \"streams\" keep a bot's state "
                             f"for seat {seat}, which has no bot")
        try:
            rng.setstate(state)
        except (TypeError, ValueError):
            raise SetupError(f"cannot resume {resumed.path}: the saved state of seat {seat}'s bot "
                             "is damaged") from None
