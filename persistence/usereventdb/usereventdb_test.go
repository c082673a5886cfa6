package usereventdb_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/usereventdb"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

// TestAppendGivesSeqsInOrder: each user's events get the next seqs in the
// order given, interleaved users apart, and read back (After) as stored,
// the stored data byte for byte the event's Encode with its seq (on
// Postgres the seq is written into the data by the statement).
func TestAppendGivesSeqsInOrder(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		repo := usereventdb.New(sqldbtest.Open(t, dialect))
		at := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
		ev := func(u int64, typ string, bet, bal int64) usereventdb.Pending {
			return usereventdb.Pending{UserID: u, Event: event.UserEvent{Type: typ, At: at, BetID: bet, Balance: bal}}
		}
		first := []usereventdb.Pending{ev(7, event.BetAccepted, 1, 0), ev(3, event.BetAccepted, 2, 0), ev(7, event.BalanceChanged, 0, 900), ev(3, event.BalanceChanged, 0, 0)}
		got, err := repo.Append(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		wantSeqs := []int64{1, 1, 2, 2}
		for i, p := range got {
			if p.UserID != first[i].UserID || p.Event.Seq != wantSeqs[i] || p.Event.BetID != first[i].Event.BetID {
				t.Fatalf("event %d: %+v, want user %d seq %d", i, p, first[i].UserID, wantSeqs[i])
			}
		}
		second, err := repo.Append(ctx, []usereventdb.Pending{ev(3, event.BetAccepted, 5, 0), ev(9, event.BetAccepted, 6, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if second[0].Event.Seq != 3 || second[1].Event.Seq != 1 {
			t.Fatalf("second append's seqs %d, %d, want 3, 1", second[0].Event.Seq, second[1].Event.Seq)
		}
		read, err := repo.After(ctx, 3, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []event.UserEvent{got[1].Event, got[3].Event, second[0].Event}
		if len(read) != len(want) {
			t.Fatalf("user 3 reads %d events, want %d", len(read), len(want))
		}
		for i := range want {
			if string(read[i].Encode()) != string(want[i].Encode()) {
				t.Errorf("user 3's event %d reads %s, want %s", i, read[i].Encode(), want[i].Encode())
			}
		}
		stored, err := repo.StoredData(ctx, 7, 2)
		if err != nil {
			t.Fatal(err)
		}
		if w := string(got[2].Event.Encode()); stored != w {
			t.Errorf("user 7's seq 2 is stored as %s, want %s", stored, w)
		}
		if oldest, last, err := repo.Bounds(ctx, 3); err != nil || oldest != 1 || last != 3 {
			t.Errorf("user 3's bounds %d..%d (%v), want 1..3", oldest, last, err)
		}
	})
}

// TestAppendConcurrentSeqsHaveNoGapOrTwin: appends racing on the same
// users (in different orders) give every event its own seq, each user's
// seqs 1..n with none missing or twice.
func TestAppendConcurrentSeqsHaveNoGapOrTwin(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		repo := usereventdb.New(sqldbtest.Open(t, dialect))
		const workers, rounds = 6, 15
		var wg sync.WaitGroup
		errc := make(chan error, workers)
		for w := range workers {
			wg.Go(func() {
				for r := range rounds {
					users := []int64{1, 2, 3}
					if (w+r)%2 == 1 {
						users = []int64{3, 1, 2}
					}
					var evs []usereventdb.Pending
					for _, u := range users {
						evs = append(evs, usereventdb.Pending{UserID: u, Event: event.UserEvent{Type: event.BetAccepted, At: time.Now(), BetID: int64(100*w + r)}})
					}
					if _, err := repo.Append(ctx, evs); err != nil {
						errc <- fmt.Errorf("worker %d round %d: %w", w, r, err)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		for _, u := range []int64{1, 2, 3} {
			read, err := repo.After(ctx, u, 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(read) != workers*rounds {
				t.Fatalf("user %d has %d events, want %d", u, len(read), workers*rounds)
			}
			for i, e := range read {
				if e.Seq != int64(i+1) {
					t.Fatalf("user %d's event %d has seq %d", u, i, e.Seq)
				}
			}
		}
	})
}
