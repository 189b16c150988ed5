"""``python -m bgsim ...`` is the ``bgsim`` command."""

from bgsim.cli.common import main

if __name__ == "__main__":
    main()
