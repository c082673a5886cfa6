#!/usr/bin/env bash
# bench-reports.sh: the reports over 90 days of 1,000,000 bets on Postgres,
# beside the reference measured in the same run (one pass over the bets'
# records summing the handle per day). Needs the local Postgres the tests
# use (127.0.0.1:5432, user postgres, database test). Seeding takes about a
# minute; each figure is printed COUNT times.
#
#   scripts/bench-reports.sh
#   COUNT=5 BENCHTIME=50x scripts/bench-reports.sh
set -euo pipefail
cd "$(dirname "$0")/.."
uptime
go test -run '^$' -bench 'Reports90Days' -benchtime "${BENCHTIME:-20x}" -count "${COUNT:-3}" ./persistence/reportdb
