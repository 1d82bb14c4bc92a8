"""`python -m minodice.cli`: the `minodice` command."""

if __name__ == "__main__":  # not when a spawned worker process imports the main module again
    from . import main

    main()
