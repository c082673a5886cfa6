package service_test

import (
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// A player's path through the service itself: bets placed one by one and
// together (each with its own result), then read back by id, by player,
// by draw and as pool totals, with the draw, its table and its events as
// the public reads show them.
func TestPlayerPaths(t *testing.T) {
	e := newEnv(t, 4)
	e.Deposit(1, deposit)
	e.Deposit(2, deposit)
	d := e.RunUntil(e.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	req := func(user int64, m parimutuel.Market, sel string, stake money.Amount, key string) tote.PlaceBetRequest {
		return tote.PlaceBetRequest{UserID: ids.UserID(user), DrawID: d.ID, Market: m, Selection: sel, Stake: stake, IdempotencyKey: key}
	}

	one, err := e.svc.PlaceBet(e.Ctx, req(1, parimutuel.MarketWin, "1", money.Tenge(200), "one"))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := e.svc.PlaceBet(e.Ctx, req(1, parimutuel.MarketWin, "1", money.Tenge(200), "one")); err != nil || again.ID != one.ID {
		t.Errorf("the same key again: bet %d (%v), want bet %d once", again.ID, err, one.ID)
	}
	bets, errList := e.svc.PlaceBets(e.Ctx, []tote.PlaceBetRequest{
		req(2, parimutuel.MarketWin, "2", money.Tenge(300), "two"),
		req(2, parimutuel.MarketWin, "3", deposit+money.Tenge(1), "too much"),
		req(1, parimutuel.MarketCombination, "PAIR", money.Tenge(100), "three"),
	})
	if len(bets) != 3 || len(errList) != 3 || errList[0] != nil || errList[1] == nil || errList[2] != nil {
		t.Fatalf("PlaceBets gave %d bets and errors %v, want the second refused alone", len(bets), errList)
	}
	if got := e.Balance(ledger.UserWallet(1)); got != deposit-money.Tenge(300) {
		t.Errorf("user 1 holds %s after staking 300.00 once per key", got)
	}

	if b, err := e.svc.Bet(e.Ctx, one.ID); err != nil || b.ID != one.ID || b.Stake != money.Tenge(200) || b.Status != tote.BetAccepted {
		t.Errorf("Bet(%d) = %+v, %v", one.ID, b, err)
	}
	_, err = e.svc.Bet(e.Ctx, one.ID+1000)
	errstest.Code(t, err, errs.NotFound)
	mine, err := e.svc.Bets(e.Ctx, tote.BetQuery{UserID: 1, Limit: 10})
	if err != nil || len(mine) != 2 || mine[0].ID < mine[1].ID {
		t.Errorf("user 1's bets: %+v, %v; want two, newest first", mine, err)
	}
	all, err := e.svc.DrawBets(e.Ctx, d.ID)
	if err != nil || len(all) != 3 {
		t.Errorf("the draw's bets: %d, %v; want 3", len(all), err)
	}
	pools, err := e.svc.Pools(e.Ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	var win money.Amount
	for _, p := range pools {
		if p.Market == parimutuel.MarketWin && p.Round == parimutuel.RoundPreDeal {
			win = p.Gross
		}
	}
	if win != money.Tenge(500) {
		t.Errorf("WIN pool of round 1 holds %s, want 500.00 (pools %+v)", win, pools)
	}

	if got, err := e.svc.Draw(e.Ctx, d.ID); err != nil || got.ID != d.ID {
		t.Errorf("Draw(%d) = %d, %v", d.ID, got.ID, err)
	}
	if got, err := e.svc.LatestDraw(e.Ctx, e.Table.ID); err != nil || got.ID != d.ID {
		t.Errorf("LatestDraw = %d, %v; want %d", got.ID, err, d.ID)
	}
	if ds, err := e.svc.DrawsByID(e.Ctx, []int64{d.ID, d.ID + 1000}); err != nil || len(ds) != 1 || ds[0].ID != d.ID {
		t.Errorf("DrawsByID = %+v, %v; want the one that exists", ds, err)
	}
	if ts, err := e.svc.Tables(e.Ctx); err != nil || !slices.ContainsFunc(ts, func(x tote.Table) bool { return x.ID == e.Table.ID }) {
		t.Errorf("Tables = %+v, %v; want table %d", ts, err, e.Table.ID)
	}
	if ts, err := e.svc.TablesByID(e.Ctx, []int64{e.Table.ID}); err != nil || len(ts) != 1 || ts[0].ID != e.Table.ID {
		t.Errorf("TablesByID = %+v, %v", ts, err)
	}
	evs, err := e.svc.EventsAfter(e.Ctx, e.Table.ID, 0, 100)
	if err != nil || len(evs) == 0 || evs[0].Type != tote.EventDrawOpened {
		t.Fatalf("EventsAfter(0) = %d events, %v; want DRAW_OPENED first", len(evs), err)
	}
	if rest, err := e.svc.EventsAfter(e.Ctx, e.Table.ID, evs[0].Seq, 100); err != nil || len(rest) != len(evs)-1 {
		t.Errorf("EventsAfter(%d) = %d events, %v; want %d", evs[0].Seq, len(rest), err, len(evs)-1)
	}
}

// VoidCounts lists every kind, zero included, and counts an admin's void.
func TestVoidCounts(t *testing.T) {
	e := newEnv(t, 3)
	e.Deposit(1, deposit)
	d := e.RunUntil(e.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	counts := func() map[tote.VoidKind]int64 {
		t.Helper()
		cs, err := e.svc.VoidCounts(e.Ctx, e.Table.ID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[tote.VoidKind]int64{}
		for _, c := range cs {
			out[c.Kind] = c.Count
		}
		if len(cs) != len(tote.VoidKinds) || len(out) != len(tote.VoidKinds) {
			t.Errorf("VoidCounts lists %+v, want each of %v once", cs, tote.VoidKinds)
		}
		return out
	}
	if c := counts(); c[tote.VoidAdminBeforeDeal] != 0 {
		t.Errorf("a new table counts %+v", c)
	}
	if _, err := e.svc.VoidDraw(e.Ctx, admin, d.ID, "camera failure"); err != nil {
		t.Fatal(err)
	}
	if c := counts(); c[tote.VoidAdminBeforeDeal] != 1 {
		t.Errorf("after one admin void: %+v", c)
	}
	_, err := e.svc.VoidCounts(e.Ctx, e.Table.ID+1000)
	errstest.Code(t, err, errs.NotFound)
}

// EnsureDemoTables creates the two demo tables on an empty store, and
// nothing once any table exists.
func TestEnsureDemoTables(t *testing.T) {
	env := totetest.MemEnv(t)
	svc, err := service.New(service.Config{Store: env.Store, Ledger: env.Ledger, Gate: totetest.AllowAll{}, Publisher: &totetest.Recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for range 2 {
		if err := svc.EnsureDemoTables(ctx); err != nil {
			t.Fatal(err)
		}
		ts, err := svc.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var sizes []int
		for _, x := range ts {
			sizes = append(sizes, x.Positions)
		}
		slices.Sort(sizes)
		if !slices.Equal(sizes, []int{6, 10}) {
			t.Fatalf("tables of %v positions, want one demo table of 6 and one of 10", sizes)
		}
	}
}
