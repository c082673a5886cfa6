-- +goose Up
-- Every stake or deposit a limit refused (the refusal moved no money, so it
-- leaves no other trace): the reports list who hit which limit in a
-- period. Written after the refusal, best effort.
CREATE TABLE protection_hits (
    id       BIGSERIAL PRIMARY KEY,
    user_id  BIGINT NOT NULL,
    kind     TEXT NOT NULL CONSTRAINT protection_hits_kind CHECK (kind IN ('DEPOSIT', 'STAKE', 'LOSS')),
    at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX protection_hits_at ON protection_hits (at);

-- +goose Down
DROP TABLE protection_hits;
