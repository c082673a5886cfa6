package totetest

import (
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// testBetListFilters: a player's bets filtered by status, market and table
// come back exactly, in order, paged forward and backward by bet id with
// neither a duplicate nor a gap. The bets span draws that were settled
// (the database stores derive WON and LOST from the selections' rates),
// voided (REFUNDED) and left open (ACCEPTED), with another player's bets
// in between, so each filter drops bets on every page.
func testBetListFilters(t *testing.T, env Env) {
	h := NewHarness(t, env, 5)
	h.Deposit(1, money.Tenge(100_000))
	h.Deposit(2, money.Tenge(100_000))
	number := int64(0)
	for k := range 4 {
		d := h.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Phase == tote.PhasePreDeal && x.Number > number })
		number = d.Number
		for pos := 1; pos <= 5; pos++ {
			h.BetIfOffered(1, d, parimutuel.MarketWin, itoa(pos), money.Tenge(100)+money.Amount(pos))
			h.BetIfOffered(2, d, parimutuel.MarketWin, itoa(pos), money.Tenge(150))
		}
		h.BetIfOffered(1, d, parimutuel.MarketCombination, "HIGH_CARD", money.Tenge(120))
		h.BetIfOffered(1, d, parimutuel.MarketCombination, "PAIR", money.Tenge(130))
		h.BetIfOffered(1, d, parimutuel.MarketExpress, "1-2-3", money.Tenge(140))
		switch k {
		case 2:
			if _, err := h.Svc.VoidDraw(h.Ctx, 1, d.ID, "bet list test"); err != nil {
				t.Fatal(err)
			}
		case 3:
			continue // left open: its bets stay ACCEPTED
		}
		h.RunUntil(h.Dealer, "finished", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
	}
	all, err := env.Store.Bets(h.Ctx, tote.BetQuery{UserID: 1, Limit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	count := map[tote.BetStatus]int{}
	for _, b := range all {
		count[b.Status]++
	}
	const page = 2
	// Lost bets fill three pages at least: three or four of each settled
	// draw's five WIN bets lose.
	if count[tote.BetAccepted] == 0 || count[tote.BetRefunded] == 0 || count[tote.BetLost] <= 2*page || len(all) < 24 {
		t.Fatalf("the player's %d bets by status: %v", len(all), count)
	}
	filters := []tote.BetQuery{
		{Status: tote.BetAccepted}, {Status: tote.BetWon}, {Status: tote.BetLost}, {Status: tote.BetRefunded},
		{Market: parimutuel.MarketWin}, {Market: parimutuel.MarketCombination}, {Market: parimutuel.MarketExpress},
		{TableID: h.Table.ID}, {TableID: h.Table.ID + 1_000_000},
		{Status: tote.BetLost, Market: parimutuel.MarketWin, TableID: h.Table.ID},
	}
	for _, f := range filters {
		var want []int64
		for _, b := range all {
			if (f.Status == "" || b.Status == f.Status) && (f.Market == "" || b.Selection.Market == f.Market) && (f.TableID == 0 || b.TableID == f.TableID) {
				want = append(want, b.ID)
			}
		}
		f.UserID = 1
		if got := pageBets(t, h, f, page, false); !slices.Equal(got, want) {
			t.Errorf("%s %s table %d, forward pages of %d: %v, want %v", f.Status, f.Market, f.TableID, page, got, want)
		}
		back := slices.Clone(want)
		slices.Reverse(back)
		if got := pageBets(t, h, f, page, true); !slices.Equal(got, back) {
			t.Errorf("%s %s table %d, backward pages of %d: %v, want %v", f.Status, f.Market, f.TableID, page, got, back)
		}
	}
	for _, bad := range []tote.BetQuery{{UserID: 1, Limit: 5, Status: "LOSTISH"}, {UserID: 1, Limit: 5, Market: "PLACE"}} {
		want := tote.ReasonUnknownBetStatus
		if bad.Market != "" {
			want = parimutuel.ReasonUnknownMarket
		}
		if _, err := env.Store.Bets(h.Ctx, bad); errs.CodeOf(err) != errs.Invalid || errs.ReasonOf(err) != want {
			t.Errorf("bets with status %q market %q: %v, want invalid input %s", bad.Status, bad.Market, err, want)
		}
	}
	if other, err := env.Store.Bets(h.Ctx, tote.BetQuery{UserID: ids.UserID(3), Status: tote.BetLost, Limit: 5}); err != nil || len(other) != 0 {
		t.Errorf("a player without bets, lost: %v %v", other, err)
	}
}

// pageBets reads q's whole list in pages of size, each continuing after
// the last id of the one before (newest first, or oldest first when
// oldest), and returns the ids in the order read.
func pageBets(t *testing.T, h *Harness, q tote.BetQuery, size int, oldest bool) []int64 {
	t.Helper()
	var ids []int64
	q.Limit, q.Oldest = size, oldest
	for range 1000 {
		bets, err := h.Env.Store.Bets(h.Ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bets {
			ids = append(ids, b.ID)
		}
		if len(bets) < size {
			return ids
		}
		if last := bets[len(bets)-1].ID; oldest {
			q.After = last
		} else {
			q.Before = last
		}
	}
	t.Fatalf("%+v never ends", q)
	return nil
}
