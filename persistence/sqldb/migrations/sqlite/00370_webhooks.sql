-- +goose Up
-- Partners' webhook endpoints and how far each has delivered every table's
-- outbox (see the Postgres migration of the same number).
CREATE TABLE webhook_endpoints (
    id             INTEGER  PRIMARY KEY AUTOINCREMENT,
    url            TEXT     NOT NULL CONSTRAINT webhook_url_size CHECK (length(url) BETWEEN 8 AND 2000),
    types          TEXT     NOT NULL CONSTRAINT webhook_types_given CHECK (types <> ''),
    secret         TEXT     NOT NULL CONSTRAINT webhook_secret_shape CHECK (secret LIKE 'whsec_%'),
    description    TEXT     NOT NULL DEFAULT '',
    created_by     INTEGER  NOT NULL REFERENCES users (id),
    created_at     DATETIME NOT NULL,
    lease_owner    TEXT     NOT NULL DEFAULT '',
    lease_until    DATETIME,
    fence          INTEGER  NOT NULL DEFAULT 0,
    attempts       INTEGER  NOT NULL DEFAULT 0 CONSTRAINT webhook_attempts_nonnegative CHECK (attempts >= 0),
    failing_since  DATETIME,
    next_attempt   DATETIME NOT NULL,
    last_error     TEXT     NOT NULL DEFAULT '',
    parked_at      DATETIME,
    delivered      INTEGER  NOT NULL DEFAULT 0,
    last_delivered DATETIME
);

CREATE TABLE webhook_cursors (
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    table_id    INTEGER NOT NULL,
    seq         INTEGER NOT NULL CONSTRAINT webhook_cursor_seq CHECK (seq >= -1),
    PRIMARY KEY (endpoint_id, table_id)
);

-- +goose Down
DROP TABLE webhook_cursors;
DROP TABLE webhook_endpoints;
