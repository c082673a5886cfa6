package totedb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// withinOnly hides the store's tote.BatchPlacer, so the intake takes the
// general path (Within, InsertBets, a checked single post per stake).
type withinOnly struct{ tote.Store }

// batchWorld is one Postgres database with a table whose draw takes bets,
// players in the users table and the protection service.
type batchWorld struct {
	h     *totetest.Harness
	db    *sqldb.DB
	led   *ledgerdb.Repo
	users *accountdb.UserRepo
	prot  *protection.Service
	store *protectiondb.Repo
	draw  tote.Draw
	admin int64
	loc   *time.Location
}

func newBatchWorld(t *testing.T, fast bool) *batchWorld {
	return newBatchWorldOn(t, "postgres", fast)
}

// newBatchWorldOn is newBatchWorld on dialect ("postgres" or "sqlite"; fast
// is the store's own bet batch on either).
func newBatchWorldOn(t *testing.T, dialect string, fast bool, opts ...func(*totedb.Repo)) *batchWorld {
	db := sqldbtest.Open(t, dialect)
	led := ledgerdb.New(db)
	repo := totedb.New(db, led)
	for _, o := range opts {
		o(repo)
	}
	var store tote.Store = repo
	if !fast {
		store = withinOnly{repo}
	}
	h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: repo, Ledger: led, Concurrent: true}, 8)
	led.SetClock(h.Clock.Now)
	loc, err := account.LoadZone(account.DefaultZone)
	if err != nil {
		t.Fatal(err)
	}
	w := &batchWorld{h: h, db: db, led: led, users: accountdb.NewUserRepo(db), store: protectiondb.New(db), loc: loc}
	w.prot = protection.NewService(w.store, w.users, loc, h.Clock.Now)
	w.draw = h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	w.admin = w.user(t, "Admin", account.Admin, "1970-01-01")
	return w
}

