-- +goose Up
-- Which version of the operator's terms each player accepted, and when:
-- at registration (in the same transaction as the account) and again each
-- time the version in force changes. Rows are only added: a repeated
-- acceptance keeps the first time. It is the proof an operator shows that
-- a player agreed to the rules they bet under.
CREATE TABLE terms_acceptances (
    user_id     BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    version     TEXT        NOT NULL CONSTRAINT terms_acceptances_version CHECK (length(version) BETWEEN 1 AND 64),
    accepted_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, version)
);

-- +goose Down
DROP TABLE terms_acceptances;
