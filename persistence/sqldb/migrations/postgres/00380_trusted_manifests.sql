-- +goose Up
-- Trusted documents registered at runtime: one manifest per client and
-- version (documents: a JSON object of the ids the manifest gave to the
-- texts, checked against their hashes when registered). A revoked one
-- stays, for the audit, and is no longer served.
CREATE TABLE trusted_manifests (
    id            BIGSERIAL PRIMARY KEY,
    client        TEXT        NOT NULL CONSTRAINT trusted_manifest_client CHECK (length(client) BETWEEN 1 AND 64),
    version       TEXT        NOT NULL CONSTRAINT trusted_manifest_version CHECK (length(version) BETWEEN 1 AND 64),
    format        TEXT        NOT NULL CONSTRAINT trusted_manifest_formats CHECK (format IN ('POKERTOTE', 'APOLLO', 'RELAY')),
    documents     TEXT        NOT NULL,
    document_count INTEGER    NOT NULL CONSTRAINT trusted_manifest_count CHECK (document_count >= 0),
    registered_by BIGINT      NOT NULL REFERENCES users (id),
    registered_at TIMESTAMPTZ NOT NULL,
    revoked_at    TIMESTAMPTZ,
    CONSTRAINT trusted_manifest_client_version UNIQUE (client, version)
);

-- +goose Down
DROP TABLE trusted_manifests;
