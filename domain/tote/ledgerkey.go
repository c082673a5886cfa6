package tote

import (
	"strconv"
	"strings"
)

// LedgerRef is what a totalizator transfer's idempotency key says it moved
// money for: a bet's stake (BetID), or a pool's settlement or refund
// (DrawID, Round, Market). The keys are written by StakeTransfer and the
// settlement; their shape is fixed by the transfers already posted.
type LedgerRef struct {
	BetID  int64
	DrawID int64
	Round  int
	Market string
}

// ParseLedgerKey reads a totalizator transfer's key: "tote:bet:<bet>",
// "tote:settle:<draw>:<round>:<market>[:<part>]" or "tote:void:<...>". ok
// is false for any other key (a deposit, a Casino Hold'em hand, a top-up).
func ParseLedgerKey(key string) (LedgerRef, bool) {
	parts := strings.Split(key, ":")
	if len(parts) < 3 || parts[0] != "tote" {
		return LedgerRef{}, false
	}
	switch parts[1] {
	case "bet":
		id, err := strconv.ParseInt(parts[2], 10, 64)
		return LedgerRef{BetID: id}, err == nil && id > 0 && len(parts) == 3
	case "settle", "void":
		if len(parts) < 5 {
			return LedgerRef{}, false
		}
		d, err1 := strconv.ParseInt(parts[2], 10, 64)
		r, err2 := strconv.Atoi(parts[3])
		if err1 != nil || err2 != nil || d <= 0 {
			return LedgerRef{}, false
		}
		return LedgerRef{DrawID: d, Round: r, Market: parts[4]}, true
	}
	return LedgerRef{}, false
}
