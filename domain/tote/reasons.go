package tote

import (
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// The reasons of the errors this package and its stores return: stable
// strings that the API passes on (extensions.reason) and clients match.
// Never change a value. Reasons of the rules themselves (selections, pools)
// are parimutuel's.
const (
	// Tables and their settings (table.go, service.go).
	ReasonInvalidTableName   = "INVALID_TABLE_NAME"
	ReasonTableNameTaken     = "TABLE_NAME_TAKEN"
	ReasonInvalidTableStatus = "INVALID_TABLE_STATUS"
	ReasonMinStakeTooLow     = "MIN_STAKE_TOO_LOW"
	ReasonInvalidStakeLimits = "INVALID_STAKE_LIMITS"
	ReasonInvalidTiming      = "INVALID_TIMING"
	ReasonInvalidAmount      = "INVALID_AMOUNT"
	ReasonInvalidReason      = "INVALID_REASON"
	ReasonNotFound           = "NOT_FOUND"

	// Bets (bet.go, batch.go, tote/intake).
	ReasonInvalidStake          = parimutuel.ReasonInvalidStake
	ReasonStakeTooLow           = "STAKE_TOO_LOW"
	ReasonStakeTooHigh          = "STAKE_TOO_HIGH"
	ReasonInvalidIdempotencyKey = ledger.ReasonInvalidIdempotencyKey // ledger.CheckClientKey is the rule
	ReasonIdempotencyKeyReused  = "IDEMPOTENCY_KEY_REUSED"
	// ReasonDuplicateBet is a store's answer to a second bet under one
	// player's idempotency key.
	ReasonDuplicateBet = parimutuel.ReasonDuplicateBet
	ReasonRoundClosed  = "ROUND_CLOSED"
	ReasonDrawFinished = "DRAW_FINISHED"
	// ReasonVoidAfterDeal refuses an admin void once betting round 1 has
	// closed (void.go).
	ReasonVoidAfterDeal = "VOID_AFTER_DEAL"
	// ReasonSelectionSuspended refuses a bet on a selection whose chance of
	// being paid reached the draw's SUSPEND_AT when its round opened (SPEC
	// 1.9, suspension.go).
	ReasonSelectionSuspended = "SELECTION_SUSPENDED"
	// ReasonInvalidSuspendAt is a table's SUSPEND_AT outside 50 % to 90 %.
	ReasonInvalidSuspendAt = "INVALID_SUSPEND_AT"
	// ReasonUnknownBetStatus is a bet listing's status filter that is
	// none of the four statuses (the API's enum refuses it first).
	ReasonUnknownBetStatus = "UNKNOWN_BET_STATUS"

	// Verification (verify.go).
	ReasonDrawNotFinished = "DRAW_NOT_FINISHED"

	// The dealer's lease and the draw's version (store.go).
	ReasonLeaseHeld   = "LEASE_HELD"
	ReasonLeaseLost   = "LEASE_LOST"
	ReasonDrawChanged = "DRAW_CHANGED"

	// ReasonEventsPruned is the reason of the error a tableEvents resume gets
	// when events it would replay have been pruned from the outbox.
	ReasonEventsPruned = "EVENTS_PRUNED"
)
