-- +goose Up
-- Which version of the operator's terms each player accepted, and when;
-- SQLite twin of the Postgres migration of the same number.
CREATE TABLE terms_acceptances (
    user_id     INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    version     TEXT     NOT NULL CONSTRAINT terms_acceptances_version CHECK (length(version) BETWEEN 1 AND 64),
    accepted_at DATETIME NOT NULL,
    PRIMARY KEY (user_id, version)
);

-- +goose Down
DROP TABLE terms_acceptances;
