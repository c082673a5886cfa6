-- +goose Up
-- Every user's private event stream (myEvents), kept so that a client
-- back from offline resumes after the last seq it saw. A user's seq counts
-- 1, 2, ... in user_event_seqs: the row is locked by the transaction that
-- takes the next seqs, so one user's events commit in seq order. data is
-- the published event's JSON; rows older than EVENT_RETENTION are pruned.
CREATE TABLE user_event_seqs (
    user_id  INTEGER PRIMARY KEY,
    last_seq INTEGER NOT NULL CONSTRAINT user_event_last_seq CHECK (last_seq > 0)
);

CREATE TABLE user_events (
    user_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL CONSTRAINT user_event_seq CHECK (seq > 0),
    at      DATETIME NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (user_id, seq)
);
CREATE INDEX user_events_at ON user_events (at);

-- +goose Down
DROP TABLE user_events;
DROP TABLE user_event_seqs;
