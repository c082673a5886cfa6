-- +goose Up
-- The markets a bet may name, SQLite twin of the Postgres migration of the
-- same number: the server writes its registry here at start
-- (DB.SyncMarkets), and triggers guard tote_bets.market against it. The
-- old CHECK listing the markets is dropped by the Go migration 411
-- (migration_markets.go): SQLite cannot drop a constraint, and that one
-- edits the table's definition in place instead of rebuilding tote_bets
-- (its triggers, indexes and views stay as they are).
CREATE TABLE tote_markets (
    name TEXT PRIMARY KEY CONSTRAINT tote_markets_name CHECK (name <> '' AND name NOT GLOB '*[^A-Z_]*' AND name NOT GLOB '_*')
);
INSERT INTO tote_markets (name) VALUES ('WIN'), ('COMBINATION'), ('EXPRESS');

-- The message reads as a CHECK's, so sqldb maps it as one (IsCheckViolation,
-- Violates(err, "tote_bets_market")).
-- +goose StatementBegin
CREATE TRIGGER tote_bets_market_insert BEFORE INSERT ON tote_bets
WHEN NOT EXISTS (SELECT 1 FROM tote_markets WHERE name = NEW.market) BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: tote_bets_market (the market is not in tote_markets)');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tote_bets_market_update BEFORE UPDATE OF market ON tote_bets
WHEN NOT EXISTS (SELECT 1 FROM tote_markets WHERE name = NEW.market) BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: tote_bets_market (the market is not in tote_markets)');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tote_markets_kept_update BEFORE UPDATE ON tote_markets BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: tote_markets_kept (a market is never changed or removed: bets name it)');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tote_markets_kept_delete BEFORE DELETE ON tote_markets BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: tote_markets_kept (a market is never changed or removed: bets name it)');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER tote_markets_kept_delete;
DROP TRIGGER tote_markets_kept_update;
DROP TRIGGER tote_bets_market_update;
DROP TRIGGER tote_bets_market_insert;
DROP TABLE tote_markets;
