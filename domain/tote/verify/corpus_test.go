package verify_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
	"github.com/pokertote/pokertote/internal/clocktest"
)

var updateCorpus = flag.Bool("update-corpus", false, "regenerate testdata/fairness from fresh genuine draws")

// corpusDir is the shared tamper corpus (issue 26): genuine results and
// tampered ones, each with the verdict every verifier must give. The Go
// verifiers (this test, cmd/verify-draw's TestCorpus) and the browser's
// (web/test/unit/corpus.test.mjs) all run it.
const corpusDir = "../../../testdata/fairness"

// corpusCase is one file of the corpus.
type corpusCase struct {
	Description string `json:"description"`
	// Expect is the verdict: "ok" (it verifies, on quicknet), "local" (it
	// verifies, but on a local chain: its own verdict, never "ok") or
	// "reject".
	Expect string `json:"expect"`
	// VerifiesAlone, for a tampered case: the result on its own verifies
	// (every figure was recomputed); only what the player recorded
	// catches it. A verifier must then give "ok" or "local" without
	// Recorded, and Expect with it.
	VerifiesAlone bool `json:"verifiesAlone,omitempty"`
	// Recorded is what a player recorded while the draw ran (DRAW_OPENED's
	// commitment and rounds, the ROUND_CLOSED bet roots), for a verifier
	// to compare with the result.
	Recorded *corpusRecorded `json:"recorded,omitempty"`
	// Leaves are the draw's published leaves (GET /draws/{id}/leaves),
	// for a verifier to recompute every pool from the bets.
	Leaves []betroot.PublicLeaf `json:"leaves,omitempty"`
	Result json.RawMessage      `json:"result"`
}

type corpusRecorded struct {
	Commitment string                 `json:"commitment,omitempty"`
	Rounds     []verify.RecordedRound `json:"rounds,omitempty"`
	Roots      []betroot.Root         `json:"roots,omitempty"`
	// Beacons are rounds held with their signatures (recorded, or read
	// from drand's public record); ClosedRounds is how many betting rounds
	// the player saw close before they saw the draw voided.
	Beacons      []beacon.Beacon `json:"beacons,omitempty"`
	ClosedRounds *int            `json:"closedRounds,omitempty"`
}

// goVerdict is the Go verifier's verdict on c, with the recorded data or
// without it.
func goVerdict(c corpusCase, recorded bool) (string, []string) {
	var r tote.DrawResult
	if err := json.Unmarshal(c.Result, &r); err != nil {
		return "reject", []string{err.Error()}
	}
	v := verify.Result(r)
	problems := v.Problems
	if c.Leaves != nil && recorded {
		i := 0
		problems = append(problems, verify.CheckLeaves(r, func() (betroot.PublicLeaf, error) {
			if i == len(c.Leaves) {
				return betroot.PublicLeaf{}, io.EOF
			}
			i++
			return c.Leaves[i-1], nil
		})...)
	}
	if rec := c.Recorded; rec != nil && recorded {
		if rec.Commitment != "" && rec.Commitment != r.Commitment {
			problems = append(problems, "commitment: published "+r.Commitment+", recorded "+rec.Commitment)
		}
		if len(rec.Rounds) > 0 {
			problems = append(problems, verify.CheckRecordedRounds(r, rec.Rounds)...)
		}
		problems = append(problems, verify.CheckRecordedRoots(r, rec.Roots)...)
		problems = append(problems, verify.CheckHeldBeacons(r, rec.Beacons)...)
		problems = append(problems, verify.CheckRecordedEnd(r, rec.ClosedRounds)...)
	}
	switch {
	case len(problems) > 0:
		return "reject", problems
	case v.Beacon == "local":
		return "local", nil
	}
	return "ok", nil
}

