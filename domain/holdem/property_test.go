package holdem_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
)

// TestMoneyProperties plays random hands with random stakes and decisions
// (timeouts included) and checks the money invariants: the house result and
// the player result sum to zero, no return is negative, every return is one
// the rules allow, and the ledger legs move exactly the settled amounts.
func TestMoneyProperties(t *testing.T) {
	cfg := holdem.DefaultConfig()
	deck := make([]cards.Card, cards.NumCards)
	for i := range deck {
		deck[i] = cards.Card(i)
	}
	rapid.Check(t, func(t *rapid.T) {
		shuffled := rapid.Permutation(deck).Draw(t, "deck")
		boxes := rapid.IntRange(1, holdem.MaxBoxes).Draw(t, "boxes")
		d := holdem.Deal{Pockets: make([][2]cards.Card, boxes)}
		for i := range d.Pockets {
			d.Pockets[i] = [2]cards.Card{shuffled[2*i], shuffled[2*i+1]}
		}
		copy(d.Dealer[:], shuffled[4:6])
		copy(d.Board[:], shuffled[6:11])
		stakes := make([]holdem.Stake, boxes)
		for i := range stakes {
			stakes[i].Ante = money.Amount(rapid.Int64Range(int64(cfg.MinAnte), int64(cfg.MaxAnte)).Draw(t, "ante"))
			if rapid.Bool().Draw(t, "has bonus") {
				stakes[i].Bonus = money.Amount(rapid.Int64Range(1, int64(cfg.MaxBonus)).Draw(t, "bonus"))
			}
		}
		h, err := holdem.Start(cfg, stakes, d, t0)
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		now := t0
		for i := range boxes {
			switch rapid.SampledFrom([]string{"fold", "call", "timeout"}).Draw(t, "decision") {
			case "fold":
				err = h.Decide(i, holdem.Fold, now)
			case "call":
				err = h.Decide(i, holdem.Call, now)
			default:
				now = now.Add(cfg.DecisionTimeout)
				if !h.Expire(now) {
					t.Fatal("did not expire at the deadline")
				}
			}
			if err != nil {
				t.Fatalf("Decide: %v", err)
			}
			if h.Phase() == holdem.Settled {
				break
			}
			now = now.Add(time.Second)
		}
		s, ok := h.Settlement()
		if !ok {
			t.Fatal("not settled after every box decided")
		}
		checkSettlement(t, cfg, s, h.Legs())
	})
}

func checkSettlement(t *rapid.T, cfg holdem.Config, s holdem.Settlement, legs []holdem.Leg) {
	if s.PlayerNet+s.HouseNet != 0 {
		t.Fatalf("player %s + house %s != 0", s.PlayerNet, s.HouseNet)
	}
	var staked, returned money.Amount
	for _, b := range s.Boxes {
		a := b.Stake.Ante
		if b.AnteReturn < 0 || b.BetReturn < 0 || b.BonusReturn < 0 {
			t.Fatalf("negative return: %+v", b)
		}
		paid := a * money.Amount(1+cfg.Ante.Odds(b.Hand.Category))
		want := map[holdem.Outcome][3]money.Amount{ // bet, ante return, bet return
			holdem.OutcomeFold:               {0, 0, 0},
			holdem.OutcomeDealerNotQualified: {2 * a, paid, 2 * a},
			holdem.OutcomeWin:                {2 * a, paid, 4 * a},
			holdem.OutcomeLose:               {2 * a, 0, 0},
			holdem.OutcomeStay:               {2 * a, a, 2 * a},
		}[b.Outcome]
		if got := [3]money.Amount{b.Bet, b.AnteReturn, b.BetReturn}; got != want {
			t.Fatalf("box %d %s: bet, ante and bet returns %v, want %v", b.Box, b.Outcome, got, want)
		}
		if (b.Outcome == holdem.OutcomeFold) != (b.Decision == holdem.Fold) {
			t.Fatalf("box %d: outcome %s after %s", b.Box, b.Outcome, b.Decision)
		}
		if b.Outcome == holdem.OutcomeDealerNotQualified && s.DealerQualifies ||
			(b.Outcome == holdem.OutcomeWin || b.Outcome == holdem.OutcomeLose || b.Outcome == holdem.OutcomeStay) && !s.DealerQualifies {
			t.Fatalf("box %d: outcome %s with dealer qualifying %v", b.Box, b.Outcome, s.DealerQualifies)
		}
		wantBonus := b.Stake.Bonus * money.Amount(1+cfg.BonusOdds(b.BonusHand.Value))
		if cfg.BonusOdds(b.BonusHand.Value) == 0 {
			wantBonus = 0
		}
		if b.BonusReturn != wantBonus {
			t.Fatalf("box %d: bonus return %s, want %s", b.Box, b.BonusReturn, wantBonus)
		}
		staked += b.Staked()
		returned += b.Returned()
	}
	if staked != s.Staked || returned != s.Returned || returned-staked != s.PlayerNet {
		t.Fatalf("totals %s/%s/%s, boxes add up to %s/%s", s.Staked, s.Returned, s.PlayerNet, staked, returned)
	}
	var wallet, house, in, out money.Amount
	for _, l := range legs {
		if l.Amount <= 0 || l.From == l.To {
			t.Fatalf("bad leg %+v", l)
		}
		for acc, sign := range map[holdem.Account]money.Amount{l.From: -1, l.To: 1} {
			switch acc {
			case holdem.PlayerWallet:
				wallet += sign * l.Amount
			case holdem.HouseBank:
				house += sign * l.Amount
			default:
				t.Fatalf("unknown account in %+v", l)
			}
		}
		if l.Kind == holdem.LegPayout {
			out += l.Amount
		} else {
			in += l.Amount
		}
	}
	if wallet+house != 0 || wallet != s.PlayerNet || house != s.HouseNet || in != s.Staked || out != s.Returned {
		t.Fatalf("legs: wallet %s house %s staked %s returned %s; settlement %+v", wallet, house, in, out, s)
	}
}
