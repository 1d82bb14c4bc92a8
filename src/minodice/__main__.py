"""`python -m minodice`: the `minodice` command (the same as the console script)."""

if __name__ == "__main__":  # not when a spawned worker process imports the main module again
    from .cli import main

    main()
