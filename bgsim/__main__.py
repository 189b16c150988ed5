"""``python -m bgsim ...`` is the ``bgsim`` command."""

from bgsim.experiments.cli import main

if __name__ == "__main__":
    main()
