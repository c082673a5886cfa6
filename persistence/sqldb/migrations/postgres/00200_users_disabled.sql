-- +goose Up
-- An account an operator disabled (issue 22: fraud, a compromised account,
-- a court order): it cannot sign in or refresh, and its tokens were revoked
-- when it was disabled. NULL while the account is enabled; the reason is
-- what the admin gave, shown to admins only.
ALTER TABLE users ADD COLUMN disabled_at TIMESTAMPTZ;
ALTER TABLE users ADD COLUMN disabled_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD CONSTRAINT users_disabled_has_reason
    CHECK (disabled_at IS NULL OR disabled_reason <> '');

-- +goose Down
ALTER TABLE users DROP CONSTRAINT users_disabled_has_reason;
ALTER TABLE users DROP COLUMN disabled_reason;
ALTER TABLE users DROP COLUMN disabled_at;
