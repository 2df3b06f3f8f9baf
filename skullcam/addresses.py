"""Where a phone opens the pages: the address a person types, not the one a server binds.

A server started with ``--host 0.0.0.0`` listens on every interface, but
``http://0.0.0.0:8000/tv`` opens nothing on a phone. The log names this machine's address
on the local network instead (and localhost for the Pi's own browser). The TV shows ``/tv``;
phones enter bids at ``/``, so the start line names both.
"""

from __future__ import annotations

import socket

from skullcam.table_pin import is_loopback

WILDCARDS = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """This machine's address on the network its default route leaves by, or None (no
    network). A UDP socket's connect only picks the route: nothing is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def page_urls(host: str, port: int, path: str = "/") -> str:
    """The URL(s) to open ``path`` at, for a log line: a wildcard host gives localhost and,
    where there is one, the LAN address phones use."""
    if host not in WILDCARDS:
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{path}"
    here = f"http://localhost:{port}{path}"
    lan = lan_address()
    return here if lan is None else f"{here} (phones: http://{lan}:{port}{path})"


def scoreboard_urls(host: str, port: int) -> str:
    """The start line's addresses: the TV page, and the bids page phones open. Before, it
    named only ``/tv``, after "phones:", and a table sent its phones to the TV's page."""
    if host not in WILDCARDS:
        both = f"{page_urls(host, port, '/tv')}; bids at {page_urls(host, port, '/')}"
        if is_loopback(host):  # the default: a table reading this line has phones in hand
            return f"{both} (this machine only: start with --host 0.0.0.0 for phones)"
        return both
    lan = lan_address()
    here = f"http://localhost:{port}"
    if lan is None:
        return f"{here}/tv; bids at {here}/"
    there = f"http://{lan}:{port}"
    return f"{here}/tv (other screens: {there}/tv); phones enter bids at {there}/"
