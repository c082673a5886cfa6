// Command verify-draw recomputes a totalizator draw from its published
// result alone, with no call to the server (docs/fairness.md): the
// commitment, the beacon chain, every beacon round's number and BLS
// signature, every street's cards, each position's best hand and status,
// the winners and leaders, and every pool's commission, coefficients and
// payouts, so that anyone can check a Pokertote draw without trusting the
// server.
//
//	verify-draw -result result.json [-commitment HEX] [-rounds ROUND[@CLOSESAT],...] [-roots ROUND:ROOT:BETS:STAKES,...] [-bet POOL,SELECTION,STAKE,PAYOUT] [-allow-local]
//	verify-draw -server-seed HEX -public-seed HEX [-commitment HEX] -positions N
//	verify-draw -jackpot run.json [-anchors SEQ:HASH,...]
//
// result.json is the published result: Draw.resultJson from the API (or a
// DRAW_SETTLED event, or any JSON object holding it under "result"). The
// -bet checks one bet of a version-2 result (which publishes each
// selection's bets summed, not every bet): the bet of STAKE tiyn on
// SELECTION in pool POOL must have returned PAYOUT tiyn, floor(stake ×
// coefficient) of each category the selection won in, or the stake when
// refunded. The
// second form recomputes a version-1 draw (one deck from a public seed)
// from its seeds. -commitment, -rounds and -roots take what a player
// recorded while the draw ran (DRAW_OPENED's commitment and its four
// beacon rounds with their close times, the ROUND_CLOSED bet roots): a
// result re-committed or re-dealt after the fact fails against them. The exit status
// is 1 when anything does not match, 2 on bad input, and 3 for a draw that
// verifies but was dealt on a local beacon chain (the server's own, which
// proves nothing to players) unless -allow-local is given. The third form
// (jackpot.go) checks a run of the public jackpot chain against the
// results of its draws.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
	"github.com/pokertote/pokertote/drand"
)

// errMismatch is the outcome of a draw that does not verify.
var errMismatch = errors.New("the draw does NOT verify")

// errLocal is a draw that verifies on a local beacon chain.
var errLocal = errors.New("the draw verifies, but on a LOCAL beacon chain: the server's own, which proves nothing to players (pass -allow-local to accept it)")

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, errMismatch):
		fmt.Fprintln(os.Stderr, "verify-draw:", err)
		os.Exit(1)
	case errors.Is(err, errLocal):
		fmt.Fprintln(os.Stderr, "verify-draw:", err)
		os.Exit(3)
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "verify-draw:", err)
		os.Exit(2)
	}
}

// options is the command line, parsed.
type options struct {
	result                         *tote.DrawResult
	serverSeed, publicSeed, commit string
	positions                      int
	bet                            string
	roots                          []betroot.Root
	rounds                         []verify.RecordedRound
	allowLocal                     bool
	// held are beacon rounds with their signatures: -beacons, and what
	// -fetch read from drand's relays.
	held   []beacon.Beacon
	fetch  string
	closed *int
	// leaves is where the draw's published leaves are: a file of NDJSON,
	// or the server's URL (http(s)://host/draws/ID/leaves).
	leaves string
}

