"""The address a log line tells a person to open: never the wildcard a server binds."""

from __future__ import annotations

import pytest

from skullcam import addresses
from skullcam.addresses import page_urls, scoreboard_urls


def test_a_named_host_is_shown_as_given() -> None:
    assert page_urls("127.0.0.1", 8000, "/tv") == "http://127.0.0.1:8000/tv"
    assert page_urls("::1", 8001) == "http://[::1]:8001/"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", ""])
def test_every_interface_is_shown_as_localhost_and_the_lan_address(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'scoreboard on http://0.0.0.0:8000/tv' opened nothing on a phone."""
    monkeypatch.setattr(addresses, "lan_address", lambda: "192.168.1.20")
    assert page_urls(host, 8000, "/tv") == (
        "http://localhost:8000/tv (phones: http://192.168.1.20:8000/tv)"
    )
    monkeypatch.setattr(addresses, "lan_address", lambda: None)  # no network at all
    assert page_urls(host, 8000, "/tv") == "http://localhost:8000/tv"


def test_the_lan_address_is_none_or_not_loopback() -> None:
    found = addresses.lan_address()
    assert found is None or not found.startswith("127.")


def test_the_start_line_sends_phones_to_the_bids_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "(phones: http://LAN:8000/tv)", and phones enter bids at ``/``, not ``/tv``."""
    monkeypatch.setattr(addresses, "lan_address", lambda: "192.168.1.20")
    assert scoreboard_urls("0.0.0.0", 8000) == (
        "http://localhost:8000/tv (other screens: http://192.168.1.20:8000/tv); "
        "phones enter bids at http://192.168.1.20:8000/"
    )
    monkeypatch.setattr(addresses, "lan_address", lambda: None)
    assert scoreboard_urls("::", 8000) == "http://localhost:8000/tv; bids at http://localhost:8000/"
    assert scoreboard_urls("127.0.0.1", 8001) == (
        "http://127.0.0.1:8001/tv; bids at http://127.0.0.1:8001/"
        " (this machine only: start with --host 0.0.0.0 for phones)"
    )
    assert scoreboard_urls("192.168.1.20", 8000) == (
        "http://192.168.1.20:8000/tv; bids at http://192.168.1.20:8000/"
    )