// readCorpus reads every case of the corpus, by its path under corpusDir.
func readCorpus(t *testing.T) map[string]corpusCase {
	t.Helper()
	out := map[string]corpusCase{}
	for _, dir := range []string{"genuine", "tampered"} {
		files, err := filepath.Glob(filepath.Join(corpusDir, dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c corpusCase
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[dir+"/"+filepath.Base(f)] = c
		}
	}
	return out
}

// TestFairnessCorpus: the Go verifier gives every case of the shared
// corpus its verdict: each genuine result verifies (on quicknet "ok", on
// the local chain "local"), each tampered one is rejected, and a tamper
// that only what the player recorded can catch verifies without it.
// go test ./domain/tote/verify -run TestFairnessCorpus -update-corpus makes the
// corpus again from fresh genuine draws.
func TestFairnessCorpus(t *testing.T) {
	if *updateCorpus {
		writeCorpus(t)
	}
	cases := readCorpus(t)
	tampered := 0
	for name, c := range cases {
		if strings.HasPrefix(name, "tampered/") {
			tampered++
		}
		if strings.HasPrefix(name, "genuine/") && c.Expect == "reject" {
			t.Errorf("%s: a genuine result expected to be rejected", name)
		}
		got, problems := goVerdict(c, true)
		if got != c.Expect {
			t.Errorf("%s (%s): verdict %s, want %s; problems %q", name, c.Description, got, c.Expect, problems)
		}
		if c.VerifiesAlone {
			if alone, problems := goVerdict(c, false); alone == "reject" {
				t.Errorf("%s: meant to verify without what was recorded, yet: %q", name, problems)
			}
		}
	}
	if tampered < 16 {
		t.Errorf("the corpus holds %d tampered results, want at least the 16 of issue 26", tampered)
	}
}

// TestOldFairDealStillVerifies: a result of fair deal 2 (the commitment
// SHA-256 of the seed, each round the first after its close) verifies as
// it did; one of fair deal 3 relabelled as 2 does not.
func TestOldFairDealStillVerifies(t *testing.T) {
	cases := readCorpus(t)
	old := cases["genuine/quicknet-v2-example.json"]
	var r tote.DrawResult
	if err := json.Unmarshal(old.Result, &r); err != nil {
		t.Fatal(err)
	}
	if r.Beacons == nil || r.Beacons.Version != tote.FairnessPerStreet {
		t.Fatalf("the old example is not of fair deal 2: %+v", r.Beacons)
	}
	if v := verify.Result(r); len(v.Problems) > 0 || v.Beacon != "quicknet" {
		t.Fatalf("a fair-deal-2 result: %q", v.Problems)
	}
}

// genuineDraw runs one draw on a fresh harness with bets in every round
// (two on one selection), after prepare, until it is finished or stop
// holds, and returns it with what a player recorded from the events.
func genuineDraw(t *testing.T, prepare func(h *totetest.Harness, d tote.Draw), admin bool) (tote.DrawResult, corpusRecorded, []betroot.PublicLeaf) {
	t.Helper()
	h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
	h.Deposit(1, 10_000*money.KZT)
	h.Deposit(2, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	if prepare != nil {
		prepare(h, d)
	}
	for _, sel := range []string{"1", "2", "3", "4"} {
		h.MustBet(1, d, parimutuel.MarketWin, sel, 150*money.KZT)
	}
	// Two bets on every position: whichever wins was backed twice.
	for _, sel := range []string{"1", "2", "3", "4"} {
		h.MustBet(2, d, parimutuel.MarketWin, sel, 150*money.KZT)
	}
	h.MustBet(1, d, parimutuel.MarketCombination, "PAIR", 200*money.KZT)
	h.MustBet(2, d, parimutuel.MarketCombination, "HIGH_CARD", 120*money.KZT)
	h.MustBet(1, d, parimutuel.MarketExpress, "1-2-3", 100*money.KZT)
	if admin {
		if _, err := h.Svc.VoidDraw(h.Ctx, 99, d.ID, "the table's camera failed"); err != nil {
			t.Fatal(err)
		}
	}
	for _, phase := range []tote.Phase{tote.PhasePocket, tote.PhaseFlop, tote.PhaseTurn} {
		d = h.RunUntil(h.Dealer, string(phase), func(x tote.Draw) bool { return x.Phase == phase || x.Phase.Finished() })
		if d.Phase.Finished() {
			break
		}
		h.BetIfOffered(1, d, parimutuel.MarketWin, "2", 300*money.KZT)
		h.BetIfOffered(2, d, parimutuel.MarketCombination, "PAIR", 100*money.KZT)
	}
	d = h.RunUntil(h.Dealer, "finished", func(x tote.Draw) bool { return x.Phase.Finished() })
	var rec corpusRecorded
	for _, e := range h.Events() {
		if e.DrawID != d.ID {
			continue
		}
		switch {
		case e.Type == tote.EventDrawOpened:
			rec.Commitment = e.Commitment
			for i := range 4 {
				closes := e.Beacons.ClosesAt[i]
				rec.Rounds = append(rec.Rounds, verify.RecordedRound{Round: e.Beacons.Rounds[i], ClosesAt: &closes})
			}
		case e.Type == tote.EventRoundClosed && e.BetRoot != nil:
			rec.Roots = append(rec.Roots, *e.BetRoot)
		case e.Type == tote.EventDrawVoided:
			closed := len(rec.Roots)
			rec.ClosedRounds = &closed
		}
	}
	return copyResult(t, *d.Result), rec, drawLeaves(t, h, d)
}

// drawLeaves are a finished draw's published leaves.
func drawLeaves(t *testing.T, h *totetest.Harness, d tote.Draw) []betroot.PublicLeaf {
	t.Helper()
	out := []betroot.PublicLeaf{}
	if err := h.Svc.Leaves(h.Ctx, d.ID, 0, func(l betroot.PublicLeaf) error { out = append(out, l); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// genuineRootLate is a draw voided ROOT_LATE: round 1 took bets and the
// dealer stalled until the pockets' beacon round was due.
func genuineRootLate(t *testing.T) (tote.DrawResult, corpusRecorded, []betroot.PublicLeaf) {
	t.Helper()
	h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	h.MustBet(1, d, parimutuel.MarketWin, "3", 250*money.KZT)
	h.MustBet(1, d, parimutuel.MarketCombination, "PAIR", 150*money.KZT)
	h.Clock.Advance(d.Beacons.Chain.RoundTime(d.Beacons.Rounds[0]).Sub(h.Clock.Now()))
	d = h.RunUntil(h.Dealer, "finished", func(x tote.Draw) bool { return x.Phase.Finished() })
	if d.VoidKind != tote.VoidRootLate {
		t.Fatalf("the stalled draw ended %s %s", d.Phase, d.VoidKind)
	}
	closed := 0
	rec := corpusRecorded{Commitment: cards.FormatCommitment(d.Commitment), ClosedRounds: &closed}
	for i := range 4 {
		closes := d.Beacons.ClosesAt[i]
		rec.Rounds = append(rec.Rounds, verify.RecordedRound{Round: d.Beacons.Rounds[i], ClosesAt: &closes})
	}
	return copyResult(t, *d.Result), rec, drawLeaves(t, h, d)
}

// frozenCases are kept when the corpus is made again: results of fair
// deals no longer dealt, and tampers written by hand.
var frozenCases = map[string]bool{
	"quicknet-v2-example.json": true, "settled-local-v3.json": true,
	"commission-below-minimum.json": true, "null-result.json": true, "win-selection-beyond-table.json": true, "win-selection-leading-zero.json": true,
}

// writeCorpus makes the corpus: genuine results from fresh draws on the
// local chain, the worked example on quicknet (fair deal 3) and the one
// before it (fair deal 2), and every tamper of issue 26's table.
func writeCorpus(t *testing.T) {
	for _, dir := range []string{"genuine", "tampered"} {
		files, _ := filepath.Glob(filepath.Join(corpusDir, dir, "*.json"))
		for _, f := range files {
			if frozenCases[filepath.Base(f)] {
				continue
			}
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	put := func(path string, c corpusCase, r tote.DrawResult) {
		t.Helper()
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		c.Result = raw
		write(t, path, c)
	}
	settled, settledRec, settledLeaves := genuineDraw(t, nil, false)
	put("genuine/settled-local.json", corpusCase{Description: "a settled draw with bets in every round, on the local chain", Expect: "local", Recorded: &settledRec, Leaves: settledLeaves}, settled)
	admin, adminRec, adminLeaves := genuineDraw(t, nil, true)
	put("genuine/void-admin-before-deal-local.json", corpusCase{Description: "an admin void while betting round 1 was open", Expect: "local", Recorded: &adminRec, Leaves: adminLeaves}, admin)
	missing, missingRec, missingLeaves := genuineDraw(t, func(h *totetest.Harness, d tote.Draw) {
		flop := d.Beacons.Rounds[1]
		h.Beacon()
		h.BeaconGate.Withhold(func(r uint64) bool { return r == flop })
	}, false)
	put("genuine/void-beacon-missing-local.json", corpusCase{Description: "the flop's beacon round never came: voided after its deadline", Expect: "local", Recorded: &missingRec, Leaves: missingLeaves}, missing)
	early, earlyRec, earlyLeaves := genuineDraw(t, func(h *totetest.Harness, d tote.Draw) {
		turn := d.Beacons.Rounds[2]
		h.Beacon()
		h.BeaconGate.Ahead(func(r uint64) bool { return r == turn })
	}, false)
	put("genuine/void-beacon-before-close-local.json", corpusCase{Description: "the turn's beacon round was already out when betting round 3 closed: voided", Expect: "local", Recorded: &earlyRec, Leaves: earlyLeaves}, early)
	example := readExample(t)
	put("genuine/quicknet-example.json", corpusCase{Description: "docs/fairness-example.json: the worked example on real quicknet rounds (fair deal 4)", Expect: "ok"}, example)
	late, lateRec, lateLeaves := genuineRootLate(t)
	put("genuine/void-root-late-local.json", corpusCase{Description: "round 1 took bets and its close ran once the pockets' round was due (a stalled dealer): voided ROOT_LATE", Expect: "local", Recorded: &lateRec, Leaves: lateLeaves}, late)

	tamper := func(name, description string, base tote.DrawResult, rec *corpusRecorded, alone bool, fn func(r *tote.DrawResult)) {
		t.Helper()
		r := copyResult(t, base)
		fn(&r)
		c := corpusCase{Description: description, Expect: "reject", Recorded: rec, VerifiesAlone: alone}
		put("tampered/"+name+".json", c, r)
	}
	resettle := func(r *tote.DrawResult, roots bool) {
		t.Helper()
		if err := verify.Resettle(r, roots); err != nil {
			t.Fatal(err)
		}
	}
	winPool := func(r *tote.DrawResult) *tote.PoolResult {
		for i := range r.Pools {
			if r.Pools[i].Round == parimutuel.RoundPreDeal && r.Pools[i].Market == parimutuel.MarketWin {
				return &r.Pools[i]
			}
		}
		t.Fatal("no round-1 WIN pool")
		return nil
	}
	// phantomBet adds a house bet of 100.00 on the winner to the WIN pool.
	phantomBet := func(r *tote.DrawResult) {
		p := winPool(r)
		for i := range p.Selections {
			if p.Selections[i].Selection == strconv.Itoa(r.Winners[0]) {
				p.Selections[i].NumBets++
				p.Selections[i].Stakes += 100 * money.KZT
			}
		}
	}
	// withLeaves is a tamper caught only by recomputing the pools from the
	// published bets.
	withLeaves := func(name, description string, fn func(r *tote.DrawResult)) {
		t.Helper()
		r := copyResult(t, settled)
		fn(&r)
		put("tampered/"+name+".json", corpusCase{Description: description, Expect: "reject", VerifiesAlone: true, Leaves: settledLeaves}, r)
	}
	withLeaves("stake-moved-between-losers", "150.00 moved from one losing selection of the round-1 WIN pool to another, every figure recomputed, the roots unchanged: caught by the leaves", func(r *tote.DrawResult) {
		p := winPool(r)
		var losers []int
		for i, s := range p.Selections {
			if s.Payout == 0 && !s.Refund {
				losers = append(losers, i)
			}
		}
		if len(losers) < 2 {
			t.Fatalf("the round-1 WIN pool has %d losing selections", len(losers))
		}
		p.Selections[losers[0]].Stakes -= 50 * money.KZT
		p.Selections[losers[1]].Stakes += 50 * money.KZT
		resettle(r, false)
	})
	withLeaves("payout-cut-one-tiyn", "a winning selection of two bets paid one tiyn less, the tiyn kept as breakage, within what its totals allow: caught by the leaves' exact payouts", func(r *tote.DrawResult) {
		p := winPool(r)
		for i := range p.Selections {
			if s := &p.Selections[i]; s.Payout > s.Stakes && s.NumBets >= 2 {
				s.Payout--
				p.Paid--
				p.Categories[0].Paid--
				p.Categories[0].Breakage++
				p.Breakage++
				return
			}
		}
		t.Fatal("no winning selection of two bets")
	})
	tamper("phantom-bet", "a house bet of 100.00 added on the winner, every figure recomputed", settled, nil, false, func(r *tote.DrawResult) {
		phantomBet(r)
		resettle(r, false)
	})
	tamper("phantom-bet-new-roots", "the phantom bet with the bet roots re-committed to match", settled, &corpusRecorded{Roots: settledRec.Roots}, true, func(r *tote.DrawResult) {
		phantomBet(r)
		resettle(r, true)
	})
	tamper("inflated-selection-count", "a selection of 2 bets published as thousands, every figure recomputed", settled, nil, false, func(r *tote.DrawResult) {
		p := winPool(r)
		s := &p.Selections[0] // "1", backed twice
		s.NumBets = int(s.Stakes) / 2
		resettle(r, false)
	})
	tamper("dropped-pool", "the round-1 COMBINATION pool left out, the jackpot chain recomputed", settled, nil, false, func(r *tote.DrawResult) {
		r.Pools = slices.DeleteFunc(r.Pools, func(p tote.PoolResult) bool {
			return p.Round == parimutuel.RoundPreDeal && p.Market == parimutuel.MarketCombination
		})
		resettle(r, false)
	})
	tamper("dropped-selection", "a losing selection left out of the round-1 WIN pool, recomputed", settled, nil, false, func(r *tote.DrawResult) {
		p := winPool(r)
		for i, s := range p.Selections {
			if s.Payout == 0 && !s.Refund && s.Selection != "1" {
				p.Selections = slices.Delete(p.Selections, i, i+1)
				break
			}
		}
		resettle(r, false)
	})
	tamper("void-relabelled", "an admin void relabelled a beacon failure of the pockets", admin, nil, false, func(r *tote.DrawResult) {
		dl := r.Beacons.Deadlines[0]
		v := tote.VoidDetail{Kind: tote.VoidBeaconMissing, At: r.VoidDetail.At, Street: 1, Round: r.Beacons.Rounds[0], Deadline: &dl, Why: "relay down"}
		r.VoidDetail, r.VoidReason = &v, v.Reason()
	})
	tamper("void-empty-reason", "an admin void with its reason emptied", admin, nil, false, func(r *tote.DrawResult) { r.VoidReason = "" })
	tamper("void-early-redated", "an early-beacon void dated after the round was due", early, nil, false, func(r *tote.DrawResult) {
		v := *r.VoidDetail
		v.At = r.Beacons.Chain.RoundTime(v.Round).Add(time.Millisecond)
		r.VoidDetail, r.VoidReason = &v, v.Reason()
	})
	redealRiver := func(r *tote.DrawResult) {
		b := r.Beacons
		period := time.Duration(b.Chain.PeriodMs) * time.Millisecond
		b.ClosesAt[3] = b.ClosesAt[3].Add(period)
		b.Rounds[3] = b.RoundFor(b.ClosesAt[3])
		b.Deadlines[3] = b.Deadlines[3].Add(period)
		if len(r.BetRoots) == 4 && r.BetRoots[3].At != nil {
			at := r.BetRoots[3].At.Add(period)
			r.BetRoots[3].At = &at
		}
		b.Signatures[3] = totetest.LocalBeacon(clocktest.New(totetest.Start)).Sign(b.Rounds[3]).Signature
		redeal(t, r)
		resettle(r, false)
	}
	tamper("redealt-river-commitment", "the river re-dealt on the next round, its close moved a period, everything recomputed and re-committed: caught by the commitment recorded from DRAW_OPENED", settled, &corpusRecorded{Commitment: settledRec.Commitment}, true, redealRiver)
	tamper("redealt-river-rounds", "the same re-dealt river: caught by the rounds and close times recorded from DRAW_OPENED", settled, &corpusRecorded{Rounds: settledRec.Rounds}, true, redealRiver)
	tamper("new-seed-own-commitment", "a new server seed with its own commitment, every street re-dealt and recomputed: caught by the recorded commitment", settled, &corpusRecorded{Commitment: settledRec.Commitment}, true, func(r *tote.DrawResult) {
		for range 50 {
			seed, err := cards.NewServerSeed()
			if err != nil {
				t.Fatal(err)
			}
			try := copyResult(t, *r)
			try.ServerSeed = seed.Hex()
			redeal(t, &try)
			resettle(&try, false)
			if v := verify.Result(try); len(v.Problems) == 0 {
				*r = try
				return
			}
		}
		t.Fatal("no new seed gave a result that verifies on its own")
	})
	// Fair deal 4: the terms, the wait for a beacon, the roots' times, and
	// what a player (or drand's record) holds of a void.
	tamper("terms-commission-restated", "the commission restated from 3 % to 5 % and every pool re-settled, the commitment left", settled, nil, false, func(r *tote.DrawResult) {
		r.Commission = 500
		resettle(r, false)
	})
	tamper("terms-restated-recommitted", "the commission restated to 5 % in the terms too, every pool re-settled and re-committed: caught by the commitment recorded from DRAW_OPENED", settled, &corpusRecorded{Commitment: settledRec.Commitment}, true, func(r *tote.DrawResult) {
		r.Commission, r.Beacons.Terms.Commission = 500, 500
		resettle(r, false)
	})
	tamper("terms-max-stake-raised", "the maximum stake raised in the result alone", settled, nil, false, func(r *tote.DrawResult) { r.MaxStake *= 2 })
	tamper("beacon-wait-shortened", "the quicknet example's beacon deadlines cut to 20 s after each round, re-committed: a void the house could choose", example, nil, false, func(r *tote.DrawResult) {
		for i := range 4 {
			r.Beacons.Deadlines[i] = r.Beacons.Chain.RoundTime(r.Beacons.Rounds[i]).Add(20 * time.Second)
		}
		resettle(r, false)
	})
	tamper("root-published-late", "round 2's bet root dated when the flop's beacon round was due", settled, nil, false, func(r *tote.DrawResult) {
		at := r.Beacons.Chain.RoundTime(r.Beacons.Rounds[1])
		r.BetRoots[1].At = &at
	})
	tamper("void-root-late-redated", "a late-root void dated before its round was due", late, nil, false, func(r *tote.DrawResult) {
		v := *r.VoidDetail
		v.At = r.Beacons.Chain.RoundTime(v.Round).Add(-time.Millisecond)
		r.VoidDetail, r.VoidReason = &v, v.Reason()
	})
	river := beacon.Beacon{Round: example.Beacons.Rounds[3], Signature: example.Beacons.Signatures[3]}
	tamper("settled-republished-beacon-missing", "the settled quicknet example republished as a river BEACON_MISSING void, re-committed: caught by the river's round held from drand's record", example,
		&corpusRecorded{Beacons: []beacon.Beacon{river}}, true, func(r *tote.DrawResult) {
			b := r.Beacons
			dl := b.Deadlines[3]
			v := tote.VoidDetail{Kind: tote.VoidBeaconMissing, At: dl.Add(time.Second), Street: 4, Round: b.Rounds[3], Deadline: &dl, Why: "no relay answered"}
			r.Void, r.VoidDetail, r.VoidReason = true, &v, v.Reason()
			b.Signatures[3] = ""
			r.Board, r.Burns = r.Board[:4], r.Burns[:2]
			r.Hands, r.Winners, r.FlopLeaders, r.TurnLeaders, r.Category = nil, nil, nil, nil, parimutuel.Combination(0)
			r.JackpotAfter = r.JackpotBefore
			resettle(r, false)
		})
	tamper("void-relabelled-forged-root", "an admin void relabelled a pockets beacon void, re-dated past the deadline, with a forged round-1 root: caught by the player who saw the void while round 1 was open", admin,
		&corpusRecorded{Commitment: adminRec.Commitment, ClosedRounds: adminRec.ClosedRounds}, true, func(r *tote.DrawResult) {
			b := r.Beacons
			dl := b.Deadlines[0]
			v := tote.VoidDetail{Kind: tote.VoidBeaconMissing, At: dl.Add(time.Millisecond), Street: 1, Round: b.Rounds[0], Deadline: &dl, Why: "relay down"}
			r.VoidDetail, r.VoidReason = &v, v.Reason()
			root := betroot.Root{Round: 1, NumBets: 0}
			for _, p := range r.Pools {
				if p.Round == parimutuel.RoundPreDeal {
					root.NumBets += p.NumBets
					root.Stakes += int64(p.Gross)
				}
			}
			h := sha256.Sum256([]byte("forged"))
			root.Root = hex.EncodeToString(h[:])
			at := b.ClosesAt[0].Add(5 * time.Millisecond)
			root.At = &at
			r.BetRoots = []betroot.Root{root}
		})
	tamper("hands", "a hand's best five reordered", settled, nil, false, func(r *tote.DrawResult) {
		h := &r.Hands[1]
		h.Cards[0], h.Cards[4] = h.Cards[4], h.Cards[0]
	})
	tamper("descriptions", "a hand's description changed", settled, nil, false, func(r *tote.DrawResult) { r.Hands[2].Description = "Royal flush" })
	tamper("statuses", "a losing hand published as WIN", settled, nil, false, func(r *tote.DrawResult) {
		for i := range r.Hands {
			if r.Hands[i].Status == tote.PositionLoss {
				r.Hands[i].Status = tote.PositionWin
				return
			}
		}
	})
	tamper("winners", "a loser added to the winners", settled, nil, false, func(r *tote.DrawResult) {
		for p := 1; p <= r.Positions; p++ {
			if !slices.Contains(r.Winners, p) {
				r.Winners = append(r.Winners, p)
				slices.Sort(r.Winners)
				return
			}
		}
	})
	tamper("winning-list", "a losing selection added to a pool's winning list", settled, nil, false, func(r *tote.DrawResult) {
		p := winPool(r)
		for _, s := range []string{"1", "2", "3", "4"} {
			if !slices.Contains(p.Winning, s) {
				p.Winning = append(p.Winning, s)
				return
			}
		}
	})
	tamper("category-stakes", "a category's winning stakes inflated", settled, nil, false, func(r *tote.DrawResult) {
		p := winPool(r)
		p.Categories[0].Stakes += 100 * money.KZT
	})
	tamper("unsorted-selections", "two selections of a pool swapped out of ascending order", settled, nil, false, func(r *tote.DrawResult) {
		p := winPool(r)
		p.Selections[0], p.Selections[1] = p.Selections[1], p.Selections[0]
	})
	tamper("upper-case-signature", "a beacon signature in upper-case hex (the same bytes)", example, nil, false, func(r *tote.DrawResult) {
		r.Beacons.Signatures[0] = strings.ToUpper(r.Beacons.Signatures[0])
	})
	tamper("upper-case-seed", "the server seed and commitment in upper-case hex (the same bytes)", example, nil, false, func(r *tote.DrawResult) {
		r.ServerSeed, r.Commitment = strings.ToUpper(r.ServerSeed), strings.ToUpper(r.Commitment)
	})
	tamper("local-name-quicknet-key", `the chain renamed "local", keeping quicknet's hash and key, re-committed`, example, nil, false, func(r *tote.DrawResult) {
		r.Beacons.Chain.Name = "local"
		resettle(r, false)
	})
	localExample := copyResult(t, example)
	func() {
		r := &localExample
		b := r.Beacons
		l := totetest.LocalBeacon(clocktest.New(totetest.Start))
		b.Chain = l.Chain()
		for i := range 4 {
			b.Rounds[i] = b.RoundFor(b.ClosesAt[i])
			b.Signatures[i] = l.Sign(b.Rounds[i]).Signature
		}
		redeal(t, r)
		resettle(r, false)
	}()
	put("tampered/local-chain.json", corpusCase{Description: "the worked example re-dealt on the local chain, everything recomputed: it verifies, but only as a local-chain draw, never \"ok\"", Expect: "local"}, localExample)
	missingVersion := copyResult(t, example)
	raw, err := json.Marshal(missingVersion)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m["beacons"].(map[string]any), "version")
	write(t, "tampered/missing-beacon-version.json", map[string]any{"description": "the beacons' version left out", "expect": "reject", "result": m})
}

// redeal deals r's streets again from its seed and signatures.
func redeal(t *testing.T, r *tote.DrawResult) {
	t.Helper()
	seed, err := cards.ParseSeed(r.ServerSeed)
	if err != nil {
		t.Fatal(err)
	}
	var rands [][32]byte
	for i, sig := range r.Beacons.Signatures {
		if sig == "" {
			break
		}
		rnd, err := beacon.Verify(r.Beacons.Chain, beacon.Beacon{Round: r.Beacons.Rounds[i], Signature: sig})
		if err != nil {
			t.Fatal(err)
		}
		rands = append(rands, rnd)
	}
	deal := cards.DealToteStreets(seed, r.Positions, rands)
	board := deal.Board()
	n := len(rands)
	r.Pockets = nil
	if n >= 1 {
		for _, p := range deal.Pockets {
			r.Pockets = append(r.Pockets, []string{p[0].String(), p[1].String()})
		}
	}
	r.Board, r.Burns = cardList(board[:[]int{0, 0, 3, 4, 5}[n]]), cardList(deal.Burns[:[]int{0, 0, 1, 2, 3}[n]])
}

func cardList(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// readExample reads docs/fairness-example.json.
func readExample(t *testing.T) tote.DrawResult {
	t.Helper()
	raw, err := os.ReadFile("../../../docs/fairness-example.json")
	if err != nil {
		t.Fatal(err)
	}
	var r tote.DrawResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// write writes one corpus file, indented, under corpusDir.
func write(t *testing.T, path string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpusDir, path), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