func parseArgs(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("verify-draw", flag.ContinueOnError)
	fs.SetOutput(stderr)
	resultPath := fs.String("result", "", "the published result JSON (file, or - for stdin)")
	var o options
	fs.StringVar(&o.serverSeed, "server-seed", "", "the revealed server seed, 64 hex characters")
	fs.StringVar(&o.publicSeed, "public-seed", "", "the public seed, hex (fixed when round 1 closed)")
	fs.StringVar(&o.commit, "commitment", "", "the commitment published when the draw opened, 64 hex characters")
	fs.IntVar(&o.positions, "positions", 0, "the table's number of positions (2..10)")
	fs.StringVar(&o.bet, "bet", "", "with -result: check your bet, POOL,SELECTION,STAKE,PAYOUT (amounts in tiyn)")
	rounds := fs.String("rounds", "", "with -result: the four beacon rounds you recorded from DRAW_OPENED, street by street, ROUND or ROUND@CLOSESAT (RFC 3339), comma-separated")
	roots := fs.String("roots", "", "with -result: the bet roots you recorded from ROUND_CLOSED, ROUND:ROOT:NUMBETS:STAKES,... (stakes in tiyn)")
	fs.BoolVar(&o.allowLocal, "allow-local", false, "accept a draw dealt on a local beacon chain (exit 0 instead of 3)")
	beacons := fs.String("beacons", "", "with -result: beacon rounds you hold with their signatures, ROUND:SIGNATURE,... (a BEACON_MISSING void of a round held is rejected)")
	closed := fs.Int("closed-rounds", -1, "with -result: you watched the draw from DRAW_OPENED until it was voided, and saw this many betting rounds close")
	fs.StringVar(&o.leaves, "leaves", "", "with -result: the draw's published bets, NDJSON (a file, or the URL https://HOST/draws/ID/leaves): recompute every root and pool from them")
	fs.StringVar(&o.fetch, "fetch", "", "with -result: fetch each beacon round the result is missing from drand's public relays (comma-separated URLs, or 'default' for drand's own), and reject a BEACON_MISSING void of a round drand has published")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if *rounds != "" {
		var err error
		if o.rounds, err = parseRounds(*rounds); err != nil {
			return o, err
		}
	}
	if *roots != "" {
		var err error
		if o.roots, err = parseRoots(*roots); err != nil {
			return o, err
		}
	}
	if *beacons != "" {
		var err error
		if o.held, err = parseBeacons(*beacons); err != nil {
			return o, err
		}
	}
	if *closed >= 0 {
		if *closed > 4 {
			return o, errors.New("-closed-rounds: 0 to 4 betting rounds")
		}
		o.closed = closed
	}
	if *resultPath != "" {
		r, err := readResult(*resultPath)
		if err != nil {
			return o, err
		}
		o.result = &r
		o.serverSeed = or(o.serverSeed, r.ServerSeed)
		o.publicSeed = or(o.publicSeed, r.PublicSeed)
		o.commit = or(o.commit, r.Commitment)
		if o.positions == 0 {
			o.positions = r.Positions
		}
	}
	if o.serverSeed == "" || o.positions == 0 {
		return o, errors.New("give -result, or -server-seed, -public-seed and -positions")
	}
	if o.result == nil && o.publicSeed == "" {
		return o, errors.New("without -result give -public-seed (a version-2 draw needs its result: the beacons are in it)")
	}
	return o, nil
}

// parseRoots reads -roots: ROUND:ROOT:NUMBETS:STAKES, comma-separated.
func parseRoots(s string) ([]betroot.Root, error) {
	var out []betroot.Root
	for _, part := range strings.Split(s, ",") {
		f := strings.Split(part, ":")
		if len(f) != 4 {
			return nil, fmt.Errorf("-roots %q: give ROUND:ROOT:NUMBETS:STAKES", part)
		}
		round, err1 := strconv.Atoi(f[0])
		n, err2 := strconv.Atoi(f[2])
		stakes, err3 := strconv.ParseInt(f[3], 10, 64)
		if _, err := betroot.ParseHash(f[1]); err != nil || err1 != nil || err2 != nil || err3 != nil || round < 1 || round > 4 {
			return nil, fmt.Errorf("-roots %q: ROUND 1..4, ROOT 64 lower-case hex, NUMBETS and STAKES whole numbers", part)
		}
		out = append(out, betroot.Root{Round: round, Root: f[1], NumBets: n, Stakes: stakes})
	}
	return out, nil
}

