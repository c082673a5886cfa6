package verify_test

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// settledDraw deals one draw of 4 positions with bets in rounds 1 and 2.
func settledDraw(t *testing.T) (*totetest.Harness, tote.Draw) {
	t.Helper()
	h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	for _, sel := range []string{"1", "2", "3", "4"} {
		h.MustBet(1, d, parimutuel.MarketWin, sel, 150*money.KZT)
	}
	h.MustBet(1, d, parimutuel.MarketCombination, "PAIR", 200*money.KZT)
	h.MustBet(1, d, parimutuel.MarketExpress, "1-2-3", 100*money.KZT)
	d = h.RunUntil(h.Dealer, "POCKET", totetest.InPhase(tote.PhasePocket))
	h.MustBet(1, d, parimutuel.MarketWin, "2", 300*money.KZT)
	d = h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	return h, d
}

// copyResult deep-copies a result through its JSON, as a verifier gets it.
func copyResult(t *testing.T, r tote.DrawResult) tote.DrawResult {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out tote.DrawResult
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSettledDrawVerifiesFromItsJSON(t *testing.T) {
	_, d := settledDraw(t)
	r := copyResult(t, *d.Result)
	v := verify.Result(r)
	if len(v.Problems) > 0 || !v.CommitmentValid || !v.BeaconsValid || !v.CardsMatch || !v.PayoutsMatch {
		t.Fatalf("%+v", v)
	}
	if v.Beacon != "local" {
		t.Errorf("the verifier names the beacon %q, want local", v.Beacon)
	}
	b := r.Beacons
	for i := range 4 {
		// Fair deal 4: the round is at least the gap (a period, and a
		// second) after the close.
		gap := time.Duration(max(b.GapMs, b.Chain.PeriodMs, 1000)) * time.Millisecond
		if b.Signatures[i] == "" || b.Chain.RoundTime(b.Rounds[i]).Before(b.ClosesAt[i].Add(gap)) || b.Version != tote.FairnessTerms {
			t.Errorf("street %d: round %d at %s, close %s, signature %q", i+1, b.Rounds[i], b.Chain.RoundTime(b.Rounds[i]), b.ClosesAt[i], b.Signatures[i])
		}
	}
}

// TestVerifierCatchesEveryTampering: one kind of tampering per case, each
// caught with a problem line naming the broken link.
func TestVerifierCatchesEveryTampering(t *testing.T) {
	_, d := settledDraw(t)
	flip := func(h string, bit int) string {
		b, _ := hex.DecodeString(h)
		b[bit/8] ^= 1 << (bit % 8)
		return hex.EncodeToString(b)
	}
	other, _ := beacon.NewLocal([]byte("another local beacon secret of 32+ bytes"), time.Second, time.Now)
	cases := []struct {
		name   string
		tamper func(r *tote.DrawResult)
		want   string
	}{
		{"commitment", func(r *tote.DrawResult) { r.Commitment = flip(r.Commitment, 3) }, "commitment: the hash of the server seed, positions, beacon commitment and terms is"},
		{"server seed", func(r *tote.DrawResult) { r.ServerSeed = flip(r.ServerSeed, 9) }, "commitment: the hash of the server seed, positions, beacon commitment and terms is"},
		{"chain key", func(r *tote.DrawResult) { r.Beacons.Chain.PublicKey = other.Chain().PublicKey }, "beacon chain: local chain hash is"},
		{"other chain", func(r *tote.DrawResult) { r.Beacons.Chain = other.Chain() }, "beacon signature of the pockets"},
		{"claims quicknet", func(r *tote.DrawResult) { r.Beacons.Chain = beacon.Quicknet }, "beacon schedule: a gap of 1000 ms"},
		{"round number", func(r *tote.DrawResult) { r.Beacons.Rounds[1]++ }, "beacon round of the flop: committed round"},
		{"close deadline", func(r *tote.DrawResult) { r.Beacons.ClosesAt[2] = r.Beacons.ClosesAt[2].Add(5 * time.Second) }, "beacon round of the turn: committed round"},
		{"signature bit", func(r *tote.DrawResult) { r.Beacons.Signatures[3] = flip(r.Beacons.Signatures[3], 77) }, "beacon signature of the river (round"},
		{"signature of another round", func(r *tote.DrawResult) { r.Beacons.Signatures[2] = r.Beacons.Signatures[1] }, "beacon signature of the turn (round"},
		{"signature missing", func(r *tote.DrawResult) { r.Beacons.Signatures[3] = "" }, "board: published"},
		{"signature gap", func(r *tote.DrawResult) { r.Beacons.Signatures[1] = "" }, "beacon signatures: the turn has one but the flop"},
		{"version", func(r *tote.DrawResult) { r.Beacons.Version = 5 }, "beacons: fair deal version 5"},
		{"version downgraded", func(r *tote.DrawResult) { r.Beacons.Version = tote.FairnessPerStreet }, "versions: a result of version 5 with a fair deal of version 2"},
		{"version 3 keeping its terms", func(r *tote.DrawResult) { r.Version, r.Beacons.Version = tote.ResultVersionBound, tote.FairnessBound }, "beacons: a fair deal 3 draw commits to no terms"},
		{"terms dropped", func(r *tote.DrawResult) { r.Beacons.Terms = nil }, "commitment: a fair deal 4 commitment covers the draw's terms"},
		{"commission restated", func(r *tote.DrawResult) { r.Commission = 500 }, "terms: the draw committed to"},
		{"committed commission restated", func(r *tote.DrawResult) { r.Commission, r.Beacons.Terms.Commission = 500, 500 }, "commitment: the hash of the server seed, positions, beacon commitment and terms is"},
		{"express shares restated", func(r *tote.DrawResult) { r.ExpressShares = [2]money.BasisPoints{7000, 3000} }, "terms: the draw committed to"},
		{"jackpot switched off", func(r *tote.DrawResult) { r.JackpotEnabled = !r.JackpotEnabled }, "terms: the draw committed to"},
		{"max stake restated", func(r *tote.DrawResult) { r.MaxStake = r.MinStake - 1 }, "terms: the draw committed to"},
		{"terms no draw can have", func(r *tote.DrawResult) { r.Beacons.Terms.Commission, r.Commission = 200, 200 }, "terms: commission 2.00%"},
		{"pocket", func(r *tote.DrawResult) { r.Pockets[1][0], r.Pockets[1][1] = r.Pockets[1][1], r.Pockets[1][0] }, "pocket of position 2: published"},
		{"pocket from another position", func(r *tote.DrawResult) { r.Pockets[0], r.Pockets[2] = r.Pockets[2], r.Pockets[0] }, "pocket of position 1: published"},
		{"board", func(r *tote.DrawResult) { r.Board[4] = r.Burns[2] }, "board: published"},
		{"burn", func(r *tote.DrawResult) { r.Burns[0], r.Burns[1] = r.Burns[1], r.Burns[0] }, "burned cards: published"},
		{"hand status", func(r *tote.DrawResult) {
			if r.Hands[0].Status == tote.PositionWin {
				r.Hands[0].Status = tote.PositionLoss
			} else {
				r.Hands[0].Status = tote.PositionWin
			}
		}, "hand of position 1: published"},
		{"hand cards", func(r *tote.DrawResult) {
			r.Hands[3].Cards[0], r.Hands[3].Cards[4] = r.Hands[3].Cards[4], r.Hands[3].Cards[0]
		}, "hand of position 4: published"},
		{"hand description", func(r *tote.DrawResult) { r.Hands[2].Description = "Royal flush" }, "hand of position 3: published"},
		{"hands missing", func(r *tote.DrawResult) { r.Hands = r.Hands[:3] }, "hands: 3 published, 4 positions"},
		{"winners", func(r *tote.DrawResult) { r.Winners = []int{5 - r.Winners[0]} }, "outcome: published winners"},
		// A version-2 result publishes each selection's bets summed.
		{"payout", func(r *tote.DrawResult) { r.Pools[0].Selections[0].Payout += 100 }, "pool " + r0(d) + ": selection"},
		{"payout of category 2", func(r *tote.DrawResult) { r.Pools[0].Selections[0].Cat2 += 1 }, "pool " + r0(d) + ": selection"},
		{"bets of a selection", func(r *tote.DrawResult) { r.Pools[0].Selections[0].NumBets++ }, "pool " + r0(d) + ": "},
		{"pool commission", func(r *tote.DrawResult) { r.Pools[0].Commission++ }, "pool " + r0(d) + ": commission published"},
		{"v1 public seed", func(r *tote.DrawResult) { r.Version, r.Beacons, r.PublicSeed = 0, nil, strings.Repeat("00", 32) }, "public seed: published 00"},
		{"v1 without seed", func(r *tote.DrawResult) { r.Version, r.Beacons, r.PublicSeed = 0, nil, "" }, "public seed: cards were dealt but neither beacons nor a public seed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := copyResult(t, *d.Result)
			tc.tamper(&r)
			if !strings.HasPrefix(tc.want, "commitment") {
				// The commitment covers the chain and the rounds (fair deal
				// 3): a tamperer who knows the seed commits again, so that
				// the check named by the case is the one that must catch it.
				recommit(t, &r)
			}
			v := verify.Result(r)
			for _, p := range v.Problems {
				if strings.HasPrefix(p, tc.want) {
					return
				}
			}
			t.Errorf("no problem line starting %q; problems: %q", tc.want, v.Problems)
		})
	}
}

