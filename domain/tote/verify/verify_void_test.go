package verify

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
)

// voidResult is a version-3 void result of a draw on chain c opened at
// open, voided by detail before any beacon was fetched.
func voidResult(t *testing.T, detail tote.VoidDetail, open time.Time) tote.DrawResult {
	t.Helper()
	seed, err := cards.NewServerSeed()
	if err != nil {
		t.Fatal(err)
	}
	plan := tote.PlanBeacons(beacon.Quicknet, open, tote.BeaconSchedule{Rounds: [4]time.Duration{time.Minute, time.Minute, time.Minute, time.Minute}, Card: time.Second, BeaconWait: 30 * time.Minute, Positions: 3})
	terms := tote.DrawTerms{Commission: 300, ExpressShares: [2]money.BasisPoints{6000, 4000}, JackpotRate: 1, JackpotEnabled: true,
		MinStake: 100 * money.KZT, MaxStake: 1000 * money.KZT, SuspendAt: tote.SuspendAtMax}
	plan.Terms = &terms
	commitment, err := tote.DrawCommitment(seed, 3, &plan)
	if err != nil {
		t.Fatal(err)
	}
	return tote.DrawResult{
		Version: tote.ResultVersion, DrawID: 1, TableID: 1, Number: 1, Positions: 3,
		Void: true, VoidReason: detail.Reason(), VoidDetail: &detail,
		Commission: terms.Commission, ExpressShares: terms.ExpressShares, JackpotRate: terms.JackpotRate, MinStake: terms.MinStake, MaxStake: terms.MaxStake,
		JackpotEnabled: true, JackpotBefore: 5000 * money.KZT, JackpotAfter: 5000 * money.KZT,
		ServerSeed: seed.Hex(), Commitment: cards.FormatCommitment(commitment), Beacons: &plan,
		SuspendAt: tote.SuspendAtMax, // every result since version 3 publishes it (finishInTx)
	}
}

// emptyRoot is the root of round r with no bet.
func emptyRoot(r int) betroot.Root {
	root, _ := betroot.Of(r, nil)
	return root
}

