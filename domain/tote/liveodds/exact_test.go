package liveodds_test

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/odds"
	"github.com/pokertote/pokertote/domain/tote/liveodds"
)

// BenchmarkExactPocket10 is the dealer's heaviest odds step: ten
// pockets just dealt, every board of the 32 unseen cards enumerated.
//
//	go test ./domain/tote/liveodds -run '^$' -bench Exact
func BenchmarkExactPocket10(b *testing.B) {
	deal := cards.DealTote(cards.Shuffle(cards.Seed{7}, []byte("bench")), 10)
	e := &liveodds.Exact{}
	b.ReportAllocs()
	for b.Loop() {
		odds.ForgetShared() // time the enumeration, not the cache
		if _, err := e.Live(context.Background(), deal.Pockets, nil); err != nil {
			b.Fatal(err)
		}
	}
}
