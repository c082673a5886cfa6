#!/usr/bin/env bash
# The betting records archive: a dump of the tables that record who bet
# what, how each draw came out and every money movement (results, bets,
# ledger, Casino Hold'em hands, the accounts they belong to and the terms
# they accepted, the players' limits and exclusions, and the audit log),
# kept five years; the table
# events and the users' event streams (tote_events, user_events, pruned
# after EVENT_RETENTION), the sessions' tokens and the configuration
# (settings, API keys, webhooks, registered client documents) are left out. Run monthly by
# systemd/pokertote-archive.timer as the postgres user.
#
#   DATABASE_URL=postgresql:///pokertote ARCHIVE_DIR=/var/lib/pokertote-archive archive-betting-records.sh
#
# Each run writes ARCHIVE_DIR/betting-records-YYYYMMDDTHHMMSSZ.dump
# (pg_dump custom format; restore with pg_restore), checks that it reads
# back, then deletes the dumps older than KEEP_DAYS (1827: five years).
set -euo pipefail

: "${DATABASE_URL:?the database to archive}"
: "${ARCHIVE_DIR:?where the dumps go}"
keep_days=${KEEP_DAYS:-1827}

# The betting records. Keep this list in step with the migrations
# (app/restore_drill_test.go checks it against the schema).
tables=(
  tote_tables tote_draws tote_bets tote_selection_results tote_pool_totals
  ledger_accounts ledger_transfers ledger_entries
  holdem_hands
  users verifications audit_log terms_acceptances
  protection_limits protection_exclusions exclusion_register
  regulator_feed protection_changes report_daily protection_hits
  tote_jackpot_chain tote_markets
)

mkdir -p "$ARCHIVE_DIR"
out="$ARCHIVE_DIR/betting-records-$(date -u +%Y%m%dT%H%M%SZ).dump"
args=()
for t in "${tables[@]}"; do args+=(--table="public.$t"); done
pg_dump --dbname="$DATABASE_URL" --format=custom --no-owner "${args[@]}" --file="$out.partial"
pg_restore --list "$out.partial" >/dev/null
mv "$out.partial" "$out"
echo "archived $out ($(du -h "$out" | cut -f1))"
find "$ARCHIVE_DIR" -maxdepth 1 -name 'betting-records-*.dump' -mtime +"$keep_days" -print -delete
