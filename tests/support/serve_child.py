"""The body of a forked server process (``serving.ServerProcess``): ``baccarat serve`` itself.

Kept apart from ``serving`` so that the forkserver preloads only what the command needs.
"""

from __future__ import annotations

import os
import sys


def run_serve(argv: list[str], environment: dict[str, str], stdout: str, stderr: str) -> None:
    """Run ``baccarat <argv>`` as the console script would, in this fresh process.

    The process gets the caller's environment (the forkserver has the one it started with), its
    own session (a Ctrl-C at the terminal is not for it) and its own output files.
    """
    os.setsid()
    os.environ.clear()
    os.environ.update(environment)
    for path, stream in ((stdout, sys.stdout), (stderr, sys.stderr)):
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(descriptor, stream.fileno())
        os.close(descriptor)
    from baccarat.cli import main

    sys.argv = ["baccarat", *argv]
    main()
