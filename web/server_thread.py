"""The web server run in a thread of its own beside the camera loop, and stopped for good.

waitress's ``close()`` stops listening only: its worker threads (``DEFAULT_THREADS`` of them)
wait on for work that never comes, and an open page's connection keeps its event stream
polling the store. A process that serves again (the tests start a server a few hundred times)
piled them up: 1,900 threads by the browser tests, and a page then waited more than 30 s for
its answer. :func:`stop_server` ends them all.
"""

from __future__ import annotations

import threading
from typing import Any


def stop_server(server: Any, wait_s: float = 5.0) -> None:
    """Stop a waitress ``server``: stop listening, close the connections left open (each
    page's stream sees its page gone and ends; the loop, if it runs, ends with nothing left
    to watch), then end the workers, waiting up to ``wait_s`` for a request still being
    answered."""
    from waitress import wasyncore

    # The listener first, not waitress's close(), which closes the loop's wake-up pipe too: a
    # worker ending its request as the server stops wakes the loop through that pipe, and a
    # closed one was a traceback ("Exception when servicing ... Bad file descriptor") on the
    # terminal at a Ctrl-C. The pipe goes last, once no worker is left to use it.
    wasyncore.dispatcher.close(server)
    for channel in list(server._map.values()):
        if channel is not server.trigger:
            channel.close()
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=wait_s)
    server.trigger.close()


class PagesThread:
    """The web server, run in a thread of its own and closed from the main one.

    Its loop, closed from the main thread, can fail on the sockets ``close()`` has just shut:
    every so often Ctrl-C printed "Exception in thread web: Traceback ..." before "skullcam
    run: interrupted" (seen with ``--camera none``, which stops at once). A failure after the
    close was asked for is that stop, not an error; one before it is still raised."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="web", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _serve(self) -> None:
        try:
            self.server.run()
        except Exception:
            if not self.closing.is_set():
                raise

    def close(self, wait_s: float = 2.0) -> None:
        """:func:`stop_server`, then wait for the loop, which ends once it has no socket left
        to watch (an open page's connection kept it going), and for the app's event watcher,
        which ends with its last page: the store is then closed with no thread reading it."""
        from .events import end_event_feed

        self.closing.set()
        stop_server(self.server, wait_s)
        self.thread.join(wait_s)
        app = getattr(self.server, "flask_app", None)  # :func:`~.app.make_server`'s
        if app is not None:
            end_event_feed(app, wait_s)
