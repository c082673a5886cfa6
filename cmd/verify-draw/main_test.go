package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// settledResult deals one draw with bets on an in-memory table and returns
// its published result.
func settledResult(t *testing.T) tote.DrawResult {
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: store, Ledger: led}, 4)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	for _, sel := range []string{"1", "2", "3", "4"} {
		h.MustBet(1, d, parimutuel.MarketWin, sel, 150*money.KZT)
	}
	h.MustBet(1, d, parimutuel.MarketCombination, "PAIR", 200*money.KZT)
	h.MustBet(1, d, parimutuel.MarketExpress, "1-2-3", 100*money.KZT)
	d = h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	return *d.Result
}

func writeJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "result.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVerifiesPublishedResult(t *testing.T) {
	r := settledResult(t)
	var out bytes.Buffer
	// The result as Draw.resultJson returns it: a JSON string in a response.
	inner, _ := json.Marshal(r)
	path := writeJSON(t, map[string]any{"resultJson": string(inner)})
	// A local chain's draw has its own verdict and exit status (3).
	if err := run([]string{"-result", path}, &out, &out); !errors.Is(err, errLocal) {
		t.Fatalf("a local-chain draw: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := run([]string{"-result", path, "-allow-local"}, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"matches the hash of the server seed, positions and beacon commitment", "beacon chain: LOCAL", "beacon rounds: not compared with what you recorded", "river:   betting round 4 closed", "signature verifies", "position  4:", "pool " + tote.PoolID(r.DrawID, 1, parimutuel.MarketWin), "OK: the draw verifies, on a LOCAL beacon chain"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestDetectsTampering(t *testing.T) {
	for name, tamper := range map[string]func(r *tote.DrawResult){
		"payout":       func(r *tote.DrawResult) { r.Pools[0].Selections[0].Payout += 100 }, // version 2: selection totals
		"commission":   func(r *tote.DrawResult) { r.Pools[0].Commission++ },
		"board":        func(r *tote.DrawResult) { r.Board[0], r.Board[1] = r.Board[1], r.Board[0] },
		"seed":         func(r *tote.DrawResult) { r.ServerSeed = strings.Repeat("ab", 32) },
		"beacon round": func(r *tote.DrawResult) { r.Beacons.Rounds[2]++ },
		"beacon signature": func(r *tote.DrawResult) {
			r.Beacons.Signatures[0], r.Beacons.Signatures[1] = r.Beacons.Signatures[1], r.Beacons.Signatures[0]
		},
		"hand status": func(r *tote.DrawResult) {
			r.Hands[0].Status = map[string]string{"WIN": "LOSS", "LOSS": "WIN"}[r.Hands[0].Status]
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := settledResult(t)
			tamper(&r)
			var out bytes.Buffer
			err := run([]string{"-result", writeJSON(t, r), "-allow-local"}, &out, &out)
			if !errors.Is(err, errMismatch) {
				t.Fatalf("tampered %s verified: %v\n%s", name, err, out.String())
			}
		})
	}
}

// TestSeedsOnly recomputes a version-1 deck from its seeds alone; a
// version-2 draw needs its result, where the beacons are.
func TestSeedsOnly(t *testing.T) {
	r := settledResult(t)
	var out bytes.Buffer
	seed, err := cards.ParseSeed(r.ServerSeed)
	if err != nil {
		t.Fatal(err)
	}
	// A version-1 draw's commitment is SHA-256 of its seed.
	err = run([]string{"-server-seed", r.ServerSeed, "-public-seed", "00ff", "-commitment", cards.FormatCommitment(cards.Commitment(seed)), "-positions", "4"}, &out, &out)
	if err != nil || !strings.Contains(out.String(), "version 1") || !strings.Contains(out.String(), "winners [") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := run([]string{"-positions", "4"}, &out, &out); err == nil || errors.Is(err, errMismatch) {
		t.Fatalf("missing seed accepted: %v", err)
	}
	if err := run([]string{"-server-seed", r.ServerSeed, "-positions", "4"}, &out, &out); err == nil || errors.Is(err, errMismatch) {
		t.Fatalf("missing public seed accepted: %v", err)
	}
}

