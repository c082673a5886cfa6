-- +goose Up
-- Suspended selections (issue 23, SPEC 1.9): a table's SUSPEND_AT, copied
-- into each draw when it opens, and what each betting round after the deal
-- opened with (every WIN and COMBINATION selection's exact chance of being
-- paid, and the EXPRESS coupons at or above the threshold), stored in the
-- transaction that opens the round. 9000 basis points is 90 %.
ALTER TABLE tote_tables ADD COLUMN suspend_at_bp BIGINT NOT NULL DEFAULT 9000
    CONSTRAINT tote_tables_suspend_at CHECK (suspend_at_bp BETWEEN 5000 AND 9000);
ALTER TABLE tote_draws ADD COLUMN suspend_at_bp BIGINT NOT NULL DEFAULT 9000
    CONSTRAINT tote_draws_suspend_at CHECK (suspend_at_bp BETWEEN 5000 AND 9000);
ALTER TABLE tote_draws ADD COLUMN chances TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE tote_draws DROP COLUMN chances;
ALTER TABLE tote_draws DROP COLUMN suspend_at_bp;
ALTER TABLE tote_tables DROP COLUMN suspend_at_bp;
