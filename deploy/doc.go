// Package deploy holds the production kit (systemd units, HAProxy,
// pgBackRest, the betting records archive; docs/operations.md) and the
// tests of the files that need no running server. The proxy and the
// restore drill are tested with a server, in package app.
package deploy
