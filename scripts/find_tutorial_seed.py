"""Search the seed of the tutorial table (src/minodice/server/tutorial.py, `TUTORIAL_SEED`).

    .venv/bin/python scripts/find_tutorial_seed.py [--start 0] [--count 3000]

Plays the tutorial table as the server does (four seats, the three bots of the medium level seeded
`bot_seed(seed, seat):medium`, you in seat 0) through its first `TUTORIAL_HANDS` hands, once per way
of playing seat 0 (bids 0, 1 or the most; always the first, the last or a random legal die), and
keeps the seeds whose hands show every lesson whatever seat 0 does: a lead colour set in hand 1, a
colour seat 0 must follow (the engine refuses some of its dice), a special face beating numbers, a
special face beating another special. A bonus is a plus. Prints the best seeds found.
Seed 53 (the one in use) shows every lesson and a bonus in each of these ways of playing, and in
60 games of random bids and rolls too.
The game's dice do not depend on the choices (the deal and each roll's face come from the seed in
the same order), only which die shows which face does: hence several ways of playing are tried.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from minodice.bots import bot_seed
from minodice.game import Bid, Game, Phase, Roll
from minodice.rules import Rules, TrickState
from minodice.server.botpool import decide, made
from minodice.server.tutorial import TUTORIAL_HANDS, TUTORIAL_LEVEL, TUTORIAL_SEATS

REQUIRED = ("lead", "follow", "special_beats_numbers", "special_beats_special")
Policy = tuple[Callable[[list[int]], int], Callable[[list[Roll], random.Random], Roll]]


def policies() -> list[tuple[str, Policy]]:
    bids = {"zero": lambda b: b[0], "one": lambda b: b[min(1, len(b) - 1)], "most": lambda b: b[-1]}
    rolls = {"first": lambda r, _: r[0], "last": lambda r, _: r[-1], "random": lambda r, rng: rng.choice(r)}
    return [(f"{bn}/{rn}", (b, r)) for bn, b in bids.items() for rn, r in rolls.items()]


def lessons(seed: int, policy: Policy) -> set[str]:
    """The lessons the tutorial's first hands show when seat 0 plays `policy`."""
    bid_of, roll_of = policy
    game = Game(TUTORIAL_SEATS, seed=seed)
    bots = {s: made(TUTORIAL_LEVEL, bot_seed(seed, s) + f":{TUTORIAL_LEVEL}", game.setup_view(s))
            for s in range(1, TUTORIAL_SEATS)}
    rng = random.Random(seed)
    seen: set[str] = set()
    rolls: list[tuple] = []
    while game.hand <= TUTORIAL_HANDS and not game.over:
        if game.phase is Phase.BID:
            for s in game.to_act():
                bids = [b.bid for b in game.legal_bids(s)]
                game.apply(Bid(s, bid_of(bids) if s == 0 else decide(bots[s], game.observe(s), "bid")))
            continue
        seat = game.turn
        hand = game.hand
        legal = game.legal_rolls(seat)
        if seat == 0:
            if len({r.die for r in legal}) < len(set(game.held(0))):
                seen.add("follow")
            roll = roll_of(legal, rng)
        else:
            roll = Roll(seat, decide(bots[seat], game.observe(seat), "roll"))
        done = len(game.events)
        game.apply(roll)
        for ev in game.events[done:]:
            if ev.kind == "rolled":
                rolls.append((ev.die, ev.face))
            elif ev.kind == "trick_won":
                _trick_lessons(TrickState.of(rolls, Rules()), hand, seen)
                rolls = []
    return seen


def _trick_lessons(state: TrickState, hand: int, seen: set[str]) -> None:
    """What a finished trick shows: its lead colour (in hand 1), why it was won, a bonus."""
    if state.lead is not None and hand == 1:
        seen.add("lead")
    if state.reason is not None:
        code = state.reason.code
        seen.add("special_beats_special" if code == "three_specials" else code)
    if state.bonus:
        seen.add("bonus")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=3000)
    args = ap.parse_args()
    found = []
    for seed in range(args.start, args.start + args.count):
        seen = [lessons(seed, p) for _, p in policies()]
        if all(set(REQUIRED) <= s for s in seen):
            bonus = sum("bonus" in s for s in seen)
            found.append((bonus, seed))
            print(f"seed {seed}: every lesson for every way of playing; a bonus in {bonus} of {len(seen)}", flush=True)
    for bonus, seed in sorted(found, reverse=True)[:5]:
        print(f"best: {seed} (bonus in {bonus} ways)")


if __name__ == "__main__":
    main()
