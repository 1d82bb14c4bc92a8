"""At the table with real dice: the trick referee, the score sheet and records made from it."""
