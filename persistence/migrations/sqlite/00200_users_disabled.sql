-- +goose Up
-- An account an operator disabled (issue 22: fraud, a compromised account,
-- a court order): it cannot sign in or refresh, and its tokens were revoked
-- when it was disabled. NULL while the account is enabled; the reason is
-- what the admin gave, shown to admins only. (SQLite cannot add a CHECK to
-- an existing table; the service never stores a disabled account without
-- a reason.)
ALTER TABLE users ADD COLUMN disabled_at DATETIME;
ALTER TABLE users ADD COLUMN disabled_reason TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN disabled_reason;
ALTER TABLE users DROP COLUMN disabled_at;
