package readmodel_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/liveodds"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// foldAll folds events into the view of an empty running table.
func foldAll(tableID int64, evs []tote.TableEvent) readmodel.TableView {
	v := readmodel.TableView{TableID: tableID, Status: tote.TableRunning}
	for _, e := range evs {
		v = v.Apply(e)
	}
	return v
}

// viewJSON is a view's JSON without At (the store keeps the table's update
// time, the fold the last event's).
func viewJSON(t *testing.T, v readmodel.TableView) string {
	t.Helper()
	v.At = time.Time{}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestViewFoldEqualsStore: folding a table's events from the start gives
// exactly the view the read model rebuilds from the store (draw, cards, best
// hands, statuses, odds, every pool with its zero rows, result), at every
// point where the published pools are final: so a client that joins late
// with a snapshot renders what one that watched from the start renders.
func TestViewFoldEqualsStore(t *testing.T) {
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: store, Ledger: led}, 3)
	h.Deposit(7, 10_000*money.KZT)
	h.Deposit(8, 10_000*money.KZT)
	check := func(at string) {
		t.Helper()
		tb, err := store.Table(h.Ctx, h.Table.ID)
		if err != nil {
			t.Fatal(err)
		}
		d, err := store.LatestDraw(h.Ctx, h.Table.ID)
		if err != nil {
			t.Fatal(err)
		}
		totals, err := store.PoolTotals(h.Ctx, d.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readmodel.ViewOf(tb, &d, totals)
		if err != nil {
			t.Fatal(err)
		}
		got := foldAll(h.Table.ID, h.Events())
		if g, w := viewJSON(t, got), viewJSON(t, want); g != w {
			t.Fatalf("%s: the folded view differs from the store's\nfold:  %s\nstore: %s", at, g, w)
		}
		if got.Seq != tb.LastSeq {
			t.Fatalf("%s: fold at seq %d, table at %d", at, got.Seq, tb.LastSeq)
		}
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	check("draw opened")
	h.MustBet(7, d, parimutuel.MarketWin, "1", 100*money.KZT)
	h.MustBet(8, d, parimutuel.MarketCombination, "PAIR", 250*money.KZT)
	h.MustBet(8, d, parimutuel.MarketExpress, "1-2-3", 100*money.KZT)
	d = h.RunUntil(h.Dealer, "POCKET", totetest.InPhase(tote.PhasePocket))
	check("round 1 closed, pockets dealt")
	h.MustBet(7, d, parimutuel.MarketWin, "2", 300*money.KZT)
	d = h.RunUntil(h.Dealer, "FLOP", totetest.InPhase(tote.PhaseFlop))
	check("flop")
	if v := foldAll(h.Table.ID, h.Events()); v.Draw.Hands[0].Best == nil || len(v.Draw.Board) != 3 {
		t.Fatalf("after the flop the view has no best hand or board: %+v", v.Draw)
	}
	h.BetIfOffered(8, d, parimutuel.MarketWin, "3", 100*money.KZT)
	h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	check("settled")
	v := foldAll(h.Table.ID, h.Events())
	wins := 0
	for _, p := range v.Draw.Hands {
		if p.Status == tote.PositionWin {
			wins++
		}
	}
	if wins == 0 || v.Draw.Result == nil || v.Draw.ServerSeed == "" {
		t.Fatalf("settled view: %d winners, result %v, seed %q", wins, v.Draw.Result != nil, v.Draw.ServerSeed)
	}
	h.RunUntil(h.Dealer, "next draw", func(nd tote.Draw) bool { return nd.ID != d.ID })
	check("next draw")
}

// TestApplyIgnoresOldAndForeignEvents: a replayed event (seq at or below
// the view's) changes nothing, and an event of another draw moves only seq.
func TestApplyIgnoresOldAndForeignEvents(t *testing.T) {
	open := tote.TableEvent{Seq: 1, TableID: 1, DrawID: 5, Type: tote.EventDrawOpened, Number: 3, Seats: 2}
	v := readmodel.TableView{TableID: 1}.Apply(open)
	if v.Draw == nil || v.Draw.ID != 5 || len(v.Draw.Hands) != 2 || len(v.Draw.Pools) != 10 {
		t.Fatalf("opened view %+v", v.Draw)
	}
	again := v.Apply(tote.TableEvent{Seq: 1, TableID: 1, DrawID: 6, Type: tote.EventDrawOpened})
	if again.Draw.ID != 5 {
		t.Fatal("a replayed event changed the view")
	}
	other := v.Apply(tote.TableEvent{Seq: 2, TableID: 1, DrawID: 4, Type: tote.EventCardsDealt, Board: []string{"Ah"}})
	if other.Seq != 2 || len(other.Draw.Board) != 0 {
		t.Fatalf("an event of another draw changed it: %+v", other.Draw)
	}
	if len(v.Draw.Board) != 0 || v.Seq != 1 {
		t.Fatal("Apply changed its receiver")
	}
}

// TestOddsAfterTheRiverSayRiver: the odds computed after the river are
// labelled with the street RIVER (issue 11: they said DEALING_RIVER).
func TestOddsAfterTheRiverSayRiver(t *testing.T) {
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: store, Ledger: led}, 2)
	h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	d := h.Draw()
	o, err := (&liveodds.Exact{}).Live(h.Ctx, d.Pockets, d.Board)
	if err != nil {
		t.Fatal(err)
	}
	if o.Street != tote.StreetRiver {
		t.Fatalf("odds after the river: street %q, want RIVER", o.Street)
	}
	for n, want := range map[int]string{0: tote.StreetPocket, 3: tote.StreetFlop, 4: tote.StreetTurn, 5: tote.StreetRiver} {
		o, err := (&liveodds.Exact{}).Live(h.Ctx, d.Pockets, d.Board[:n])
		if err != nil {
			t.Fatal(err)
		}
		if o.Street != want {
			t.Errorf("board of %d: street %q, want %q", n, o.Street, want)
		}
	}
}
