package app_test

import (
	"context"
	"encoding/json"
	"sort"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/clocktest"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
)

// joinSub asks for everything a table view renders, from every event type.
const joinSub = `subscription($t: ID!, $after: Int64) {
  tableEvents(tableId: $t, afterSeq: $after) {
    __typename seq at
    ... on TableSnapshot { status draw { drawId number phase openRound roundClosesAt minStake commitment beacons { ...beacons } publicSeed serverSeed
        board positions { ...pos } odds { ...odds } pools { ...pool } result { winners } voidReason } }
    ... on DrawOpened { drawId number seats minStake commitment beacons { ...beacons } odds { ...odds } }
    ... on RoundOpened { drawId round closesAt }
    ... on RoundClosed { drawId round publicSeed }
    ... on CardsDealt { drawId street position cards board positions { ...pos } }
    ... on OddsUpdated { drawId odds { ...odds } }
    ... on PoolUpdated { drawId pool { ...pool } }
    ... on DrawSettled { drawId serverSeed result { winners } positions { ...pos } }
    ... on DrawVoided { drawId reason serverSeed result { winners } }
  }
}
fragment pos on Position { number cards status bestHand { category description cards } }
fragment odds on Odds { street boards exact leaders positions { position win tie equity } }
fragment pool on Pool { round market gross net bets selections { selection stake bets impliedCoefficient } }
fragment beacons on Beacons { version chain { name hash scheme publicKey genesis periodMs } streets { name closesAt round publishedAt deadline signature } }`

// rawEvent is one typed event as the join document asks for it.
type rawEvent struct {
	Typename   string `json:"__typename"`
	Seq        int64
	DrawID     string
	Number     int
	Positions  json.RawMessage
	MinStake   string
	Commitment string
	Beacons    json.RawMessage
	Odds       json.RawMessage
	Round      string
	ClosesAt   *string
	PublicSeed *string
	ServerSeed *string
	Street     string
	Board      []string
	Pool       json.RawMessage
	Result     json.RawMessage
	Reason     string
	Draw       *viewDraw
}

// viewDraw is the state of a draw a test client renders: the snapshot's
// DrawSnapshot, or what folding the events gives.
type viewDraw struct {
	DrawID        string
	Number        int
	Phase         string
	OpenRound     *string
	RoundClosesAt *string
	MinStake      string
	Commitment    string
	Beacons       json.RawMessage
	PublicSeed    *string
	ServerSeed    *string
	Board         []string
	Positions     json.RawMessage
	Odds          json.RawMessage
	Pools         []json.RawMessage
	Result        json.RawMessage
	VoidReason    *string
}

var bettingPhase = map[string]string{"PRE_DEAL": "PRE_DEAL", "POCKET": "POCKET", "FLOP": "FLOP", "TURN": "TURN"}
var dealingPhase = map[string]string{"PRE_DEAL": "DEALING_POCKET", "POCKET": "DEALING_FLOP", "FLOP": "DEALING_TURN", "TURN": "DEALING_RIVER"}

// fold applies e to d the way a UI would; it returns the new draw.
func fold(d *viewDraw, e rawEvent) *viewDraw {
	if e.Typename == "TableSnapshot" {
		return e.Draw
	}
	if e.Typename == "DrawOpened" {
		return &viewDraw{DrawID: e.DrawID, Number: e.Number, Phase: "PRE_DEAL", MinStake: e.MinStake, Commitment: e.Commitment,
			Beacons: e.Beacons, Odds: e.Odds, Board: []string{}}
	}
	if d == nil || e.DrawID != d.DrawID {
		return d
	}
	n := *d
	switch e.Typename {
	case "RoundOpened":
		n.Phase, n.OpenRound, n.RoundClosesAt = bettingPhase[e.Round], &e.Round, e.ClosesAt
	case "RoundClosed":
		n.Phase, n.OpenRound, n.RoundClosesAt = dealingPhase[e.Round], nil, nil
		if e.PublicSeed != nil {
			n.PublicSeed = e.PublicSeed
		}
	case "CardsDealt":
		n.Board, n.Positions = e.Board, e.Positions
	case "OddsUpdated":
		n.Odds = e.Odds
	case "PoolUpdated":
		n.Pools = withPool(n.Pools, e.Pool)
	case "DrawSettled":
		n.Phase, n.ServerSeed, n.Result, n.Positions = "SETTLED", e.ServerSeed, e.Result, e.Positions
	case "DrawVoided":
		n.Phase, n.ServerSeed, n.Result, n.VoidReason = "VOID", e.ServerSeed, e.Result, &e.Reason
	}
	return &n
}

