"""``python -m baccarat``: the ``baccarat`` command."""

from baccarat.cli import main

if __name__ == "__main__":
    main()
