// Package tote runs the poker totalizator: tables and their draws, the
// dealer's state machine, bet intake, settlement orchestration (posting the
// settled pools through the ledger and publishing the result), the event
// outbox and the read model. The pari-mutuel rules it applies — markets,
// selections, pools, the settlement arithmetic — live in package parimutuel.
package tote