// checkLeaves reads the published leaves at src (a file or an http(s)
// URL) one at a time and checks res against them; n is how many it read.
func checkLeaves(res tote.DrawResult, src string) (problems []string, n int, err error) {
	var body io.ReadCloser
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		resp, err := http.Get(src)
		if err != nil {
			return nil, 0, fmt.Errorf("-leaves: %w", err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, 0, fmt.Errorf("-leaves: %s answered %s", src, resp.Status)
		}
		body = resp.Body
	} else if body, err = os.Open(src); err != nil {
		return nil, 0, fmt.Errorf("-leaves: %w", err)
	}
	defer body.Close()
	dec := json.NewDecoder(bufio.NewReader(body))
	problems = verify.CheckLeaves(res, func() (betroot.PublicLeaf, error) {
		var l betroot.PublicLeaf
		err := dec.Decode(&l)
		if err == nil {
			n++
		}
		return l, err
	})
	return problems, n, nil
}

// parseBeacons reads -beacons: ROUND:SIGNATURE, comma-separated.
func parseBeacons(s string) ([]beacon.Beacon, error) {
	var out []beacon.Beacon
	for _, part := range strings.Split(s, ",") {
		num, sig, ok := strings.Cut(part, ":")
		r, err := strconv.ParseUint(num, 10, 64)
		if !ok || err != nil || r == 0 || len(sig) != 2*48 {
			return nil, fmt.Errorf("-beacons %q: give ROUND:SIGNATURE, the signature 96 hex digits", part)
		}
		out = append(out, beacon.Beacon{Round: r, Signature: strings.ToLower(sig)})
	}
	return out, nil
}

// fetchMissing reads from drand's relays every round of res's streets that
// the result publishes no signature for (a void's missing and later
// streets): what drand's public record says of them.
func fetchMissing(ctx context.Context, w *printer, relays string, res tote.DrawResult) []beacon.Beacon {
	b := res.Beacons
	if b == nil || !b.Chain.IsQuicknet() {
		w.printf("drand:        not asked (the draw is not on drand's quicknet)")
		return nil
	}
	var urls []string
	if relays != "default" {
		urls = strings.Split(relays, ",")
	}
	src := drand.NewRelays(urls, b.Chain)
	var out []beacon.Beacon
	for s := range 4 {
		if b.Signatures[s] != "" {
			continue
		}
		got, err := src.Beacon(ctx, b.Rounds[s])
		if err != nil {
			w.printf("drand:        round %d of the %s not available: %v", b.Rounds[s], tote.StreetNames[s], err)
			continue
		}
		w.printf("drand:        round %d of the %s is published: %s", b.Rounds[s], tote.StreetNames[s], got.Signature)
		out = append(out, got)
	}
	return out
}

// parseRounds reads -rounds: four ROUND or ROUND@CLOSESAT, comma-separated,
// pockets first.
func parseRounds(s string) ([]verify.RecordedRound, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return nil, fmt.Errorf("-rounds %q: give the four streets' rounds, ROUND or ROUND@CLOSESAT, comma-separated", s)
	}
	out := make([]verify.RecordedRound, 4)
	for i, part := range parts {
		num, closes, hasClose := strings.Cut(part, "@")
		r, err := strconv.ParseUint(num, 10, 64)
		if err != nil || r == 0 {
			return nil, fmt.Errorf("-rounds %q: a round is a whole number from 1", part)
		}
		out[i].Round = r
		if hasClose {
			t, err := time.Parse(time.RFC3339Nano, closes)
			if err != nil {
				return nil, fmt.Errorf("-rounds %q: the close time is RFC 3339 (2026-12-01T19:20:00.500Z): %v", part, err)
			}
			out[i].ClosesAt = &t
		}
	}
	return out, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// readResult reads a DrawResult, bare or under a "result" key at any depth
