package ledger

import "time"

// Guard is consulted by a store for every new (not replayed) transfer,
// inside the atomic step that moves its money: it may refuse the transfer
// (nothing moves) or record what the transfer means to it. A guard's
// refusal of an excluded player (Forbidden) comes before a short wallet's
// INSUFFICIENT_FUNDS, which comes before its other refusals (a limit), as
// in every store. The player-protection rules (limits,
// exclusions) are a Guard; see package protection.
type Guard interface {
	// Admit checks t at now and records its effects; undo reverts them when
	// the store rolls the transfer back (InTx failing later).
	Admit(t Transfer, now time.Time) (undo func(), err error)
}
