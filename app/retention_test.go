package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/clocktest"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
)

// TestOutboxPruningAndResume: with a tiny EVENT_RETENTION the replica's
// pruner removes a settled draw's events; a client resuming from before the
// watermark starts with a snapshot of the table, one resuming from a recent seq
// gets the next events without a gap. Both backends, a real WebSocket.
func TestOutboxPruningAndResume(t *testing.T) {
	testenv.SkipShort(t, "waits for a draw to settle and for the pruner, on each backend")
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			clk := clocktest.NewSkipping()
			_, c := startServer(t, b, func(cfg *app.Config) {
				onClock(clk)(cfg)
				cfg.EventRetention = time.Millisecond
				cfg.EventPruneInterval = 200 * time.Millisecond
			})
			tableID := createLongTable(t, signIn(t, c, testAdminEmail, testAdminPassword), unique("prune"))
			events := watch(t, c, tableID)
			var last int64
			timeout := time.After(90 * time.Second)
			for settled := false; !settled; {
				select {
				case e, ok := <-events:
					if !ok {
						t.Fatal("the table stream ended")
					}
					last, settled = e.Seq, e.Type == "DRAW_SETTLED"
					if e.Type == "ROUND_OPENED" {
						skipRound(clk, e.ClosesAt) // no bets here: only the settled draw counts
					}
				case <-timeout:
					t.Fatal("no draw settled in 90 s")
				}
			}
			// The settled draw's events go within a few pruning intervals.
			deadline := time.Now().Add(30 * time.Second)
			for {
				if first := firstEventAfter(t, c, tableID, 0, 5*time.Second); first.Type == "SNAPSHOT" {
					break
				} else if first.Type == "" || first.Seq != 1 {
					t.Fatalf("a resume from seq 0 began with %+v, want seq 1 or a snapshot", first)
				}
				if time.Now().After(deadline) {
					t.Fatal("a resume from seq 0 still replays from seq 1 30 s after the draw settled")
				}
				time.Sleep(300 * time.Millisecond)
			}
			if e := firstEventAfter(t, c, tableID, last, 30*time.Second); e.Seq != last+1 || e.Type == "SNAPSHOT" {
				t.Fatalf("resumed after %d, got %+v", last, e)
			}
		})
	}
}

// firstEventAfter subscribes to a table after afterSeq and returns the
// first event it sends (the zero event if the stream is silent for wait).
func firstEventAfter(t *testing.T, c *gqltest.Client, tableID string, afterSeq int64, wait time.Duration) tableEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	sub, err := c.Subscribe(ctx, tableEventsSub, map[string]any{"t": tableID, "after": afterSeq})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	select {
	case raw, ok := <-sub.Next:
		if !ok {
			t.Fatalf("resume after %d refused: %s", afterSeq, sub.Err())
		}
		var m struct{ TableEvents tableEvent }
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		return m.TableEvents
	case <-ctx.Done():
	}
	return tableEvent{}
}
