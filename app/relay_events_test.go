package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// relayEventsDoc selects the draw of every event that changes one, and of
// the join snapshot, as a normalising client cache would.
const relayEventsDoc = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) {
	__typename seq
	... on TableSnapshot { draw { drawId draw { id nodeId phase } } }
	... on DrawOpened { drawId draw { id nodeId phase number } }
	... on RoundOpened { drawId draw { id nodeId phase openRound } }
	... on PoolUpdated { drawId draw { id nodeId phase pools(round: PRE_DEAL, market: WIN) { gross } } }
} }`

type relayEvent struct {
	Typename string `json:"__typename"`
	Seq      int64
	DrawID   string
	Draw     *struct {
		ID, NodeID, Phase string
		OpenRound         *string
		Pools             []struct{ Gross string }
		DrawID            string
		Draw              *struct{ ID, NodeID, Phase string }
	}
}

// nextEvent reads the next event of a subscription, raw and decoded.
func nextEvent(t *testing.T, ctx context.Context, sub *gqltest.Subscription) (json.RawMessage, relayEvent) {
	t.Helper()
	select {
	case raw, ok := <-sub.Next:
		if !ok {
			t.Fatalf("the stream ended: %s", sub.Err())
		}
		var m struct{ TableEvents json.RawMessage }
		var e relayEvent
		if err := json.Unmarshal(raw, &m); err != nil || json.Unmarshal(m.TableEvents, &e) != nil {
			t.Fatalf("event %s: %v", raw, err)
		}
		return m.TableEvents, e
	case <-ctx.Done():
		t.Fatal("no event in time")
	}
	return nil, relayEvent{}
}

// TestTableEventsCarryTheirDraw: the events that change a draw carry it
// (draw beside drawId, with its id and nodeId), as does the join snapshot,
// so a client cache updates the Draw from the stream; the draw is never
// older than its event (a PoolUpdated's draw has the stake in its pools);
// and the response stays one for every viewer: a player and a signed-out
// client of the same document get the same bytes for each seq.
func TestTableEventsCarryTheirDraw(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 1 })
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	p := newPlayer(t, c, "10000.00")
	tableID := createLongTable(t, admin, unique("relay-events"))
	drawID, _ := openDraw(t, c, tableID)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	join, err := c.Subscribe(ctx, relayEventsDoc, map[string]any{"t": tableID, "a": nil})
	if err != nil {
		t.Fatal(err)
	}
	defer join.Close()
	_, snap := nextEvent(t, ctx, join)
	if snap.Typename != "TableSnapshot" || snap.Draw == nil || snap.Draw.Draw == nil || snap.Draw.Draw.ID != snap.Draw.DrawID || snap.Draw.Draw.NodeID == "" {
		t.Fatalf("join snapshot %+v: its draw does not carry the Draw", snap)
	}

	var subs []*gqltest.Subscription
	for _, cl := range []*gqltest.Client{c, p.Client} {
		sub, err := cl.Subscribe(ctx, relayEventsDoc, map[string]any{"t": tableID, "a": 0})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		subs = append(subs, sub)
	}
	if _, err := p.Client.Do(ctx, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"drawId": drawID, "selection": map[string]any{"position": 2}, "stake": "250.00", "idempotencyKey": unique("relay-ev")}}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for !seen["PoolUpdated"] {
		rawA, e := nextEvent(t, ctx, subs[0])
		rawB, _ := nextEvent(t, ctx, subs[1])
		if !bytes.Equal(rawA, rawB) {
			t.Fatalf("seq %d differs between viewers:\n%s\n%s", e.Seq, rawA, rawB)
		}
		if e.DrawID != drawID {
			continue
		}
		seen[e.Typename] = true
		if e.Draw == nil || e.Draw.ID != e.DrawID || e.Draw.NodeID == "" || e.Draw.Phase == "" {
			t.Fatalf("%s (seq %d) does not carry its draw: %s", e.Typename, e.Seq, rawA)
		}
		if e.Typename == "PoolUpdated" && (len(e.Draw.Pools) != 1 || e.Draw.Pools[0].Gross == "0.00") {
			t.Fatalf("PoolUpdated's draw is older than the event: %s", rawA)
		}
	}
	if !seen["DrawOpened"] || !seen["RoundOpened"] {
		t.Fatalf("events of draw %s seen: %v", drawID, seen)
	}
}
