package parimutuel

// The reasons of the errors this package returns: stable strings that the
// API passes on (extensions.reason) and clients match. Never change a value.
const (
	// Markets, rounds and selections (market.go).
	ReasonUnknownMarket           = "UNKNOWN_MARKET"
	ReasonUnknownRound            = "UNKNOWN_ROUND"
	ReasonMarketNotOfferedInRound = "MARKET_NOT_OFFERED_IN_ROUND"
	ReasonInvalidTableSize        = "INVALID_TABLE_SIZE"
	ReasonInvalidSelection        = "INVALID_SELECTION"
	ReasonPositionOutOfRange      = "POSITION_OUT_OF_RANGE"

	// Pool settings (pool.go).
	ReasonCommissionTooLow  = "COMMISSION_TOO_LOW"
	ReasonInvalidPoolConfig = "INVALID_POOL_CONFIG"

	// Pools, bets and outcomes handed to the settlement (pool.go, settle.go,
	// pool_implied.go).
	ReasonWrongMarket    = "WRONG_MARKET"
	ReasonInvalidBet     = "INVALID_BET"
	ReasonDuplicateBet   = "DUPLICATE_BET"
	ReasonInvalidStake   = "INVALID_STAKE"
	ReasonPoolTooLarge   = "POOL_TOO_LARGE"
	ReasonInvalidOutcome = "INVALID_OUTCOME"
	ReasonInvalidJackpot = "INVALID_JACKPOT"
)
