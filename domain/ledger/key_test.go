package ledger_test

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
)

func TestCheckClientKey(t *testing.T) {
	for _, key := range []string{"k", "order-7:2026-11-30", "~ !", strings.Repeat("x", ledger.MaxClientKeyLen)} {
		if err := ledger.CheckClientKey(key); err != nil {
			t.Errorf("CheckClientKey(%q) = %v, want nil", key, err)
		}
	}
	for _, key := range []string{"", " ", "   ", strings.Repeat("x", ledger.MaxClientKeyLen+1), "ключ", "a\tb", "a\x7f"} {
		err := ledger.CheckClientKey(key)
		if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != "INVALID_IDEMPOTENCY_KEY" {
			t.Errorf("CheckClientKey(%q) = %v, want BAD_USER_INPUT / INVALID_IDEMPOTENCY_KEY", key, err)
		}
	}
}

func FuzzCheckClientKey(f *testing.F) {
	for _, s := range []string{"k", "", " ", "ключ", strings.Repeat("y", 101)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		err := ledger.CheckClientKey(key)
		ok := strings.TrimSpace(key) != "" && len(key) <= ledger.MaxClientKeyLen
		for _, c := range []byte(key) {
			ok = ok && c >= ' ' && c <= '~'
		}
		if (err == nil) != ok {
			t.Fatalf("CheckClientKey(%q) = %v, want ok=%v", key, err, ok)
		}
		// A key the rule accepts always makes a valid transfer key.
		if err == nil {
			tr := ledger.Move("cash:"+key, ledger.Deposit, "m", ledger.CashAccount, ledger.UserWallet(1), 1)
			if err := tr.Validate(); err != nil {
				t.Fatalf("accepted key %q makes an invalid transfer: %v", key, err)
			}
		}
	})
}
