"""Run a snippet in a fresh interpreter whose sockets refuse to connect: how the tests show
that a default path downloads nothing (embedding model, tokenizer)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Mapping

NETWORK_OFF = """
import socket

def refuse(*args, **kwargs):
    raise OSError("network access attempted")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
"""


def run_offline(
    code: str, env: Mapping[str, str], timeout: int = 120
) -> subprocess.CompletedProcess[str]:
    script = NETWORK_OFF + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
