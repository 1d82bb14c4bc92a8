"""The trick state on the wire agrees with `minodice.rules`: lead, leading roll, reasons, legal dice, refusals.

Real games against a real server; every `state` frame every client received is
checked against what `minodice.rules` answers for the view it carries (the
test may compute with the rules; the web client may not: it renders these).
"""

from __future__ import annotations

from typing import Any

import httpx

from minodice.dice import Die, Face
from minodice.rules import Rules, TrickState, hand_score, roller
from minodice.view import View
from test_server_common import Player, ServerProcess, make_table, play_out, server_fixtures, start

server, http = server_fixtures("trick")


def expected_trick(rolls: list[dict[str, Any]], rules: Rules) -> TrickState:
    return TrickState.of(((Die(r["die"]), Face(r["face"])) for r in rolls), rules)


def check_view(sent: dict[str, Any]) -> dict[str, int]:
    """Check one sent VIEW against the rules; what it showed (for coverage counts)."""
    view = View.from_dict(sent)
    seen = {"trick": 0, "refusals": 0, "finished": 0}
    current = view.current_trick
    if current is None:
        assert sent["trick"] is None
    else:
        state = expected_trick(sent["tricks"][-1]["rolls"], view.rules)
        order = [roller(view.leader, k, view.seats) for k in range(view.seats)]
        assert sent["trick"] == {**state.to_dict(), "order": order}
        assert [r.seat for r in current.rolls] == order[: len(current.rolls)]
        assert sent["trick"]["lead"] == (view.lead_colour.value if view.lead_colour else None)
        if state.leading is not None:
            assert sent["trick"]["reason"]["code"] == state.reason.code  # type: ignore[union-attr]
            seen["trick"] += 1
    refusals = {d.value: r.to_dict() for d, r in view.refusals().items()}
    assert sent["refusals"] == refusals
    if view.seat is not None and view.to_roll == view.seat:
        state = view.trick_state or TrickState((), view.rules)
        assert sent["legal"] == [d.value for d in state.legal(view.dice)]
        held = set(view.dice)
        assert set(sent["legal"]) | set(sent["refusals"]) == {d.value for d in held}
        assert not set(sent["legal"]) & set(sent["refusals"])
        for die, why in sent["refusals"].items():
            assert why == {"code": "must_follow", "params": {"colour": sent["trick"]["lead"], "die": die}}
        seen["refusals"] += bool(refusals)
    else:
        assert refusals == {}
    for trick in sent["tricks"]:
        if trick["winner"] is None:
            assert "reason" not in trick
            continue
        state = expected_trick(trick["rolls"], view.rules)
        assert trick["rolls"][state.leading]["seat"] == trick["winner"]  # type: ignore[index]
        assert trick["reason"] == state.reason.to_dict()  # type: ignore[union-attr]
        assert trick["lead"] == (state.lead.value if state.lead else None)
        assert trick["bonus_why"] == (state.bonus_why.to_dict() if state.bonus_why else None)
        seen["finished"] += 1
    return seen


def check_events(player: Player, rules: Rules) -> int:
    """Every trick_won event a client got carries the reason of its trick's rolls; how many."""
    rolls: list[dict[str, Any]] = []
    won = 0
    for msg in player.received:
        if msg["type"] != "state":
            continue
        if msg["full"]:
            rolls = []
        for e in msg["events"]:
            if e["type"] == "rolled":
                rolls.append(e)
            elif e["type"] == "trick_won":
                state = expected_trick(rolls, rules)
                assert rolls[state.leading]["seat"] == e["seat"]  # type: ignore[index]
                assert e["reason"] == state.reason.to_dict()  # type: ignore[union-attr]
                assert e["bonus_why"] == (state.bonus_why.to_dict() if state.bonus_why else None)
                assert e["bonus"] == state.bonus
                assert e["lead"] == (state.lead.value if state.lead else None)
                rolls = []
                won += 1
            elif e["type"] == "hand_scored":
                dice = e["hand"]
                for bid, n, bonus, counted, score in zip(e["bids"], e["won"], e["bonus"], e["bonus_counted"], e["scores"]):
                    assert score == hand_score(bid, n, dice, bonus, rules)
                    assert counted == score - hand_score(bid, n, dice, 0, rules)
                    assert counted in (0, bonus)
    return won


def test_the_wire_carries_the_rules_answers(http: httpx.Client, server: ServerProcess) -> None:
    totals = {"trick": 0, "refusals": 0, "finished": 0, "won": 0}
    for seats, rules in ((3, {}), (4, {"all_flags": "last", "all_specials": "griffin"})):
        t = make_table(http, seats, [None] * seats, [f"P{i}" for i in range(seats)], **rules)
        start(http, t["code"], t["host"])
        players = [Player(server.ws_base, t["code"], tok) for tok in t["tokens"].values()]
        watcher = Player(server.ws_base, t["code"], None)
        play_out(players)
        if not watcher.over:
            watcher.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
        for p in [*players, watcher]:
            for msg in p.received:
                if msg["type"] == "state":
                    for k, n in check_view(msg["view"]).items():
                        totals[k] += n
            totals["won"] += check_events(p, Rules.from_dict(rules))
            p.close()
    # the games showed every field at work, refusals included
    assert all(n > 0 for n in totals.values()), totals
