"""A score sheet plus every trick entered roll by roll gives back the game's own minodice/1 record."""

from __future__ import annotations

import pytest

from minodice import record as records
from minodice import rules as R
from minodice.bots.greedy import GreedyBot
from minodice.dice import Die, Face
from minodice.game import Bid, Game, Phase, Roll
from minodice.rules import Rules
from minodice.table.sheet import Entry, ScoreSheet, SheetError
from minodice.table.sheet_record import record_from_sheet


def _played(seats: int, seed: int, scoring: str = "standard") -> Game:
    game = Game(seats, names=[f"P{s}" for s in range(seats)], rules=Rules(scoring=scoring), seed=seed)
    bot = GreedyBot()
    while not game.over:
        if game.phase is Phase.BID:
            for s in range(seats):
                if game.log[-1].bids[s] is None:
                    game.apply(Bid(s, bot.bid(game.observe(s))))
        else:
            s = game.turn
            game.apply(Roll(s, bot.roll(game.observe(s))))
    return game


def _sheet_and_tricks(game: Game, scoring: str = "standard"):
    names = list(game.names)
    sheet = ScoreSheet(names, scoring)
    tricks = []
    for hand in game.log:
        mermaid = [False] * game.seats
        griffins = [0] * game.seats
        for t in hand.tricks:
            faces = [r[2] for r in t.rolls]
            if faces[[r[0] for r in t.rolls].index(t.winner)] is Face.MERMAID and Face.MINOTAUR in faces:
                mermaid[t.winner] = True
            elif any(r[0] == t.winner and r[2] is Face.MINOTAUR for r in t.rolls):
                griffins[t.winner] += faces.count(Face.GRIFFIN)
        entries = []
        for s in range(game.seats):
            won = sum(1 for t in hand.tricks if t.winner == s)
            made = hand.bids[s] == won and won > 0 and scoring == "standard"
            entries.append(Entry(hand.bids[s], won, mermaid[s] and made, griffins[s] if made else 0))
        sheet.enter(entries)
        tricks.append([[(names[r[0]], r[1], r[2]) for r in t.rolls] for t in hand.tricks])
    return sheet, tricks


@pytest.mark.parametrize(("seats", "seed", "scoring"), [(3, 1, "standard"), (4, 7, "standard"), (5, 3, "landlubber")])
def test_the_record_is_the_game_itself(seats: int, seed: int, scoring: str) -> None:
    game = _played(seats, seed, scoring)
    sheet, tricks = _sheet_and_tricks(game, scoring)
    rec = record_from_sheet(sheet, tricks)
    assert records.check(rec) is None
    original = records.from_game(game)["hands"]
    for hand in original:  # the record lists each seat's dice in table order; the game in drawing order
        hand["dice"] = [sorted(row, key=lambda d: Die(d).index) for row in hand["dice"]]
    assert rec["hands"] == original
    assert rec["totals"] == sheet.totals()


def test_a_partial_game_gives_a_partial_record() -> None:
    game = _played(3, 2)
    sheet, tricks = _sheet_and_tricks(game)
    while len(sheet.hands) > 3:
        sheet.undo()
    rec = record_from_sheet(sheet, tricks[:3])
    assert len(rec["hands"]) == 3 and records.check(rec) is None


#: Every code `record_from_sheet` refuses with (beside the engine's, passed on).
RECORD_CODES = {
    "record_no_hands", "record_hand_count", "record_trick_count", "record_not_a_player", "record_no_rolls",
    "record_roll_once", "record_won_differs", "record_score_differs",
}


def refused(tricks: object, sheet: ScoreSheet, match: str) -> SheetError:
    with pytest.raises(SheetError, match=match) as error:
        record_from_sheet(sheet, tricks)  # type: ignore[arg-type]
    exc = error.value
    assert str(exc) == exc.message and exc.to_dict()["params"] == exc.params
    return exc


