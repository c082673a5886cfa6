package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// poolEventsDoc reads the live pools of a table's events.
const poolEventsDoc = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) {
	__typename seq
	... on PoolUpdated { drawId pool { round market gross bets selections { selection stake bets } } }
} }`

// TestCommittedBetPublishesPoolOnAnotherReplica: a bet committed on a
// replica that deals no table reaches, through the broker, the dealer of
// its table on the other replica, whose POOL_UPDATED (through the outbox
// and the broker) reaches a viewer of the first replica with the new
// totals: the stake and the bet's count on its selection. It fails when
// the intake's signal stays on the replica that took the bet.
func TestCommittedBetPublishesPoolOnAnotherReplica(t *testing.T) {
	t.Parallel()
	redisURL, prefix := testenv.Redis(t)
	b := backend{name: "postgres+redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redisURL, redisPrefix: prefix}
	_, dealing := startServer(t, b, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 1 })
	_, taking := startServer(t, b, nil) // DealerEnabled false: no dealer here
	admin := signIn(t, dealing, testAdminEmail, testAdminPassword)
	p := newPlayer(t, taking, "10000.00")
	tableID := createLongTable(t, admin, unique("pool-signal"))
	drawID, _ := openDraw(t, taking, tableID)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sub, err := taking.Subscribe(ctx, poolEventsDoc, map[string]any{"t": tableID, "a": 0})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for i, stake := range []string{"250.00", "150.00"} {
		if _, err := p.Client.Do(ctx, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"drawId": drawID, "selection": map[string]any{"position": 2}, "stake": stake, "idempotencyKey": unique("pool-signal")}}); err != nil {
			t.Fatal(err)
		}
		wantGross, wantBets := []string{"250.00", "400.00"}[i], i+1
		for {
			var ev struct {
				TableEvents struct {
					Typename string `json:"__typename"`
					DrawID   string
					Pool     struct {
						Market     string
						Gross      string
						Bets       int
						Selections []struct {
							Selection, Stake string
							Bets             int
						}
					}
				}
			}
			select {
			case raw, ok := <-sub.Next:
				if !ok {
					t.Fatalf("the stream ended: %v", sub.Err())
				}
				if err := json.Unmarshal(raw, &ev); err != nil {
					t.Fatal(err)
				}
			case <-ctx.Done():
				t.Fatalf("no POOL_UPDATED with gross %s after bet %d", wantGross, i+1)
			}
			e := ev.TableEvents
			if e.Typename != "PoolUpdated" || e.DrawID != drawID || e.Pool.Market != "WIN" || e.Pool.Gross != wantGross {
				continue
			}
			if e.Pool.Bets != wantBets {
				t.Fatalf("POOL_UPDATED gross %s counts %d bets, want %d", e.Pool.Gross, e.Pool.Bets, wantBets)
			}
			for _, s := range e.Pool.Selections {
				if s.Selection == "2" && (s.Stake != wantGross || s.Bets != wantBets) {
					t.Fatalf("selection 2 shows %s over %d bets, want %s over %d", s.Stake, s.Bets, wantGross, wantBets)
				}
			}
			break
		}
	}
}
