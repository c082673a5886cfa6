package auth

import (
	"bytes"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/internal/clocktest"
)

// The cache of verified tokens stays bounded, and a token that differs from
// a cached one in any byte is verified from scratch (a forged signature is
// refused even while the genuine token is cached).
func TestVerifiedTokensCache(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	a, err := NewAccessTokens(AccessConfig{Secret: bytes.Repeat([]byte("s"), 32), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	tok, _, _ := a.Issue(7, account.Player)
	if _, err := a.Verify(tok); err != nil {
		t.Fatal(err)
	}
	forged := tok[:len(tok)-2] + string("AB"[0]^tok[len(tok)-2]&1) + tok[len(tok)-1:]
	if forged == tok {
		t.Fatal("the forged token equals the genuine one")
	}
	if _, err := a.Verify(forged); err == nil {
		t.Fatal("a token with another signature was accepted while the genuine one is cached")
	}
	for i := range verifiedCap + 100 {
		tok, _, _ := a.Issue(int64(i+1), account.Player)
		if _, err := a.Verify(tok); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(a.verified); n > verifiedCap {
		t.Fatalf("%d tokens cached, the bound is %d", n, verifiedCap)
	}
}