// TestChecksOneBet: a player checks their own bet of a version-2 result
// (which publishes selection totals): the right payout verifies, any other
// does not, and a selection the pool does not publish is a problem.
func TestChecksOneBet(t *testing.T) {
	r := settledResult(t)
	if r.Version != tote.ResultVersion {
		t.Fatalf("result version %d", r.Version)
	}
	pool := tote.PoolID(r.DrawID, parimutuel.RoundPreDeal, parimutuel.MarketWin)
	winner := fmt.Sprint(r.Winners[0])
	want, refund, ok := verify.BetPayout(r, pool, winner, 150*money.KZT)
	if !ok || refund || want < 150*money.KZT*110/100 {
		t.Fatalf("BetPayout(%s, %s) = %s %v %v", pool, winner, want, refund, ok)
	}
	path := writeJSON(t, r)
	for _, tc := range []struct {
		bet  string
		pass bool
		out  string
	}{
		{fmt.Sprintf("%s,%s,15000,%d", pool, winner, want), true, "as the published figures give"},
		{fmt.Sprintf("%s,%s,15000,%d", pool, winner, want+1), false, "PROBLEM: bet of 150.00"},
		{fmt.Sprintf("%s,9,15000,0", pool), false, "publishes no such selection"},
	} {
		var out bytes.Buffer
		err := run([]string{"-result", path, "-allow-local", "-bet", tc.bet}, &out, &out)
		if (err == nil) != tc.pass || (err != nil && !errors.Is(err, errMismatch)) || !strings.Contains(out.String(), tc.out) {
			t.Errorf("-bet %s: %v\n%s", tc.bet, err, out.String())
		}
	}
	var out bytes.Buffer
	if err := run([]string{"-result", path, "-bet", "x,1"}, &out, &out); err == nil || errors.Is(err, errMismatch) {
		t.Errorf("a malformed -bet was accepted: %v", err)
	}
}

// TestRecordedRoots: the bet roots a player recorded from ROUND_CLOSED
// must match the result's; a re-committed root fails, a malformed one is
// bad input. A new seed with its own commitment is caught by -commitment.
func TestRecordedRoots(t *testing.T) {
	r := settledResult(t)
	path := writeJSON(t, r)
	rec := func(rt tote.DrawResult) string {
		var parts []string
		for _, x := range rt.BetRoots {
			parts = append(parts, fmt.Sprintf("%d:%s:%d:%d", x.Round, x.Root, x.NumBets, x.Stakes))
		}
		return strings.Join(parts, ",")
	}
	var out bytes.Buffer
	if err := run([]string{"-result", path, "-allow-local", "-roots", rec(r)}, &out, &out); err != nil || !strings.Contains(out.String(), "the 4 you recorded match") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	moved := r
	moved.BetRoots = append(moved.BetRoots[:0:0], r.BetRoots...)
	moved.BetRoots[0].NumBets++
	if err := run([]string{"-result", path, "-allow-local", "-roots", rec(moved)}, &out, &out); !errors.Is(err, errMismatch) {
		t.Errorf("a root other than the recorded one verified: %v", err)
	}
	if err := run([]string{"-result", path, "-roots", "1:ABC:1:1"}, &out, &out); err == nil || errors.Is(err, errMismatch) {
		t.Errorf("a malformed -roots was accepted: %v", err)
	}
	if err := run([]string{"-result", path, "-allow-local", "-commitment", strings.Repeat("ab", 32)}, &out, &out); !errors.Is(err, errMismatch) {
		t.Errorf("a commitment other than the recorded one verified: %v", err)
	}
}

// TestCorpus runs the shared tamper corpus (testdata/fairness, issue 26)
// through the command as a player would, passing what they recorded
// (-commitment, -rounds, -roots): each case gets its verdict, "ok" (exit
// 0), "local" (exit 3) or "reject" (exit 1).
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("../../testdata/fairness/*/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("the corpus has %d files (%v)", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c struct {
				Expect        string            `json:"expect"`
				VerifiesAlone bool              `json:"verifiesAlone"`
				Leaves        []json.RawMessage `json:"leaves"`
				Recorded      *struct {
					Commitment string                 `json:"commitment"`
					Rounds     []verify.RecordedRound `json:"rounds"`
					Roots      []struct {
						Round   int    `json:"round"`
						Root    string `json:"root"`
						NumBets int    `json:"numBets"`
						Stakes  int64  `json:"stakes"`
					} `json:"roots"`
					Beacons []struct {
						Round     uint64 `json:"round"`
						Signature string `json:"signature"`
					} `json:"beacons"`
					ClosedRounds *int `json:"closedRounds"`
				} `json:"recorded"`
			}
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatal(err)
			}
			args := []string{"-result", f}
			if c.Leaves != nil {
				var nd bytes.Buffer
				for _, l := range c.Leaves {
					nd.Write(l)
					nd.WriteByte('\n')
				}
				path := filepath.Join(t.TempDir(), "leaves.ndjson")
				if err := os.WriteFile(path, nd.Bytes(), 0o600); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-leaves", path)
			}
			if rec := c.Recorded; rec != nil {
				if rec.Commitment != "" {
					args = append(args, "-commitment", rec.Commitment)
				}
				if len(rec.Rounds) > 0 {
					var parts []string
					for _, r := range rec.Rounds {
						parts = append(parts, fmt.Sprintf("%d@%s", r.Round, r.ClosesAt.Format(time.RFC3339Nano)))
					}
					args = append(args, "-rounds", strings.Join(parts, ","))
				}
				if len(rec.Roots) > 0 {
					var parts []string
					for _, r := range rec.Roots {
						parts = append(parts, fmt.Sprintf("%d:%s:%d:%d", r.Round, r.Root, r.NumBets, r.Stakes))
					}
					args = append(args, "-roots", strings.Join(parts, ","))
				}
				if len(rec.Beacons) > 0 {
					var parts []string
					for _, b := range rec.Beacons {
						parts = append(parts, fmt.Sprintf("%d:%s", b.Round, b.Signature))
					}
					args = append(args, "-beacons", strings.Join(parts, ","))
				}
				if rec.ClosedRounds != nil {
					args = append(args, "-closed-rounds", strconv.Itoa(*rec.ClosedRounds))
				}
			}
			verdict := func(args []string) (string, string) {
				var out bytes.Buffer
				err := run(args, &out, &out)
				switch {
				case err == nil:
					return "ok", out.String()
				case errors.Is(err, errLocal):
					return "local", out.String()
				case errors.Is(err, errMismatch):
					return "reject", out.String()
				}
				return "bad input: " + err.Error(), out.String()
			}
			if got, out := verdict(args); got != c.Expect {
				t.Errorf("verdict %s, want %s\n%s", got, c.Expect, out)
			}
			if c.VerifiesAlone {
				if got, out := verdict([]string{"-result", f}); got != "ok" && got != "local" {
					t.Errorf("without what was recorded: %s, want it to verify\n%s", got, out)
				}
			}
		})
	}
}

