"""At the table: tools for people playing Mino Dice with real dice (advisor, referee, score sheet, odds)."""
