package verify_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// drawOpened is the DRAW_OPENED event of draw id.
func drawOpened(t *testing.T, h *totetest.Harness, id int64) tote.TableEvent {
	t.Helper()
	for _, e := range h.Events() {
		if e.Type == tote.EventDrawOpened && e.DrawID == id {
			return e
		}
	}
	t.Fatalf("no DRAW_OPENED for draw %d", id)
	return tote.TableEvent{}
}

// TestResultBindsWhatPlayersSaw (issue 26): DRAW_OPENED carries the chain
// and the four rounds with their close times and deadlines, exactly as the
// result has them, and its commitment is the hash of the seed, the
// positions and all of them (fair deal 3), not of the seed alone. So
// changing any of them in the result without a new commitment fails; and
// with a new one, the commitment a player recorded no longer matches.
func TestResultBindsWhatPlayersSaw(t *testing.T) {
	h, d := settledDraw(t)
	e := drawOpened(t, h, d.ID)
	res := copyResult(t, *d.Result)
	b := e.Beacons
	if b == nil || b.Version != tote.FairnessTerms || b.Signatures != [4]string{} || b.Terms == nil || *b.Terms != d.Terms() {
		t.Fatalf("DRAW_OPENED beacons %+v", b)
	}
	rb := res.Beacons
	if b.Chain != rb.Chain || b.ClosesAt != rb.ClosesAt || b.Rounds != rb.Rounds || b.Deadlines != rb.Deadlines {
		t.Fatalf("DRAW_OPENED committed %+v, the result publishes %+v", b, rb)
	}
	seed, err := cards.ParseSeed(res.ServerSeed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tote.DrawCommitment(seed, res.Positions, b)
	if err != nil || cards.FormatCommitment(c) != e.Commitment || e.Commitment != res.Commitment {
		t.Fatalf("DRAW_OPENED commitment %s, the result's %s, the hash of what it carries %x (%v)", e.Commitment, res.Commitment, c, err)
	}
	if cards.FormatCommitment(cards.Commitment(seed)) == e.Commitment {
		t.Fatal("the commitment is SHA-256 of the seed alone: it binds no beacon round")
	}
	if res.Version != tote.ResultVersionTerms {
		t.Errorf("result version %d, want %d", res.Version, tote.ResultVersionTerms)
	}
	period := time.Duration(rb.Chain.PeriodMs) * time.Millisecond
	for name, tamper := range map[string]func(r *tote.DrawResult){
		"river round moved": func(r *tote.DrawResult) {
			r.Beacons.ClosesAt[3] = r.Beacons.ClosesAt[3].Add(period)
			r.Beacons.Rounds[3]++
		},
		"deadline moved": func(r *tote.DrawResult) { r.Beacons.Deadlines[1] = r.Beacons.Deadlines[1].Add(time.Second) },
		"chain renamed":  func(r *tote.DrawResult) { r.Beacons.Chain.Name = "quicknet" },
		"positions":      func(r *tote.DrawResult) { r.Positions = 3 },
	} {
		r := copyResult(t, res)
		tamper(&r)
		v := verify.Result(r)
		if v.CommitmentValid || !strings.HasPrefix(strings.Join(v.Problems, "\n"), "commitment: the hash of the server seed, positions, beacon commitment and terms is") {
			t.Errorf("%s: %+v", name, v)
		}
		recommit(t, &r)
		if r.Commitment == e.Commitment {
			t.Errorf("%s: the new commitment equals the recorded one", name)
		}
	}
	rounds := make([]verify.RecordedRound, 4)
	for i := range rounds {
		rounds[i] = verify.RecordedRound{Round: b.Rounds[i], ClosesAt: &b.ClosesAt[i]}
	}
	if p := verify.CheckRecordedRounds(res, rounds); len(p) > 0 {
		t.Fatalf("the recorded rounds: %q", p)
	}
	moved := copyResult(t, res)
	moved.Beacons.ClosesAt[3] = moved.Beacons.ClosesAt[3].Add(period)
	moved.Beacons.Rounds[3]++
	if p := verify.CheckRecordedRounds(moved, rounds); len(p) != 2 {
		t.Errorf("a moved river round and close against the recorded ones: %q", p)
	}
}

// TestEachRoundAPeriodAfterItsClose: every street of a fair-deal-3 draw is
// drawn from a round published at least one full period after its close,
// and the verifier refuses a round that is merely the first after it.
func TestEachRoundAPeriodAfterItsClose(t *testing.T) {
	_, d := settledDraw(t)
	r := copyResult(t, *d.Result)
	b := r.Beacons
	period := time.Duration(b.Chain.PeriodMs) * time.Millisecond
	for i := range 4 {
		at := b.Chain.RoundTime(b.Rounds[i])
		if at.Before(b.ClosesAt[i].Add(period)) || !at.Before(b.ClosesAt[i].Add(2*period)) {
			t.Errorf("street %d: round %d at %s, its round closes %s", i+1, b.Rounds[i], at, b.ClosesAt[i])
		}
	}
	// The river's round as fair deal 2 chose it, if it differs: refused.
	if first := b.Chain.FirstRoundAfter(b.ClosesAt[3]); first != b.Rounds[3] {
		r.Beacons.Rounds[3] = first
		recommit(t, &r)
		if v := verify.Result(r); !strings.Contains(strings.Join(v.Problems, "\n"), "beacon round of the river: committed round") {
			t.Errorf("the first round after the close (not a period after it) verified: %q", v.Problems)
		}
	}
}

// TestEarlyBeaconVoidsAtClose: the pockets' beacon round is already out
// when betting round 1 closes (the server's clock a period behind the
// chain): the draw is voided, BEACON_BEFORE_CLOSE, instead of closing the
// round; every stake comes back, the result verifies, and re-dating or
// relabelling its cause does not. A close that runs late (the round's time
// already passed, as after a stalled dealer) is not voided.
func TestEarlyBeaconVoidsAtClose(t *testing.T) {
	h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	pockets := d.Beacons.Rounds[0]
	h.Beacon()
	h.BeaconGate.Ahead(func(r uint64) bool { return r == pockets })
	h.MustBet(1, d, parimutuel.MarketWin, "1", 500*money.KZT)
	closes := d.Beacons.ClosesAt[0]
	d = h.RunUntil(h.Dealer, "VOID", func(x tote.Draw) bool { return x.Phase.Finished() })
	if d.Phase != tote.PhaseVoid || d.VoidKind != tote.VoidBeaconEarly || len(d.Pockets) != 0 {
		t.Fatalf("draw ended %s %s (%q) with pockets %v", d.Phase, d.VoidKind, d.VoidReason, d.Pockets)
	}
	vd := d.Result.VoidDetail
	if vd == nil || vd.Street != 1 || vd.Round != pockets || vd.Signature == "" || vd.At.Before(closes) || vd.Deadline != nil {
		t.Fatalf("void detail %+v", vd)
	}
	if got := h.Balance(ledger.UserWallet(1)); got != 10_000*money.KZT {
		t.Errorf("wallet holds %s after the void", got)
	}
	h.CheckBooks(d)
	res := copyResult(t, *d.Result)
	if v := verify.Result(res); len(v.Problems) > 0 {
		t.Fatalf("the early-beacon void does not verify: %q", v.Problems)
	}
	if len(res.BetRoots) != 0 || !strings.HasPrefix(res.VoidReason, "beacon early: round") {
		t.Errorf("roots %v, reason %q", res.BetRoots, res.VoidReason)
	}
	for name, tamper := range map[string]func(v *tote.VoidDetail){
		"dated after the round was due": func(v *tote.VoidDetail) { v.At = res.Beacons.Chain.RoundTime(v.Round) },
		"dated before the close":        func(v *tote.VoidDetail) { v.At = closes.Add(-time.Millisecond) },
		"another round":                 func(v *tote.VoidDetail) { v.Round++ },
		"no signature":                  func(v *tote.VoidDetail) { v.Signature = "" },
		"relabelled missing": func(v *tote.VoidDetail) {
			v.Kind, v.Deadline = tote.VoidBeaconMissing, &res.Beacons.Deadlines[0]
		},
	} {
		r := copyResult(t, res)
		detail := *r.VoidDetail
		tamper(&detail)
		r.VoidDetail, r.VoidReason = &detail, detail.Reason()
		if v := verify.Result(r); len(v.Problems) == 0 {
			t.Errorf("%s: verifies", name)
		}
	}
	counts, err := h.Svc.VoidCounts(h.Ctx, h.Table.ID)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range counts {
		found = found || c == (tote.VoidCount{Kind: tote.VoidBeaconEarly, Count: 1})
	}
	if !found {
		t.Errorf("void counts %+v", counts)
	}

	// The next draw: its close runs only after its pockets' round is due
	// (the dealer stalled), so the round being out proves nothing: no void.
	d = h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 })
	h.Clock.Advance(d.Beacons.Chain.RoundTime(d.Beacons.Rounds[0]).Sub(h.Clock.Now()) + time.Millisecond)
	d = h.RunUntil(h.Dealer, "draw 2 dealt", func(x tote.Draw) bool { return x.Phase == tote.PhasePocket || x.Phase.Finished() })
	if d.Phase != tote.PhasePocket {
		t.Fatalf("a late close ended the draw %s (%q)", d.Phase, d.VoidReason)
	}
}

