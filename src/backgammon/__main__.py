"""``python -m backgammon`` runs the command line."""

from backgammon.apps.cli import main

if __name__ == "__main__":
    main()
