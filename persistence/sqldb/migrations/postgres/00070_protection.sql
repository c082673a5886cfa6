-- +goose Up
-- Player protection (issue 13): limits, own exclusions, the per-period
-- counters the ledger's guard keeps, and the admins' exclusion register.

-- One row per player, kind and period. amount 0 = no limit. A raise or
-- removal waits its cooling-off in pending_amount until pending_at; the
-- domain applies it when read (Limit.At), so no job is needed.
CREATE TABLE protection_limits (
    user_id         BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            TEXT        NOT NULL CONSTRAINT protection_limits_kind CHECK (kind IN ('DEPOSIT', 'STAKE', 'LOSS')),
    period          TEXT        NOT NULL CONSTRAINT protection_limits_period CHECK (period IN ('DAY', 'WEEK', 'MONTH')),
    amount          BIGINT      NOT NULL DEFAULT 0 CONSTRAINT protection_limits_amount CHECK (amount >= 0),
    pending         BOOLEAN     NOT NULL DEFAULT false,
    pending_amount  BIGINT      NOT NULL DEFAULT 0 CONSTRAINT protection_limits_pending_amount CHECK (pending_amount >= 0),
    pending_at      TIMESTAMPTZ,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, kind, period)
);

-- The player's own time-out or self-exclusion (the latest; extended in
-- place). ends_at NULL = permanent.
CREATE TABLE protection_exclusions (
    user_id     BIGINT      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    kind        TEXT        NOT NULL CONSTRAINT protection_exclusions_kind CHECK (kind IN ('TIME_OUT', 'SELF_EXCLUSION')),
    since       TIMESTAMPTZ NOT NULL,
    ends_at     TIMESTAMPTZ,
    CONSTRAINT protection_exclusions_permanent CHECK (ends_at IS NOT NULL OR kind = 'SELF_EXCLUSION')
);

-- What each player deposited, staked and got back per period (the first
-- civil day of the day, week or month in the operator's zone). Moved only
-- by the ledger's guard inside the money's transaction, by guarded
-- upserts. No foreign key: ledger wallets may exist without an account.
CREATE TABLE protection_counters (
    user_id       BIGINT NOT NULL,
    period        TEXT   NOT NULL,
    period_start  TEXT   NOT NULL,
    deposits      BIGINT NOT NULL DEFAULT 0,
    stakes        BIGINT NOT NULL DEFAULT 0,
    returned      BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, period, period_start)
);

-- The exclusion register: by peppered document hash, or by name key and
-- date of birth ('YYYY-MM-DD'). Entries are never deleted, only removed.
CREATE TABLE exclusion_register (
    id             BIGSERIAL   PRIMARY KEY,
    document_hash  TEXT        NOT NULL DEFAULT '',
    name_key       TEXT        NOT NULL DEFAULT '',
    birth_date     TEXT        NOT NULL DEFAULT '',
    note           TEXT        NOT NULL DEFAULT '',
    added_by       BIGINT      REFERENCES users (id),
    added_at       TIMESTAMPTZ NOT NULL,
    removed_by     BIGINT      REFERENCES users (id),
    removed_at     TIMESTAMPTZ,
    CONSTRAINT exclusion_register_one_key CHECK ((document_hash <> '') <> (name_key <> ''))
);
CREATE INDEX exclusion_register_document ON exclusion_register (document_hash) WHERE removed_at IS NULL AND document_hash <> '';
CREATE INDEX exclusion_register_birth ON exclusion_register (birth_date) WHERE removed_at IS NULL AND name_key <> '';

-- Each player's current session of play (reality checks): kept by the
-- ledger's guard; session_no is bumped when a stake after 30 idle minutes starts a
-- new session, checks counts the reminders sent for it.
CREATE TABLE protection_sessions (
    user_id       BIGINT      PRIMARY KEY,
    session_no    BIGINT      NOT NULL,
    -- Instants as Unix microseconds: compared inside the guard's upsert
    -- the same way on both dialects.
    started_us    BIGINT      NOT NULL,
    last_play_us  BIGINT      NOT NULL,
    stakes        BIGINT      NOT NULL DEFAULT 0,
    returned      BIGINT      NOT NULL DEFAULT 0,
    checks        INTEGER     NOT NULL DEFAULT 0
);
CREATE INDEX protection_sessions_last_play ON protection_sessions (last_play_us);

-- +goose Down
DROP TABLE protection_sessions;
DROP TABLE exclusion_register;
DROP TABLE protection_counters;
DROP TABLE protection_exclusions;
DROP TABLE protection_limits;
