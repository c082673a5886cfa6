package graph

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// generatedLeaves is a LeafSource of n round-1 bets made up on the fly,
// as the store reads them a page at a time.
type generatedLeaves struct {
	n    int
	open time.Time
	err  error
}

func (g generatedLeaves) Leaves(_ context.Context, drawID int64, round parimutuel.Round, fn func(betroot.PublicLeaf) error) error {
	if g.err != nil {
		return g.err
	}
	if round > 1 {
		return nil
	}
	for i := 1; i <= g.n; i++ {
		l := betroot.Leaf{Version: 2, ID: int64(i), Round: 1, Market: "WIN", Selection: fmt.Sprint(1 + i%10), Stake: int64(100*money.KZT) + int64(i%7),
			PlacedAt: g.open.Add(time.Duration(i%9_000) * time.Millisecond)}
		if err := fn(l.Public()); err != nil {
			return err
		}
	}
	return nil
}

// millionBetVoid is what CheckLeaves reads of a fair deal 4 draw whose
// round 1 took the bets of src and which was then voided for a missing
// pockets beacon (every stake refunded): its terms and times, round 1's
// root, and its WIN pool's selections, all summed from src's leaves.
func millionBetVoid(t *testing.T, src generatedLeaves) tote.DrawResult {
	t.Helper()
	plan := tote.PlanBeacons(beacon.Quicknet, src.open, tote.BeaconSchedule{Rounds: [4]time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second},
		Card: time.Second, BeaconWait: 30 * time.Minute, Positions: 10})
	plan.Terms = &tote.DrawTerms{Commission: 300, ExpressShares: [2]money.BasisPoints{6000, 4000}, JackpotRate: 1, MinStake: 100 * money.KZT, MaxStake: 1000 * money.KZT, SuspendAt: 9000}
	dl := plan.Deadlines[0]
	v := tote.VoidDetail{Kind: tote.VoidBeaconMissing, At: dl.Add(time.Millisecond), Street: 1, Round: plan.Rounds[0], Deadline: &dl}
	terms := *plan.Terms
	r := tote.DrawResult{Version: tote.ResultVersion, DrawID: 1, Positions: 10, Void: true, VoidDetail: &v, Beacons: &plan,
		Commission: terms.Commission, ExpressShares: terms.ExpressShares, JackpotRate: terms.JackpotRate, MinStake: terms.MinStake, MaxStake: terms.MaxStake, SuspendAt: terms.SuspendAt}
	f := betroot.NewFolder()
	totals := map[string]*tote.ResultSelection{}
	err := src.Leaves(context.Background(), 1, 0, func(l betroot.PublicLeaf) error {
		h, err := l.Hash()
		if err != nil {
			return err
		}
		s := totals[l.Selection]
		if s == nil {
			s = &tote.ResultSelection{Selection: l.Selection, Refund: true}
			totals[l.Selection] = s
		}
		s.NumBets++
		s.Stakes += money.Amount(l.Stake)
		s.Payout += money.Amount(l.Stake)
		return f.Add(h, l.Stake)
	})
	if err != nil {
		t.Fatal(err)
	}
	root, err := f.Root(1)
	if err != nil {
		t.Fatal(err)
	}
	at := plan.ClosesAt[0].Add(5 * time.Millisecond)
	root.At = &at
	r.BetRoots = []betroot.Root{root}
	pool := tote.PoolResult{PoolID: tote.PoolID(1, parimutuel.RoundPreDeal, parimutuel.MarketWin), Round: parimutuel.RoundPreDeal, Market: parimutuel.MarketWin, Refunded: true}
	for _, sel := range []string{"1", "10", "2", "3", "4", "5", "6", "7", "8", "9"} {
		pool.Selections = append(pool.Selections, *totals[sel])
	}
	r.Pools = []tote.PoolResult{pool}
	return r
}

// TestMillionLeavesInBoundedMemory: a round of 1,000,000 bets downloads as
// NDJSON, streamed as the store reads it, and verifies as it is read,
// holding a few megabytes however many bets (the leaves themselves would
// take well over a hundred).
func TestMillionLeavesInBoundedMemory(t *testing.T) {
	const n = 1_000_000
	src := generatedLeaves{n: n, open: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	res := millionBetVoid(t, src)
	mux := http.NewServeMux()
	mux.Handle("GET /draws/{id}/leaves", LeavesHandler(src))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/draws/1/leaves")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "application/x-ndjson" {
		t.Fatalf("%d %s", resp.StatusCode, ct)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak := base.HeapAlloc
	dec := json.NewDecoder(bufio.NewReader(resp.Body))
	read := 0
	next := func() (betroot.PublicLeaf, error) {
		var l betroot.PublicLeaf
		if err := dec.Decode(&l); err != nil {
			return l, err
		}
		if read++; read%50_000 == 0 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
		return l, nil
	}
	if p := verify.CheckLeaves(res, next); len(p) > 0 {
		t.Fatalf("after %d leaves: %q", read, p)
	}
	if read != n {
		t.Fatalf("read %d leaves, want %d", read, n)
	}
	if grew := int64(peak) - int64(base.HeapAlloc); grew > 32<<20 {
		t.Errorf("the heap grew by %d MB while %d leaves were served, read and verified", grew>>20, n)
	}
}

// TestLeavesRefusals: an id that is none, a round outside 1..4 and a draw
// still running are refused with their codes, before any leaf.
func TestLeavesRefusals(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("GET /draws/{id}/leaves", LeavesHandler(generatedLeaves{n: 3}))
	running := errs.R(errs.Conflict, tote.ReasonDrawNotFinished, "draw 2 is not over yet")
	mux.Handle("GET /running/{id}/leaves", LeavesHandler(generatedLeaves{err: running}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for path, want := range map[string]struct {
		status int
		reason string
	}{
		"/draws/x/leaves":         {http.StatusBadRequest, ReasonInvalidID},
		"/draws/1/leaves?round=z": {http.StatusBadRequest, parimutuel.ReasonUnknownRound},
		"/running/2/leaves":       {http.StatusConflict, tote.ReasonDrawNotFinished},
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Errors []struct {
				Extensions struct{ Reason string } `json:"extensions"`
			} `json:"errors"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != want.status || len(body.Errors) != 1 || body.Errors[0].Extensions.Reason != want.reason {
			t.Errorf("%s: %d %+v, want %d %s", path, resp.StatusCode, body, want.status, want.reason)
		}
	}
}
