#!/usr/bin/env python3
"""A small Mino Dice bot speaking `minodice-bot/1`: JSON lines on stdin, answers on stdout.

Standard library only, so it reads like a bot in any language would. Play against it:

    minodice play --bot 'cmd:python3 examples/simple_bot.py'

It bids the number of special and red dice it holds, rolls its strongest die
while it still needs tricks and its weakest once it has enough.
"""

import json
import sys

#: Dice from strongest to weakest (rough, but good enough to beat random play).
STRENGTH = ["minotaur", "griffin", "mermaid", "red", "yellow", "gray", "purple"]


def choose_bid(view):
    """Count the dice that usually win a trick: the specials and the reds."""
    strong = sum(1 for die in view["dice"] if die in ("minotaur", "griffin", "mermaid", "red"))
    return min(strong, max(view["legal"]))


def choose_die(view):
    """While short of the bid, roll the strongest legal die; after, the weakest."""
    seat = view["seat"]
    bid = view["bids"][seat]  # every bid is known once rolling starts
    need = bid - view["won"][seat]
    legal = sorted(view["legal"], key=STRENGTH.index)
    return legal[0] if need > 0 else legal[-1]


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"name": "simple", "author": "minodice examples"}
        elif kind == "bid":
            answer = {"id": message["id"], "bid": choose_bid(message["view"])}
        elif kind == "roll":
            answer = {"id": message["id"], "die": choose_die(message["view"])}
        elif kind == "quit":
            return
        else:  # "game" and "result" need no answer
            continue
        print(json.dumps(answer), flush=True)  # flush: the host waits for this line


if __name__ == "__main__":
    main()
