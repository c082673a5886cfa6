package verify

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the worked example in docs/fairness.md and docs/fairness-example.json")

// exampleRounds are real quicknet rounds (domain/beacon's recorded ones):
// the worked example's four streets fall on them.
var exampleRounds = [4]beacon.Beacon{
	{Round: 1000, Signature: "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"},
	{Round: 12040883, Signature: "929906c959032ab363c9f26570d215d66f5c06cb0c44fe508c12bb5839f04ec895bb6868e5b9ff13ab289bdb5266b394"},
	{Round: 32281667, Signature: "b0f5ae301358ff87a9d3dd539ed4a07c0148b1ab4f7b61a8ca43c7e9ca7ca9553e4faae9188deb30b2cd1a7f447e3e5b"},
	{Round: 32285085, Signature: "81dbce51d584d90d618547f4b50391d53ace6f6b9aeb8fb67e1879427af9d0310ac0ec6f519271d9a313ee84b378d416"},
}

// workedExample builds a settled result of 3 positions, no bets, whose
// streets are drawn from real quicknet rounds, and the text that walks
// through its derivation.
func workedExample(t *testing.T) (tote.DrawResult, string) {
	t.Helper()
	seed := cards.Seed(sha256.Sum256([]byte("pokertote worked example")))
	c := beacon.Quicknet
	terms := tote.DrawTerms{Commission: 300, ExpressShares: [2]money.BasisPoints{6000, 4000}, JackpotRate: 1, JackpotEnabled: false,
		MinStake: 100 * money.KZT, MaxStake: 1_000_000 * money.KZT, SuspendAt: 9000}
	b := tote.DrawBeacons{Version: tote.FairnessVersion, Chain: c, GapMs: c.PeriodMs, Terms: &terms}
	var out strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&out, format+"\n", args...) }
	p("server seed  %s", seed.Hex())
	p("positions    3")
	var rands [][32]byte
	var used cards.Set
	for i, rb := range exampleRounds {
		// Each betting round closes a period and a half second before its
		// round: the first round at least one full period after the close.
		b.ClosesAt[i] = c.RoundTime(rb.Round).Add(-time.Duration(c.PeriodMs)*time.Millisecond - 500*time.Millisecond)
		b.Rounds[i] = b.RoundFor(b.ClosesAt[i])
		b.Deadlines[i] = c.RoundTime(rb.Round).Add(30 * time.Minute)
		b.Signatures[i] = rb.Signature
		rnd, err := beacon.Verify(c, rb)
		if err != nil || b.Rounds[i] != rb.Round {
			t.Fatalf("street %d: round %d (want %d): %v", i+1, b.Rounds[i], rb.Round, err)
		}
		rands = append(rands, rnd)
		msg := beacon.Message(rb.Round)
		var r8 [8]byte
		binary.BigEndian.PutUint64(r8[:], rb.Round)
		public := cards.StreetPublic(i+1, rnd)
		mac := hmac.New(sha256.New, seed[:])
		mac.Write(public)
		mac.Write(make([]byte, 8))
		got := cards.DrawStreet(seed, i+1, 3, used, rnd)
		for _, card := range got {
			used = used.With(card)
		}
		p("")
		p("street %d (%s)", i+1, tote.StreetNames[i])
		p("  betting round %d closes  %s = %d ms", i+1, b.ClosesAt[i].Format(tote.TimeLayout), b.ClosesAt[i].UnixMilli())
		p("  beacon round            floor((%d + %d - 1 - %d) / %d) + 2 = %d, published %s", b.ClosesAt[i].UnixMilli(), b.GapMs, c.GenesisUnixMs, c.PeriodMs, b.Rounds[i], c.RoundTime(b.Rounds[i]).Format(tote.TimeLayout))
		p("  deadline                %s = %d ms", b.Deadlines[i].Format(tote.TimeLayout), b.Deadlines[i].UnixMilli())
		p("  message                 SHA-256(%x) = %x", r8, msg)
		p("  signature               %s  (verifies)", rb.Signature)
		p("  randomness              SHA-256(signature) = %x", rnd)
		p("  P_%d                     %x", i+1, public)
		p("  HMAC block 0            %x", mac.Sum(nil))
		p("  cards drawn             %s", cards.Format(got))
	}
	commitment, err := tote.DrawCommitment(seed, 3, &b)
	if err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(commitmentPreimage(seed, 3, b)) != commitment {
		t.Fatal("DrawCommitment is not SHA-256 of the preimage the worked example writes out")
	}
	p("")
	p("commitment   SHA-256 of the preimage (%d bytes):", len(commitmentPreimage(seed, 3, b)))
	for _, line := range preimageLines(seed, 3, b) {
		p("  %s", line)
	}
	p("             = %s", cards.FormatCommitment(commitment))
	deal := cards.DealToteStreets(seed, 3, rands)
	board := deal.Board()
	o := parimutuel.OutcomeOf(deal)
	res := tote.DrawResult{
		Version: tote.ResultVersion, DrawID: 1, TableID: 1, Number: 1, Positions: 3,
		Winners: o.Winners, Category: o.Category, FlopLeaders: o.FlopLeaders, TurnLeaders: o.TurnLeaders,
		Commission: terms.Commission, JackpotRate: terms.JackpotRate, ExpressShares: terms.ExpressShares, JackpotEnabled: terms.JackpotEnabled,
		MinStake: terms.MinStake, MaxStake: terms.MaxStake,
		Pools:      []tote.PoolResult{},
		ServerSeed: seed.Hex(), Commitment: cards.FormatCommitment(commitment), SuspendAt: 9000,
		Beacons: &b, SettledAt: c.RoundTime(exampleRounds[3].Round).Add(2 * time.Second),
	}
	for _, pk := range deal.Pockets {
		res.Pockets = append(res.Pockets, tote.CardStrings(pk[:]))
	}
	res.Board, res.Burns = tote.CardStrings(board[:]), tote.CardStrings(deal.Burns[:])
	res.Hands = tote.HandViews(deal.Pockets, board[:], o.Winners)
	if res.Chances, err = recomputeChances(res); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 4; r++ {
		root, err := betroot.Of(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		at := b.ClosesAt[r-1].Add(20 * time.Millisecond) // the close's transaction publishes it
		root.At = &at
		res.BetRoots = append(res.BetRoots, root)
	}
	p("")
	p("deal         position 1 %s, position 2 %s, position 3 %s", strings.Join(res.Pockets[0], " "), strings.Join(res.Pockets[1], " "), strings.Join(res.Pockets[2], " "))
	p("             burns %s; board %s", strings.Join(res.Burns, " "), strings.Join(res.Board, " "))
	for _, h := range res.Hands {
		p("hand %d       %s (%s): %s  %s", h.Position, h.Description, h.Category, strings.Join(h.Cards, " "), h.Status)
	}
	p("outcome      winners %v with %s; leaders after the flop %v, after the turn %v", o.Winners, o.Category, o.FlopLeaders, o.TurnLeaders)
	return res, out.String()
}

