-- +goose Up
-- Every setting that moves money in a draw is fixed when it opens and
-- covered by its commitment (fair deal 4, SPEC 1.8): the maximum stake is
-- copied from the table with the rest, so a table's maximum changed while
-- a draw runs applies from the next draw. 0 is a draw opened before it was
-- copied, checked against the table's maximum as it was then.
ALTER TABLE tote_draws ADD COLUMN max_stake BIGINT NOT NULL DEFAULT 0
    CONSTRAINT tote_draws_max_stake CHECK (max_stake >= 0);

-- +goose Down
ALTER TABLE tote_draws DROP COLUMN max_stake;
