package totedb_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/totedb"
	"github.com/pokertote/pokertote/persistence/usereventdb"
)

// TestBetBatchLogsPlayersEvents: with LogUserEvents the Postgres bet batch
// appends each accepted bet's BET_ACCEPTED and BALANCE_CHANGED to its
// player's stream in the bet's own transaction. The stream then holds
// exactly the events the intake published, byte for byte, with seqs 1, 2,
// ... (no gap, no repeat); a refused bet and a retried key have none; and
// the batch whose first attempt rolled back (a taken key fails the write
// on the unique index after the append ran, and the batch runs again)
// leaves nothing of that attempt.
func TestBetBatchLogsPlayersEvents(t *testing.T) {
	ctx := context.Background()
	w := newBatchWorldOn(t, "postgres", true, (*totedb.Repo).LogUserEvents)
	p := w.user(t, "Logged Player", account.Player, "1990-05-17")
	q := w.user(t, "Other Logged Player", account.Player, "1990-05-17")
	w.h.Deposit(p, 300*money.KZT)
	w.h.Deposit(q, 1000*money.KZT)
	bet := func(u int64, sel, key string) tote.PlaceBetRequest {
		return tote.PlaceBetRequest{UserID: ids.UserID(u), DrawID: w.draw.ID, Market: parimutuel.MarketWin, Selection: sel,
			Stake: 100 * money.KZT, IdempotencyKey: key}
	}
	accepted := map[int64]int{}
	for _, batch := range [][]tote.PlaceBetRequest{
		{bet(p, "1", "a"), bet(p, "2", "b"), bet(q, "1", "a")},
		// q's a again (the first attempt meets it on the index and rolls
		// back), p's c takes p's last 100, p's d finds nothing left.
		{bet(p, "3", "c"), bet(q, "1", "a"), bet(p, "4", "d"), bet(q, "5", "e")},
	} {
		_, errList := w.h.Svc.PlaceBets(ctx, batch)
		for i, r := range batch {
			if errList[i] == nil && !(r.UserID == ids.UserID(q) && r.IdempotencyKey == "a" && accepted[q] > 0) {
				accepted[int64(r.UserID)]++
			}
		}
	}
	if accepted[p] != 3 || accepted[q] != 2 {
		t.Fatalf("accepted %v, want 3 bets of p and 2 of q", accepted)
	}
	log := usereventdb.New(w.db)
	for _, u := range []int64{p, q} {
		want := 2 * accepted[u]
		published := waitPublished(t, w, u, want)
		stored, err := log.After(ctx, u, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored) != want || len(published) != want {
			t.Fatalf("user %d: %d stored, %d published, want %d of each", u, len(stored), len(published), want)
		}
		for i, e := range stored {
			types := []string{event.BetAccepted, event.BalanceChanged}
			if e.Seq != int64(i+1) || e.Type != types[i%2] {
				t.Fatalf("user %d: stored event %d is %+v, want seq %d, %s", u, i, e, i+1, types[i%2])
			}
			if !bytes.Equal(e.Encode(), published[i]) {
				t.Fatalf("user %d: stored %s, published %s", u, e.Encode(), published[i])
			}
		}
		if _, last, err := log.Bounds(ctx, u); err != nil || last != int64(want) {
			t.Fatalf("user %d: last seq %d (%v), want %d", u, last, err, want)
		}
	}
}

// waitPublished waits (a bounded time) for n events on u's topic: the
// intake publishes after answering.
func waitPublished(t *testing.T, w *batchWorld, u int64, n int) [][]byte {
	t.Helper()
	topic := event.UserTopic(ids.UserID(u))
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs := w.h.Pub.Messages(topic)
		if len(msgs) >= n || time.Now().After(deadline) {
			return msgs
		}
		time.Sleep(10 * time.Millisecond)
	}
}