func (w *batchWorld) user(t *testing.T, name string, role account.Role, dob string) int64 {
	t.Helper()
	u, err := w.users.Create(context.Background(), account.User{
		Email: fmt.Sprintf("%s-%d@example.kz", strings.ReplaceAll(name, " ", ""), time.Now().UnixNano()), Name: name,
		DateOfBirth: account.MustParseDate(dob), Role: role, PasswordHash: "not-a-real-hash", CreatedAt: w.h.Clock.Now(),
		Verification: account.NotSubmitted,
	})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// batchPlayer is a generated player: money, limits, exclusion, register.
type batchPlayer struct {
	name     string
	deposit  int64 // KZT
	limits   [][3]any
	timeout  bool
	selfExcl bool
	listed   bool
	earlier  int64 // KZT staked by an earlier single bet
}

// outcome is what a request got, comparable across the two paths.
type outcome struct {
	Code, Reason string
	Stake        money.Amount
	Sel          string
}

func (o outcome) String() string {
	if o.Code == "" {
		return fmt.Sprintf("accepted %s on %s", o.Stake, o.Sel)
	}
	return o.Code + "/" + o.Reason
}

// run plays a generated round on w and returns every request's outcome
// and the players' wallets, counters and sessions, as text to compare.
func (w *batchWorld) run(t *testing.T, round int, players []batchPlayer, reqs []tote.PlaceBetRequest, userIdx []int) ([]outcome, string) {
	t.Helper()
	ctx := context.Background()
	uids := make([]int64, len(players))
	for i, p := range players {
		uids[i] = w.user(t, p.name, account.Player, "1990-05-17")
		if p.deposit > 0 {
			w.h.Deposit(uids[i], money.Amount(p.deposit)*money.KZT)
		}
		if p.earlier > 0 {
			if _, err := w.h.Svc.PlaceBet(ctx, tote.PlaceBetRequest{UserID: ids.UserID(uids[i]), DrawID: w.draw.ID, Market: parimutuel.MarketWin, Selection: "1",
				Stake: money.Amount(p.earlier) * money.KZT, IdempotencyKey: fmt.Sprintf("early-%d-%d", round, i)}); err != nil {
				t.Fatalf("earlier bet: %v", err)
			}
		}
		for _, l := range p.limits {
			if _, err := w.prot.SetLimit(ctx, uids[i], l[0].(protection.LimitKind), l[1].(protection.Period), l[2].(int64)*int64(money.KZT)); err != nil {
				t.Fatal(err)
			}
		}
		if p.timeout {
			if _, err := w.prot.TakeTimeOut(ctx, uids[i], 48*time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		if p.selfExcl {
			if _, err := w.prot.SelfExclude(ctx, uids[i], 6); err != nil {
				t.Fatal(err)
			}
		}
		if p.listed {
			if _, err := w.prot.AddRegisterEntry(ctx, w.admin, "", p.name, account.MustParseDate("1990-05-17"), "test"); err != nil {
				t.Fatal(err)
			}
		}
	}
	rs := slices.Clone(reqs)
	for i := range rs {
		rs[i].UserID = ids.UserID(uids[userIdx[i]])
		rs[i].DrawID = w.draw.ID
	}
	bets, errList := w.h.Svc.PlaceBets(ctx, rs)
	out := make([]outcome, len(rs))
	for i := range rs {
		if errList[i] != nil {
			out[i] = outcome{Code: string(errs.CodeOf(errList[i])), Reason: errs.ReasonOf(errList[i])}
			continue
		}
		out[i] = outcome{Stake: bets[i].Stake, Sel: bets[i].Selection.String()}
	}
	var sb strings.Builder
	for i, id := range uids {
		c, err := w.store.Counters(ctx, id, w.h.Clock.Now(), w.loc)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "player %d: wallet %s", i, w.h.Balance(ledger.UserWallet(ids.UserID(id))))
		for _, p := range protection.Periods {
			fmt.Fprintf(&sb, " %s %s/%s/%s", p, c[p].Deposits, c[p].Stakes, c[p].Returns)
		}
		sb.WriteString("\n")
	}
	sessions, err := w.store.ActiveSessions(ctx, w.h.Clock.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range sessions {
		if i := slices.Index(uids, s.UserID); i >= 0 {
			lines = append(lines, fmt.Sprintf("session of player %d: no %d stakes %s returns %s\n", i, s.No, s.Stakes, s.Returns))
		}
	}
	slices.Sort(lines)
	return out, sb.String() + strings.Join(lines, "")
}

// randomBatchPlayers is 2..5 players named prefix+" N"+i: money or none,
// limits of every kind and period, earlier stakes, and now and then a
// time-out, a self-exclusion or a register entry.
func randomBatchPlayers(rng *rand.Rand, prefix string) []batchPlayer {
	kinds := []protection.LimitKind{protection.StakeLimit, protection.LossLimit}
	players := make([]batchPlayer, 2+rng.IntN(4))
	for i := range players {
		// Names differ in their letters, not only in their digits' order:
		// the register's loose match sorts a name's letters, so "R1 N2"
		// and "R2 N1" would be one name, and a listed player would refuse
		// another round's player.
		p := batchPlayer{name: fmt.Sprintf("%s N%s", prefix, strings.Repeat("k", i+1)), deposit: []int64{0, 150, 400, 1000, 5000}[rng.IntN(5)]}
		for range rng.IntN(3) {
			p.limits = append(p.limits, [3]any{kinds[rng.IntN(2)], protection.Periods[rng.IntN(3)], int64(100 + 100*rng.IntN(8))})
		}
		if p.deposit >= 1000 && rng.IntN(3) == 0 {
			p.earlier = 100 * int64(1+rng.IntN(3))
		}
		switch rng.IntN(12) {
		case 0:
			p.timeout = true
		case 1:
			p.selfExcl = true
		case 2:
			p.listed = true
		}
		players[i] = p
	}
	return players
}

// TestBetBatchMatchesSinglePosts is the Postgres fast path's property test:
// random batches (players with and without money, limits of every kind and
// period, earlier stakes, time-outs, self-exclusions, register entries,
// repeated and reused keys, bad stakes) give every request exactly the
// answer the general path (a checked single post per stake) gives, and
// leave the same wallets, protection counters and sessions of play.
func TestBetBatchMatchesSinglePosts(t *testing.T) {
	fast, slow := newBatchWorld(t, true), newBatchWorld(t, false)
	rng := rand.New(rand.NewPCG(8, uint64(time.Now().UnixNano())))
	seen := map[string]int{} // outcomes by reason ("" accepted)
	for round := range 12 {
		players := randomBatchPlayers(rng, "Player R"+strings.Repeat("m", round+1))
		n := 4 + rng.IntN(14)
		reqs := make([]tote.PlaceBetRequest, n)
		userIdx := make([]int, n)
		for i := range reqs {
			userIdx[i] = rng.IntN(len(players))
			stake := []int64{50, 100, 150, 200, 300, 500}[rng.IntN(6)]
			// One selection per key: the general path stores a batch sorted
			// by selection, so of two requests with one key and different
			// selections the lower selection's would win there (the fast
			// path keeps the first asked); that difference is not tested.
			key := rng.IntN(n)
			reqs[i] = tote.PlaceBetRequest{Market: parimutuel.MarketWin, Selection: fmt.Sprint(1 + key%9),
				Stake: money.Amount(stake) * money.KZT, IdempotencyKey: fmt.Sprintf("r%d-k%d", round, key)}
			if rng.IntN(8) == 0 && i > 0 {
				reqs[i] = reqs[rng.IntN(i)] // the same request again
				userIdx[i] = userIdx[slices.Index(reqs, reqs[i])]
			}
		}
		var (
			wg                 sync.WaitGroup
			fastOut, slowOut   []outcome
			fastBook, slowBook string
		)
		wg.Add(2)
		go func() { defer wg.Done(); fastOut, fastBook = fast.run(t, round, players, reqs, userIdx) }()
		go func() { defer wg.Done(); slowOut, slowBook = slow.run(t, round, players, reqs, userIdx) }()
		wg.Wait()
		if t.Failed() {
			return
		}
		for i := range reqs {
			seen[fastOut[i].Reason]++
			if fastOut[i] != slowOut[i] {
				t.Errorf("round %d request %d (player %d %+v, %s on %s key %s): fast path %s, single posts %s",
					round, i, userIdx[i], players[userIdx[i]], reqs[i].Stake, reqs[i].Selection, reqs[i].IdempotencyKey, fastOut[i], slowOut[i])
			}
		}
		if fastBook != slowBook {
			t.Errorf("round %d books differ:\nfast path:\n%s\nsingle posts:\n%s", round, fastBook, slowBook)
		}
	}
	t.Logf("outcomes by reason: %v", seen)
	for name, w := range map[string]*batchWorld{"fast path": fast, "single posts": slow} {
		w.checkOpenBooks(t, name)
	}
}

// checkOpenBooks checks the books of the open draw: the ledger reconciles,
// the WIN escrow holds exactly the stakes of the stored bets, and its
// entries, in id order, each carry the balance after them.
func (w *batchWorld) checkOpenBooks(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	led := w.h.Env.Ledger
	if err := led.Reconcile(ctx); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	bets, err := w.h.Env.Store.DrawBets(ctx, w.draw.ID)
	if err != nil {
		t.Fatal(err)
	}
	var sum money.Amount
	for _, b := range bets {
		sum += b.Stake
	}
	escrow := ledger.EscrowOf(tote.PoolID(w.draw.ID, 1, parimutuel.MarketWin))
	if got := w.h.Balance(escrow); got != sum {
		t.Errorf("%s: escrow holds %s, the %d bets stake %s", name, got, len(bets), sum)
	}
	var items []ledger.HistoryItem
	for p := (ledger.Page{Limit: ledger.MaxPageSize}); ; {
		page, err := led.History(ctx, escrow, p)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, page.Items...)
		if page.Next == "" {
			break
		}
		p.After = page.Next
	}
	slices.Reverse(items)
	var bal money.Amount
	for _, it := range items {
		bal += it.Amount
		if it.BalanceAfter != bal {
			t.Errorf("%s: escrow entry %d says %s after it, the entries sum to %s", name, it.EntryID, it.BalanceAfter, bal)
			return
		}
	}
	if len(items) != len(bets) {
		t.Errorf("%s: %d escrow entries for %d bets", name, len(items), len(bets))
	}
}

// TestBetBatchLimitsUnderConcurrency races many bets of two players with a
// daily stake limit and a weekly loss limit through the intake (batches
// run concurrently, up to four per draw): exactly as many bets as the
// limits allow are accepted, the others are refused by the limit's name,
// and wallets and counters agree.
func TestBetBatchLimitsUnderConcurrency(t *testing.T) {
	w := newBatchWorld(t, true)
	ctx := context.Background()
	a := w.user(t, "Racer A", account.Player, "1990-05-17")
	b := w.user(t, "Racer B", account.Player, "1990-05-17")
	for _, u := range []int64{a, b} {
		w.h.Deposit(u, 5000*money.KZT)
	}
	if _, err := w.prot.SetLimit(ctx, a, protection.StakeLimit, protection.Day, int64(1000*money.KZT)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.prot.SetLimit(ctx, b, protection.LossLimit, protection.Week, int64(700*money.KZT)); err != nil {
		t.Fatal(err)
	}
	const racers = 48
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		accepted = map[int64]int{}
		reasons  = map[string]int{}
	)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := []int64{a, b}[i%2]
			_, err := w.h.Svc.PlaceBet(ctx, tote.PlaceBetRequest{UserID: ids.UserID(u), DrawID: w.draw.ID, Market: parimutuel.MarketWin,
				Selection: fmt.Sprint(1 + i%8), Stake: 100 * money.KZT, IdempotencyKey: fmt.Sprintf("race-%d", i)})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				reasons[errs.ReasonOf(err)]++
				return
			}
			accepted[u]++
		}()
	}
	wg.Wait()
	if accepted[a] != 10 || accepted[b] != 7 || reasons[protection.StakeLimit.Reason()] != 14 || reasons[protection.LossLimit.Reason()] != 17 {
		t.Fatalf("accepted %d and %d (want 10 and 7), refusals %v", accepted[a], accepted[b], reasons)
	}
	for u, want := range map[int64]money.Amount{a: 4000 * money.KZT, b: 4300 * money.KZT} {
		if got := w.h.Balance(ledger.UserWallet(ids.UserID(u))); got != want {
			t.Errorf("wallet of %d holds %s, want %s", u, got, want)
		}
		c, err := w.store.Counters(ctx, u, w.h.Clock.Now(), w.loc)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range protection.Periods {
			if c[p].Stakes != 5000*money.KZT-want {
				t.Errorf("%s counter of %d: stakes %s, want %s", p, u, c[p].Stakes, 5000*money.KZT-want)
			}
		}
	}
	w.checkOpenBooks(t, "fast path")
}

