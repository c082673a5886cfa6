-- +goose Up
-- The fair deal's version 2 (issue 10, docs/fairness.md): a draw's beacon
-- commitment (chain, close deadlines, beacon rounds, wait deadlines) and the
-- signatures of the rounds fetched so far, as JSON. NULL for a version-1
-- draw, dealt from a public seed.
ALTER TABLE tote_draws ADD COLUMN beacons TEXT;

-- +goose Down
ALTER TABLE tote_draws DROP COLUMN beacons;
