package ledger_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
)

// A user's wallet names its owner back, and is a valid account.
func TestUserWalletRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := ids.UserID(rapid.Int64Range(1, 1<<63-1).Draw(t, "id"))
		a := ledger.UserWallet(u)
		if err := a.Validate(); err != nil {
			t.Fatalf("UserWallet(%d) = %v: %v", u, a, err)
		}
		if got, ok := a.User(); !ok || got != u {
			t.Fatalf("%v.User() = %d, %v; want %d", a, got, ok, u)
		}
	})
}

func TestAccountRefUserRejectsOthers(t *testing.T) {
	for _, a := range []ledger.AccountRef{
		{Kind: ledger.Escrow, Ref: "user:7"},
		{Kind: ledger.Wallet, Ref: "pool:7"},
		{Kind: ledger.Wallet, Ref: "user:"},
		{Kind: ledger.Wallet, Ref: "user:0"},
		{Kind: ledger.Wallet, Ref: "user:-7"},
		{Kind: ledger.Wallet, Ref: "user:7x"},
		ledger.JackpotAccount,
	} {
		if id, ok := a.User(); ok {
			t.Errorf("%v.User() = %d, true; want false", a, id)
		}
	}
}
