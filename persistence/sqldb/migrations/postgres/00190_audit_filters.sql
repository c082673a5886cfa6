-- +goose Up
-- The audit log filtered on the server (issue 28): by who acted, by action,
-- by table and by time, each newest first. table_id is the totalizator
-- table an entry concerns, the table itself ("table:N") or one of its
-- draws ("draw:N", a void); NULL for everything else. Entries written
-- before this migration get it from their subject.
ALTER TABLE audit_log ADD COLUMN table_id BIGINT;
UPDATE audit_log SET table_id = CAST(substr(subject, 7) AS BIGINT) WHERE subject LIKE 'table:%';
UPDATE audit_log SET table_id = (SELECT d.table_id FROM tote_draws d WHERE d.id = CAST(substr(audit_log.subject, 6) AS BIGINT))
    WHERE subject LIKE 'draw:%';
CREATE INDEX audit_log_actor ON audit_log (actor_id, id);
CREATE INDEX audit_log_action ON audit_log (action, id);
CREATE INDEX audit_log_table ON audit_log (table_id, id) WHERE table_id IS NOT NULL;
CREATE INDEX audit_log_at ON audit_log (created_at);

-- +goose Down
DROP INDEX audit_log_at;
DROP INDEX audit_log_table;
DROP INDEX audit_log_action;
DROP INDEX audit_log_actor;
ALTER TABLE audit_log DROP COLUMN table_id;
