-- +goose Up
-- The dealer's step after the river is a phase of its own (issue 14):
-- SETTLING, the board complete and the settlement due, was DEALING_RIVER
-- with five board cards (the API still shows DEALING_RIVER). A draw stored
-- at the river moves to SETTLING (five cards: '4d 9d Qs 6h 2c' is 14
-- characters).
ALTER TABLE tote_draws DROP CONSTRAINT tote_draws_phase;
ALTER TABLE tote_draws ADD CONSTRAINT tote_draws_phase CHECK (phase IN ('PRE_DEAL', 'DEALING_POCKET', 'POCKET',
    'DEALING_FLOP', 'FLOP', 'DEALING_TURN', 'TURN', 'DEALING_RIVER', 'SETTLING', 'SETTLED', 'VOID'));
UPDATE tote_draws SET phase = 'SETTLING' WHERE phase = 'DEALING_RIVER' AND length(board) = 14;

-- +goose Down
UPDATE tote_draws SET phase = 'DEALING_RIVER' WHERE phase = 'SETTLING';
ALTER TABLE tote_draws DROP CONSTRAINT tote_draws_phase;
ALTER TABLE tote_draws ADD CONSTRAINT tote_draws_phase CHECK (phase IN ('PRE_DEAL', 'DEALING_POCKET', 'POCKET',
    'DEALING_FLOP', 'FLOP', 'DEALING_TURN', 'TURN', 'DEALING_RIVER', 'SETTLED', 'VOID'));
