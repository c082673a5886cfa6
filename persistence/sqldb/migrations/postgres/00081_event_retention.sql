-- +goose Up
-- Outbox retention (issue 13): first_seq is the lowest seq of a table's
-- events still stored; events below it were pruned once their draw's result
-- was published. No row: nothing pruned (first_seq 1).
CREATE TABLE tote_event_retention (
    table_id    BIGINT      PRIMARY KEY REFERENCES tote_tables (id),
    first_seq   BIGINT      NOT NULL CONSTRAINT tote_event_retention_positive CHECK (first_seq >= 1),
    pruned_at   TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE tote_event_retention;