// ensureOnly hides account.Service's CanStake: the intake then asks
// EnsureCanStake before the batch (two reads per bet) instead of judging
// the rows the fast path read with the draw.
type ensureOnly struct{ tote.StakeGate }

// TestBetBatchStakeGate checks that the stake gate judged inside the fast
// path's batch answers every kind of player as EnsureCanStake before the
// batch does: a verified adult bets; an unverified player, one whose
// verification was rejected or names another birthday, one under age, an
// admin, an affiliate and an unknown user are refused with the same
// reasons; and a refused player's retry of a key is refused again, not
// replayed.
func TestBetBatchStakeGate(t *testing.T) {
	ctx := context.Background()
	type result struct{ code, reason string }
	play := func(judge bool) []result {
		w := newBatchWorld(t, true)
		now := w.h.Clock.Now()
		accounts, err := account.NewService(w.users, account.Config{DocumentPepper: []byte("a test pepper of at least 32 bytes!!"), Now: w.h.Clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		var gate tote.StakeGate = accounts
		if !judge {
			gate = ensureOnly{accounts}
		}
		svc, err := service.New(service.Config{Store: w.h.Env.Store, Ledger: w.h.Env.Ledger, Gate: gate, Publisher: w.h.Pub, Clock: w.h.Clock})
		if err != nil {
			t.Fatal(err)
		}
		verifyFrom := func(id int64, status account.VerificationStatus, dob string, from account.VerificationStatus) {
			if _, err := w.users.SaveVerification(ctx, account.VerificationChange{
				Verification: account.Verification{UserID: id, DocumentType: account.IDCard, DocumentHash: fmt.Sprintf("%064x", id),
					DateOfBirth: account.MustParseDate(dob), Status: status, SubmittedAt: now},
				From: from,
			}); err != nil {
				t.Fatal(err)
			}
		}
		verify := func(id int64, status account.VerificationStatus, dob string) {
			verifyFrom(id, status, dob, account.NotSubmitted)
		}
		adultDOB, youngDOB := "1990-05-17", now.AddDate(-20, 0, 0).Format("2006-01-02")
		adult := w.user(t, "Adult", account.Player, adultDOB)
		verify(adult, account.Approved, adultDOB)
		unverified := w.user(t, "Unverified", account.Player, adultDOB)
		rejected := w.user(t, "Rejected", account.Player, adultDOB)
		verify(rejected, account.Rejected, adultDOB)
		otherDOB := w.user(t, "Other Birthday", account.Player, adultDOB)
		verify(otherDOB, account.Approved, "1991-05-17")
		young := w.user(t, "Young", account.Player, youngDOB)
		verify(young, account.Approved, youngDOB)
		affiliate := w.user(t, "Affiliate", account.Affiliate, adultDOB)
		uids := []int64{adult, unverified, rejected, otherDOB, young, w.admin, affiliate, 999_999}
		for _, id := range uids[:7] {
			w.h.Deposit(id, 1000*money.KZT)
		}
		var reqs []tote.PlaceBetRequest
		for i, id := range uids {
			reqs = append(reqs, tote.PlaceBetRequest{UserID: ids.UserID(id), DrawID: w.draw.ID, Market: parimutuel.MarketWin, Selection: fmt.Sprint(1 + i%8),
				Stake: 100 * money.KZT, IdempotencyKey: fmt.Sprintf("gate-%d", i)})
		}
		_, errList := svc.PlaceBets(ctx, reqs)
		// The adult is then found unverified (a newer verification is
		// pending): the gate refuses a retry of their bet too (the gate
		// answers before any replay), and a new bet.
		verifyFrom(adult, account.Pending, adultDOB, account.Approved)
		_, more := svc.PlaceBets(ctx, []tote.PlaceBetRequest{reqs[0], {UserID: ids.UserID(adult), DrawID: w.draw.ID, Market: parimutuel.MarketWin,
			Selection: "2", Stake: 100 * money.KZT, IdempotencyKey: "gate-new"}})
		var out []result
		for _, err := range append(errList, more...) {
			out = append(out, result{string(errs.CodeOf(err)), errs.ReasonOf(err)})
		}
		if b := w.h.Balance(ledger.UserWallet(ids.UserID(adult))); b != 900*money.KZT {
			t.Errorf("the adult's wallet holds %s, want 900.00", b)
		}
		return out
	}
	judged, ensured := play(true), play(false)
	if !slices.Equal(judged, ensured) {
		t.Fatalf("gate judged in the batch: %v\ngate before the batch: %v", judged, ensured)
	}
	if judged[0] != (result{}) || judged[1].reason != "NOT_VERIFIED" || judged[4].reason != "UNDER_AGE" || judged[5].reason != "NOT_A_PLAYER" ||
		judged[7].code != string(errs.NotFound) || judged[8].reason != "NOT_VERIFIED" || judged[9].reason != "NOT_VERIFIED" {
		t.Fatalf("answers %v", judged)
	}
}

// TestBetBatchKeysTakenEarlier: the fast path does not look keys up before
// its write; a batch holding keys taken by earlier batches (a client's
// retry, the same key with another selection) fails on the unique index and
// runs again reading the keys. Every request gets the answer the single
// posts give (a retry its first bet, another selection with the key
// IDEMPOTENCY_KEY_REUSED), the others of the batch are placed once, and the
// books agree.
func TestBetBatchKeysTakenEarlier(t *testing.T) {
	ctx := context.Background()
	fast, slow := newBatchWorld(t, true), newBatchWorld(t, false)
	play := func(w *batchWorld) ([]outcome, string) {
		p := w.user(t, "Retrying Player", account.Player, "1990-05-17")
		q := w.user(t, "Other Player", account.Player, "1990-05-17")
		w.h.Deposit(p, 1000*money.KZT)
		w.h.Deposit(q, 1000*money.KZT)
		bet := func(u int64, sel, key string) tote.PlaceBetRequest {
			return tote.PlaceBetRequest{UserID: ids.UserID(u), DrawID: w.draw.ID, Market: parimutuel.MarketWin, Selection: sel,
				Stake: 100 * money.KZT, IdempotencyKey: key}
		}
		var out []outcome
		for _, batch := range [][]tote.PlaceBetRequest{
			{bet(p, "1", "a"), bet(p, "2", "b"), bet(q, "1", "a")},
			// a retried as it was, b with another selection, new keys around them
			{bet(p, "3", "c"), bet(p, "1", "a"), bet(q, "2", "c"), bet(p, "4", "b"), bet(p, "5", "d")},
			// a batch of taken keys only
			{bet(q, "1", "a"), bet(p, "3", "c")},
			// and a fresh batch after them
			{bet(p, "6", "e"), bet(q, "7", "e")},
		} {
			bets, errList := w.h.Svc.PlaceBets(ctx, batch)
			for i := range batch {
				if errList[i] != nil {
					out = append(out, outcome{Code: string(errs.CodeOf(errList[i])), Reason: errs.ReasonOf(errList[i])})
					continue
				}
				out = append(out, outcome{Stake: bets[i].Stake, Sel: bets[i].Selection.String()})
			}
		}
		book := fmt.Sprintf("wallets %s %s", w.h.Balance(ledger.UserWallet(ids.UserID(p))), w.h.Balance(ledger.UserWallet(ids.UserID(q))))
		return out, book
	}
	fastOut, fastBook := play(fast)
	slowOut, slowBook := play(slow)
	if !slices.Equal(fastOut, slowOut) || fastBook != slowBook {
		t.Fatalf("fast path %v (%s)\nsingle posts %v (%s)", fastOut, fastBook, slowOut, slowBook)
	}
	// Retries answer the first bet and move nothing; b with another
	// selection is refused; a, b, c, d, e of p and a, c, e of q are paid once.
	refused := 0
	for _, o := range fastOut {
		if o.Code != "" {
			refused++
			if o.Reason != tote.ReasonIdempotencyKeyReused {
				t.Errorf("refused by %s, want only %s", o, tote.ReasonIdempotencyKeyReused)
			}
		}
	}
	if refused != 1 || fastBook != "wallets 500.00 700.00" {
		t.Fatalf("want one refusal and wallets 500.00 700.00, got %v (%s)", fastOut, fastBook)
	}
	for name, w := range map[string]*batchWorld{"fast path": fast, "single posts": slow} {
		w.checkOpenBooks(t, name)
	}
}
