package settle_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/settle"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

const users = 4

var deposit = money.Tenge(100_000)

// newHarness is a table of n positions on the in-memory twin with users
// 1..4 funded and the jackpot on and holding 5,000.
func newHarness(t totetest.TB, tt *testing.T, n int) *totetest.Harness {
	h := totetest.NewHarness(t, totetest.MemEnv(tt), n)
	for u := int64(1); u <= users; u++ {
		h.Deposit(u, deposit)
	}
	if err := h.Svc.JackpotTopUp(h.Ctx, 1, money.Tenge(5000), "seed"); err != nil {
		t.Fatal(err)
	}
	return h
}

// spread places bets of every market offered in d's open round: WIN on
// every position, COMBINATION on four categories, EXPRESS coupons.
func spread(h *totetest.Harness, d tote.Draw) {
	place := func(u int64, m parimutuel.Market, sel string, stake money.Amount) {
		if m.Offers(d.OpenRound()) {
			h.BetIfOffered(u, d, m, sel, stake)
		}
	}
	for p := 1; p <= d.Positions; p++ {
		place(int64(1+p%users), parimutuel.MarketWin, strconv.Itoa(p), money.Tenge(100)+money.Amount(p)*37)
	}
	for i, c := range []string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND"} {
		place(int64(1+i%users), parimutuel.MarketCombination, c, money.Tenge(150)+money.Amount(i))
	}
	for i, c := range []string{"1-1-1", "1-2-3", "2-2-2", "3-1-2"} {
		place(int64(1+i%users), parimutuel.MarketExpress, c, money.Tenge(120)+money.Amount(i)*11)
	}
}

// dealt plays a draw of h's table through its four betting rounds with
// spread's bets and stops the dealer when the board is complete and the
// settlement is due.
func dealt(h *totetest.Harness) tote.Draw {
	var d tote.Draw
	for _, p := range []tote.Phase{tote.PhasePreDeal, tote.PhasePocket, tote.PhaseFlop, tote.PhaseTurn} {
		d = h.RunUntil(h.Dealer, string(p), totetest.InPhase(p))
		spread(h, d)
	}
	return h.RunUntil(h.Dealer, "SETTLING", totetest.InPhase(tote.PhaseSettling))
}

// run settles (detail nil) or voids draw d in one transaction of h's store
// and appends the step's events, as the dealer does.
func run(h *totetest.Harness, d tote.Draw, detail *tote.VoidDetail) (outbox.Step, error) {
	s := settle.New(h.Clock, 1)
	var st outbox.Step
	err := h.Env.Store.Within(h.Ctx, func(ctx context.Context, tx tote.Tx) error {
		t, err := tx.LockTable(ctx, d.TableID)
		if err != nil {
			return err
		}
		if detail == nil {
			st, err = s.Settle(ctx, tx, d, t)
		} else {
			st, err = s.Void(ctx, tx, d, t, *detail)
		}
		if err != nil {
			return err
		}
		return outbox.Append(ctx, tx, &st)
	})
	return st, err
}

// books is every balance the draw d can touch, by account.
func books(h *totetest.Harness, d tote.Draw) map[ledger.AccountRef]money.Amount {
	accts := []ledger.AccountRef{ledger.CashAccount, ledger.OrganiserAccount, ledger.JackpotAccount}
	for u := int64(1); u <= users; u++ {
		accts = append(accts, ledger.UserWallet(ids.UserID(u)))
	}
	for _, k := range tote.DrawPools() {
		accts = append(accts, ledger.EscrowOf(tote.PoolID(d.ID, k.Round, k.Market)))
	}
	out := map[ledger.AccountRef]money.Amount{}
	for _, a := range accts {
		out[a] = h.Balance(a)
	}
	return out
}

// checkBooks checks the ledger reconciles, every account the draw touched
// sums to zero with the cash account, and the draw's escrows are empty.
func checkBooks(t totetest.TB, h *totetest.Harness, d tote.Draw) {
	t.Helper()
	h.CheckBooks(d)
	var sum money.Amount
	for _, b := range books(h, d) {
		sum += b
	}
	if sum != 0 {
		t.Errorf("the ledger's accounts sum to %s", sum)
	}
}

