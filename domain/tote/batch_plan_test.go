package tote_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/protection/protectiontest"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestPlanBatchIsTheTwinsPosts is the property that the plan is the same
// function as the stores' posts (issue 24): for a random set of players
// (wallets, stake and loss limits, time-outs, an earlier stake some minutes
// ago that opened a session of play) and a random batch of bets (stakes out
// of range, keys repeated), tote.PlanBatch on a snapshot of the twin's state
// gives, request by request, the outcome of posting the same stakes one
// after another through the twin (ledgertest.MemStore guarded by
// protectiontest.MemStore: ledger.Apply and protection.Admit), and leaves the
// same wallets, counters and sessions. The Postgres fast path runs
// PlanBatch; SQLite and the twin post one stake at a time through the same
// two functions; TestBetBatchMatchesSinglePosts compares the fast path with
// Postgres single posts end to end.
func TestPlanBatchIsTheTwinsPosts(t *testing.T) {
	ctx := context.Background()
	loc := time.UTC
	now := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	minStake := 100 * money.KZT
	draw := tote.Draw{ID: 7, Number: 7, TableID: 1, Positions: 6, Phase: tote.PhasePreDeal, RoundClosesAt: now.Add(time.Minute), MinStake: minStake}
	table := tote.Table{ID: 1}
	table.Settings.MaxStake = 1_000_000 * money.KZT
	rapid.Check(t, func(rt *rapid.T) {
		clock := now
		led := ledgertest.NewMemStore(func() time.Time { return clock })
		prot := protectiontest.NewMemStore(loc, nil, nil)
		led.SetGuard(prot)
		players := rapid.IntRange(1, 4).Draw(rt, "players")
		for u := int64(1); u <= int64(players); u++ {
			dep := money.Amount(rapid.IntRange(0, 20).Draw(rt, "deposit")) * 50 * money.KZT
			if dep > 0 {
				clock = now.Add(-2 * time.Hour)
				if _, err := led.Post(ctx, ledger.Move(fmt.Sprintf("dep:%d", u), ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(u)), dep)); err != nil {
					rt.Fatal(err)
				}
			}
			if ago := rapid.IntRange(-1, 60).Draw(rt, "earlier stake minutes ago"); ago >= 0 && dep >= 200*money.KZT {
				clock = now.Add(-time.Duration(ago) * time.Minute)
				if _, err := led.Post(ctx, ledger.Move(fmt.Sprintf("early:%d", u), ledger.BetStake, "", ledger.UserWallet(ids.UserID(u)), ledger.EscrowOf("earlier"), 100*money.KZT)); err != nil {
					rt.Fatal(err)
				}
			}
			for range rapid.IntRange(0, 2).Draw(rt, "limits") {
				kind := rapid.SampledFrom([]protection.LimitKind{protection.StakeLimit, protection.LossLimit}).Draw(rt, "kind")
				p := rapid.SampledFrom(protection.Periods).Draw(rt, "period")
				amount := money.Amount(rapid.IntRange(1, 10).Draw(rt, "limit")) * 100 * money.KZT
				if _, err := prot.UpdateLimit(ctx, u, kind, p, func(l protection.Limit) (protection.Limit, error) { return l.Change(amount, now) }); err != nil {
					rt.Fatal(err)
				}
			}
			if rapid.IntRange(0, 7).Draw(rt, "time-out") == 0 {
				if _, err := prot.UpdateExclusion(ctx, u, func(protection.Exclusion) (protection.Exclusion, error) {
					return protection.NewTimeOut(48*time.Hour, now.Add(-time.Hour))
				}); err != nil {
					rt.Fatal(err)
				}
			}
		}
		clock = now

		// The snapshot a store would read.
		snap := tote.BatchSnapshot{Draw: draw, Table: table, Now: now, Wallets: map[ids.UserID]money.Amount{}, States: map[ids.UserID]protection.State{},
			Counters: map[ids.UserID]protection.Counters{}, Sessions: map[ids.UserID]protection.Session{}}
		read := func() {
			sessions, err := prot.ActiveSessions(ctx, time.Time{})
			if err != nil {
				rt.Fatal(err)
			}
			for _, s := range sessions {
				snap.Sessions[ids.UserID(s.UserID)] = s
			}
			for u := int64(1); u <= int64(players); u++ {
				b, err := led.Balance(ctx, ledger.UserWallet(ids.UserID(u)))
				if err != nil {
					rt.Fatal(err)
				}
				ls, _ := prot.Limits(ctx, u)
				ex, _ := prot.Exclusion(ctx, u)
				c, _ := prot.Counters(ctx, u, now, loc)
				snap.Wallets[ids.UserID(u)], snap.States[ids.UserID(u)], snap.Counters[ids.UserID(u)] = b, protection.State{Exclusion: ex, Limits: ls}, c
			}
		}
		read()

		n := rapid.IntRange(1, 12).Draw(rt, "bets")
		type req struct {
			user  ids.UserID
			stake money.Amount
			key   string
		}
		reqs := make([]req, n)
		w := tote.BatchWork{DrawID: draw.ID, Clock: fixedClock(now)}
		sel := parimutuel.Selection{Market: parimutuel.MarketWin, Position: 1}
		for i := range reqs {
			reqs[i] = req{ids.UserID(rapid.IntRange(1, players).Draw(rt, "user")),
				money.Amount(rapid.SampledFrom([]int{50, 100, 150, 200, 300, 500}).Draw(rt, "stake")) * money.KZT,
				fmt.Sprintf("k%d", rapid.IntRange(0, n).Draw(rt, "key"))}
			w.Requests = append(w.Requests, tote.BatchRequest{UserID: reqs[i].user, Key: reqs[i].key, Selection: sel, Stake: reqs[i].stake})
			snap.BetIDs = append(snap.BetIDs, int64(1000+i))
		}
		tooLow := errs.R(errs.Invalid, tote.ReasonStakeTooLow, "too low")
		escrow := ledger.EscrowOf(tote.PoolID(draw.ID, 1, parimutuel.MarketWin))
		plan, err := tote.PlanBatch(w, snap)
		if err != nil {
			rt.Fatal(err)
		}

		// The same stakes, one post after another through the twin; a
		// repeat of a key whose first post failed gets that failure.
		seen := map[string]bool{}
		failed := map[string]error{}
		for i, r := range reqs {
			got := plan.Results[i]
			var want error
			var balance money.Amount
			k := fmt.Sprint(r.user, "/", r.key)
			switch {
			case r.stake < minStake:
				want = tooLow
			case seen[k] && failed[k] != nil:
				want = failed[k]
			case seen[k]:
				want = errs.R(errs.Conflict, tote.ReasonDuplicateBet, "taken")
			default:
				seen[k] = true
				p, err := led.Post(ctx, ledger.Move(fmt.Sprintf("tote:bet:%d", 1000+i), ledger.BetStake, "", ledger.UserWallet(r.user), escrow, r.stake))
				want, failed[k] = err, err
				for _, e := range p.Entries {
					if e.Account == ledger.UserWallet(r.user) {
						balance = e.BalanceAfter
					}
				}
			}
			if errs.CodeOf(got.Err) != errs.CodeOf(want) || errs.ReasonOf(got.Err) != errs.ReasonOf(want) {
				rt.Fatalf("request %d (%+v): plan %v, twin %v", i, r, got.Err, want)
			}
			if want == nil && (got.Balance != balance || got.Bet.ID != int64(1000+i) || got.Bet.UserID != r.user || got.Bet.PlacedAt != now) {
				rt.Fatalf("request %d (%+v): plan bet %d of %d balance %s, twin balance %s", i, r, got.Bet.ID, got.Bet.UserID, got.Balance, balance)
			}
		}
		planned := map[ids.UserID]tote.PlannedPlayer{}
		for _, p := range plan.Players {
			planned[p.User] = p
		}
		before := snap
		before.Wallets, before.Counters, before.Sessions = map[ids.UserID]money.Amount{}, map[ids.UserID]protection.Counters{}, map[ids.UserID]protection.Session{}
		for u, b := range snap.Wallets {
			before.Wallets[u] = b
		}
		for u, c := range snap.Counters {
			before.Counters[u] = c
		}
		for u, s := range snap.Sessions {
			before.Sessions[u] = s
		}
		read() // the twin after its posts
		for u := ids.UserID(1); u <= ids.UserID(players); u++ {
			p, touched := planned[u]
			if !touched {
				p = tote.PlannedPlayer{User: u, Balance: before.Wallets[u], Counters: before.Counters[u], Session: before.Sessions[u]}
			}
			if p.Balance != snap.Wallets[u] {
				rt.Fatalf("player %d: plan leaves the wallet at %s, the twin at %s", u, p.Balance, snap.Wallets[u])
			}
			for _, per := range protection.Periods {
				pc, tc := p.Counters[per], snap.Counters[u][per]
				if pc.Deposits != tc.Deposits || pc.Stakes != tc.Stakes || pc.Returns != tc.Returns {
					rt.Fatalf("player %d %s: plan counters %+v, twin %+v", u, per, pc, tc)
				}
			}
			if ps, ts := p.Session, snap.Sessions[u]; ps.No != ts.No || ps.Stakes != ts.Stakes || ps.Returns != ts.Returns ||
				!ps.StartedAt.Equal(ts.StartedAt) || !ps.LastPlayAt.Equal(ts.LastPlayAt) || ps.Checks != ts.Checks {
				rt.Fatalf("player %d: plan session %+v, twin %+v", u, ps, ts)
			}
		}
	})
}

// fixedClock is a tote.Clock standing still.
type fixedClock time.Time

func (c fixedClock) Now() time.Time                       { return time.Time(c) }
func (c fixedClock) After(time.Duration) <-chan time.Time { return nil }
