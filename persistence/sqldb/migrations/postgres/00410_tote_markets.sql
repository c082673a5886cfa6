-- +goose Up
-- The markets a bet may name are the server's market registry
-- (domain/parimutuel/markets.go), which the server writes here at start
-- (DB.SyncMarkets), so a new market needs no migration. Until now a CHECK
-- (tote_bets_market) listed them and every new market widened it.
--
-- tote_bets.market is guarded by a trigger, not a foreign key: a foreign
-- key's check locks the referenced row FOR KEY SHARE, and every bet of a
-- market would lock the same one of three rows (MultiXacts piling up on the
-- hottest insert). The trigger's lookup locks nothing; the rows it reads
-- are never changed or deleted (a market's bets and results keep naming
-- it), which another trigger enforces, so it guards as a key would.
CREATE TABLE tote_markets (
    name TEXT PRIMARY KEY CONSTRAINT tote_markets_name CHECK (name ~ '^[A-Z][A-Z_]*$')
);
INSERT INTO tote_markets (name) VALUES ('WIN'), ('COMBINATION'), ('EXPRESS');

-- +goose StatementBegin
CREATE FUNCTION tote_bets_market_known() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM tote_markets WHERE name = NEW.market) THEN
        RAISE EXCEPTION 'market % is not in tote_markets', NEW.market
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tote_bets_market', TABLE = 'tote_bets';
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER tote_bets_market BEFORE INSERT OR UPDATE OF market ON tote_bets
    FOR EACH ROW EXECUTE FUNCTION tote_bets_market_known();

-- +goose StatementBegin
CREATE FUNCTION tote_markets_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'a market is never changed or removed: bets name it' USING ERRCODE = 'check_violation', CONSTRAINT = 'tote_markets_kept';
END
$$;
-- +goose StatementEnd
CREATE TRIGGER tote_markets_kept BEFORE UPDATE OR DELETE ON tote_markets
    FOR EACH ROW EXECUTE FUNCTION tote_markets_kept();

ALTER TABLE tote_bets DROP CONSTRAINT tote_bets_market;

-- +goose Down
ALTER TABLE tote_bets ADD CONSTRAINT tote_bets_market CHECK (market IN ('WIN', 'COMBINATION', 'EXPRESS'));
DROP TRIGGER tote_markets_kept ON tote_markets;
DROP FUNCTION tote_markets_kept();
DROP TRIGGER tote_bets_market ON tote_bets;
DROP FUNCTION tote_bets_market_known();
DROP TABLE tote_markets;