// recommit recomputes r's commitment from its seed, positions and beacons,
// as someone who rewrote them and knows the seed would.
func recommit(t *testing.T, r *tote.DrawResult) {
	t.Helper()
	seed, err := cards.ParseSeed(r.ServerSeed)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := tote.DrawCommitment(seed, r.Positions, r.Beacons); err == nil {
		r.Commitment = cards.FormatCommitment(c)
	}
}

func r0(d tote.Draw) string { return tote.PoolID(d.ID, parimutuel.RoundPreDeal, parimutuel.MarketWin) }

// TestWithheldBeaconIsWaitedFor (SPEC 1.8): the relay stops answering
// after the flop. The draw waits for the turn's round far past the next
// betting round's close (which used to void it) and the table opens no
// other draw; once the relay answers again the turn and river are dealt and
// the draw settles, every pool as it would have, and verifies.
func TestWithheldBeaconIsWaitedFor(t *testing.T) {
	h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	h.Beacon()
	h.MustBet(1, d, parimutuel.MarketWin, "1", 500*money.KZT)
	d = h.RunUntil(h.Dealer, "FLOP", totetest.InPhase(tote.PhaseFlop))
	h.MustBet(1, d, parimutuel.MarketWin, "2", 300*money.KZT)
	h.BeaconGate.Withhold(func(uint64) bool { return true }) // the relay is cut after the flop
	d = h.RunUntil(h.Dealer, "DEALING_TURN", totetest.InPhase(tote.PhaseDealingTurn))
	b := d.Beacons
	if wait := b.Deadlines[2].Sub(b.Chain.RoundTime(b.Rounds[2])); wait != 30*time.Minute {
		t.Fatalf("the turn's round is waited for %s, want BEACON_WAIT's 30 minutes", wait)
	}
	// Well past the river round's committed close and 20 minutes on, the
	// draw still waits, and no other draw is opened.
	stillWaiting := b.ClosesAt[3].Add(20 * time.Minute)
	d = h.RunUntil(h.Dealer, "20 minutes of waiting", func(x tote.Draw) bool { return !h.Clock.Now().Before(stillWaiting) || x.Phase != tote.PhaseDealingTurn })
	if now := h.Clock.Now(); now.Before(stillWaiting) || d.Number != 1 || d.Phase != tote.PhaseDealingTurn || len(d.Board) != 3 || d.Beacons.Signatures[2] != "" {
		t.Fatalf("after 20 minutes without a beacon: draw %d %s, board %v", d.Number, d.Phase, d.Board)
	}
	// The table's viewers are told why it stopped, once a minute.
	var view readmodel.TableView
	delays := 0
	for _, e := range h.Events() {
		view = view.Apply(e)
		if e.Type == tote.EventBeaconDelayed {
			delays++
			if e.Street != tote.StreetTurn || e.BeaconRound != b.Rounds[2] || e.Deadline == nil || !e.Deadline.Equal(b.Deadlines[2]) || e.Reason == "" {
				t.Errorf("BEACON_DELAYED %+v", e)
			}
		}
	}
	if delays < 15 || delays > 30 {
		t.Errorf("%d BEACON_DELAYED events over 20 minutes of waiting, want one a minute", delays)
	}
	if w := view.Draw.BeaconDelay; w == nil || w.Round != b.Rounds[2] || !w.Since.Equal(b.Chain.RoundTime(b.Rounds[2])) {
		t.Errorf("the table's view while waiting: %+v", w)
	}
	h.BeaconGate.Withhold(nil) // the relay is back
	d = h.RunUntil(h.Dealer, "SETTLED", func(x tote.Draw) bool { return x.Phase.Finished() })
	if d.Number != 1 || d.Phase != tote.PhaseSettled || len(d.Board) != 5 {
		t.Fatalf("the draw ended %s (%q), board %v", d.Phase, d.VoidReason, d.Board)
	}
	if v := verify.Result(*d.Result); len(v.Problems) > 0 {
		t.Errorf("the late-dealt draw does not verify: %q", v.Problems)
	}
	h.CheckBooks(d)
	for _, e := range h.Events() {
		view = view.Apply(e)
		if e.Type == tote.EventDrawOpened && e.DrawID != d.ID {
			t.Errorf("draw %d opened while draw %d waited for its beacon", e.DrawID, d.ID)
		}
	}
	if view.Draw.ID == d.ID && view.Draw.BeaconDelay != nil {
		t.Errorf("the settled draw's view still waits: %+v", view.Draw.BeaconDelay)
	}
}