func withPool(pools []json.RawMessage, p json.RawMessage) []json.RawMessage {
	key := func(raw json.RawMessage) string {
		var k struct{ Round, Market string }
		_ = json.Unmarshal(raw, &k)
		return k.Round + "/" + k.Market
	}
	out := append([]json.RawMessage{}, pools...)
	for i, q := range out {
		if key(q) == key(p) {
			out[i] = p
			return out
		}
	}
	return append(out, p)
}

// rendered is what a view shows of d, for comparison: pools without bets
// are left out (a client that watched from the start has not been sent the
// zero rows of a pool nobody backed; the snapshot lists them).
func rendered(t *testing.T, d *viewDraw) string {
	t.Helper()
	if d == nil {
		return "null"
	}
	c := *d
	c.Pools = nil
	for _, p := range d.Pools {
		var b struct{ Bets int }
		_ = json.Unmarshal(p, &b)
		if b.Bets > 0 {
			c.Pools = append(c.Pools, p)
		}
	}
	sort.Slice(c.Pools, func(i, j int) bool { return string(c.Pools[i]) < string(c.Pools[j]) })
	if c.Positions == nil {
		c.Positions = json.RawMessage("null")
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// subscribeViewer subscribes with joinSub (from after, or joining when
// nil) and decodes what arrives.
func subscribeViewer(t *testing.T, c *gqltest.Client, tableID string, after *int64) <-chan rawEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	vars := map[string]any{"t": tableID}
	if after != nil {
		vars["after"] = *after
	}
	sub, err := c.Subscribe(ctx, joinSub, vars)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	t.Cleanup(sub.Close)
	out := make(chan rawEvent, 4096)
	go func() {
		defer close(out)
		for raw := range sub.Next {
			var m struct{ TableEvents rawEvent }
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Errorf("decode %s: %v", raw, err)
				return
			}
			out <- m.TableEvents
		}
		if e := sub.Err(); e != "" {
			t.Logf("subscription ended: %s", e)
		}
	}()
	return out
}

// skipOpened skips clk to the close of the round e opened (if it opened one).
func skipOpened(t *testing.T, clk *clocktest.Skipping, e rawEvent) {
	t.Helper()
	if e.Typename != "RoundOpened" || e.ClosesAt == nil {
		return
	}
	at, err := time.Parse(time.RFC3339Nano, *e.ClosesAt)
	if err != nil {
		t.Fatalf("round closes at %q: %v", *e.ClosesAt, err)
	}
	skipRound(clk, &at)
}

func next(t *testing.T, ch <-chan rawEvent) rawEvent {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("stream ended")
		}
		return e
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30 s")
	}
	return rawEvent{}
}

