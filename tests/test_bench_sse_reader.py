"""The web benchmarks' one reader of the ``/events`` stream (benchmarks/sse_reader.py): it
sees the server's greeting and each event, as the three benchmarks that share it count them."""

from __future__ import annotations

import threading
from types import ModuleType

from repo_paths import load_benchmark

from skullcam.store import GameStore


def _reader() -> ModuleType:
    return load_benchmark("sse_reader")


def test_a_stream_page_is_handed_each_event_not_the_greeting(
    server: tuple[str, GameStore],
) -> None:
    base, store = server
    reader = _reader()
    gid = store.create_game(["Ana", "Ben", "Cai"], 0, {})
    seen: list[bytes] = []
    bid_in = threading.Event()

    class Page(reader.StreamPage):  # type: ignore[name-defined]
        def on_event(self, block: bytes, received: float) -> None:
            seen.append(block)
            if b"event: bids" in block:
                bid_in.set()

    page = Page(int(base.rsplit(":", 1)[1]), gid)
    page.start()
    try:
        assert page.connected.wait(20), "no greeting from the stream"
        store.set_bid(gid, 1, 0, 1)
        assert bid_in.wait(20), f"the bid's event never came: {seen!r}"
    finally:
        page.stop = True
        page.join(5)
    assert not any(reader.GREETING in block for block in seen)
    bid = next(block for block in seen if b"event: bids" in block)
    lines = bid.split(b"\n")  # after the chunk's size (HTTP/1.1, as a browser asks)
    assert [line.split(b" ")[0] for line in lines[-3:]] == [b"id:", b"event:", b"data:"], bid