// of the usual wrappers (an event, a GraphQL response).
func readResult(path string) (tote.DrawResult, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(os.Stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return tote.DrawResult{}, err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return tote.DrawResult{}, fmt.Errorf("%s is not a JSON object: %w", path, err)
	}
	for _, k := range []string{"result", "resultJson"} {
		if inner, ok := probe[k]; ok {
			if string(bytes.TrimSpace(inner)) == "null" {
				// A published null is a verdict, not a bad file: there is
				// no result to believe.
				return tote.DrawResult{}, fmt.Errorf("%w: %s holds a null result: nothing to verify", errMismatch, path)
			}
			var s string
			if json.Unmarshal(inner, &s) == nil { // resultJson is a JSON string
				inner = []byte(s)
			}
			b = inner
		}
	}
	var r tote.DrawResult
	if err := json.Unmarshal(b, &r); err != nil {
		return tote.DrawResult{}, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-jackpot" || args[0] == "--jackpot" || strings.HasPrefix(args[0], "-jackpot=") || strings.HasPrefix(args[0], "--jackpot=")) {
		return runJackpot(args, stdout, stderr)
	}
	o, err := parseArgs(args, stderr)
	if err != nil {
		return err
	}
	seed, err := cards.ParseSeed(o.serverSeed)
	if err != nil {
		return err
	}
	if o.positions < cards.MinPositions || o.positions > cards.MaxPositions {
		return fmt.Errorf("a table has %d to %d positions, not %d", cards.MinPositions, cards.MaxPositions, o.positions)
	}
	w := &printer{w: stdout}
	ok := printCommitment(w, o, seed, o.result)
	switch {
	case o.result != nil && o.result.Beacons != nil && o.publicSeed == "":
		ok = printBeacons(w, *o.result, seed) && ok
	default:
		public, err := hex.DecodeString(o.publicSeed)
		if err != nil {
			return fmt.Errorf("public seed: %w", err)
		}
		w.printf("public seed:  %x (version 1: one deck from the public seed)", public)
		deck := cards.Shuffle(seed, public)
		w.printf("deck:         %s", deck)
		printDeal(w, cards.DealTote(deck, o.positions), 4)
	}
	if o.result != nil {
		ok = printResult(w, *o.result) && ok
		if len(o.rounds) > 0 {
			bad := verify.CheckRecordedRounds(*o.result, o.rounds)
			for _, p := range bad {
				w.printf("PROBLEM: %s", p)
			}
			if len(bad) == 0 {
				w.printf("beacon rounds: the 4 you recorded match the result's")
			}
			ok = len(bad) == 0 && ok
		} else if o.result.Beacons != nil {
			w.printf("beacon rounds: not compared with what you recorded (pass -rounds)")
		}
		held := o.held
		if o.fetch != "" {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			held = append(held, fetchMissing(ctx, w, o.fetch, *o.result)...)
			cancel()
		}
		bad := append(verify.CheckHeldBeacons(*o.result, held), verify.CheckRecordedEnd(*o.result, o.closed)...)
		if o.leaves != "" {
			lp, n, err := checkLeaves(*o.result, o.leaves)
			if err != nil {
				return err
			}
			bad = append(bad, lp...)
			if len(lp) == 0 {
				w.printf("leaves:       %d bets recompute every root and pool", n)
			}
		} else if o.result.Version >= tote.ResultVersionTotals {
			w.printf("leaves:       not read (pass -leaves): the pools are checked from their totals only")
		}
		for _, p := range bad {
			w.printf("PROBLEM: %s", p)
		}
		ok = len(bad) == 0 && ok
		if len(o.roots) > 0 {
			bad := verify.CheckRecordedRoots(*o.result, o.roots)
			for _, p := range bad {
				w.printf("PROBLEM: %s", p)
			}
			if len(bad) == 0 {
				w.printf("bet roots: the %d you recorded match the result's", len(o.roots))
			}
			ok = len(bad) == 0 && ok
		} else if len(o.result.BetRoots) > 0 {
			w.printf("bet roots: not compared with what you recorded (pass -roots)")
		}
		if o.bet != "" {
			betOK, err := checkBet(w, *o.result, o.bet)
			if err != nil {
				return err
			}
			ok = betOK && ok
		}
	}
	if w.err != nil {
		return w.err
	}
	if !ok {
		return errMismatch
	}
	if o.result != nil && o.result.Beacons != nil && !o.result.Beacons.Chain.IsQuicknet() {
		if !o.allowLocal {
			return errLocal
		}
		w.printf("\nOK: the draw verifies, on a LOCAL beacon chain (accepted by -allow-local): it proves nothing to players.")
		return w.err
	}
	w.printf("\nOK: the draw verifies.")
	return w.err
}

