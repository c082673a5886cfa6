-- +goose Up
-- Partners' webhook endpoints and how far each has delivered every table's
-- outbox. A replica delivers an endpoint while it holds its lease
-- (lease_owner until lease_until); fence grows when the lease changes hands
-- and every cursor write checks it.
CREATE TABLE webhook_endpoints (
    id             BIGSERIAL   PRIMARY KEY,
    url            TEXT        NOT NULL CONSTRAINT webhook_url_size CHECK (length(url) BETWEEN 8 AND 2000),
    types          TEXT        NOT NULL CONSTRAINT webhook_types_given CHECK (types <> ''),
    secret         TEXT        NOT NULL CONSTRAINT webhook_secret_shape CHECK (secret LIKE 'whsec_%'),
    description    TEXT        NOT NULL DEFAULT '',
    created_by     BIGINT      NOT NULL REFERENCES users (id),
    created_at     TIMESTAMPTZ NOT NULL,
    lease_owner    TEXT        NOT NULL DEFAULT '',
    lease_until    TIMESTAMPTZ,
    fence          BIGINT      NOT NULL DEFAULT 0,
    attempts       INTEGER     NOT NULL DEFAULT 0 CONSTRAINT webhook_attempts_nonnegative CHECK (attempts >= 0),
    failing_since  TIMESTAMPTZ,
    next_attempt   TIMESTAMPTZ NOT NULL,
    last_error     TEXT        NOT NULL DEFAULT '',
    parked_at      TIMESTAMPTZ,
    delivered      BIGINT      NOT NULL DEFAULT 0,
    last_delivered TIMESTAMPTZ
);

CREATE TABLE webhook_cursors (
    endpoint_id BIGINT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    table_id    BIGINT NOT NULL,
    seq         BIGINT NOT NULL CONSTRAINT webhook_cursor_seq CHECK (seq >= -1),
    PRIMARY KEY (endpoint_id, table_id)
);

-- +goose Down
DROP TABLE webhook_cursors;
DROP TABLE webhook_endpoints;