const (
	exampleBegin = "<!-- worked-example:begin (generated by TestWorkedExampleInDocs; go test ./domain/tote/verify -run WorkedExample -update-docs) -->\n"
	exampleEnd   = "<!-- worked-example:end -->"
	exampleJSON  = "../../../docs/fairness-example.json"
	fairnessDoc  = "../../../docs/fairness.md"
)

// TestWorkedExampleInDocs keeps docs/fairness.md's worked example and
// docs/fairness-example.json true: they are what this code computes, and
// the example result verifies.
func TestWorkedExampleInDocs(t *testing.T) {
	res, text := workedExample(t)
	if v := Result(res); len(v.Problems) > 0 || !v.CardsMatch || v.Beacon != "quicknet" {
		t.Fatalf("the worked example does not verify: %+v", v)
	}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	js = append(js, '\n')
	doc, err := os.ReadFile(fairnessDoc)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(exampleBegin)), bytes.Index(doc, []byte(exampleEnd))
	if i < 0 || j < i {
		t.Fatalf("%s has no worked-example markers", fairnessDoc)
	}
	block := "```\n" + text + "```\n"
	if *updateDocs {
		doc = append(append(append([]byte{}, doc[:i+len(exampleBegin)]...), block...), doc[j:]...)
		if err := os.WriteFile(fairnessDoc, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(exampleJSON, js, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(doc[i+len(exampleBegin) : j]); got != block {
		t.Errorf("docs/fairness.md's worked example is stale; run with -update-docs.\n got %q\nwant %q", got, block)
	}
	if got, err := os.ReadFile(exampleJSON); err != nil || !bytes.Equal(got, js) {
		t.Errorf("%s is stale (%v); run with -update-docs", exampleJSON, err)
	}
	// The example JSON, read back as a verifier reads it, verifies too.
	var back tote.DrawResult
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if v := Result(back); len(v.Problems) > 0 {
		t.Errorf("the example JSON does not verify: %v", v.Problems)
	}
}

// commitmentPreimage writes DrawCommitment's preimage out again, piece by
// piece, so the worked example shows it (and checks DrawCommitment).
func commitmentPreimage(seed cards.Seed, positions int, b tote.DrawBeacons) []byte {
	var out []byte
	for _, piece := range preimagePieces(seed, positions, b) {
		out = append(out, piece.bytes...)
	}
	return out
}

type preimagePiece struct {
	name  string
	bytes []byte
}

func preimagePieces(seed cards.Seed, positions int, b tote.DrawBeacons) []preimagePiece {
	u64 := func(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }
	hexb := func(h string) []byte { out, _ := hex.DecodeString(h); return out }
	c := b.Chain
	ps := []preimagePiece{
		{"tag", []byte(tote.CommitmentTagTerms)},
		{"server seed", seed[:]},
		{"positions", []byte{byte(positions)}},
		{"name", append([]byte{byte(len(c.Name))}, c.Name...)},
		{"chain hash", hexb(c.Hash)},
		{"scheme", append([]byte{byte(len(c.Scheme))}, c.Scheme...)},
		{"public key", hexb(c.PublicKey)},
		{"genesisUnixMs", u64(c.GenesisUnixMs)},
		{"periodMs", u64(c.PeriodMs)},
	}
	for i := range 4 {
		ps = append(ps,
			preimagePiece{fmt.Sprintf("closesAt[%d]", i), u64(b.ClosesAt[i].UnixMilli())},
			preimagePiece{fmt.Sprintf("rounds[%d]", i), u64(int64(b.Rounds[i]))},
			preimagePiece{fmt.Sprintf("deadlines[%d]", i), u64(b.Deadlines[i].UnixMilli())})
	}
	t := b.Terms
	enabled := []byte{0}
	if t.JackpotEnabled {
		enabled[0] = 1
	}
	return append(ps,
		preimagePiece{"gapMs", u64(b.GapMs)},
		preimagePiece{"commission", u64(int64(t.Commission))},
		preimagePiece{"expressShare1", u64(int64(t.ExpressShares[0]))},
		preimagePiece{"expressShare2", u64(int64(t.ExpressShares[1]))},
		preimagePiece{"jackpotRate", u64(int64(t.JackpotRate))},
		preimagePiece{"jackpotEnabled", enabled},
		preimagePiece{"minStake", u64(int64(t.MinStake))},
		preimagePiece{"maxStake", u64(int64(t.MaxStake))},
		preimagePiece{"suspendAt", u64(int64(t.SuspendAt))})
}

func preimageLines(seed cards.Seed, positions int, b tote.DrawBeacons) []string {
	var out []string
	for _, p := range preimagePieces(seed, positions, b) {
		out = append(out, fmt.Sprintf("%-14s %x", p.name, p.bytes))
	}
	return out
}