// TestVerifyVoidCauses: a version-3 void verifies only with a cause that
// fits the committed times (issue 26): an admin void before round 1's
// close, a missing beacon after its street's deadline. Relabelled,
// re-dated, empty or free-text reasons fail, and so do hands or a moved
// jackpot in a void.
func TestVerifyVoidCauses(t *testing.T) {
	open := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	admin := voidResult(t, tote.VoidDetail{Kind: tote.VoidAdminBeforeDeal, At: open.Add(10 * time.Second), Why: "camera failure"}, open)
	if v := Result(admin); len(v.Problems) > 0 {
		t.Fatalf("an admin void before the close: %v", v.Problems)
	}
	missing := func() tote.DrawResult {
		r := voidResult(t, tote.VoidDetail{}, open)
		dl := r.Beacons.Deadlines[0]
		d := tote.VoidDetail{Kind: tote.VoidBeaconMissing, At: dl.Add(time.Millisecond), Street: 1, Round: r.Beacons.Rounds[0], Deadline: &dl, Why: "relay down"}
		r.VoidDetail, r.VoidReason = &d, d.Reason()
		r.BetRoots = []betroot.Root{emptyRoot(1)} // round 1 closed, with no bet
		at := r.Beacons.ClosesAt[0].Add(5 * time.Millisecond)
		r.BetRoots[0].At = &at
		return r
	}
	if v := Result(missing()); len(v.Problems) > 0 {
		t.Fatalf("a missing pocket beacon: %v", v.Problems)
	}
	tampers := map[string]func(r *tote.DrawResult){
		"admin void after the close": func(r *tote.DrawResult) {
			d := *r.VoidDetail
			d.At = r.Beacons.ClosesAt[0].Add(time.Second)
			r.VoidDetail, r.VoidReason = &d, d.Reason()
		},
		"admin void relabelled a beacon failure": func(r *tote.DrawResult) {
			dl := r.Beacons.Deadlines[0]
			d := tote.VoidDetail{Kind: tote.VoidBeaconMissing, At: r.VoidDetail.At, Street: 1, Round: r.Beacons.Rounds[0], Deadline: &dl, Why: "x"}
			r.VoidDetail, r.VoidReason = &d, d.Reason()
		},
		"reason text relabelled": func(r *tote.DrawResult) {
			r.VoidReason = "beacon failure: round 1 was not available"
		},
		"empty reason": func(r *tote.DrawResult) { r.VoidReason = "" },
		"no cause":     func(r *tote.DrawResult) { r.VoidDetail = nil },
		"legacy kind": func(r *tote.DrawResult) {
			d := *r.VoidDetail
			d.Kind = tote.VoidLegacy
			r.VoidDetail, r.VoidReason = &d, d.Reason()
		},
		"jackpot moved":  func(r *tote.DrawResult) { r.JackpotAfter = 0 },
		"hands in void":  func(r *tote.DrawResult) { r.Hands = []tote.HandView{{Position: 1, Status: tote.PositionLoss}} },
		"winner in void": func(r *tote.DrawResult) { r.Winners = []int{1} },
	}
	for name, tamper := range tampers {
		r := voidResult(t, *admin.VoidDetail, open)
		tamper(&r)
		if v := Result(r); len(v.Problems) == 0 {
			t.Errorf("%s: verifies", name)
		}
	}
	beaconTampers := map[string]func(r *tote.DrawResult){
		"before its deadline": func(r *tote.DrawResult) {
			d := *r.VoidDetail
			d.At = d.Deadline.Add(-time.Second)
			r.VoidDetail, r.VoidReason = &d, d.Reason()
		},
		"another round": func(r *tote.DrawResult) {
			d := *r.VoidDetail
			d.Round++
			r.VoidDetail, r.VoidReason = &d, d.Reason()
		},
		"a later street than fetched": func(r *tote.DrawResult) {
			d := *r.VoidDetail
			d.Street, d.Round, d.Deadline = 4, r.Beacons.Rounds[3], &r.Beacons.Deadlines[3]
			d.At = d.Deadline.Add(time.Second)
			r.VoidDetail, r.VoidReason = &d, d.Reason()
		},
	}
	for name, tamper := range beaconTampers {
		r := missing()
		tamper(&r)
		if v := Result(r); len(v.Problems) == 0 {
			t.Errorf("missing beacon %s: verifies", name)
		}
	}
}

// TestLegacyVoidAfterRiverVerifies: a void published before version 3
// after the river (its settler filled every hand, each LOSS, and no
// winner) verifies; the project's own verifier used to reject it.
func TestLegacyVoidAfterRiverVerifies(t *testing.T) {
	r := corpusResult(t, "genuine/quicknet-v2-example.json")
	r.Void, r.VoidReason = true, "dealer failure: settlement failed"
	r.Winners, r.FlopLeaders, r.TurnLeaders = nil, nil, nil
	for i := range r.Hands {
		r.Hands[i].Status = tote.PositionLoss
	}
	if v := Result(r); len(v.Problems) > 0 || !v.CardsMatch {
		t.Fatalf("a legacy void after the river: %v", v.Problems)
	}
	r.Hands[0].Description = "Royal flush"
	if v := Result(r); len(v.Problems) == 0 || !strings.Contains(strings.Join(v.Problems, ";"), "hands") {
		t.Errorf("a tampered hand in a legacy void verifies: %v", v.Problems)
	}
}

// corpusResult reads the result of one case of the shared corpus
// (testdata/fairness, corpus_test.go).
func corpusResult(t *testing.T, name string) tote.DrawResult {
	t.Helper()
	raw, err := os.ReadFile("../../../testdata/fairness/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Result tote.DrawResult `json:"result"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c.Result
}
