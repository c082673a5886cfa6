// Package dsn handles the connection strings of the databases and of Redis.
// It sits apart so the SQL and the Redis packages can both use it without
// importing each other.
package dsn

import "strings"

// Redact hides the password of a database or Redis URL for logs.
func Redact(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return u
	}
	cred := u[scheme+3 : at]
	if user, _, ok := strings.Cut(cred, ":"); ok {
		return u[:scheme+3] + user + ":***" + u[at:]
	}
	return u
}
