-- +goose Up
-- Pool totals kept as bets are written (issue 8), SQLite twin: row-level
-- triggers (SQLite has no transition tables), same invariant: the totals
-- equal SUM over the bets.
CREATE TABLE tote_pool_totals (
    draw_id    BIGINT NOT NULL,
    round      INT    NOT NULL,
    market     TEXT   NOT NULL,
    selection  TEXT   NOT NULL,
    stake      BIGINT NOT NULL,
    bets       INT    NOT NULL,
    PRIMARY KEY (draw_id, round, market, selection)
);
INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM tote_bets GROUP BY draw_id, round, market, selection;

-- +goose StatementBegin
CREATE TRIGGER tote_bets_totals_insert AFTER INSERT ON tote_bets BEGIN
    INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
    VALUES (NEW.draw_id, NEW.round, NEW.market, NEW.selection, NEW.stake, 1)
    ON CONFLICT (draw_id, round, market, selection)
    DO UPDATE SET stake = stake + excluded.stake, bets = bets + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tote_bets_totals_delete AFTER DELETE ON tote_bets BEGIN
    UPDATE tote_pool_totals SET stake = stake - OLD.stake, bets = bets - 1
    WHERE draw_id = OLD.draw_id AND round = OLD.round AND market = OLD.market AND selection = OLD.selection;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER tote_bets_totals_delete;
DROP TRIGGER tote_bets_totals_insert;
DROP TABLE tote_pool_totals;
