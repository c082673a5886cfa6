package totetest

import (
	"slices"
	"strconv"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// placeEverywhere places a spread of bets in the open round of d: WIN on
// every position, COMBINATION on five categories, and (rounds 1, 2) a few
// EXPRESS coupons, from users 1..3.
func placeEverywhere(h *Harness, d tote.Draw) []tote.Bet {
	h.T.Helper()
	var out []tote.Bet
	place := func(user int64, m parimutuel.Market, sel string, stake money.Amount) {
		if b, ok := h.BetIfOffered(user, d, m, sel, stake); ok {
			out = append(out, b)
		}
	}
	for p := 1; p <= d.Positions; p++ {
		place(1, parimutuel.MarketWin, itoa(p), money.Tenge(100)+money.Amount(p)*37)
	}
	for _, c := range []string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT"} {
		place(2, parimutuel.MarketCombination, c, money.Tenge(150))
	}
	if d.OpenRound() <= parimutuel.RoundPocket {
		for _, c := range []string{"1-1-1", "1-2-3", "2-2-2", "3-3-3", "1-1-2"} {
			place(3, parimutuel.MarketExpress, c, money.Tenge(120))
		}
	} else {
		_, err := h.Bet(3, d, parimutuel.MarketExpress, "1-1-1", money.Tenge(120))
		errstest.Is(h.T, err, errs.Invalid, "MARKET_NOT_OFFERED_IN_ROUND")
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func testFullDraw(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	for u := int64(1); u <= 3; u++ {
		h.Deposit(u, money.Tenge(100_000))
	}
	var bets []tote.Bet
	for _, p := range []tote.Phase{tote.PhasePreDeal, tote.PhasePocket, tote.PhaseFlop, tote.PhaseTurn} {
		d := h.RunUntil(h.Dealer, string(p), InPhase(p))
		bets = append(bets, placeEverywhere(h, d)...)
	}
	d := h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	h.CheckBooks(d)
	if d.Result == nil || !d.Revealed || len(d.Board) != 5 || len(d.Burns) != 3 || len(d.Pockets) != 6 {
		t.Fatalf("settled draw incomplete: %+v", d)
	}
	checkSettledBets(h, d, bets)
	checkWallets(h, map[int64]money.Amount{1: money.Tenge(100_000), 2: money.Tenge(100_000), 3: money.Tenge(100_000)}, d.ID)
	_, v, err := verify.Draw(h.Ctx, h.Svc, d.ID)
	if err != nil || !v.CommitmentValid || !v.CardsMatch || !v.PayoutsMatch || len(v.Problems) > 0 {
		t.Fatalf("verify: %+v, %v", v, err)
	}
	checkEventOrder(h, d)
	next := h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 })
	if next.Phase != tote.PhasePreDeal || !next.OpenedAt.Equal(d.SettledAt.Add(5*1e9)) {
		t.Errorf("draw 2 opened %v in %s, want 5 s after %v", next.OpenedAt, next.Phase, d.SettledAt)
	}
}

// checkSettledBets checks every bet was settled as the result says.
func checkSettledBets(h *Harness, d tote.Draw, placed []tote.Bet) {
	h.T.Helper()
	stored, err := h.Env.Store.DrawBets(h.Ctx, d.ID)
	if err != nil {
		h.T.Fatal(err)
	}
	if len(stored) != len(placed) {
		h.T.Fatalf("%d bets stored, %d placed", len(stored), len(placed))
	}
	var gross money.Amount
	for _, p := range d.Result.Pools {
		gross += p.Gross
	}
	var stakes money.Amount
	for _, b := range stored {
		stakes += b.Stake
		if b.Status == tote.BetAccepted || b.SettledAt.IsZero() {
			h.T.Errorf("bet %d not settled: %+v", b.ID, b)
		}
	}
	if stakes != gross {
		h.T.Errorf("stakes %s, pools' gross %s", stakes, gross)
	}
}

// checkWallets checks each user's wallet is their deposit less their
// stakes plus what their bets returned, across every draw so far.
func checkWallets(h *Harness, deposits map[int64]money.Amount, _ int64) {
	h.T.Helper()
	for u, dep := range deposits {
		want := dep
		bets, err := h.Env.Store.Bets(h.Ctx, tote.BetQuery{UserID: ids.UserID(u), Limit: 1 << 20})
		if err != nil {
			h.T.Fatal(err)
		}
		for _, b := range bets {
			want += b.Payout - b.Stake
		}
		if got := h.Balance(ledger.UserWallet(ids.UserID(u))); got != want {
			h.T.Errorf("wallet of user %d holds %s, want %s", u, got, want)
		}
	}
}

