package ledger

import (
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
)

// MaxClientKeyLen bounds the idempotency key a client sends with a money
// request, in bytes. The services prefix it ("cash:", "tote:jackpot-topup:7:",
// ...) into a transfer key, which may have MaxKeyLen bytes.
const MaxClientKeyLen = 100

// CheckClientKey is the one rule for the idempotency key of every money
// request a client sends (placeBet, jackpotTopUp, holdemStart and
// holdemDecide, deposit and withdraw): 1 to MaxClientKeyLen bytes of
// printable ASCII, not only spaces. Anything else is BAD_USER_INPUT with
// reason INVALID_IDEMPOTENCY_KEY.
func CheckClientKey(key string) error {
	if strings.TrimSpace(key) == "" || len(key) > MaxClientKeyLen {
		return errs.R(errs.Invalid, ReasonInvalidIdempotencyKey, "an idempotency key of 1 to %d characters is required", MaxClientKeyLen)
	}
	if !printableASCII(key) {
		return errs.R(errs.Invalid, ReasonInvalidIdempotencyKey, "an idempotency key is printable ASCII")
	}
	return nil
}

// printableASCII reports whether s has only the bytes ' ' to '~'.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}
