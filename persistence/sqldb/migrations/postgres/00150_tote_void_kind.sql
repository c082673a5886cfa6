-- +goose Up
-- Why a void draw was voided, as a kind a verifier checks (issue 26,
-- domain/tote/void.go): ADMIN_BEFORE_DEAL or BEACON_MISSING. Voids stored
-- before kinds existed read LEGACY (their reason is free text). NULL for a
-- draw that is not void. The public void counts read it.
ALTER TABLE tote_draws ADD COLUMN void_kind TEXT;
UPDATE tote_draws SET void_kind = 'LEGACY' WHERE phase = 'VOID';
CREATE INDEX tote_draws_void_kind ON tote_draws (table_id, void_kind) WHERE phase = 'VOID';

-- +goose Down
DROP INDEX tote_draws_void_kind;
ALTER TABLE tote_draws DROP COLUMN void_kind;
