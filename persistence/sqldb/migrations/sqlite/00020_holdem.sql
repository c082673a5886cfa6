-- +goose Up
-- Casino Hold'em (SPEC 2). A hand is stored as what it was started with (the
-- settings, the stakes, the server seed and the player's cut) and the events
-- since (decisions, the timeout); the domain rebuilds the cards and the
-- settlement from them. state, deadline, staked, returned and settlement are
-- derived copies for queries and for people reading the table. JSON columns
-- are TEXT; times are written in UTC by the driver, so they compare in order.
CREATE TABLE holdem_hands (
    id           INTEGER  PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER  NOT NULL REFERENCES users (id),
    state        TEXT     NOT NULL CONSTRAINT holdem_hands_state_known CHECK (state IN ('DECIDING', 'SETTLED')),
    -- Increases with every update; writers update only the version they read.
    version      INTEGER  NOT NULL,
    -- When the awaited decision times out; NULL once settled.
    deadline     DATETIME,
    -- Hex. Secret until the hand is settled: the API shows it only then.
    server_seed  TEXT     NOT NULL,
    -- Hex SHA-256 of the server seed, shown from the start.
    commitment   TEXT     NOT NULL,
    -- The player's text mixed into the shuffle.
    cut          TEXT     NOT NULL DEFAULT '',
    -- The table's settings when the hand started (paytables, limits, timeout).
    config       TEXT     NOT NULL,
    -- [{"ante": tiyn, "bonus": tiyn}] per box.
    boxes        TEXT     NOT NULL,
    -- [{"box", "decision", "at", "key"}] in the order taken.
    decisions    TEXT     NOT NULL DEFAULT '[]',
    expired_at   DATETIME,
    staked       INTEGER  NOT NULL CONSTRAINT holdem_hands_staked_positive CHECK (staked > 0),
    returned     INTEGER  NOT NULL DEFAULT 0 CONSTRAINT holdem_hands_returned_sign CHECK (returned >= 0),
    -- The result for people and audits; NULL until settled.
    settlement   TEXT,
    -- The start request's idempotency key and the hash of that request.
    start_key    TEXT     NOT NULL,
    start_hash   BLOB     NOT NULL CONSTRAINT holdem_hands_hash_size CHECK (typeof(start_hash) = 'blob' AND length(start_hash) = 32),
    created_at   DATETIME NOT NULL,
    updated_at   DATETIME NOT NULL,
    settled_at   DATETIME,
    CONSTRAINT holdem_hands_start_key UNIQUE (user_id, start_key),
    CONSTRAINT holdem_hands_deadline_while_deciding CHECK ((state = 'DECIDING') = (deadline IS NOT NULL)),
    CONSTRAINT holdem_hands_settled_at CHECK ((state = 'SETTLED') = (settled_at IS NOT NULL))
);
-- A player's history, newest first.
CREATE INDEX holdem_hands_user ON holdem_hands (user_id, id DESC);
-- The sweeper's search for overdue hands.
CREATE INDEX holdem_hands_due ON holdem_hands (deadline) WHERE state = 'DECIDING';

-- A server seed drawn and committed to before the player chooses a cut; at
-- most one per player, removed by the hand that uses it.
CREATE TABLE holdem_pending_seeds (
    user_id      INTEGER  PRIMARY KEY REFERENCES users (id),
    server_seed  TEXT     NOT NULL,
    commitment   TEXT     NOT NULL,
    created_at   DATETIME NOT NULL
);

-- +goose Down
DROP TABLE holdem_pending_seeds;
DROP TABLE holdem_hands;
