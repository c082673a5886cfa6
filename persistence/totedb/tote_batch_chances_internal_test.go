package totedb

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// storedChances is the stored form of a 10-position draw's chances in its
// last round: every WIN position of rounds 2 to 4 and a few coupons.
func storedChances(paid int64) string {
	var rcs []tote.RoundChances
	for r := parimutuel.Round(2); r <= 4; r++ {
		rc := tote.RoundChances{Round: r}
		for p := 1; p <= 10; p++ {
			rc.Chances = append(rc.Chances, tote.SelectionChance{Market: parimutuel.MarketWin, Selection: fmt.Sprint(p), Paid: paid + int64(p), Of: 1_070_190})
		}
		rc.Chances = append(rc.Chances, tote.SelectionChance{Market: parimutuel.MarketExpress, Selection: "1-1-1", Paid: 980_000, Of: 1_000_000})
		rcs = append(rcs, rc)
	}
	return tote.FormatChances(rcs)
}

// TestChancesCacheFollowsTheStoredText: the bet batch's cache answers what
// tote.ParseChances answers, for each draw, and parses again when a draw's
// stored chances change (a round opened) or the text is bad.
func TestChancesCacheFollowsTheStoredText(t *testing.T) {
	var c chancesCache
	for i, raw := range []string{storedChances(1000), storedChances(1000), storedChances(2000), "", storedChances(1000)} {
		for _, draw := range []int64{7, 8} {
			got, err := c.parse(draw, raw)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := tote.ParseChances(raw)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d draw %d: cached %v, parsed %v", i, draw, got, want)
			}
		}
	}
	if _, err := c.parse(7, "2 WIN 1"); err == nil {
		t.Fatal("bad stored chances parsed")
	}
	for d := range int64(2 * chancesCached) {
		if _, err := c.parse(100+d, storedChances(d)); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.m) > chancesCached {
		t.Fatalf("the cache holds %d draws, at most %d", len(c.m), chancesCached)
	}
}

// BenchmarkChancesCache is what a bet batch pays for its draw's chances
// with the cache (a hit: the stored text compared), against
// BenchmarkParseChances (domain/tote) without:
//
//	go test ./persistence/totedb -run '^$' -bench ChancesCache -benchmem
func BenchmarkChancesCache(b *testing.B) {
	var c chancesCache
	raw := storedChances(1000)
	for b.Loop() {
		fresh := string([]byte(raw)) // each batch reads a new copy of the text
		if _, err := c.parse(7, fresh); err != nil {
			b.Fatal(err)
		}
	}
}