def test_tricks_that_disagree_with_the_sheet_are_refused_with_codes() -> None:
    game = _played(3, 5)
    sheet, tricks = _sheet_and_tricks(game)
    # A different face that changes who won a hand's last trick: the replay no longer fits the sheet.
    h, t, i, face = next(
        (h, len(hand) - 1, i, f)
        for h, hand in enumerate(tricks)
        for trick in hand[-1:]
        for i, (_, die, shown) in enumerate(trick)
        for f in die.faces
        if R.trick_winner([g if j != i else f for j, (_, _, g) in enumerate(trick)], Rules())
        != R.trick_winner([g for _, _, g in trick], Rules())
    )
    changed = [[list(tr) for tr in hand] for hand in tricks]
    name, die, _ = changed[h][t][i]
    changed[h][t][i] = (name, die, face)
    exc = refused(changed, sheet, f"^hand {h + 1}: by the tricks entered .* won .*, but the sheet says")
    assert exc.code == "record_won_differs" and exc.params["in_hand"] == h + 1
    assert set(exc.params) == {"player", "won", "sheet", "in_hand"} and exc.params["player"] in sheet.players
    exc = refused([tricks[0], tricks[1][:1], *tricks[2:]], sheet, "^hand 2 has 2 tricks; 1 were entered$")
    assert (exc.code, exc.params) == ("record_trick_count", {"hand": 2, "given": 1})
    first = tricks[0][0]
    exc = refused([[[("Zed", d, f) for _, d, f in first]], *tricks[1:]], sheet,
                  "^hand 1, trick 1: 'Zed' is not a player on this sheet$")
    assert (exc.code, exc.params) == ("record_not_a_player", {"name": "Zed", "in_hand": 1, "in_trick": 1})
    exc = refused(tricks[:2], sheet, "^the sheet has 8 hands but tricks were given for 2$")
    assert (exc.code, exc.params) == ("record_hand_count", {"hands": 8, "given": 2})
    exc = refused([[[]], *tricks[1:]], sheet, "^hand 1: no rolls were entered for its first trick$")
    assert (exc.code, exc.params) == ("record_no_rolls", {"in_hand": 1})
    twice = [[[first[0], first[0], first[2]]], *tricks[1:]]
    exc = refused(twice, sheet, "^hand 1, trick 1: every player rolls exactly once in a trick$")
    assert (exc.code, exc.params) == ("record_roll_once", {"in_hand": 1, "in_trick": 1})
    exc = refused([], ScoreSheet(["A", "B", "C"]), "^the sheet has no hands yet")
    assert (exc.code, exc.params) == ("record_no_hands", {})


def test_bonuses_that_disagree_with_the_tricks_are_refused() -> None:
    sheet = ScoreSheet(["Ana", "Ben", "Cy"])
    sheet.enter([Entry(1, 1, griffins=1), Entry(0, 0), Entry(0, 0)])  # a +30 the trick did not give
    hand1 = [[("Ana", Die("red"), Face("7")), ("Ben", Die("purple"), Face("1")), ("Cy", Die("gray"), Face("flag"))]]
    exc = refused([hand1], sheet, "^hand 1: by the tricks entered Ana scores 20, but the sheet says 50 "
                                  "\\(check the bonuses\\)$")
    assert (exc.code, exc.params) == ("record_score_differs", {"player": "Ana", "score": 20, "sheet": 50, "in_hand": 1})


def test_a_roll_that_breaks_the_colour_rule_is_refused_with_the_engines_code() -> None:
    sheet = ScoreSheet(["Ana", "Ben", "Cy"])
    sheet.enter([Entry(1, 1), Entry(0, 0), Entry(0, 0)])
    sheet.enter([Entry(1, 2), Entry(0, 0), Entry(0, 0)])
    red, yellow, purple, gray = Die("red"), Die("yellow"), Die("purple"), Die("gray")
    hand1 = [[("Ana", red, Face("7")), ("Ben", purple, Face("1")), ("Cy", gray, Face("flag"))]]
    # Hand 2 starts with Ben (the start player rotates); Ana holds red but rolls yellow on a red lead.
    hand2 = [
        [("Ben", red, Face("5")), ("Cy", purple, Face("1")), ("Ana", yellow, Face("5"))],
        [("Ana", red, Face("7")), ("Ben", gray, Face("1")), ("Cy", gray, Face("flag"))],
    ]
    exc = refused([hand1, hand2], sheet, "^hand 2, trick 1, Ana's roll: you must roll red or a special die")
    assert exc.code == "must_follow"
    assert exc.params == {"colour": "red", "die": "yellow", "in_hand": 2, "in_trick": 1, "in_player": "Ana"}
    # Out of turn: the engine's own code and words, with where it happened.
    hand2[0] = [hand2[0][1], hand2[0][0], hand2[0][2]]
    exc = refused([hand1, hand2], sheet, "^hand 2, trick 1, Cy's roll: it is Ben's turn")
    assert exc.code == "not_your_turn" and exc.params["in_player"] == "Cy"
