"""A score sheet plus every trick entered roll by roll gives back the game's own minodice/1 record."""

from __future__ import annotations

import pytest

from minodice import record as records
from minodice import rules as R
from minodice.bots.greedy import GreedyBot
from minodice.table.sheet import Entry, ScoreSheet, SheetError
from minodice.table.sheet_record import record_from_sheet
from minodice.dice import Die, Face
from minodice.game import Bid, Game, Phase, Roll
from minodice.rules import Rules


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


def test_tricks_that_disagree_with_the_sheet_are_refused_in_words() -> None:
    game = _played(3, 5)
    sheet, tricks = _sheet_and_tricks(game)
    # A different face that changes who won a trick: the replay no longer fits the sheet.
    h, t, i, face = next(
        (h, t, i, f)
        for h, hand in enumerate(tricks)
        for t, trick in enumerate(hand)
        for i, (_, die, shown) in enumerate(trick)
        for f in die.faces
        if R.trick_winner([g if j != i else f for j, (_, _, g) in enumerate(trick)], Rules())
        != R.trick_winner([g for _, _, g in trick], Rules())
    )
    changed = [[list(tr) for tr in hand] for hand in tricks]
    name, die, _ = changed[h][t][i]
    changed[h][t][i] = (name, die, face)
    with pytest.raises(SheetError, match=f"hand {h + 1}"):
        record_from_sheet(sheet, changed)
    with pytest.raises(SheetError, match="hand 2 has 2 tricks; 1 were entered"):
        record_from_sheet(sheet, [tricks[0], tricks[1][:1], *tricks[2:]])
    with pytest.raises(SheetError, match="not a player"):
        record_from_sheet(sheet, [[[("Zed", d, f) for _, d, f in tricks[0][0]]], *tricks[1:]])
    with pytest.raises(SheetError, match="tricks were given for 2"):
        record_from_sheet(sheet, tricks[:2])


def test_a_roll_that_breaks_the_colour_rule_is_refused() -> None:
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
    with pytest.raises(SheetError, match="hand 2: the tricks entered cannot have been played"):
        record_from_sheet(sheet, [hand1, hand2])
