package protectiontest

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

// testProperty drives one player through random deposits, stakes, returns,
// limit changes and clock moves, and checks every answer of the store
// against the domain rules applied to a model (protection.Decide over the
// model's counters, Limit.Change over the model's limits).
func testProperty(t *testing.T, w *world) {
	type key struct {
		k protection.LimitKind
		p protection.Period
	}
	rapid.Check(t, func(rt *rapid.T) {
		id := w.player(t, "Zhanna", dob)
		limits := map[key]protection.Limit{}
		counters := map[protection.Period]map[string]protection.Counter{}
		for _, p := range protection.Periods {
			counters[p] = map[string]protection.Counter{}
		}
		var balance money.Amount
		steps := rapid.IntRange(1, 30).Draw(rt, "steps")
		for range steps {
			now := w.clock.Now()
			model := func() (protection.State, protection.Counters) {
				st := protection.State{}
				for _, l := range limits {
					st.Limits = append(st.Limits, l)
				}
				c := protection.Counters{}
				for _, p := range protection.Periods {
					c[p] = counters[p][p.Start(now, w.loc).String()]
				}
				return st, c
			}
			bump := func(f protection.Flow) {
				for _, p := range protection.Periods {
					k := p.Start(now, w.loc).String()
					c := counters[p][k]
					switch f.Kind {
					case protection.FlowDeposit:
						c.Deposits += f.Amount
					case protection.FlowStake:
						c.Stakes += f.Amount
					case protection.FlowReturn:
						c.Returns += f.Amount
					}
					counters[p][k] = c
				}
			}
			amount := money.Amount(rapid.Int64Range(1, 300).Draw(rt, "amount")) * money.KZT
			switch op := rapid.IntRange(0, 5).Draw(rt, "op"); op {
			case 0, 1: // deposit or stake, checked against the model
				f := protection.Flow{UserID: id, Kind: protection.FlowDeposit, Amount: amount}
				if op == 1 {
					f.Kind = protection.FlowStake
				}
				st, c := model()
				want := protection.Decide(f, st, c, now)
				var got error
				switch {
				case op == 0:
					got = w.deposit(id, amount)
				case balance < amount:
					continue // insufficient funds is the ledger's own business
				case rapid.Bool().Draw(rt, "holdem"):
					got = w.ante(id, amount)
				default:
					got = w.bet(id, amount)
				}
				if errs.ReasonOf(got) != errs.ReasonOf(want) || (got == nil) != (want == nil) {
					rt.Fatalf("%s of %s: store says %v, rules say %v", f.Kind, amount, got, want)
				}
				if got == nil {
					bump(f)
					if op == 0 {
						balance += amount
					} else {
						balance -= amount
					}
				}
			case 2: // a return
				if err := w.payout(id, amount); err != nil {
					rt.Fatalf("payout: %v", err)
				}
				bump(protection.Flow{Kind: protection.FlowReturn, Amount: amount})
				balance += amount
			case 3: // a limit change
				k := rapid.SampledFrom(protection.LimitKinds).Draw(rt, "kind")
				p := rapid.SampledFrom(protection.Periods).Draw(rt, "period")
				a := money.Amount(rapid.Int64Range(0, 1000).Draw(rt, "limit")) * money.KZT
				cur, had := limits[key{k, p}]
				if !had {
					cur = protection.Limit{Kind: k, Period: p}
				}
				want, err := cur.Change(a, now)
				if err != nil {
					rt.Fatalf("model Change: %v", err)
				}
				got, err := w.svc.SetLimit(w.ctx, id, k, p, int64(a))
				if err != nil {
					rt.Fatalf("SetLimit: %v", err)
				}
				if got.Amount != want.Amount || got.Pending != want.Pending || got.PendingAmount != want.PendingAmount || !got.PendingAt.Equal(want.PendingAt) {
					rt.Fatalf("SetLimit = %+v, model %+v", got, want)
				}
				limits[key{k, p}] = want
			case 4: // time passes
				w.clock.Advance(time.Duration(rapid.Int64Range(1, 40*3600).Draw(rt, "seconds")) * time.Second)
			case 5: // the counters agree with the model
				_, c := model()
				got := w.counters(t, id)
				for _, p := range protection.Periods {
					g, m := got[p], c[p]
					if g.Deposits != m.Deposits || g.Stakes != m.Stakes || g.Returns != m.Returns {
						rt.Fatalf("%s counter = %+v, model %+v", p, g, m)
					}
				}
			}
		}
		if b := w.balance(t, id); b != balance {
			rt.Fatalf("balance = %s, model %s", b, balance)
		}
	})
}
