package app_test

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/glebarez/go-sqlite"  // database/sql driver "sqlite", to peek at the server's database
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// handFields is every field of a HoldemHand the tests look at.
const handFields = `id phase turn decisionDeadline board dealerCards dealerQualifies
	dealerHand { category description cards }
	boxes { index ante bonus bet decision timedOut cards outcome anteReturn betReturn bonusReturn
		hand { category description cards } bonusHand { category description cards } }
	shuffle { commitment publicSeed serverSeed } cut totalStake totalReturn net createdAt settledAt`

const (
	startMutation  = `mutation($in: HoldemStartInput!) { holdemStart(input: $in) { ` + handFields + ` } }`
	decideMutation = `mutation($in: HoldemDecideInput!) { holdemDecide(input: $in) { ` + handFields + ` } }`
	handQuery      = `query($id: ID!) { holdemHand(id: $id) { ` + handFields + ` } }`
)

type apiHandInfo struct {
	Category    string
	Description string
	Cards       []string
}

type apiBox struct {
	Index                              int
	Ante, Bonus, Bet                   string
	Decision                           *string
	TimedOut                           bool
	Cards                              []string
	Outcome                            *string
	AnteReturn, BetReturn, BonusReturn *string
	Hand, BonusHand                    *apiHandInfo
}

type apiHand struct {
	ID               string
	Phase            string
	Turn             *int
	DecisionDeadline *time.Time
	Board            []string
	DealerCards      []string
	DealerQualifies  *bool
	DealerHand       *apiHandInfo
	Boxes            []apiBox
	Shuffle          struct {
		Commitment             string
		PublicSeed, ServerSeed *string
	}
	Cut              *string
	TotalStake       string
	TotalReturn, Net *string
	CreatedAt        time.Time
	SettledAt        *time.Time
}

// holdemWorld is a server under test plus a direct read-only look at its
// database, which the tests use only to learn a pending server seed (so that
// they can choose a cut that deals the cards they need) and the house bank.
type holdemWorld struct {
	b          backend
	sqlitePath string
	c          *gqltest.Client
	raw        *sql.DB
}

func newHoldemWorld(t *testing.T, b backend, tweak func(*app.Config)) *holdemWorld {
	t.Helper()
	w := &holdemWorld{b: b, sqlitePath: filepath.Join(t.TempDir(), "holdem.db")}
	_, w.c = startServer(t, b, func(c *app.Config) {
		c.SQLitePath = w.sqlitePath
		if tweak != nil {
			tweak(c)
		}
	})
	w.openRaw(t)
	return w
}

