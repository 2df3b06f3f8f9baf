"""The table app: live TV scoreboard, phone bids, trick replay with corrections, settings,
history and export. ``create_app(data_dir, pin=...)`` builds it; ``serve(app, host, port)``
runs it under waitress (what ``skullcam run`` calls). See docs/web.md."""

from .app import DEFAULT_THREADS, create_app, get_store, make_server, serve

__all__ = ["DEFAULT_THREADS", "create_app", "get_store", "make_server", "serve"]
