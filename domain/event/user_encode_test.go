package event

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestEncodeIsMarshal: Encode's direct writing gives json.Marshal's bytes
// for any event, and falls back to it where it must (a reality check, a
// type needing escapes, a time Time.MarshalJSON refuses).
func TestEncodeIsMarshal(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, e UserEvent) {
		want, err := json.Marshal(e)
		got := e.Encode()
		if err != nil {
			want = nil // Encode's answer when json.Marshal fails
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Encode(%+v) = %s, json.Marshal = %s", e, got, want)
		}
	}
	zones := []*time.Location{time.UTC, time.FixedZone("x", 5*3600), time.FixedZone("y", -(3*3600 + 30*60)), time.FixedZone("z", 24*3600+60), time.FixedZone("s", 17)}
	fixed := []UserEvent{
		{Type: BetSettled, At: time.Date(2026, 12, 5, 19, 0, 0, 0, time.UTC), BetID: 42},
		{Type: BalanceChanged, At: time.Date(2026, 12, 5, 19, 0, 0, 123456789, time.UTC), Balance: -7},
		{Seq: 3, Type: BetAccepted, At: time.Time{}, BetID: math.MaxInt64, HoldemHandID: math.MinInt64},
		{Type: "A<B&C>", At: time.Now()},
		{Type: "", At: time.Now()},
		{Type: RealityCheck, At: time.Now(), Reality: &RealityCheckData{ElapsedSeconds: 5, Net: -3}},
		{Type: BetSettled, At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Type: BetSettled, At: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, e := range fixed {
		for _, z := range zones {
			e.At = e.At.In(z)
			check(t, e)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		e := UserEvent{
			Seq:          rapid.Int64().Draw(rt, "seq"),
			Type:         rapid.SampledFrom([]string{BetAccepted, BetSettled, BalanceChanged, HoldemUpdated, "x\u2028y", "é", "A_9"}).Draw(rt, "type"),
			At:           time.Unix(rapid.Int64Range(-70_000_000_000, 300_000_000_000).Draw(rt, "sec"), rapid.Int64Range(0, 999_999_999).Draw(rt, "nsec")).In(rapid.SampledFrom(zones).Draw(rt, "zone")),
			BetID:        rapid.Int64().Draw(rt, "bet"),
			HoldemHandID: rapid.Int64().Draw(rt, "hand"),
			Balance:      rapid.Int64().Draw(rt, "balance"),
		}
		check(rt, e)
	})
}
