-- +goose Up
-- Each access token carries its user's token epoch; raising it (logout,
-- refresh reuse, role change, self-exclusion) refuses older tokens within
-- seconds on every replica (issue 13).
ALTER TABLE users ADD COLUMN token_epoch BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN token_epoch;