// checkEventOrder checks the outbox of one full draw, POOL_UPDATED aside.
func checkEventOrder(h *Harness, d tote.Draw) {
	h.T.Helper()
	var evs []tote.TableEvent
	for _, e := range h.Events() {
		if e.DrawID == d.ID && e.Type != tote.EventPoolUpdated {
			evs = append(evs, e)
		}
	}
	want := "DRAW_OPENED ROUND_OPENED(1) ROUND_CLOSED(1)" +
		" CARDS_DEALT CARDS_DEALT CARDS_DEALT CARDS_DEALT CARDS_DEALT CARDS_DEALT ROUND_OPENED(2) ODDS_UPDATED ROUND_CLOSED(2)" +
		" CARDS_DEALT ROUND_OPENED(3) ODDS_UPDATED ROUND_CLOSED(3)" +
		" CARDS_DEALT ROUND_OPENED(4) ODDS_UPDATED ROUND_CLOSED(4)" +
		" CARDS_DEALT ODDS_UPDATED DRAW_SETTLED"
	if got := types(evs); got != want {
		h.T.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	last := evs[len(evs)-1]
	if resultJSON(h.T, last.Result) != resultJSON(h.T, d.Result) || last.ServerSeed != d.ServerSeed.Hex() {
		h.T.Errorf("DRAW_SETTLED does not carry the stored result and the seed")
	}
	if evs[0].Commitment != cards.FormatCommitment(d.Commitment) || evs[0].Beacons == nil ||
		evs[0].Beacons.Rounds != d.Beacons.Rounds || evs[0].Beacons.Chain != d.Beacons.Chain || evs[0].Beacons.Signatures != [4]string{} {
		h.T.Errorf("DRAW_OPENED does not commit to the seed and the beacon rounds: %+v", evs[0])
	}
	for i, e := range evs[3:9] {
		if e.Position != i+1 || e.Street != tote.StreetPocket || !slices.Equal(e.Cards, d.Result.Pockets[i]) {
			h.T.Errorf("pocket event %d: %+v", i+1, e)
		}
	}
}

func testOutboxSequence(t *testing.T, env Env) {
	h := NewHarness(t, env, 2)
	h.Deposit(1, money.Tenge(10_000))
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	h.MustBet(1, d, parimutuel.MarketWin, "1", money.Tenge(100))
	h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	evs := h.Events()
	for i, e := range evs {
		if e.Seq != int64(i+1) || e.TableID != h.Table.ID {
			t.Fatalf("event %d has seq %d table %d", i, e.Seq, e.TableID)
		}
	}
	tab, err := env.Store.Table(h.Ctx, h.Table.ID)
	if err != nil || tab.LastSeq != int64(len(evs)) {
		t.Fatalf("table last seq %d, %d events (%v)", tab.LastSeq, len(evs), err)
	}
	page, err := env.Store.EventsAfter(h.Ctx, h.Table.ID, 5, 3)
	if err != nil || len(page) != 3 || page[0].Seq != 6 || page[2].Seq != 8 {
		t.Fatalf("EventsAfter(5, 3) = %v, %v", page, err)
	}
	if page[0].Type != evs[5].Type || page[0].At.Unix() != evs[5].At.Unix() {
		t.Errorf("event 6 read back as %+v, stored %+v", page[0], evs[5])
	}
	var pool *tote.PoolView
	for _, e := range evs {
		if e.Type == tote.EventPoolUpdated {
			pool = e.Pool
		}
	}
	if pool == nil || pool.Gross != money.Tenge(100) || pool.Bets != 1 || pool.Selections[0].Implied != 96 {
		t.Errorf("final POOL_UPDATED %+v", pool)
	}
	for _, m := range h.Pub.Messages("table:" + itoa64(h.Table.ID)) {
		e, err := tote.DecodeTableEvent(m)
		if err != nil || e.Seq < 1 || e.Seq > int64(len(evs)) {
			t.Fatalf("published %s: %v", m, err)
		}
	}
	if n := len(h.Pub.Messages("table:" + itoa64(h.Table.ID))); n != len(evs) {
		t.Errorf("%d events published, %d stored", n, len(evs))
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