// TestVoidCountsOfEveryKind: one table with a draw voided by each live
// cause (an admin before the deal, a missing beacon, an early one) answers
// the public counts with one of each, in the order of tote.VoidKinds.
func TestVoidCountsOfEveryKind(t *testing.T) {
	h := totetest.NewHarness(t, totetest.MemEnv(t), 3)
	h.Deposit(1, 10_000*money.KZT)
	h.Beacon()
	next := func(n int64) tote.Draw {
		return h.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Number == n && x.Phase == tote.PhasePreDeal })
	}
	finished := func(what string) tote.Draw {
		return h.RunUntil(h.Dealer, what, func(x tote.Draw) bool { return x.Phase.Finished() })
	}
	d := next(1)
	h.MustBet(1, d, parimutuel.MarketWin, "1", 100*money.KZT)
	if _, err := h.Svc.VoidDraw(h.Ctx, 99, d.ID, "camera failure"); err != nil {
		t.Fatal(err)
	}
	d = next(2)
	flop := d.Beacons.Rounds[1]
	h.BeaconGate.Withhold(func(r uint64) bool { return r == flop })
	if d = finished("beacon missing"); d.VoidKind != tote.VoidBeaconMissing {
		t.Fatalf("draw 2 ended %s %s", d.Phase, d.VoidKind)
	}
	h.BeaconGate.Withhold(nil)
	d = next(3)
	pockets := d.Beacons.Rounds[0]
	h.BeaconGate.Ahead(func(r uint64) bool { return r == pockets })
	if d = finished("beacon early"); d.VoidKind != tote.VoidBeaconEarly {
		t.Fatalf("draw 3 ended %s %s", d.Phase, d.VoidKind)
	}
	h.BeaconGate.Ahead(nil)
	// Draw 4 took a bet, and its dealer stalled until the pockets' round
	// was due: its root, published then, could have been written knowing
	// the pockets.
	d = next(4)
	h.MustBet(1, d, parimutuel.MarketWin, "2", 100*money.KZT)
	h.Clock.Advance(d.Beacons.Chain.RoundTime(d.Beacons.Rounds[0]).Sub(h.Clock.Now()))
	if d = finished("root late"); d.VoidKind != tote.VoidRootLate {
		t.Fatalf("draw 4 ended %s %s (%q)", d.Phase, d.VoidKind, d.VoidReason)
	}
	if v := verify.Result(*d.Result); len(v.Problems) > 0 {
		t.Errorf("the late-root void does not verify: %q", v.Problems)
	}
	if got := h.Balance(ledger.UserWallet(1)); got != 10_000*money.KZT {
		t.Errorf("wallet %s after four voids, deposited %s", got, 10_000*money.KZT)
	}
	r := copyResult(t, *d.Result)
	early := *r.VoidDetail
	early.At = d.Beacons.Chain.RoundTime(early.Round).Add(-time.Millisecond)
	r.VoidDetail, r.VoidReason = &early, early.Reason()
	if v := verify.Result(r); len(v.Problems) == 0 {
		t.Error("a late-root void dated before its round was due verifies")
	}
	counts, err := h.Svc.VoidCounts(h.Ctx, h.Table.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []tote.VoidCount{{Kind: tote.VoidAdminBeforeDeal, Count: 1}, {Kind: tote.VoidBeaconMissing, Count: 1}, {Kind: tote.VoidBeaconEarly, Count: 1}, {Kind: tote.VoidRootLate, Count: 1}, {Kind: tote.VoidLegacy, Count: 0}}
	if len(counts) != len(want) {
		t.Fatalf("void counts %+v, want %+v", counts, want)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Errorf("void counts %+v, want %+v", counts, want)
		}
	}
}
