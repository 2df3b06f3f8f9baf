"""The one SQLite schema shared by the recorder (device) and the web app.

Kept in its own module so both sides (and tests) can read exactly which tables exist. The
schema only grows: :func:`ensure_schema` creates what is missing and never drops anything, like
flaskr's ``init-db`` done safely, so a data folder written by an older skullcam keeps working.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- One row per game. players and settings are JSON; settings holds only the keys the table set
-- (defaults are filled in by skullcam.rules.Settings when scoring).
CREATE TABLE IF NOT EXISTS games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at   REAL    NOT NULL,
    finished_at  REAL,
    status       TEXT    NOT NULL DEFAULT 'active',   -- 'active' | 'finished'
    players      TEXT    NOT NULL,                    -- JSON list of names, seating order
    first_dealer INTEGER NOT NULL,
    settings     TEXT    NOT NULL DEFAULT '{}'        -- JSON object
);

-- Bids per round: JSON list with null for a player who has not bid yet.
CREATE TABLE IF NOT EXISTS rounds (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    bids       TEXT    NOT NULL,          -- JSON [int | null, ...]
    cannonball TEXT,                      -- JSON [bool, ...] or null (Rascal's scoring)
    abilities  TEXT    NOT NULL DEFAULT '[]',   -- JSON [{trick, pirate, choice}]
    PRIMARY KEY (game_id, round)
);

-- A completed trick as recorded. plays is the current (possibly corrected) version;
-- original_plays is what the camera saw, never changed.
CREATE TABLE IF NOT EXISTS tricks (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id          INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    round            INTEGER NOT NULL,
    trick            INTEGER NOT NULL,    -- index within the round, from 0
    plays            TEXT    NOT NULL,    -- JSON [{player, card, confidence}]
    original_plays   TEXT    NOT NULL,
    completion_image TEXT,                -- path relative to the data folder
    annotated_image  TEXT,
    detections       TEXT    NOT NULL DEFAULT 'null',
    resolution       TEXT    NOT NULL DEFAULT 'null',
    model_version    TEXT,
    flags            TEXT    NOT NULL DEFAULT '[]',
    recorded_at      REAL    NOT NULL,
    UNIQUE (game_id, round, trick)
);

-- Audit trail: every correction and settings change, with the value before and after.
CREATE TABLE IF NOT EXISTS corrections (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    trick_id INTEGER REFERENCES tricks(id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,   -- 'card' | 'player' | 'tigress' | 'settings' | 'confirm' | ...
    before   TEXT    NOT NULL,
    after    TEXT    NOT NULL,
    note     TEXT    NOT NULL DEFAULT '',
    at       REAL    NOT NULL
);

-- The trick on the table right now (not a recorded trick). One row per game.
CREATE TABLE IF NOT EXISTS live (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    payload    TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);

-- Questions the pipeline asks the table (Tigress, Rosie, Rascal, Harry, flagged trick).
CREATE TABLE IF NOT EXISTS prompts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    round       INTEGER NOT NULL,
    trick       INTEGER,
    player      INTEGER,
    payload     TEXT    NOT NULL DEFAULT '{}',
    status      TEXT    NOT NULL DEFAULT 'open',   -- 'open' | 'answered' | 'dismissed'
    answer      TEXT,
    created_at  REAL    NOT NULL,
    answered_at REAL
);

-- Remembered player names for the setup page.
CREATE TABLE IF NOT EXISTS player_names (
    name      TEXT PRIMARY KEY COLLATE NOCASE,
    last_used REAL NOT NULL
);

-- Every change, in order. AUTOINCREMENT makes ids strictly increasing and never reused, which
-- is what lets a reconnecting page resume with Last-Event-ID.
CREATE TABLE IF NOT EXISTS events (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER,
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL,
    at      REAL NOT NULL
);

CREATE INDEX IF NOT EXISTS events_game ON events (game_id, id);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, game_id);
CREATE INDEX IF NOT EXISTS tricks_game ON tricks (game_id, round, trick);
CREATE INDEX IF NOT EXISTS prompts_game ON prompts (game_id, status);
CREATE INDEX IF NOT EXISTS corrections_trick ON corrections (trick_id, id);
"""


def foreign_tables(conn: sqlite3.Connection) -> list[str]:
    """The tables of a database another program made (one without skullcam's ``meta``), in
    name order; none for skullcam's own database or an empty file."""
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    return [] if not names or "meta" in names else names


def ensure_schema(conn: sqlite3.Connection) -> None:
    """Create missing tables and record the schema version; never drops or rewrites data."""
    conn.executescript(SCHEMA)
    conn.execute(
        "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
        (str(SCHEMA_VERSION),),
    )
