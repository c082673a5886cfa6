// Package accountdb stores the accounts aggregate over sqldb: users and
// their verifications, refresh tokens, token epochs, API keys and the audit
// log. Its GORM rows stay unexported; the bet path's pgx fast path reads
// players through PlayerModels and CollectUsers.
package accountdb