// printCommitment prints the seed and its commitment; false when the
// commitment does not match. From fair deal 3 the commitment covers the
// positions and the beacons too (tote.DrawCommitment).
func printCommitment(w *printer, o options, seed cards.Seed, r *tote.DrawResult) bool {
	var b *tote.DrawBeacons
	positions := o.positions
	what := "SHA-256 of the server seed"
	if r != nil && o.publicSeed == "" {
		b, positions = r.Beacons, r.Positions
		if b != nil && b.Version >= tote.FairnessBound {
			what = "the hash of the server seed, positions and beacon commitment"
		}
	}
	c, err := tote.DrawCommitment(seed, positions, b)
	if err != nil {
		w.printf("commitment:   cannot be computed: %v  MISMATCH", err)
		return false
	}
	commitment := cards.FormatCommitment(c)
	w.printf("server seed:  %s", seed.Hex())
	switch {
	case o.commit == "":
		w.printf("commitment:   %s (not checked: pass -commitment)", commitment)
	case o.commit == commitment:
		w.printf("commitment:   %s (matches %s)", commitment, what)
	default:
		w.printf("commitment:   published %s, but %s is %s  MISMATCH", o.commit, what, commitment)
		return false
	}
	return true
}

// printBeacons prints the beacon chain and each street's round, checks
// every signature, and prints the streets they deal; false when a round or
// signature does not check.
func printBeacons(w *printer, r tote.DrawResult, seed cards.Seed) bool {
	b := r.Beacons
	c := b.Chain
	ok := true
	switch err := c.Validate(); {
	case err != nil:
		w.printf("beacon chain: %s %s  INVALID: %v", c.Name, c.Hash, err)
		return false
	case c.IsQuicknet():
		w.printf("beacon chain: drand quicknet %s (genesis %s, every %d ms)", c.Hash, c.RoundTime(1).Format(time.RFC3339), c.PeriodMs)
	default:
		w.printf("beacon chain: LOCAL %s, key %s: the server's own beacon, which proves nothing to players", c.Hash, c.PublicKey)
	}
	var rands [][32]byte
	for i, name := range []string{"pockets", "flop", "turn", "river"} {
		round := b.Rounds[i]
		line := fmt.Sprintf("%-8s betting round %d closed %s; beacon round %d published %s", name+":", i+1,
			b.ClosesAt[i].Format("15:04:05.000"), round, c.RoundTime(round).Format("15:04:05.000"))
		if want := b.RoundFor(b.ClosesAt[i]); want != round {
			ok = false
			line += fmt.Sprintf("  WRONG ROUND (the round the close commits to is %d)", want)
		}
		switch {
		case b.Signatures[i] == "":
			line += ", never fetched (no cards)"
		case len(rands) < i:
		default:
			rnd, err := beacon.Verify(c, beacon.Beacon{Round: round, Signature: b.Signatures[i]})
			if err != nil {
				ok = false
				line += "  SIGNATURE INVALID: " + err.Error()
				break
			}
			rands = append(rands, rnd)
			line += fmt.Sprintf(", signature verifies, randomness %x", rnd)
		}
		w.printf("%s", line)
	}
	if len(rands) > 0 {
		printDeal(w, cards.DealToteStreets(seed, r.Positions, rands), len(rands))
	}
	return ok
}

