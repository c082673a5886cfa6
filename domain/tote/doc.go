// Package tote is the poker totalizator's model: tables and their draws,
// bets, table events, reasons, the result a draw publishes, the store
// interfaces and the batch a store places. What stands on the model lives
// in its subpackages: verify (a published result recomputed and checked;
// all cmd/verify-draw links), readmodel (every table in memory, folded
// from the events), liveodds (the production OddsEngine) and service (the
// Service, the dealers and their supervisor, bet intake, settlement and
// the event outbox). The pari-mutuel rules it applies — markets,
// selections, pools, the settlement arithmetic — live in package
// parimutuel.
package tote
