-- +goose Up
-- Users, their age verifications and their refresh tokens (SPEC 3).
-- Dates of birth are TEXT 'YYYY-MM-DD' (a civil date, never an instant);
-- instants are DATETIME written by the driver in UTC.
CREATE TABLE users (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    email          TEXT     NOT NULL,
    name           TEXT     NOT NULL DEFAULT '',
    date_of_birth  TEXT     NOT NULL CONSTRAINT users_dob_format CHECK (date_of_birth GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    role           TEXT     NOT NULL CONSTRAINT users_role_known CHECK (role IN ('PLAYER', 'AFFILIATE', 'ADMIN')),
    password_hash  TEXT     NOT NULL,
    verification   TEXT     NOT NULL DEFAULT 'NONE'
                   CONSTRAINT users_verification_known CHECK (verification IN ('NONE', 'PENDING', 'APPROVED', 'REJECTED')),
    created_at     DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE verifications (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status         TEXT     NOT NULL CONSTRAINT verifications_status_known CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
    document_type  TEXT     NOT NULL CONSTRAINT verifications_document_known CHECK (document_type IN ('ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE')),
    document_hash  TEXT     NOT NULL,
    document_hint  TEXT     NOT NULL DEFAULT '',
    date_of_birth  TEXT     NOT NULL CONSTRAINT verifications_dob_format CHECK (date_of_birth GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    reason         TEXT     NOT NULL DEFAULT '',
    submitted_at   DATETIME NOT NULL,
    decided_at     DATETIME,
    decided_by     INTEGER  REFERENCES users (id)
);
CREATE INDEX verifications_user ON verifications (user_id, id DESC);
CREATE INDEX verifications_pending ON verifications (id) WHERE status = 'PENDING';
CREATE INDEX verifications_document ON verifications (document_hash);

CREATE TABLE refresh_tokens (
    hash        BLOB     PRIMARY KEY CONSTRAINT refresh_tokens_hash_size CHECK (typeof(hash) = 'blob' AND length(hash) = 32),
    family_id   TEXT     NOT NULL,
    user_id     INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued_at   DATETIME NOT NULL,
    expires_at  DATETIME NOT NULL,
    used_at     DATETIME
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);

CREATE TABLE refresh_families_revoked (
    family_id   TEXT     PRIMARY KEY,
    revoked_at  DATETIME NOT NULL
);

-- +goose Down
DROP TABLE refresh_families_revoked;
DROP TABLE refresh_tokens;
DROP TABLE verifications;
DROP TABLE users;
