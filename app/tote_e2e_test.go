package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
	"github.com/pokertote/pokertote/internal/clocktest"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
)

// End-to-end tests of the totalizator through the GraphQL API, with a real
// WebSocket subscriber, on a fast clock (TIME_SCALE): a whole draw with
// several players betting in every market and round, checked to the tiyn.

// toteScale = 5: rounds of 6/4/4/4 s, cards every 400 ms. At 10 (2 s rounds)
// a loaded machine (load average 10+) closed a round before every player's
// bets of it were in, failing the test with ROUND_CLOSED. Tests on a
// skipping clock (onClock) bet on tables with rounds of a minute at this
// scale and close them themselves.
const toteScale = 5

// tableEvent is the part of a TableEvent the tests read.
type tableEvent struct {
	Seq      int64
	Type     string
	DrawID   string
	Round    *string
	ClosesAt *time.Time
	Cards    []string
	Position *int
	Street   *string
}

const tableEventsSub = `subscription($t: ID!, $after: Int64) {
  tableEvents(tableId: $t, afterSeq: $after) {
    __typename seq
    ... on DrawOpened { drawId }
    ... on RoundOpened { drawId round closesAt }
    ... on RoundClosed { drawId round }
    ... on CardsDealt { drawId cards position street }
    ... on OddsUpdated { drawId }
    ... on PoolUpdated { drawId }
    ... on DrawSettled { drawId }
    ... on DrawVoided { drawId }
  }
}`

// eventTypes names the typed events as the tests (and the outbox) do.
var eventTypes = map[string]string{
	"DrawOpened": "DRAW_OPENED", "RoundOpened": "ROUND_OPENED", "RoundClosed": "ROUND_CLOSED", "CardsDealt": "CARDS_DEALT",
	"OddsUpdated": "ODDS_UPDATED", "PoolUpdated": "POOL_UPDATED", "DrawSettled": "DRAW_SETTLED", "DrawVoided": "DRAW_VOIDED",
	"TablePaused": "TABLE_PAUSED", "TableResumed": "TABLE_RESUMED", "TableSnapshot": "SNAPSHOT",
}

