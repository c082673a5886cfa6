// Package tote is the poker totalizator's model: tables and their draws,
// bets, table events, reasons, the result a draw publishes and the store
// interfaces. It still holds the service, the dealer's state machine, bet
// intake, settlement orchestration and the event outbox, which are to move
// out next. What stands on the model lives in its subpackages: verify
// (a published result recomputed and checked; all cmd/verify-draw links),
// readmodel (every table in memory, folded from the events) and liveodds
// (the production OddsEngine). The pari-mutuel rules it applies — markets,
// selections, pools, the settlement arithmetic — live in package parimutuel.
package tote