// TestRecordedRounds: the rounds and close times a player recorded from
// DRAW_OPENED must be the result's; a moved round or close fails, a
// malformed -rounds is bad input.
func TestRecordedRounds(t *testing.T) {
	r := settledResult(t)
	path := writeJSON(t, r)
	rec := func(b tote.DrawBeacons, withClose bool) string {
		var parts []string
		for i := range 4 {
			p := fmt.Sprint(b.Rounds[i])
			if withClose {
				p += "@" + b.ClosesAt[i].Format(time.RFC3339Nano)
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, ",")
	}
	var out bytes.Buffer
	for _, withClose := range []bool{false, true} {
		out.Reset()
		if err := run([]string{"-result", path, "-allow-local", "-rounds", rec(*r.Beacons, withClose)}, &out, &out); err != nil || !strings.Contains(out.String(), "beacon rounds: the 4 you recorded match") {
			t.Fatalf("%v\n%s", err, out.String())
		}
	}
	moved := *r.Beacons
	moved.Rounds[3]++
	if err := run([]string{"-result", path, "-allow-local", "-rounds", rec(moved, false)}, &out, &out); !errors.Is(err, errMismatch) {
		t.Errorf("a river round other than the recorded one verified: %v", err)
	}
	moved = *r.Beacons
	moved.ClosesAt[3] = moved.ClosesAt[3].Add(time.Second)
	if err := run([]string{"-result", path, "-allow-local", "-rounds", rec(moved, true)}, &out, &out); !errors.Is(err, errMismatch) {
		t.Errorf("a close other than the recorded one verified: %v", err)
	}
	for _, bad := range []string{"1,2,3", "a,b,c,d", "1,2,3,4@yesterday", "0,1,2,3"} {
		if err := run([]string{"-result", path, "-rounds", bad}, &out, &out); err == nil || errors.Is(err, errMismatch) {
			t.Errorf("-rounds %q was accepted: %v", bad, err)
		}
	}
}

// TestFetchRejectsWithheldBeacon: a settled draw republished as a
// beacon-missing void verifies alone, but -fetch asks drand's relays for
// the round the void says was missing, finds it published, and rejects
// the void; a relay that does not have it leaves the verdict as it was.
func TestFetchRejectsWithheldBeacon(t *testing.T) {
	const f = "../../testdata/fairness/tampered/settled-republished-beacon-missing.json"
	raw, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Recorded struct {
			Beacons []struct {
				Round     uint64 `json:"round"`
				Signature string `json:"signature"`
			} `json:"beacons"`
		} `json:"recorded"`
	}
	if err := json.Unmarshal(raw, &c); err != nil || len(c.Recorded.Beacons) != 1 {
		t.Fatalf("the case holds no beacon: %v", err)
	}
	held := c.Recorded.Beacons[0]
	serve := func(has bool) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if has && strings.HasSuffix(r.URL.Path, fmt.Sprintf("/public/%d", held.Round)) {
				fmt.Fprintf(w, `{"round":%d,"signature":%q}`, held.Round, held.Signature)
				return
			}
			http.NotFound(w, r)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	var out bytes.Buffer
	if err := run([]string{"-result", f}, &out, &out); err != nil {
		t.Fatalf("alone, the republished void verifies: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := run([]string{"-result", f, "-fetch", serve(false)}, &out, &out); err != nil {
		t.Fatalf("a relay without the round: %v\n%s", err, out.String())
	}
	out.Reset()
	err = run([]string{"-result", f, "-fetch", serve(false) + "," + serve(true)}, &out, &out)
	if !errors.Is(err, errMismatch) || !strings.Contains(out.String(), "the beacon was withheld, not missing") {
		t.Fatalf("-fetch with a relay that has the round: %v\n%s", err, out.String())
	}
}