// UnmarshalJSON reads a typed event, naming its type from __typename.
func (e *tableEvent) UnmarshalJSON(b []byte) error {
	type plain tableEvent
	var m struct {
		plain
		Typename string `json:"__typename"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*e = tableEvent(m.plain)
	e.Type = eventTypes[m.Typename]
	return nil
}

// createTable makes a 6-position table as the admin and returns its id.
func createTable(t *testing.T, admin *gqltest.Client, name string) string {
	t.Helper()
	return createTableWith(t, admin, name, "")
}

// createLongTable is createTable with betting rounds of five minutes (one
// at toteScale) for a server on a skipping clock (onClock): each round
// lasts until the test skips past its close, so a loaded machine cannot
// close it on the players.
func createLongTable(t *testing.T, admin *gqltest.Client, name string) string {
	t.Helper()
	return createTableWith(t, admin, name, ", roundSeconds: [300, 300, 300, 300]")
}

func createTableWith(t *testing.T, admin *gqltest.Client, name, input string) string {
	t.Helper()
	var out struct {
		CreateTable struct{ ID string }
	}
	admin.MustDo(t, `mutation($n: String!) { createTable(input: {name: $n, positions: 6, minStake: "100.00", maxStake: "50000.00"`+input+`}) { id } }`,
		map[string]any{"n": name}, &out)
	return out.CreateTable.ID
}

// watch subscribes to a table's events from its first one and decodes them.
func watch(t *testing.T, c *gqltest.Client, tableID string) <-chan tableEvent {
	t.Helper()
	return watchFrom(t, c, tableID, 0)
}

// watchFrom subscribes to a table's events after seq `after`.
func watchFrom(t *testing.T, c *gqltest.Client, tableID string, after int64) <-chan tableEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sub, err := c.Subscribe(ctx, tableEventsSub, map[string]any{"t": tableID, "after": after})
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	t.Cleanup(sub.Close)
	out := make(chan tableEvent, 4096)
	go func() {
		defer close(out)
		for raw := range sub.Next {
			var m struct{ TableEvents tableEvent }
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Errorf("decode event %s: %v", raw, err)
				return
			}
			out <- m.TableEvents
		}
		if e := sub.Err(); e != "" {
			t.Logf("subscription ended: %s", e)
		}
	}()
	return out
}

// betPlan is what one player stakes in one round.
type betPlan struct {
	market, selection, stake string
}

// plans: every player bets in every market the round offers; player 0 also
// backs every position, so every WIN pool has winners.
func plans(player int, round string) []betPlan {
	combos := []string{"PAIR", "TWO_PAIR", "HIGH_CARD", "THREE_OF_A_KIND", "STRAIGHT"}
	var out []betPlan
	out = append(out,
		betPlan{"WIN", strconv.Itoa((player*2+len(round))%6 + 1), fmt.Sprintf("%d.%02d", 100+player*37, player*13)},
		betPlan{"COMBINATION", combos[(player+len(round))%len(combos)], "150.00"},
	)
	if round == "PRE_DEAL" || round == "POCKET" {
		out = append(out,
			betPlan{"EXPRESS", fmt.Sprintf("%d-%d-%d", player%6+1, (player+1)%6+1, (player+2)%6+1), "100.00"},
			betPlan{"EXPRESS", "1-1-1", "120.00"},
		)
	}
	if player == 0 {
		for p := 1; p <= 6; p++ {
			out = append(out, betPlan{"WIN", strconv.Itoa(p), "100.00"})
		}
	}
	return out
}

// playDraw follows a table's events until one draw in which every round got
// its bets has settled; it returns that draw's id and the events seen. The
// table's server runs on clk (onClock), which skips each round to its close
// once the bets are in.
func playDraw(t *testing.T, clk *clocktest.Skipping, events <-chan tableEvent, players []player, deadline time.Duration) (string, []tableEvent) {
	t.Helper()
	return playDrawWith(t, clk, events, players, deadline, nil)
}

// playDrawWith is playDraw with a hook called after each event of the draw
// being played has been handled. clk nil is the wall clock (a server in
// another process): rounds then close in real time.
func playDrawWith(t *testing.T, clk *clocktest.Skipping, events <-chan tableEvent, players []player, deadline time.Duration, hook func(tableEvent)) (string, []tableEvent) {
	t.Helper()
	until := time.Until
	if clk != nil {
		until = clk.Until
	}
	timeout := time.After(deadline)
	var seen []tableEvent
	target := ""
	betRounds := map[string]bool{}
	for {
		select {
		case <-timeout:
			t.Fatalf("no fully bet draw settled within %v; saw %d events", deadline, len(seen))
		case e, ok := <-events:
			if !ok {
				t.Fatal("event stream ended")
			}
			seen = append(seen, e)
			switch {
			case e.Type == "ROUND_OPENED" && e.Round != nil && (target == "" || e.DrawID == target):
				if *e.Round == "PRE_DEAL" && (e.ClosesAt == nil || until(*e.ClosesAt) < time.Second) {
					skipRound(clk, e.ClosesAt)
					continue // joined too late to bet all four rounds of this draw
				}
				target = e.DrawID
				placeRound(t, players, e.DrawID, *e.Round)
				betRounds[*e.Round] = true
				skipRound(clk, e.ClosesAt)
			case e.Type == "DRAW_SETTLED" && e.DrawID == target && target != "":
				if len(betRounds) != 4 {
					t.Fatalf("draw %s settled with bets in rounds %v only", target, betRounds)
				}
				return target, seen
			case e.Type == "DRAW_VOIDED" && e.DrawID == target:
				t.Fatalf("draw %s was voided", target)
			}
			if hook != nil && target != "" && e.DrawID == target {
				hook(e)
			}
		}
	}
}

// placeRound has every player place their plan for the round, concurrently.
func placeRound(t *testing.T, players []player, drawID, round string) {
	t.Helper()
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, b := range plans(i, round) {
				res, err := p.Client.Do(context.Background(), `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id status } }`,
					map[string]any{"in": map[string]any{"drawId": drawID, "selection": selectionInput(b.market, b.selection), "stake": b.stake,
						"idempotencyKey": fmt.Sprintf("%s-%s-%d", drawID, round, j)}})
				if err == nil && len(res.Errors) == 1 && res.Errors[0].Reason() == "SELECTION_SUSPENDED" && round != "PRE_DEAL" {
					// A selection the round opened with at 90 % or more (SPEC
					// 1.9): the refusal is the rule, and the checks that follow
					// read the bets the server stored.
					t.Logf("player %d, round %s, bet %+v: suspended", i, round, b)
					continue
				}
				if err != nil || len(res.Errors) > 0 {
					t.Errorf("player %d, round %s, bet %+v: %v %+v", i, round, b, err, res.Errors)
				}
			}
		}()
	}
	wg.Wait()
}

// drawResult is the published result as the API shows it.
type drawResult struct {
	Winners          []int
	LeadersAfterFlop []int
	LeadersAfterTurn []int
	WinningCategory  string
	Pools            []struct {
		Round, Market     string
		Refunded          bool
		Coefficient       *string
		WinningSelections []string
		Categories        []struct {
			Category    int
			Coefficient *string
		}
	}
}

const drawResultQuery = `query($d: ID!) { draw(id: $d) { phase result {
  winners leadersAfterFlop leadersAfterTurn winningCategory
  pools { round market refunded coefficient winningSelections categories { category coefficient } } } } }`

type apiBet struct {
	ID, Round, Market, Selection, Stake, Status string
	Payout                                      *string
}

// checkSettlement recomputes every bet's payout of the draw from the
// published coefficients and checks it against the bet's payout and each
// player's balance, to the tiyn.
func checkSettlement(t *testing.T, c *gqltest.Client, drawID string, players []player, deposit money.Amount) {
	t.Helper()
	var d struct {
		Draw struct {
			Phase  string
			Result drawResult
		}
	}
	c.MustDo(t, drawResultQuery, map[string]any{"d": drawID}, &d)
	if d.Draw.Phase != "SETTLED" {
		t.Fatalf("draw phase %s", d.Draw.Phase)
	}
	res := d.Draw.Result
	if len(res.Winners) == 0 {
		t.Fatalf("result without winners: %+v", res)
	}
	nBets := 0
	for i, p := range players {
		var out struct {
			MyBets struct{ Edges []struct{ Node apiBet } }
		}
		p.Client.MustDo(t, `query($d: ID!) { myBets(first: 100, drawId: $d) { edges { node { id round market selection stake status payout } } } }`,
			map[string]any{"d": drawID}, &out)
		var staked, paid money.Amount
		for _, b := range nodes(out.MyBets.Edges) {
			stake := mustAmount(t, b.Stake)
			want := expectedPayout(t, res, b, stake)
			got := money.Amount(0)
			if b.Payout != nil {
				got = mustAmount(t, *b.Payout)
			}
			if got != want {
				t.Errorf("player %d bet %s (%s %s %s, stake %s): payout %v, want %v", i, b.ID, b.Round, b.Market, b.Selection, b.Stake, got, want)
			}
			staked += stake
			paid += got
		}
		nBets += len(out.MyBets.Edges)
		checkBetFilters(t, p.Client, "myBets", "", drawID, nodes(out.MyBets.Edges))
		wantBalance := deposit - staked + paid
		if got := mustAmount(t, p.balance(t)); got != wantBalance {
			t.Errorf("player %d balance %v, want %v (deposit %v - stakes %v + payouts %v)", i, got, wantBalance, deposit, staked, paid)
		}
	}
	if nBets == 0 {
		t.Fatal("no bets found")
	}
	var v struct {
		VerifyDraw struct {
			CommitmentValid, CardsMatch, PayoutsMatch, BeaconsValid bool
			Beacon                                                  string
			Problems                                                []string
			Draw                                                    struct {
				Shuffle struct {
					Beacons struct {
						Chain   struct{ Name string }
						Streets []struct {
							Round     int64
							Signature string
						}
					}
				}
			}
		}
	}
	c.MustDo(t, `query($d: ID!) { verifyDraw(id: $d) { commitmentValid cardsMatch payoutsMatch beaconsValid beacon problems
	  draw { shuffle { beacons { chain { name } streets { round signature } } } } } }`, map[string]any{"d": drawID}, &v)
	if vd := v.VerifyDraw; !vd.CommitmentValid || !vd.CardsMatch || !vd.PayoutsMatch || !vd.BeaconsValid || vd.Beacon != "local" || len(vd.Problems) > 0 {
		t.Errorf("verifyDraw: %+v", vd)
	}
	if b := v.VerifyDraw.Draw.Shuffle.Beacons; b.Chain.Name != "local" || len(b.Streets) != 4 || b.Streets[3].Signature == "" || b.Streets[0].Round >= b.Streets[3].Round {
		t.Errorf("draw.shuffle.beacons: %+v", b)
	}
	if vd := v.VerifyDraw; !vd.CommitmentValid || !vd.CardsMatch || !vd.PayoutsMatch || len(vd.Problems) > 0 {
		t.Errorf("verifyDraw: %+v", vd)
	}
	verifyPublishedJSON(t, c, drawID)
}

// verifyPublishedJSON checks the draw from its published result JSON alone,
// as an outsider would (no verifyDraw call): every street was drawn from
// the local beacon, and every link of the result holds.
func verifyPublishedJSON(t *testing.T, c *gqltest.Client, drawID string) {
	t.Helper()
	var out struct {
		Draw struct {
			ResultJSON string `json:"resultJson"`
		}
	}
	c.MustDo(t, `query($d: ID!) { draw(id: $d) { resultJson } }`, map[string]any{"d": drawID}, &out)
	var res tote.DrawResult
	if err := json.Unmarshal([]byte(out.Draw.ResultJSON), &res); err != nil {
		t.Fatalf("resultJson: %v", err)
	}
	v := verify.Result(res)
	if len(v.Problems) > 0 || !v.BeaconsValid || v.Beacon != "local" || res.Beacons.Signatures[3] == "" {
		t.Errorf("the published result does not verify on its own: %+v", v)
	}
	// Every bet is public (SPEC 1.8): the leaves, downloaded signed out,
	// fold to the result's roots and sum to its pools.
	resp, err := http.Get(strings.TrimSuffix(c.URL, "/query") + "/draws/" + drawID + "/leaves")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("leaves: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	dec := json.NewDecoder(resp.Body)
	n := 0
	problems := verify.CheckLeaves(res, func() (betroot.PublicLeaf, error) {
		var l betroot.PublicLeaf
		err := dec.Decode(&l)
		if err == nil {
			n++
		}
		return l, err
	})
	if len(problems) > 0 || n == 0 {
		t.Errorf("the %d published leaves: %q", n, problems)
	}
}

// expectedPayout applies SPEC 1.5 to one bet using only published figures.
func expectedPayout(t *testing.T, res drawResult, b apiBet, stake money.Amount) money.Amount {
	t.Helper()
	for _, pool := range res.Pools {
		if pool.Round != b.Round || pool.Market != b.Market {
			continue
		}
		if pool.Refunded {
			return stake
		}
		if b.Market != "EXPRESS" {
			if slices.Contains(pool.WinningSelections, b.Selection) {
				return mustCoef(t, pool.Coefficient).Pay(stake)
			}
			return 0
		}
		var f, tu, r int
		if _, err := fmt.Sscanf(b.Selection, "%d-%d-%d", &f, &tu, &r); err != nil {
			t.Fatalf("express selection %q: %v", b.Selection, err)
		}
		guessed := 0
		for _, hit := range []bool{slices.Contains(res.LeadersAfterFlop, f), slices.Contains(res.LeadersAfterTurn, tu), slices.Contains(res.Winners, r)} {
			if hit {
				guessed++
			}
		}
		var pay money.Amount
		for _, c := range pool.Categories {
			if (c.Category == 1 && guessed == 3) || (c.Category == 2 && guessed >= 2) {
				pay += mustCoef(t, c.Coefficient).Pay(stake)
			}
		}
		return pay
	}
	t.Fatalf("no published pool for bet %+v", b)
	return 0
}

func mustAmount(t *testing.T, s string) money.Amount {
	t.Helper()
	a, err := money.ParseAmount(s)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return a
}

func mustCoef(t *testing.T, s *string) money.Coef {
	t.Helper()
	if s == nil {
		t.Fatal("winning pool without a coefficient")
	}
	k, err := money.ParseCoef(*s)
	if err != nil {
		t.Fatalf("coefficient %q: %v", *s, err)
	}
	if k < money.MinCoef {
		t.Errorf("coefficient %v below the guaranteed 1.10", k)
	}
	return k
}

// checkStream asserts the events are numbered 1, 2, 3, ... without gaps or
// repeats, and that the settled draw was dealt card by card.
func checkStream(t *testing.T, events []tableEvent, drawID string) {
	t.Helper()
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d (want %d): gap or duplicate", i, e.Seq, i+1)
		}
	}
	streets := map[string]int{}
	for _, e := range events {
		if e.Type == "CARDS_DEALT" && e.DrawID == drawID && e.Street != nil {
			streets[*e.Street]++
		}
	}
	if streets["POCKET"] != 6 || streets["FLOP"] != 1 || streets["TURN"] != 1 || streets["RIVER"] != 1 {
		t.Errorf("cards dealt by street %v, want 6 pockets and one flop, turn and river", streets)
	}
}

func fastTote(cfg *app.Config) {
	cfg.DealerEnabled = true
	cfg.TimeScale = toteScale
}

// onClock is fastTote with the totalizator on clk: a test that plays whole
// draws shares one skipping clock between its servers, bets on tables made
// by createLongTable, and skips each round to its close (skipRound) once
// its bets are in. Its draws then take as long as the betting, not the
// rounds, and the test can run beside others.
func onClock(clk *clocktest.Skipping) func(*app.Config) {
	return func(cfg *app.Config) {
		fastTote(cfg)
		cfg.ToteClock = clk
	}
}

// skipRound moves clk (nil: the wall clock, nothing to do) to closesAt, the
// close of a round the test has placed its bets in: the dealer closes it
// at once.
func skipRound(clk *clocktest.Skipping, closesAt *time.Time) {
	if clk != nil && closesAt != nil {
		clk.SkipTo(*closesAt)
	}
}

func TestToteDrawEndToEnd(t *testing.T) {
	testenv.SkipShort(t, "plays a whole draw on each backend")
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			clk := clocktest.NewSkipping()
			_, c := startServer(t, b, onClock(clk))
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			players := []player{newPlayer(t, c, "100000.00"), newPlayer(t, c, "100000.00"), newPlayer(t, c, "100000.00")}
			tableID := createLongTable(t, admin, unique("e2e"))
			events := watch(t, c, tableID)
			drawID, seen := playDraw(t, clk, events, players, 3*time.Minute)
			checkStream(t, seen, drawID)
			checkSettlement(t, c, drawID, players, 100000*money.KZT)
			checkPlayerBetFilters(t, admin, players[0], drawID)

			t.Run("a bet on a finished draw is refused", func(t *testing.T) {
				players[0].Client.MustFail(t, "CONFLICT", "", `mutation($d: ID!) { placeBet(input: {drawId: $d, selection: {position: 1}, stake: "100.00", idempotencyKey: "late"}) { id } }`, map[string]any{"d": drawID})
			})
			t.Run("results and the jackpot chain are public", func(t *testing.T) {
				var out struct {
					Results struct {
						Edges []struct {
							Node struct {
								ID         string
								ResultJSON string `json:"resultJson"`
							}
						}
					}
				}
				for name, cl := range map[string]*gqltest.Client{"anonymous": c, "a player": players[0].Client, "an admin": admin} {
					cl.MustDo(t, `query($t: ID!) { results(tableId: $t) { edges { node { id resultJson } } } }`, map[string]any{"t": tableID}, &out)
					found := false
					for _, e := range out.Results.Edges {
						found = found || e.Node.ID == drawID
					}
					if !found {
						t.Errorf("%s: results %+v lack draw %s", name, out.Results.Edges, drawID)
					}
				}
				var chain struct {
					JackpotChain struct {
						Edges []struct {
							Node struct {
								EntryJSON string `json:"entryJson"`
							}
						}
					}
				}
				c.MustDo(t, `{ jackpotChain(first: 100) { edges { node { entryJson } } } }`, nil, &chain)
				var run verify.JackpotRun
				for _, e := range chain.JackpotChain.Edges {
					var entry tote.JackpotEntry
					if err := json.Unmarshal([]byte(e.Node.EntryJSON), &entry); err != nil {
						t.Fatal(err)
					}
					run.Entries = append(run.Entries, entry)
				}
				c.MustDo(t, `{ results(first: 100) { edges { node { id resultJson } } } }`, nil, &out)
				for _, e := range out.Results.Edges {
					var res tote.DrawResult
					if err := json.Unmarshal([]byte(e.Node.ResultJSON), &res); err != nil {
						t.Fatal(err)
					}
					run.Results = append(run.Results, res)
				}
				if len(run.Entries) == 0 {
					t.Fatal("the jackpot chain is empty after a settled draw")
				}
				for _, p := range verify.JackpotChain(run) {
					t.Errorf("jackpot chain: %s", p)
				}
			})
			t.Run("reconnecting with the last seq resumes without gaps", func(t *testing.T) {
				last := seen[len(seen)-1].Seq
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				sub, err := c.SubscribeLegacy(ctx, tableEventsSub, map[string]any{"t": tableID, "after": last - 3})
				if err != nil {
					t.Fatal(err)
				}
				defer sub.Close()
				for want := last - 2; want <= last+2; want++ {
					select {
					case raw, ok := <-sub.Next:
						if !ok {
							t.Fatalf("stream ended: %s", sub.Err())
						}
						var m struct{ TableEvents tableEvent }
						_ = json.Unmarshal(raw, &m)
						if m.TableEvents.Seq != want {
							t.Fatalf("after reconnect got seq %d, want %d", m.TableEvents.Seq, want)
						}
					case <-ctx.Done():
						t.Fatalf("no event %d after reconnect", want)
					}
				}
			})
		})
	}
}

// TestTwoReplicasShareOneTable runs two servers on one Postgres and Redis:
// only the first deals; a subscriber on the second sees every card the first
// dealt, and a bet placed through the second lands in the first's draw.
func TestTwoReplicasShareOneTable(t *testing.T) {
	testenv.SkipShort(t, "plays a whole draw across two replicas")
	t.Parallel()
	b := backends(t)[1]
	clk := clocktest.NewSkipping()
	_, dealer := startServer(t, b, onClock(clk))
	_, other := startServer(t, b, func(cfg *app.Config) { onClock(clk)(cfg); cfg.DealerEnabled = false })
	admin := signIn(t, dealer, testAdminEmail, testAdminPassword)
	tableID := createLongTable(t, admin, unique("replicas"))
	players := []player{newPlayer(t, other, "100000.00"), newPlayer(t, other, "100000.00")}
	events := watch(t, other, tableID)
	drawID, seen := playDraw(t, clk, events, players, 3*time.Minute)
	checkStream(t, seen, drawID)
	checkSettlement(t, dealer, drawID, players, 100000*money.KZT)

	var d struct {
		Draw struct {
			Board     []string
			Positions []struct{ Cards []string }
		}
	}
	dealer.MustDo(t, `query($d: ID!) { draw(id: $d) { board positions { cards } } }`, map[string]any{"d": drawID}, &d)
	var dealt []string
	for _, e := range seen {
		if e.Type == "CARDS_DEALT" && e.DrawID == drawID {
			dealt = append(dealt, e.Cards...)
		}
	}
	var want []string
	for _, p := range d.Draw.Positions {
		want = append(want, p.Cards...)
	}
	want = append(want, d.Draw.Board...)
	for _, c := range want {
		if !slices.Contains(dealt, c) {
			t.Errorf("card %s of the draw never reached the other replica's subscriber (saw %s)", c, strings.Join(dealt, " "))
		}
	}
}
