-- +goose Up
-- The settings an admin action changed, as a JSON array of
-- {field, from, to}; empty for actions that change no setting.
ALTER TABLE audit_log ADD COLUMN changes TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE audit_log DROP COLUMN changes;
