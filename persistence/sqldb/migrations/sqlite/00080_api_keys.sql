-- +goose Up
-- Affiliates' API keys (issue 13): the secret is kept only as SHA-256.
CREATE TABLE api_keys (
    id          TEXT     PRIMARY KEY CONSTRAINT api_keys_id_shape CHECK (length(id) = 12 AND id NOT GLOB '*[^0-9a-f]*'),
    name        TEXT     NOT NULL,
    secret_hash BLOB     NOT NULL CONSTRAINT api_keys_hash_size CHECK (length(secret_hash) = 32),
    per_minute  INTEGER  NOT NULL CONSTRAINT api_keys_rate_positive CHECK (per_minute > 0),
    created_by  INTEGER  NOT NULL REFERENCES users (id),
    created_at  DATETIME NOT NULL,
    revoked_by  INTEGER  REFERENCES users (id),
    revoked_at  DATETIME
);

-- +goose Down
DROP TABLE api_keys;