// printDeal prints the cards of the first streets streets and, for a full
// deal, each position's best hand and the outcome.
func printDeal(w *printer, deal cards.ToteDeal, streets int) {
	board := deal.Board()
	w.printf("burned:       %s", cards.Format(deal.Burns[:[]int{0, 0, 1, 2, 3}[streets]]))
	w.printf("board:        %s", cards.Format(board[:[]int{0, 0, 3, 4, 5}[streets]]))
	for i, p := range deal.Pockets {
		if streets < 4 {
			w.printf("position %2d:  %s", i+1, cards.Format(p[:]))
			continue
		}
		v, five := hand.BestFive([]cards.Card{p[0], p[1], board[0], board[1], board[2], board[3], board[4]})
		w.printf("position %2d:  %s  %-34s %s", i+1, cards.Format(p[:]), v.Describe(), cards.Format(five[:]))
	}
	if streets == 4 {
		out := parimutuel.OutcomeOf(deal)
		w.printf("winners %v with %s; leaders after the flop %v, after the turn %v", out.Winners, out.Category, out.FlopLeaders, out.TurnLeaders)
	}
}

// printResult recomputes every pool of the published result.
func printResult(w *printer, r tote.DrawResult) bool {
	v := verify.Result(r)
	w.printf("\ndraw #%d of table %d (id %d)%s", r.Number, r.TableID, r.DrawID, map[bool]string{true: ", VOID: " + r.VoidReason}[r.Void])
	w.printf("commission %s%%, jackpot %s (rate %s%%), EXPRESS shares %s%%/%s%%, jackpot before %s, after %s",
		r.Commission, map[bool]string{true: "on", false: "off"}[r.JackpotEnabled], r.JackpotRate,
		r.ExpressShares[0], r.ExpressShares[1], r.JackpotBefore, r.JackpotAfter)
	for _, p := range r.Pools {
		if p.NumBets == 0 {
			continue
		}
		w.printf("pool %-16s %3d bets  gross %s  commission %s  jackpot %s  net %s  paid %s  breakage %s  top-up %s%s",
			p.PoolID, p.NumBets, p.Gross, p.Commission, p.JackpotContribution, p.Net, p.Paid, p.Breakage, p.TopUp,
			map[bool]string{true: "  REFUNDED (" + string(p.RefundReason) + ")"}[p.Refunded])
		for _, c := range p.Categories {
			w.printf("    category %d: fund %s (jackpot %s), %d winning bets staking %s, coefficient %s",
				c.Category, c.Fund, c.Jackpot, c.NumBets, c.Stakes, c.Coef)
		}
		for _, s := range p.Selections {
			w.printf("    selection %-8s %3d bets staking %s returned %s", s.Selection, s.NumBets, s.Stakes, s.Payout)
		}
	}
	for _, p := range v.Problems {
		w.printf("PROBLEM: %s", p)
	}
	w.printf("commitment valid: %v, beacons valid: %v (%s), cards match: %v, payouts match: %v",
		v.CommitmentValid, v.BeaconsValid, or(v.Beacon, "version 1"), v.CardsMatch, v.PayoutsMatch)
	return len(v.Problems) == 0
}

// checkBet checks one bet "POOL,SELECTION,STAKE,PAYOUT" against the
// published figures.
func checkBet(w *printer, r tote.DrawResult, spec string) (bool, error) {
	f := strings.Split(spec, ",")
	if len(f) != 4 {
		return false, fmt.Errorf("-bet %q: give POOL,SELECTION,STAKE,PAYOUT", spec)
	}
	stake, err1 := strconv.ParseInt(f[2], 10, 64)
	payout, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || stake < 1 || payout < 0 {
		return false, fmt.Errorf("-bet %q: STAKE and PAYOUT are whole tiyn", spec)
	}
	want, refund, found := verify.BetPayout(r, f[0], f[1], money.Amount(stake))
	if !found {
		w.printf("PROBLEM: bet on %s in pool %s: the result publishes no such selection (or is not version 2)", f[1], f[0])
		return false, nil
	}
	what := map[bool]string{true: " (refunded)"}[refund]
	if money.Amount(payout) != want {
		w.printf("PROBLEM: bet of %s on %s in pool %s returned %s, the published figures give %s%s", money.Amount(stake), f[1], f[0], money.Amount(payout), want, what)
		return false, nil
	}
	w.printf("bet of %s on %s in pool %s: returned %s%s, as the published figures give", money.Amount(stake), f[1], f[0], want, what)
	return true, nil
}

// printer writes lines, keeping the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}
