-- +goose Up
-- Users, their age verifications and their refresh tokens (SPEC 3).
CREATE TABLE users (
    id             BIGSERIAL PRIMARY KEY,
    -- Stored normalized (lower case) by the domain; the unique index on
    -- lower(email) keeps Bob@x and bob@x from ever being two accounts.
    email          TEXT        NOT NULL,
    name           TEXT        NOT NULL DEFAULT '',
    date_of_birth  DATE        NOT NULL,
    role           TEXT        NOT NULL CONSTRAINT users_role_known CHECK (role IN ('PLAYER', 'AFFILIATE', 'ADMIN')),
    password_hash  TEXT        NOT NULL,
    -- Status of the latest verification, kept in step by SaveVerification.
    verification   TEXT        NOT NULL DEFAULT 'NONE'
                   CONSTRAINT users_verification_known CHECK (verification IN ('NONE', 'PENDING', 'APPROVED', 'REJECTED')),
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE verifications (
    id             BIGSERIAL PRIMARY KEY,
    user_id        BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status         TEXT        NOT NULL CONSTRAINT verifications_status_known CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
    document_type  TEXT        NOT NULL CONSTRAINT verifications_document_known CHECK (document_type IN ('ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE')),
    -- Keyed hash of the normalized document number; the number itself is never stored.
    document_hash  TEXT        NOT NULL,
    -- Last characters of the number, for the admin's eyes (empty when unknown).
    document_hint  TEXT        NOT NULL DEFAULT '',
    date_of_birth  DATE        NOT NULL,
    reason         TEXT        NOT NULL DEFAULT '',
    submitted_at   TIMESTAMPTZ NOT NULL,
    decided_at     TIMESTAMPTZ,
    decided_by     BIGINT      REFERENCES users (id)
);
-- A user's latest verification is the one with the highest id.
CREATE INDEX verifications_user ON verifications (user_id, id DESC);
CREATE INDEX verifications_pending ON verifications (id) WHERE status = 'PENDING';
CREATE INDEX verifications_document ON verifications (document_hash);

CREATE TABLE refresh_tokens (
    -- SHA-256 of the token; the token itself is never stored.
    hash        BYTEA       PRIMARY KEY CONSTRAINT refresh_tokens_hash_size CHECK (octet_length(hash) = 32),
    family_id   TEXT        NOT NULL,
    user_id     BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued_at   TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);

-- A revoked family stays revoked, including tokens created in it later.
CREATE TABLE refresh_families_revoked (
    family_id   TEXT        PRIMARY KEY,
    revoked_at  TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE refresh_families_revoked;
DROP TABLE refresh_tokens;
DROP TABLE verifications;
DROP TABLE users;
