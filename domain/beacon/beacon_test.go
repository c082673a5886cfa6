package beacon_test

import (
	"context"
	"encoding/hex"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/errs"
)

// recorded are real quicknet rounds as the chain published them (the
// signatures appear in drand's own tlock test suite and in public recordings
// of api.drand.sh); the test proves they verify against quicknet's key.
var recorded = []beacon.Beacon{
	{Round: 1000, Signature: "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"},
	{Round: 12040883, Signature: "929906c959032ab363c9f26570d215d66f5c06cb0c44fe508c12bb5839f04ec895bb6868e5b9ff13ab289bdb5266b394"},
	{Round: 32281667, Signature: "b0f5ae301358ff87a9d3dd539ed4a07c0148b1ab4f7b61a8ca43c7e9ca7ca9553e4faae9188deb30b2cd1a7f447e3e5b"},
	{Round: 32285085, Signature: "81dbce51d584d90d618547f4b50391d53ace6f6b9aeb8fb67e1879427af9d0310ac0ec6f519271d9a313ee84b378d416"},
	{Round: 32285086, Signature: "a64d99fd7fa3e48912be7209c7b69c72c88fc5224be2516949b6f29f3a4b7e3fa069dd58b2bbb4bf2c34ae61ef631a44"},
}

func TestRecordedQuicknetRoundsVerify(t *testing.T) {
	if err := beacon.Quicknet.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, b := range recorded {
		r, err := beacon.Verify(beacon.Quicknet, b)
		if err != nil {
			t.Errorf("round %d: %v", b.Round, err)
		}
		sig, _ := hex.DecodeString(b.Signature)
		if r != beacon.Randomness(sig) {
			t.Errorf("round %d: randomness is not SHA-256 of the signature", b.Round)
		}
	}
	// drand's published randomness of round 32281667 (SHA-256 of its signature).
	sig, _ := hex.DecodeString(recorded[2].Signature)
	if got := beacon.Randomness(sig); hex.EncodeToString(got[:]) != "4fd2fc55983dbfa3f446d8a0bd56f16cc8c5e76afd1ec154b60d477cbabed13b" {
		t.Errorf("randomness of round 32281667 = %x", got)
	}
}

func TestTamperedQuicknetRoundsFail(t *testing.T) {
	for _, b := range recorded {
		for _, bit := range []int{0, 7, 100, 383} {
			sig, _ := hex.DecodeString(b.Signature)
			sig[bit/8] ^= 1 << (bit % 8)
			bad := beacon.Beacon{Round: b.Round, Signature: hex.EncodeToString(sig)}
			if _, err := beacon.Verify(beacon.Quicknet, bad); errs.ReasonOf(err) != "BEACON_INVALID" {
				t.Errorf("round %d with bit %d flipped: %v", b.Round, bit, err)
			}
		}
		// The right signature for another round.
		if _, err := beacon.Verify(beacon.Quicknet, beacon.Beacon{Round: b.Round + 1, Signature: b.Signature}); err == nil {
			t.Errorf("round %d's signature verified as round %d", b.Round, b.Round+1)
		}
	}
	// Another key.
	other := beacon.Quicknet
	l, _ := beacon.NewLocal(make([]byte, 32), time.Second, time.Now)
	other.PublicKey = l.Chain().PublicKey
	if err := other.Validate(); err == nil {
		t.Error("a chain with quicknet's hash and another key validated")
	}
	if _, err := beacon.Verify(other, recorded[0]); err == nil {
		t.Error("a quicknet round verified against another key")
	}
}

func TestRoundTimes(t *testing.T) {
	c := beacon.Quicknet
	genesis := time.Unix(1692803367, 0)
	for _, tc := range []struct {
		at   time.Time
		want uint64
	}{
		{genesis.Add(-time.Hour), 1},
		{genesis, 2},
		{genesis.Add(2999 * time.Millisecond), 2},
		{genesis.Add(3 * time.Second), 3},
		{genesis.Add(3*time.Second + 500*time.Microsecond), 3},
	} {
		if got := c.FirstRoundAfter(tc.at); got != tc.want {
			t.Errorf("FirstRoundAfter(%s) = %d, want %d", tc.at, got, tc.want)
		}
		if r := c.FirstRoundAfter(tc.at); !c.RoundTime(r).After(tc.at) || (r > 1 && c.RoundTime(r-1).After(tc.at)) {
			t.Errorf("round %d at %s is not the first after %s", r, c.RoundTime(r), tc.at)
		}
	}
	if got := c.RoundTime(1000); !got.Equal(genesis.Add(999 * 3 * time.Second)) {
		t.Errorf("RoundTime(1000) = %s", got)
	}
}

// TestRoundAPeriodAfter: fair deal 3's round is the first published at
// least one full period after the close, so it is published in
// [close + period, close + 2 periods).
func TestRoundAPeriodAfter(t *testing.T) {
	c := beacon.Quicknet
	genesis := time.Unix(1692803367, 0)
	period := 3 * time.Second
	for _, tc := range []struct {
		at   time.Time
		want uint64
	}{
		{genesis.Add(-time.Hour), 1},
		{genesis.Add(-3 * time.Second), 1}, // round 1 at genesis is exactly a period after
		{genesis.Add(-2999 * time.Millisecond), 2},
		{genesis, 2},
		{genesis.Add(time.Millisecond), 3},
		{genesis.Add(3 * time.Second), 3},
		{genesis.Add(3*time.Second + 500*time.Microsecond), 3},
	} {
		got := c.FirstRoundAPeriodAfter(tc.at)
		if got != tc.want {
			t.Errorf("FirstRoundAPeriodAfter(%s) = %d, want %d", tc.at, got, tc.want)
		}
		at := c.RoundTime(got)
		closes := tc.at.Truncate(time.Millisecond)
		if got > 1 && (at.Before(closes.Add(period)) || !at.Before(closes.Add(2*period))) {
			t.Errorf("round %d at %s is not in [close + period, close + 2 periods) of %s", got, at, tc.at)
		}
	}
}

func TestLocalChain(t *testing.T) {
	now := beacon.LocalGenesis.Add(time.Minute)
	clock := func() time.Time { return now }
	secret := []byte("0123456789abcdef0123456789abcdef")
	l, err := beacon.NewLocal(secret, 30*time.Millisecond, clock)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Chain()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	l2, _ := beacon.NewLocal(secret, 30*time.Millisecond, clock)
	if l2.Chain() != c {
		t.Error("two local chains with one secret differ")
	}
	r := c.FirstRoundAfter(now)
	if _, err := l.Beacon(context.Background(), r); errs.ReasonOf(err) != beacon.ReasonNotPublished {
		t.Fatalf("future round: %v", err)
	}
	now = c.RoundTime(r)
	b, err := l.Beacon(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := beacon.Verify(c, b); err != nil {
		t.Fatal(err)
	}
	if _, err := beacon.Verify(beacon.Quicknet, b); err == nil {
		t.Error("a local round verified against quicknet's key")
	}
	tampered := c
	tampered.PeriodMs++
	if err := tampered.Validate(); err == nil {
		t.Error("a local chain with a changed period kept its hash")
	}
}