func (w *holdemWorld) openRaw(t *testing.T) {
	t.Helper()
	var err error
	if w.b.databaseURL != "" {
		w.raw, err = sql.Open("pgx", w.b.databaseURL)
	} else {
		w.raw, err = sql.Open("sqlite", "file:"+w.sqlitePath+"?_pragma=busy_timeout(10000)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.raw.Close() })
}

// queryRow runs a one-parameter query written with "?" on either database.
func (w *holdemWorld) queryRow(t *testing.T, q string, arg any, dst any) bool {
	t.Helper()
	if w.b.databaseURL != "" {
		q = strings.Replace(q, "?", "$1", 1)
	}
	err := w.raw.QueryRowContext(context.Background(), q, arg).Scan(dst)
	if err == sql.ErrNoRows {
		return false
	}
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return true
}

// house is the house bank's balance.
func (w *holdemWorld) house(t *testing.T) money.Amount {
	t.Helper()
	var b int64
	w.queryRow(t, "SELECT balance FROM ledger_accounts WHERE kind = ?", "HOUSE", &b)
	return money.Amount(b)
}

// pendingSeed peeks at the secret seed behind the player's holdemCommit.
func (w *holdemWorld) pendingSeed(t *testing.T, p player) cards.Seed {
	t.Helper()
	var s string
	if !w.queryRow(t, "SELECT server_seed FROM holdem_pending_seeds WHERE user_id = ?", userID(t, p), &s) {
		t.Fatal("no pending seed")
	}
	seed, err := cards.ParseSeed(s)
	if err != nil {
		t.Fatal(err)
	}
	return seed
}

func userID(t *testing.T, p player) int64 {
	t.Helper()
	n, err := strconv.ParseInt(p.ID, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func amount(t *testing.T, s string) money.Amount {
	t.Helper()
	a, err := money.ParseAmount(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func wallet(t *testing.T, p player) money.Amount {
	t.Helper()
	return amount(t, p.balance(t))
}

// ledgerState is the player's wallet and the house bank at one moment.
type ledgerState struct{ wallet, house money.Amount }

func (w *holdemWorld) snapshot(t *testing.T, p player) ledgerState {
	t.Helper()
	return ledgerState{wallet(t, p), w.house(t)}
}

// wantMoved checks that the player's wallet changed by net since before and
// the house bank by the opposite, to the tiyn.
func (w *holdemWorld) wantMoved(t *testing.T, p player, before ledgerState, net money.Amount) {
	t.Helper()
	now := w.snapshot(t, p)
	if now.wallet-before.wallet != net || now.house-before.house != -net {
		t.Fatalf("wallet %s → %s and house %s → %s, want the wallet to change by %s and the house by %s",
			before.wallet, now.wallet, before.house, now.house, net, -net)
	}
}

type boxIn struct{ ante, bonus string }

func startInput(boxes []boxIn, cut, commitment, key string) map[string]any {
	var bs []map[string]any
	for _, b := range boxes {
		m := map[string]any{"ante": b.ante}
		if b.bonus != "" {
			m["bonus"] = b.bonus
		}
		bs = append(bs, m)
	}
	if cut == "" {
		cut = "a test cut" // the server refuses an empty cut (CUT_REQUIRED)
	}
	in := map[string]any{"boxes": bs, "idempotencyKey": key, "cut": cut}
	if commitment != "" {
		in["commitment"] = commitment
	}
	return map[string]any{"in": in}
}

func stakesOf(t *testing.T, boxes []boxIn) []holdem.Stake {
	t.Helper()
	var out []holdem.Stake
	for _, b := range boxes {
		s := holdem.Stake{Ante: amount(t, b.ante)}
		if b.bonus != "" {
			s.Bonus = amount(t, b.bonus)
		}
		out = append(out, s)
	}
	return out
}

// withCommit adds the player's shuffle commitment to start's variables
// when they have none (every hand starts from a seed committed before the
// cut), and returns them.
func withCommit(t *testing.T, p player, vars map[string]any) map[string]any {
	t.Helper()
	in := vars["in"].(map[string]any)
	if _, ok := in["commitment"]; !ok {
		var c struct{ HoldemCommit struct{ Commitment string } }
		p.Client.MustDo(t, `mutation { holdemCommit { commitment } }`, nil, &c)
		in["commitment"] = c.HoldemCommit.Commitment
	}
	return vars
}

func start(t *testing.T, p player, vars map[string]any) apiHand {
	t.Helper()
	withCommit(t, p, vars)
	var out struct{ HoldemStart apiHand }
	p.Client.MustDo(t, startMutation, vars, &out)
	return out.HoldemStart
}

func decide(t *testing.T, p player, handID string, box int, d, key string) apiHand {
	t.Helper()
	var out struct{ HoldemDecide apiHand }
	p.Client.MustDo(t, decideMutation, decideVars(handID, box, d, key), &out)
	return out.HoldemDecide
}

func decideVars(handID string, box int, d, key string) map[string]any {
	return map[string]any{"in": map[string]any{"handId": handID, "box": box, "decision": d, "idempotencyKey": key}}
}

func getHand(t *testing.T, p player, id string) *apiHand {
	t.Helper()
	var out struct{ HoldemHand *apiHand }
	p.Client.MustDo(t, handQuery, map[string]any{"id": id}, &out)
	return out.HoldemHand
}

// forcedStart starts a hand whose cards settle as want says under the given
// decisions: it takes a commitment, peeks at the seed behind it and searches
// for a cut that deals the wanted cards with it: the two-step flow, played
// by a player who (unlike a real one) knows the seed.
func (w *holdemWorld) forcedStart(t *testing.T, p player, boxes []boxIn, decisions []holdem.Decision, want func(holdem.Settlement) bool) apiHand {
	t.Helper()
	var c struct{ HoldemCommit struct{ Commitment string } }
	p.Client.MustDo(t, `mutation { holdemCommit { commitment } }`, nil, &c)
	seed := w.pendingSeed(t, p)
	if got := cards.FormatCommitment(cards.Commitment(seed)); got != c.HoldemCommit.Commitment {
		t.Fatalf("commitment %s is not SHA-256 of the pending seed (%s)", c.HoldemCommit.Commitment, got)
	}
	cut := cutFor(t, seed, stakesOf(t, boxes), decisions, want)
	h := start(t, p, startInput(boxes, cut, c.HoldemCommit.Commitment, unique("start")))
	if h.Shuffle.Commitment != c.HoldemCommit.Commitment || h.Shuffle.ServerSeed != nil {
		t.Fatalf("the hand's shuffle %+v does not use the commitment %s, or shows its seed", h.Shuffle, c.HoldemCommit.Commitment)
	}
	return h
}

// settle plays a hand dealt from seed and cut with the given decisions.
func settle(seed cards.Seed, cut string, stakes []holdem.Stake, decisions []holdem.Decision) holdem.Settlement {
	t0 := time.Unix(0, 0)
	h, err := holdem.Start(holdem.DefaultConfig(), stakes, holdem.ShuffledDeal(seed, []byte(cut), len(stakes)), t0)
	if err != nil {
		panic(err)
	}
	for i, d := range decisions {
		if err := h.Decide(i, d, t0); err != nil {
			panic(err)
		}
	}
	h.Expire(t0.Add(time.Hour))
	s, _ := h.Settlement()
	return s
}

// cutFor searches the cuts "cut 0", "cut 1", ... for one that, with seed,
// settles as want says.
func cutFor(t *testing.T, seed cards.Seed, stakes []holdem.Stake, decisions []holdem.Decision, want func(holdem.Settlement) bool) string {
	t.Helper()
	for i := range 200_000 {
		cut := fmt.Sprintf("cut %d", i)
		if want(settle(seed, cut, stakes, decisions)) {
			return cut
		}
	}
	t.Fatal("no cut deals the wanted hand")
	return ""
}

// verifyHand does what a player does with a settled hand: checks the
// revealed seed against the commitment, recomputes the deck from it and the
// cut, and the deal and every payout from the deck and the decisions.
func verifyHand(t *testing.T, h apiHand) {
	t.Helper()
	if h.Phase != "SETTLED" || h.Shuffle.ServerSeed == nil || h.Shuffle.PublicSeed == nil {
		t.Fatalf("hand %s: phase %s, shuffle %+v", h.ID, h.Phase, h.Shuffle)
	}
	seed, err := cards.ParseSeed(*h.Shuffle.ServerSeed)
	if err != nil {
		t.Fatal(err)
	}
	commitment, err := cards.ParseCommitment(h.Shuffle.Commitment)
	if err != nil {
		t.Fatal(err)
	}
	cut := ""
	if h.Cut != nil {
		cut = *h.Cut
	}
	if *h.Shuffle.PublicSeed != hex.EncodeToString([]byte(cut)) {
		t.Fatalf("public seed %s is not the cut %q", *h.Shuffle.PublicSeed, cut)
	}
	deck, err := cards.Verify(seed, commitment, []byte(cut))
	if err != nil {
		t.Fatal(err)
	}
	d := cards.DealHoldem(deck, len(h.Boxes))
	board := d.Board()
	if !slices.Equal(h.Board, strs(board[:])) || !slices.Equal(h.DealerCards, strs(d.Dealer[:])) {
		t.Fatalf("board %v dealer %v, the seed deals %v and %v", h.Board, h.DealerCards, board, d.Dealer)
	}
	var stakes []holdem.Stake
	var decisions []holdem.Decision
	for i, b := range h.Boxes {
		if !slices.Equal(b.Cards, strs(d.Boxes[i][:])) {
			t.Fatalf("box %d shows %v, the seed deals %v", i+1, b.Cards, d.Boxes[i])
		}
		stakes = append(stakes, holdem.Stake{Ante: amount(t, b.Ante), Bonus: amount(t, b.Bonus)})
		if !b.TimedOut {
			decisions = append(decisions, holdem.Decision(*b.Decision))
		}
	}
	s := settle(seed, cut, stakes, decisions)
	var returned money.Amount
	for i, b := range h.Boxes {
		r := s.Boxes[i]
		if string(r.Outcome) != *b.Outcome || r.AnteReturn != amount(t, *b.AnteReturn) || r.BetReturn != amount(t, *b.BetReturn) || r.BonusReturn != amount(t, *b.BonusReturn) {
			t.Fatalf("box %d: the API says %s %s/%s/%s, the recomputation %+v", i+1, *b.Outcome, *b.AnteReturn, *b.BetReturn, *b.BonusReturn, r)
		}
		returned += r.Returned()
	}
	if returned != amount(t, *h.TotalReturn) || returned-amount(t, h.TotalStake) != amount(t, *h.Net) {
		t.Fatalf("totals: return %s net %s, recomputed return %s", *h.TotalReturn, *h.Net, returned)
	}
}

func strs(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}