// TestJoinMidDraw: on both backends, a viewer that joins while a draw is
// being dealt (after its flop, with money in a pool) receives one
// TableSnapshot holding the draw, every position's cards and best hand,
// the odds and every pool with zero rows, then live events; and from then
// on it renders exactly what a viewer that watched from the table's first
// event renders, seq by seq, until the draw is settled.
func TestJoinMidDraw(t *testing.T) {
	testenv.SkipShort(t, "plays a whole draw on each backend")
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			clk := clocktest.NewSkipping()
			_, c := startServer(t, b, onClock(clk))
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "1000.00")
			tableID := createLongTable(t, admin, unique("join"))
			zero := int64(0)
			early := subscribeViewer(t, c, tableID, &zero)
			earlyStates := map[int64]string{}
			var ed *viewDraw
			var drawID string
			bet := false
			for { // watch from the start until the flop of the first draw
				e := next(t, early)
				if e.Typename == "TableSnapshot" {
					t.Fatal("a client resuming from seq 0 got a snapshot instead of the replay")
				}
				ed = fold(ed, e)
				earlyStates[e.Seq] = rendered(t, ed)
				if e.Typename == "RoundOpened" && e.Round == "PRE_DEAL" && !bet {
					drawID, bet = e.DrawID, true
					p.Client.MustDo(t, `mutation($d: ID!) { placeBet(input: {drawId: $d, selection: {position: 2}, stake: "100.00", idempotencyKey: "join"}) { id } }`,
						map[string]any{"d": drawID}, nil)
				}
				skipOpened(t, clk, e)
				if e.Typename == "CardsDealt" && e.Street == "FLOP" && e.DrawID == drawID {
					break
				}
			}
			late := subscribeViewer(t, c, tableID, nil)
			first := next(t, late)
			if first.Typename != "TableSnapshot" || first.Draw == nil || first.Draw.DrawID != drawID {
				t.Fatalf("late joiner's first event: %+v", first)
			}
			snap := first.Draw
			if len(snap.Board) < 3 || len(snap.Pools) != 10 {
				t.Fatalf("snapshot after the flop: board %v, %d pools (want every pool of the draw)", snap.Board, len(snap.Pools))
			}
			var pos []struct {
				Cards    []string
				BestHand *struct{ Category string }
			}
			if err := json.Unmarshal(snap.Positions, &pos); err != nil || len(pos) != 6 || len(pos[0].Cards) != 2 || pos[0].BestHand == nil {
				t.Fatalf("snapshot positions %s (%v)", snap.Positions, err)
			}
			// The snapshot carries the draw's beacon commitment as DrawOpened
			// published it: fair deal 4, four streets, no signature.
			var bc struct {
				Version int
				Chain   struct{ Name string }
				Streets []struct {
					Round     int64
					Signature *string
				}
			}
			if err := json.Unmarshal(snap.Beacons, &bc); err != nil || bc.Version != 4 || bc.Chain.Name != "local" || len(bc.Streets) != 4 || bc.Streets[3].Round == 0 || bc.Streets[0].Signature != nil {
				t.Fatalf("snapshot beacons %s (%v)", snap.Beacons, err)
			}
			var win struct {
				Selections []struct{ Selection, Stake string }
			}
			_ = json.Unmarshal(snap.Pools[0], &win)
			if len(win.Selections) != 6 || win.Selections[1].Stake != "100.00" || win.Selections[0].Stake != "0.00" {
				t.Fatalf("snapshot WIN pool of round 1: %s", snap.Pools[0])
			}
			lateStates := map[int64]string{first.Seq: rendered(t, snap)}
			ld := snap
			street := "FLOP" // the early viewer stopped at the flop
			for settled := [2]bool{}; !settled[0] || !settled[1]; {
				select {
				case e := <-early:
					skipOpened(t, clk, e)
					if e.Typename == "CardsDealt" {
						street = e.Street
					}
					if e.Typename == "OddsUpdated" { // issue 11: river odds said DEALING_RIVER
						var o struct{ Street string }
						if err := json.Unmarshal(e.Odds, &o); err != nil || o.Street != street {
							t.Fatalf("odds after the %s card labelled %s", street, e.Odds)
						}
					}
					ed = fold(ed, e)
					earlyStates[e.Seq] = rendered(t, ed)
					settled[0] = settled[0] || (e.Typename == "DrawSettled" && e.DrawID == drawID)
				case e := <-late:
					if e.Typename == "TableSnapshot" {
						t.Fatalf("a second snapshot at seq %d", e.Seq)
					}
					ld = fold(ld, e)
					lateStates[e.Seq] = rendered(t, ld)
					settled[1] = settled[1] || (e.Typename == "DrawSettled" && e.DrawID == drawID)
				case <-time.After(30 * time.Second):
					t.Fatal("the draw was not settled within 30 s")
				}
			}
			compared := 0
			for seq, got := range lateStates {
				want, ok := earlyStates[seq]
				if !ok {
					continue // the early viewer is still behind at the end
				}
				compared++
				if got != want {
					t.Fatalf("at seq %d the late joiner renders\n%s\nbut the early viewer\n%s", seq, got, want)
				}
			}
			if compared < 5 {
				t.Fatalf("only %d states compared", compared)
			}
			t.Logf("%d states equal after joining at seq %d", compared, first.Seq)
		})
	}
}