// TestLateBeaconVoidsTheDraw: the flop's beacon round never arrives. The
// dealer keeps asking until the street's deadline, never deals the flop from
// anything else, then voids the draw with every stake refunded and a reason
// naming the round; the next draw opens after the result display.
func TestLateBeaconVoidsTheDraw(t *testing.T) {
	for _, forge := range []bool{false, true} {
		name := map[bool]string{false: "withheld", true: "forged"}[forge]
		t.Run(name, func(t *testing.T) {
			h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
			h.Deposit(1, 10_000*money.KZT)
			d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
			flopRound := d.Beacons.Rounds[1]
			h.Beacon()
			h.BeaconGate.Withhold(func(r uint64) bool { return r == flopRound })
			h.BeaconGate.Forge(forge)
			h.MustBet(1, d, parimutuel.MarketWin, "1", 500*money.KZT)
			d = h.RunUntil(h.Dealer, "POCKET", totetest.InPhase(tote.PhasePocket))
			h.MustBet(1, d, parimutuel.MarketCombination, "PAIR", 300*money.KZT)
			d = h.RunUntil(h.Dealer, "DEALING_FLOP", totetest.InPhase(tote.PhaseDealingFlop))
			deadline := d.Beacons.Deadlines[1]
			d = h.RunUntil(h.Dealer, "VOID", func(x tote.Draw) bool { return x.Phase.Finished() })
			if d.Phase != tote.PhaseVoid || !strings.Contains(d.VoidReason, "beacon failure: round") || len(d.Board) != 0 {
				t.Fatalf("draw ended %s (%q) with board %v", d.Phase, d.VoidReason, d.Board)
			}
			if opened := d.Beacons.ClosesAt[2]; !deadline.After(opened.Add(25 * time.Minute)) {
				t.Errorf("the flop's deadline %s: not BEACON_WAIT after its round (the flop round closes at %s)", deadline, opened)
			}
			if !d.SettledAt.After(deadline) || d.SettledAt.After(deadline.Add(time.Second)) {
				t.Errorf("voided at %s, the deadline was %s", d.SettledAt, deadline)
			}
			if got := h.Balance(ledger.UserWallet(1)); got != 10_000*money.KZT {
				t.Errorf("wallet holds %s after the void, deposited %s", got, 10_000*money.KZT)
			}
			h.CheckBooks(d)
			v := verify.Result(*d.Result)
			if len(v.Problems) > 0 || !v.CardsMatch {
				t.Errorf("void result does not verify: %+v", v)
			}
			if d.Result.Beacons.Signatures[1] != "" || len(d.Result.Pockets) != 4 {
				t.Errorf("void result: signatures %q, pockets %v", d.Result.Beacons.Signatures, d.Result.Pockets)
			}
			if vd := d.Result.VoidDetail; vd == nil || vd.Kind != tote.VoidBeaconMissing || vd.Street != 2 || vd.Round != flopRound || !vd.Deadline.Equal(deadline) {
				t.Errorf("void detail %+v", vd)
			}
			counts, err := h.Svc.VoidCounts(h.Ctx, h.Table.ID)
			if err != nil || counts[1] != (tote.VoidCount{Kind: tote.VoidBeaconMissing, Count: 1}) || counts[0].Count != 0 {
				t.Errorf("void counts %+v %v", counts, err)
			}
			h.BeaconGate.Withhold(nil)
			next := h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 })
			if !next.OpenedAt.Equal(d.SettledAt.Add(5 * time.Second)) {
				t.Errorf("draw 2 opened at %s, want the result display (5 s) after %s", next.OpenedAt, d.SettledAt)
			}
		})
	}
}
