-- +goose Up
-- The emergency stop of all betting: one row, read by every replica's
-- stake gate. paused_tables lists the table ids the stop paused
-- (comma-separated), resumed with it.
CREATE TABLE betting_stop (
    id            INTEGER     PRIMARY KEY CONSTRAINT betting_stop_one_row CHECK (id = 1),
    stopped       BOOLEAN     NOT NULL,
    reason        TEXT        NOT NULL DEFAULT '',
    changed_by    INTEGER REFERENCES users (id),
    changed_at    DATETIME,
    paused_tables TEXT        NOT NULL DEFAULT ''
);
INSERT INTO betting_stop (id, stopped) VALUES (1, FALSE);

-- +goose Down
DROP TABLE betting_stop;
