package holdem

import "github.com/pokertote/pokertote/domain/ledger"

// The reasons (extensions.reason) of the errors this package returns, in one
// place: they are part of the API (docs/frontend.md lists them, the web
// client translates them), so a value never changes.
const (
	// Reasons of Decide's conflicts a caller may tell apart.
	ReasonHandSettled      = "HAND_SETTLED"
	ReasonDecisionTimedOut = "DECISION_TIMED_OUT"
	// ReasonHandChanged is the reason of the Conflict UpdateHand returns when
	// another writer changed the hand first.
	ReasonHandChanged = "HAND_CHANGED"
	// ReasonInvalidIdempotencyKey is the ledger's, for a key breaking
	// ledger.CheckClientKey.
	ReasonInvalidIdempotencyKey = ledger.ReasonInvalidIdempotencyKey

	// Refusals and failures named where they are made.
	ReasonAlreadyDecided     = "ALREADY_DECIDED"
	ReasonAlreadyExists      = "ALREADY_EXISTS"
	ReasonAnteOutOfRange     = "ANTE_OUT_OF_RANGE"
	ReasonBonusOutOfRange    = "BONUS_OUT_OF_RANGE"
	ReasonBoxCount           = "BOX_COUNT"
	ReasonCommitmentRequired = "COMMITMENT_REQUIRED"
	// ReasonCutRequired refuses a hand without the player's cut: with an
	// empty cut the house's seed alone would fix the deck.
	ReasonCutRequired = "CUT_REQUIRED"
	// ReasonWeakCut refuses a cut too short or too uniform to be the
	// player's own (a constant cut everyone sends alike).
	ReasonWeakCut           = "WEAK_CUT"
	ReasonHandNotFound      = "HAND_NOT_FOUND"
	ReasonHandReplayFailed  = "HAND_REPLAY_FAILED"
	ReasonInvalidConfig     = "INVALID_CONFIG"
	ReasonInvalidCursor     = "INVALID_CURSOR"
	ReasonInvalidCut        = "INVALID_CUT"
	ReasonInvalidDeal       = "INVALID_DEAL"
	ReasonInvalidDecision   = "INVALID_DECISION"
	ReasonNoPendingSeed     = "NO_PENDING_SEED"
	ReasonNoSuchBox         = "NO_SUCH_BOX"
	ReasonOutOfTurn         = "OUT_OF_TURN"
	ReasonUnknownCommitment = "UNKNOWN_COMMITMENT"
)
