-- +goose Up
-- Every bet committed before the next card (issue 26, domain/betroot): the
-- Merkle root of each closed betting round's bets, with their number and
-- stakes, as JSON (a list in round order), written in the transaction that
-- closes the round. NULL for a draw without any (version 1, or before
-- this migration).
ALTER TABLE tote_draws ADD COLUMN bet_roots TEXT;

-- +goose Down
ALTER TABLE tote_draws DROP COLUMN bet_roots;