// reference settles each pool of d again from its stored bets with
// parimutuel: the payout of every bet by id, and the jackpot after.
func reference(t totetest.TB, d tote.Draw, bets []tote.Bet, cfg parimutuel.PoolConfig, jackpot money.Amount, void bool) (map[int64]parimutuel.Payout, money.Amount) {
	t.Helper()
	deal, ok := d.Deal()
	if !ok && !void {
		t.Fatalf("draw %d is not dealt", d.ID)
	}
	outcome := parimutuel.OutcomeOf(deal)
	byPool := map[tote.PoolKey][]tote.Bet{}
	for _, b := range bets {
		byPool[b.PoolKey()] = append(byPool[b.PoolKey()], b)
	}
	out := map[int64]parimutuel.Payout{}
	for _, k := range tote.DrawPools() {
		pb := byPool[k]
		p := parimutuel.Pool{ID: tote.PoolID(d.ID, k.Round, k.Market), Market: k.Market, Round: k.Round, Positions: d.Positions, Config: cfg}
		for _, b := range pb {
			p.Bets = append(p.Bets, parimutuel.PoolBet{ID: strconv.FormatInt(b.ID, 10), Player: b.UserID.String(), Stake: b.Stake, Selection: b.Selection})
		}
		var st parimutuel.PoolSettlement
		var err error
		if void {
			if len(pb) == 0 {
				continue
			}
			st, err = parimutuel.VoidPool(p)
		} else {
			st, err = parimutuel.SettlePool(p, outcome, jackpot)
			jackpot += st.JackpotChange()
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range pb {
			out[b.ID] = st.Payouts[i]
		}
	}
	return out, jackpot
}

// drawBets reads a draw's bets.
func drawBets(t totetest.TB, h *totetest.Harness, id int64) []tote.Bet {
	t.Helper()
	bets, err := h.Env.Store.DrawBets(h.Ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return bets
}

// poolConfig is the configuration d settles with: its pool settings and
// the jackpot flag as the store holds it.
func poolConfig(t totetest.TB, h *totetest.Harness, d tote.Draw) parimutuel.PoolConfig {
	t.Helper()
	on, err := h.Env.Store.JackpotEnabled(h.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg := d.Pool
	cfg.JackpotEnabled = on
	return cfg
}

// notes counts a step's notes by type and checks each BALANCE_CHANGED
// carries the wallet's balance.
func notes(t totetest.TB, h *totetest.Harness, st outbox.Step) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, n := range st.Notes {
		out[n.Event.Type]++
		if n.Event.Type == event.BalanceChanged {
			if b := h.Balance(ledger.UserWallet(n.UserID)); money.Amount(n.Event.Balance) != b {
				t.Errorf("BALANCE_CHANGED of user %d says %d, the wallet holds %s", n.UserID, n.Event.Balance, b)
			}
		}
	}
	return out
}

func TestSettle(t *testing.T) {
	h := newHarness(t, t, 6)
	d := dealt(h)
	bets := drawBets(t, h, d.ID)
	jackpot := h.Balance(ledger.JackpotAccount)
	want, jackpotAfter := reference(t, d, bets, poolConfig(t, h, d), jackpot, false)
	st, err := run(h, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBooks(t, h, d)
	checkBets(t, h, d, len(bets), want)
	if got := h.Balance(ledger.JackpotAccount); got != jackpotAfter {
		t.Errorf("jackpot %s, the reference leaves %s", got, jackpotAfter)
	}
	checkStep(t, h, st, d, tote.EventDrawSettled, tote.PhaseSettled)
	// The players hear of their bets after the commit (Settled), not
	// from a note per bet.
	if n := notes(t, h, st); st.Settled != d.ID || n[event.BetSettled] != 0 {
		t.Errorf("step announces draw %d and %d BET_SETTLED, want %d and 0", st.Settled, n[event.BetSettled], d.ID)
	}
	if st.Draw.Result.JackpotBefore != jackpot || st.Draw.Result.JackpotAfter != jackpotAfter {
		t.Errorf("result jackpot %s -> %s, want %s -> %s", st.Draw.Result.JackpotBefore, st.Draw.Result.JackpotAfter, jackpot, jackpotAfter)
	}
	checkReplay(t, h, d, nil)
}

// A version-1 draw (no beacons, cards from a public seed) is neither
// settled nor voided: its path is gone, and the error says how to finish
// it. Nothing is paid or written.
func TestVersion1DrawRefused(t *testing.T) {
	for _, void := range []bool{false, true} {
		t.Run(fmt.Sprintf("void=%v", void), func(t *testing.T) {
			h := newHarness(t, t, 4)
			d := dealt(h)
			d.Beacons, d.PublicSeed = nil, []byte("a version-1 public seed")
			var detail *tote.VoidDetail
			if void {
				detail = &tote.VoidDetail{Kind: tote.VoidAdminBeforeDeal, At: h.Clock.Now(), Why: "test"}
			}
			jackpot := h.Balance(ledger.JackpotAccount)
			_, err := run(h, d, detail)
			if err == nil || !strings.Contains(err.Error(), "version-1") || !strings.Contains(err.Error(), "release before") {
				t.Fatalf("got %v, want the version-1 refusal", err)
			}
			stored, err := h.Env.Store.Draw(h.Ctx, d.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Phase.Finished() || stored.Result != nil {
				t.Errorf("draw stored %s with result %v after a refusal", stored.Phase, stored.Result)
			}
			for _, b := range drawBets(t, h, d.ID) {
				if b.Status != tote.BetAccepted {
					t.Errorf("bet %d is %s after a refusal", b.ID, b.Status)
				}
			}
			if got := h.Balance(ledger.JackpotAccount); got != jackpot {
				t.Errorf("jackpot %s, was %s", got, jackpot)
			}
		})
	}
}

// checkBets checks every bet of d is settled as want pays it.
func checkBets(t totetest.TB, h *totetest.Harness, d tote.Draw, placed int, want map[int64]parimutuel.Payout) {
	t.Helper()
	bets := drawBets(t, h, d.ID)
	if len(bets) != placed || len(want) != placed || placed == 0 {
		t.Fatalf("%d bets stored, %d placed, %d in the reference", len(bets), placed, len(want))
	}
	won := 0
	for _, b := range bets {
		if b.Status == tote.BetWon {
			won++
		}
		po := want[b.ID]
		if b.Payout != po.Amount || b.Status != tote.SettledStatus(po.Refund, po.Amount) || b.SettledAt.IsZero() {
			t.Errorf("bet %d (%s %s, stake %s): %s %s, the reference pays %s (refund %v)", b.ID, b.Selection.Market, b.Selection, b.Stake, b.Status, b.Payout, po.Amount, po.Refund)
		}
	}
	if won == 0 {
		t.Errorf("no bet of %d won: WIN is backed on every position", len(bets))
	}
}

// checkStep checks the closing step: one event of type typ, appended, with
// the stored result, and the draw stored finished and revealed.
func checkStep(t totetest.TB, h *totetest.Harness, st outbox.Step, d tote.Draw, typ tote.EventType, phase tote.Phase) {
	t.Helper()
	if len(st.Events) != 1 || st.Events[0].Type != typ || st.Events[0].Seq == 0 || st.Events[0].Result == nil {
		t.Fatalf("step events %+v, want one %s appended", st.Events, typ)
	}
	stored, err := h.Env.Store.Draw(h.Ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Phase != phase || !stored.Revealed || stored.Result == nil || stored.Version != st.Draw.Version {
		t.Fatalf("stored draw %s revealed %v version %d, step's version %d", stored.Phase, stored.Revealed, stored.Version, st.Draw.Version)
	}
	if !stored.NextStepAt.Equal(stored.SettledAt.Add(h.Table.Settings.ResultDisplay)) {
		t.Errorf("next draw at %v, settled at %v", stored.NextStepAt, stored.SettledAt)
	}
	if st.Events[0].ServerSeed == "" || st.Events[0].ServerSeed != stored.Result.ServerSeed {
		t.Errorf("%s reveals seed %q, the result %q", typ, st.Events[0].ServerSeed, stored.Result.ServerSeed)
	}
}

// checkReplay settles (detail nil) or voids d again, in a fresh
// transaction from the draw as it was before, and then the stored draw:
// neither may move money or change a bet.
func checkReplay(t totetest.TB, h *totetest.Harness, d tote.Draw, detail *tote.VoidDetail) {
	t.Helper()
	before, bets := books(h, d), drawBets(t, h, d.ID)
	// The streamed path finds the bets already paid, the in-memory one
	// the draw's version moved on: either way the transaction is refused.
	if _, err := run(h, d, detail); err == nil {
		t.Errorf("a replay from the stale draw was accepted")
	}
	stored, err := h.Env.Store.Draw(h.Ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = run(h, stored, detail) // refused or replayed: only its effect counts
	after := books(h, d)
	for a, b := range before {
		if after[a] != b {
			t.Errorf("a replay moved %s from %s to %s", a, b, after[a])
		}
	}
	again := drawBets(t, h, d.ID)
	for i, b := range bets {
		if again[i].Status != b.Status || again[i].Payout != b.Payout {
			t.Errorf("a replay changed bet %d from %s %s to %s %s", b.ID, b.Status, b.Payout, again[i].Status, again[i].Payout)
		}
	}
}

func TestSettleRefusesUndealtDraw(t *testing.T) {
	h := newHarness(t, t, 3)
	for _, p := range []tote.Phase{tote.PhasePreDeal, tote.PhaseFlop} {
		d := h.RunUntil(h.Dealer, string(p), totetest.InPhase(p))
		spread(h, d)
		before := books(h, d)
		_, err := run(h, d, nil)
		if errs.CodeOf(err) != errs.Internal {
			t.Errorf("settling a draw in %s: %v, want Internal", p, err)
		}
		for a, b := range before {
			if got := h.Balance(a); got != b {
				t.Errorf("a refused settlement moved %s from %s to %s", a, b, got)
			}
		}
	}
}
