package parimutuel_test

import (
	"fmt"
	"testing"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// defaultPoolConfig is the rules' default: 3% commission, the jackpot
// enabled at 0.01%, and an EXPRESS net split 60% / 40%.
func defaultPoolConfig() parimutuel.PoolConfig {
	return parimutuel.PoolConfig{
		Commission:     parimutuel.MinCommission,
		JackpotEnabled: true,
		JackpotRate:    parimutuel.JackpotRate,
		ExpressShare1:  parimutuel.DefaultExpressShare1,
		ExpressShare2:  parimutuel.DefaultExpressShare2,
	}
}

func bet(id string, stake money.Amount, sel parimutuel.Selection) parimutuel.PoolBet {
	return parimutuel.PoolBet{ID: id, Player: "player-" + id, Stake: stake, Selection: sel}
}

func pool(m parimutuel.Market, cfg parimutuel.PoolConfig, bets ...parimutuel.PoolBet) parimutuel.Pool {
	return parimutuel.Pool{ID: "pool", Market: m, Round: parimutuel.RoundPreDeal, Positions: 6, Config: cfg, Bets: bets}
}

func withCommission(bp money.BasisPoints) parimutuel.PoolConfig {
	c := defaultPoolConfig()
	c.Commission = bp
	return c
}

func jackpotOff() parimutuel.PoolConfig {
	c := defaultPoolConfig()
	c.JackpotEnabled = false
	return c
}

var (
	win   = parimutuel.WinSelection
	combo = parimutuel.CombinationSelection
	coup  = parimutuel.ExpressSelection
	dflt  = defaultPoolConfig()
)

type settleWant struct {
	commission, contribution, net money.Amount
	coefs                         []money.Coef   // per category
	payouts                       []money.Amount // per bet, in order
	breakage, topUp               money.Amount
	jackpotPaid, rollover         money.Amount
	refund                        parimutuel.RefundReason
}

func TestSettlePool(t *testing.T) {
	tests := []struct {
		name    string
		pool    parimutuel.Pool
		outcome parimutuel.Outcome
		jackpot money.Amount
		want    settleWant
	}{
		{
			// G 600.00, C 18.00, J 0.06, N 581.94, S 200.00, k 2.90
			name:    "single winner",
			pool:    pool(parimutuel.MarketWin, dflt, bet("a", 10000, win(1)), bet("b", 20000, win(2)), bet("c", 30000, win(3))),
			outcome: parimutuel.Outcome{Winners: []int{2}},
			want: settleWant{commission: 1800, contribution: 6, net: 58194, coefs: []money.Coef{290},
				payouts: []money.Amount{0, 58000, 0}, breakage: 194},
		},
		{
			// G 650.00, C 19.50, J 0.06, N 630.44, S 350.00, k 1.80
			name: "tie between two backed positions",
			pool: pool(parimutuel.MarketWin, dflt, bet("a", 10000, win(1)), bet("b", 20000, win(2)),
				bet("c", 30000, win(3)), bet("d", 5000, win(1))),
			outcome: parimutuel.Outcome{Winners: []int{2, 1}},
			want: settleWant{commission: 1950, contribution: 6, net: 63044, coefs: []money.Coef{180},
				payouts: []money.Amount{18000, 36000, 0, 9000}, breakage: 44},
		},
		{
			name:    "nobody backed the winner",
			pool:    pool(parimutuel.MarketWin, dflt, bet("a", 10000, win(1)), bet("b", 20000, win(2))),
			outcome: parimutuel.Outcome{Winners: []int{3}},
			want:    settleWant{net: 30000, payouts: []money.Amount{10000, 20000}, refund: parimutuel.RefundNoWinner},
		},
		{
			// G 1010.00, C 30.30, J 0.10, N 979.60, k 0.97 -> 1.10, top-up 120.40
			name:    "minus pool",
			pool:    pool(parimutuel.MarketWin, dflt, bet("a", 100000, win(1)), bet("b", 1000, win(2))),
			outcome: parimutuel.Outcome{Winners: []int{1}},
			want: settleWant{commission: 3030, contribution: 10, net: 97960, coefs: []money.Coef{110},
				payouts: []money.Amount{110000, 0}, topUp: 12040},
		},
		{
			// G 303.33, C 9.09, J 0.03, N 294.21; every bet wins at 1.10
			name:    "all-tie board",
			pool:    pool(parimutuel.MarketWin, dflt, bet("a", 10000, win(1)), bet("b", 20000, win(4)), bet("c", 333, win(6))),
			outcome: parimutuel.Outcome{Winners: []int{1, 2, 3, 4, 5, 6}},
			want: settleWant{commission: 909, contribution: 3, net: 29421, coefs: []money.Coef{110},
				payouts: []money.Amount{11000, 22000, 366}, topUp: 3945},
		},
		{
			// G 400.00, C 60.00 (15%), J 0.04, N 339.96, k 3.39
			name:    "commission above 3%",
			pool:    pool(parimutuel.MarketWin, withCommission(1500), bet("a", 10000, win(1)), bet("b", 30000, win(2))),
			outcome: parimutuel.Outcome{Winners: []int{1}},
			want: settleWant{commission: 6000, contribution: 4, net: 33996, coefs: []money.Coef{339},
				payouts: []money.Amount{33900, 0}, breakage: 96},
		},
		{
			// G 400.00, C 12.00, no J, N 388.00, k 3.88 exactly
			name:    "jackpot disabled",
			pool:    pool(parimutuel.MarketWin, jackpotOff(), bet("a", 10000, win(1)), bet("b", 30000, win(2))),
			outcome: parimutuel.Outcome{Winners: []int{1}},
			jackpot: 999999,
			want: settleWant{commission: 1200, net: 38800, coefs: []money.Coef{388},
				payouts: []money.Amount{38800, 0}},
		},
		{
			// G 200.00, C 6.00, J 0.02, N 193.98, S 150.00, k 1.29
			name: "combination",
			pool: pool(parimutuel.MarketCombination, dflt, bet("a", 5000, combo(parimutuel.Flush)),
				bet("b", 5000, combo(parimutuel.Pair)), bet("c", 10000, combo(parimutuel.Flush))),
			outcome: parimutuel.Outcome{Category: parimutuel.Flush},
			want: settleWant{commission: 600, contribution: 2, net: 19398, coefs: []money.Coef{129},
				payouts: []money.Amount{6450, 0, 12900}, breakage: 48},
		},
		{
			name:    "combination nobody backed",
			pool:    pool(parimutuel.MarketCombination, dflt, bet("a", 5000, combo(parimutuel.Flush)), bet("b", 5000, combo(parimutuel.Pair))),
			outcome: parimutuel.Outcome{Category: parimutuel.Straight},
			want:    settleWant{net: 10000, payouts: []money.Amount{5000, 5000}, refund: parimutuel.RefundNoWinner},
		},
		{
			name:    "empty pool",
			pool:    pool(parimutuel.MarketWin, dflt),
			outcome: parimutuel.Outcome{Winners: []int{1}},
			want:    settleWant{payouts: []money.Amount{}, refund: parimutuel.RefundNoWinner},
		},
		{
			// G 100.00, C 3.00, J 0.01, N 96.99; funds 58.19 + jackpot 1000.00 and 38.80
			// cat 1: k 1058.19/10.00 = 105.81; cat 2 (a, b): k 38.80/30.00 = 1.29
			name: "express 3 of 3 takes the jackpot",
			pool: pool(parimutuel.MarketExpress, dflt, bet("a", 1000, coup(1, 2, 3)), bet("b", 2000, coup(1, 2, 4)),
				bet("c", 3000, coup(4, 4, 3)), bet("d", 4000, coup(5, 5, 5))),
			outcome: parimutuel.Outcome{FlopLeaders: []int{1}, TurnLeaders: []int{2}, Winners: []int{3}},
			jackpot: 100000,
			want: settleWant{commission: 300, contribution: 1, net: 9699, coefs: []money.Coef{10581, 129},
				payouts: []money.Amount{105810 + 1290, 2580, 0, 0}, breakage: 9 + 10, jackpotPaid: 100000},
		},
		{
			// G 900.00, C 27.00, J 0.09, N 872.91; cat 1 fund 523.74 rolls over;
			// cat 2 fund 349.17 / 200.00 = 1.74
			name: "express empty category 1 rolls into the jackpot",
			pool: pool(parimutuel.MarketExpress, dflt, bet("b", 20000, coup(1, 2, 4)),
				bet("c", 30000, coup(4, 4, 3)), bet("d", 40000, coup(5, 5, 5))),
			outcome: parimutuel.Outcome{FlopLeaders: []int{1}, TurnLeaders: []int{2}, Winners: []int{3}},
			jackpot: 100000,
			want: settleWant{commission: 2700, contribution: 9, net: 87291, coefs: []money.Coef{0, 174},
				payouts: []money.Amount{34800, 0, 0}, breakage: 117, rollover: 52374},
		},
		{
			// jackpot disabled: no J, and category 2 shares all of N = 873.00
			name: "express empty category 1 with the jackpot disabled",
			pool: pool(parimutuel.MarketExpress, jackpotOff(), bet("b", 20000, coup(1, 2, 4)),
				bet("c", 30000, coup(4, 4, 3)), bet("d", 40000, coup(5, 5, 5))),
			outcome: parimutuel.Outcome{FlopLeaders: []int{1}, TurnLeaders: []int{2}, Winners: []int{3}},
			jackpot: 100000,
			want: settleWant{commission: 2700, net: 87300, coefs: []money.Coef{0, 436},
				payouts: []money.Amount{87200, 0, 0}, breakage: 100},
		},
		{
			name:    "express empty category 2 refunds",
			pool:    pool(parimutuel.MarketExpress, dflt, bet("c", 30000, coup(4, 4, 3)), bet("d", 40000, coup(5, 5, 5))),
			outcome: parimutuel.Outcome{FlopLeaders: []int{1}, TurnLeaders: []int{2}, Winners: []int{3}},
			jackpot: 100000,
			want:    settleWant{net: 70000, payouts: []money.Amount{30000, 40000}, refund: parimutuel.RefundNoWinner},
		},
		{
			// G 40.00, C 1.20, J 0 (floor 0.004), N 38.80; funds 23.28 and 15.52
			// cat 1 (a, b): 23.28/20.00 = 1.16; cat 2 (a, b, c): 15.52/30.00 = 0.51 -> 1.10
			name: "express with tied leaders",
			pool: pool(parimutuel.MarketExpress, dflt, bet("a", 1000, coup(2, 3, 4)), bet("b", 1000, coup(1, 2, 3)),
				bet("c", 1000, coup(1, 1, 4)), bet("d", 1000, coup(5, 5, 5))),
			outcome: parimutuel.Outcome{FlopLeaders: []int{1, 2}, TurnLeaders: []int{2, 3}, Winners: []int{3, 4}},
			want: settleWant{net: 3880, commission: 120, coefs: []money.Coef{116, 110},
				payouts: []money.Amount{1160 + 1100, 1160 + 1100, 1100, 0}, breakage: 8, topUp: 1748},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parimutuel.SettlePool(tt.pool, tt.outcome, tt.jackpot)
			if err != nil {
				t.Fatal(err)
			}
			checkSettlement(t, tt.pool, s)
			checkWant(t, s, tt.want)
		})
	}
}

func checkWant(t *testing.T, s parimutuel.PoolSettlement, w settleWant) {
	t.Helper()
	type fig struct {
		name      string
		got, want money.Amount
	}
	for _, f := range []fig{
		{"commission", s.Commission, w.commission}, {"jackpot contribution", s.JackpotContribution, w.contribution},
		{"net", s.Net, w.net}, {"breakage", s.Breakage, w.breakage}, {"top-up", s.TopUp, w.topUp},
		{"jackpot paid", s.JackpotPaid, w.jackpotPaid}, {"rollover", s.Rollover, w.rollover},
	} {
		if f.got != f.want {
			t.Errorf("%s = %s, want %s", f.name, f.got, f.want)
		}
	}
	if s.RefundReason != w.refund || s.Refunded != (w.refund != "") {
		t.Errorf("refunded %v (%q), want %q", s.Refunded, s.RefundReason, w.refund)
	}
	if len(s.Categories) != len(w.coefs) {
		t.Fatalf("%d categories, want %d", len(s.Categories), len(w.coefs))
	}
	for i, c := range s.Categories {
		if c.Coef != w.coefs[i] {
			t.Errorf("category %d coefficient %s, want %s", c.Category, c.Coef, w.coefs[i])
		}
	}
	if len(s.Payouts) != len(w.payouts) {
		t.Fatalf("%d payouts, want %d", len(s.Payouts), len(w.payouts))
	}
	for i, p := range s.Payouts {
		if p.Amount != w.payouts[i] {
			t.Errorf("bet %s paid %s, want %s", p.BetID, p.Amount, w.payouts[i])
		}
	}
}

// fataler is what the checks need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkSettlement asserts what holds for every settlement: the published
// figures balance, the legs are positive and leave the escrow at zero, every
// bet has its payout, refunds return the stake exactly, and each category's
// winners are paid floor(stake × k) with k at least 1.10.
func checkSettlement(t fataler, p parimutuel.Pool, s parimutuel.PoolSettlement) {
	t.Helper()
	if s.PoolID != p.ID || s.Market != p.Market || s.Round != p.Round || s.NumBets != len(p.Bets) {
		t.Fatalf("settlement of %s %s %s with %d bets, want %s %s %s with %d",
			s.PoolID, s.Market, s.Round, s.NumBets, p.ID, p.Market, p.Round, len(p.Bets))
	}
	var gross money.Amount
	for _, b := range p.Bets {
		gross += b.Stake
	}
	if s.Gross != gross || s.Net != s.Gross-s.Commission-s.JackpotContribution {
		t.Fatalf("G %s (want %s), N %s != G − C − J", s.Gross, gross, s.Net)
	}
	in := s.Gross + s.TopUp + s.JackpotPaid
	out := s.Paid + s.Refunds + s.Commission + s.Breakage + s.JackpotContribution + s.Rollover
	if in != out {
		t.Fatalf("money not conserved: G+top-up+jackpot = %s, paid+refunds+C+breakage+J+rollover = %s", in, out)
	}
	for _, a := range []money.Amount{s.Commission, s.JackpotContribution, s.Net, s.Paid, s.Breakage,
		s.TopUp, s.JackpotPaid, s.Rollover, s.Refunds} {
		if a < 0 {
			t.Fatalf("negative figure in %+v", s)
		}
	}

	// Posting the legs, starting from the stakes held in escrow.
	escrow := parimutuel.Account{Kind: parimutuel.AccountPoolEscrow, Ref: p.ID}
	bal := map[parimutuel.Account]money.Amount{escrow: s.Gross}
	for i, l := range s.Legs {
		if l.Amount <= 0 || l.From == l.To {
			t.Fatalf("leg %d is not a positive movement between two accounts: %+v", i, l)
		}
		bal[l.From] -= l.Amount
		bal[l.To] += l.Amount
		if bal[escrow] < 0 {
			t.Fatalf("escrow below zero after leg %d: %+v", i, l)
		}
	}
	if bal[escrow] != 0 {
		t.Fatalf("escrow holds %s after settlement", bal[escrow])
	}
	wallets := map[string]money.Amount{}
	var paid, refunds money.Amount
	if len(s.Payouts) != len(p.Bets) {
		t.Fatalf("%d payouts for %d bets", len(s.Payouts), len(p.Bets))
	}
	for i, po := range s.Payouts {
		b := p.Bets[i]
		if po.BetID != b.ID || po.Stake != b.Stake || po.Amount < 0 || po.Cat1 < 0 || po.Cat2 < 0 {
			t.Fatalf("payout %+v for bet %+v", po, b)
		}
		wallets[b.Player] += po.Amount
		if po.Refund {
			if !s.Refunded || po.Amount != b.Stake || po.Cat1 != 0 || po.Cat2 != 0 {
				t.Fatalf("refund %+v of bet %+v", po, b)
			}
			refunds += po.Amount
			continue
		}
		if po.Amount != po.Cat1+po.Cat2 {
			t.Fatalf("payout %+v is not the sum of its categories", po)
		}
		paid += po.Amount
	}
	for player, a := range wallets {
		if got := bal[parimutuel.Account{Kind: parimutuel.AccountPlayerWallet, Ref: player}]; got != a {
			t.Fatalf("wallet of %s received %s, payouts say %s", player, got, a)
		}
	}
	if paid != s.Paid || refunds != s.Refunds {
		t.Fatalf("payouts sum to %s paid and %s refunded, settlement says %s and %s", paid, refunds, s.Paid, s.Refunds)
	}
	organiser := s.Commission + s.Breakage - s.TopUp
	if got := bal[parimutuel.Account{Kind: parimutuel.AccountOrganiser}]; got != organiser {
		t.Fatalf("organiser received %s, want C + breakage − top-up = %s", got, organiser)
	}
	if got := bal[parimutuel.Account{Kind: parimutuel.AccountJackpot}]; got != s.JackpotChange() {
		t.Fatalf("jackpot received %s, want %s", got, s.JackpotChange())
	}

	if s.Refunded {
		if s.Commission != 0 || s.JackpotContribution != 0 || s.Refunds != s.Gross || len(s.Categories) != 0 {
			t.Fatalf("refunded pool took money: %+v", s)
		}
		return
	}
	checkCategories(t, p, s)
}

// checkCategories recomputes every category's payouts from its published
// coefficient, the way a member of the public would.
func checkCategories(t fataler, p parimutuel.Pool, s parimutuel.PoolSettlement) {
	t.Helper()
	var paid, breakage, topUp money.Amount
	for _, c := range s.Categories {
		var stakes, sum money.Amount
		bets := 0
		for i, po := range s.Payouts {
			won := po.Cat1
			if c.Category == 2 {
				won = po.Cat2
			}
			if won == 0 {
				continue
			}
			bets++
			stakes += p.Bets[i].Stake
			sum += won
			if won != c.Coef.Pay(p.Bets[i].Stake) {
				t.Fatalf("bet %s won %s in category %d, want floor(%s × %s)", po.BetID, won, c.Category, p.Bets[i].Stake, c.Coef)
			}
		}
		if bets != c.NumBets || stakes != c.Stakes || sum != c.Paid {
			t.Fatalf("category %+v, but payouts show %d bets, stakes %s, paid %s", c, bets, stakes, sum)
		}
		if c.NumBets > 0 {
			if c.Coef < money.MinCoef {
				t.Fatalf("category %d coefficient %s below 1.10", c.Category, c.Coef)
			}
			if raw := money.CoefOf(c.Fund, c.Stakes); c.Coef != max(raw, money.MinCoef) {
				t.Fatalf("category %d coefficient %s, want max(1.10, %s)", c.Category, c.Coef, raw)
			}
			if c.Paid-c.Fund != c.TopUp-c.Breakage || c.TopUp < 0 || c.Breakage < 0 || (c.TopUp > 0 && c.Breakage > 0) {
				t.Fatalf("category %+v: top-up and breakage do not square paid with fund", c)
			}
		} else if c.Coef != 0 || c.Paid != 0 || c.Breakage != 0 || c.TopUp != 0 || c.Fund != 0 {
			t.Fatalf("category %+v has no bets but moves money", c)
		}
		paid += c.Paid
		breakage += c.Breakage
		topUp += c.TopUp
	}
	if paid != s.Paid || breakage != s.Breakage || topUp != s.TopUp {
		t.Fatalf("categories sum to paid %s, breakage %s, top-up %s; settlement says %s, %s, %s",
			paid, breakage, topUp, s.Paid, s.Breakage, s.TopUp)
	}
}

func TestVoidPool(t *testing.T) {
	p := pool(parimutuel.MarketExpress, dflt, bet("a", 10000, coup(1, 1, 1)), bet("b", 12345, coup(2, 3, 4)))
	s, err := parimutuel.VoidPool(p)
	if err != nil {
		t.Fatal(err)
	}
	checkSettlement(t, p, s)
	checkWant(t, s, settleWant{net: 22345, payouts: []money.Amount{10000, 12345}, refund: parimutuel.RefundVoidDraw})
	if len(s.Winning) != 0 || len(s.Legs) != 2 || s.Legs[1].Purpose != parimutuel.PurposeRefund || s.Legs[1].BetID != "b" {
		t.Fatalf("void settlement %+v", s)
	}
}

func TestSettlePoolWinning(t *testing.T) {
	s, err := parimutuel.SettlePool(pool(parimutuel.MarketWin, dflt), parimutuel.Outcome{Winners: []int{5, 2}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := selections(s.Winning); got != "2 5" {
		t.Errorf("WIN winning = %q", got)
	}
	s, err = parimutuel.SettlePool(pool(parimutuel.MarketExpress, dflt),
		parimutuel.Outcome{FlopLeaders: []int{2, 1}, TurnLeaders: []int{3}, Winners: []int{3, 6}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := selections(s.Winning); got != "1-3-3 1-3-6 2-3-3 2-3-6" {
		t.Errorf("EXPRESS winning = %q", got)
	}
}

func selections(ss []parimutuel.Selection) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s.String()
	}
	return out
}

func TestSettlePoolErrors(t *testing.T) {
	okWin := parimutuel.Outcome{Winners: []int{1}}
	okExpress := parimutuel.Outcome{Winners: []int{1}, FlopLeaders: []int{1}, TurnLeaders: []int{1}}
	tests := []struct {
		name    string
		pool    parimutuel.Pool
		outcome parimutuel.Outcome
		jackpot money.Amount
		reason  string
	}{
		{"commission below 3%", pool(parimutuel.MarketWin, withCommission(299)), okWin, 0, "COMMISSION_TOO_LOW"},
		{"commission takes all", pool(parimutuel.MarketWin, withCommission(9999)), okWin, 0, "INVALID_POOL_CONFIG"},
		{"shares not 100%", pool(parimutuel.MarketWin, parimutuel.PoolConfig{Commission: 300, ExpressShare1: 6000, ExpressShare2: 3000}), okWin, 0, "INVALID_POOL_CONFIG"},
		{"negative jackpot rate", pool(parimutuel.MarketWin, parimutuel.PoolConfig{Commission: 300, JackpotRate: -1, ExpressShare1: 10000}), okWin, 0, "INVALID_POOL_CONFIG"},
		{"express after pocket", parimutuel.Pool{ID: "p", Market: parimutuel.MarketExpress, Round: parimutuel.RoundFlop, Positions: 6, Config: dflt}, okExpress, 0, "MARKET_NOT_OFFERED_IN_ROUND"},
		{"unknown market", parimutuel.Pool{ID: "p", Market: "PLACE", Round: parimutuel.RoundFlop, Positions: 6, Config: dflt}, okWin, 0, "UNKNOWN_MARKET"},
		{"table too big", parimutuel.Pool{ID: "p", Market: parimutuel.MarketWin, Round: parimutuel.RoundFlop, Positions: 11, Config: dflt}, okWin, 0, "INVALID_TABLE_SIZE"},
		{"zero stake", pool(parimutuel.MarketWin, dflt, bet("a", 0, win(1))), okWin, 0, "INVALID_STAKE"},
		{"negative stake", pool(parimutuel.MarketWin, dflt, bet("a", -5, win(1))), okWin, 0, "INVALID_STAKE"},
		{"duplicate bet", pool(parimutuel.MarketWin, dflt, bet("a", 1, win(1)), bet("a", 1, win(2))), okWin, 0, "DUPLICATE_BET"},
		{"bet without player", pool(parimutuel.MarketWin, dflt, parimutuel.PoolBet{ID: "a", Stake: 1, Selection: win(1)}), okWin, 0, "INVALID_BET"},
		{"bet of another market", pool(parimutuel.MarketWin, dflt, bet("a", 1, combo(parimutuel.Flush))), okWin, 0, "WRONG_MARKET"},
		{"position off the table", pool(parimutuel.MarketWin, dflt, bet("a", 1, win(7))), okWin, 0, "POSITION_OUT_OF_RANGE"},
		{"pool too large", pool(parimutuel.MarketWin, dflt, bet("a", parimutuel.MaxPoolAmount, win(1)), bet("b", 1, win(2))), okWin, 0, "POOL_TOO_LARGE"},
		{"no winner named", pool(parimutuel.MarketWin, dflt), parimutuel.Outcome{}, 0, "INVALID_OUTCOME"},
		{"winner off the table", pool(parimutuel.MarketWin, dflt), parimutuel.Outcome{Winners: []int{7}}, 0, "INVALID_OUTCOME"},
		{"winner twice", pool(parimutuel.MarketWin, dflt), parimutuel.Outcome{Winners: []int{2, 2}}, 0, "INVALID_OUTCOME"},
		{"unknown category", pool(parimutuel.MarketCombination, dflt), parimutuel.Outcome{Category: 10}, 0, "INVALID_OUTCOME"},
		{"express without flop leaders", pool(parimutuel.MarketExpress, dflt), parimutuel.Outcome{Winners: []int{1}, TurnLeaders: []int{1}}, 0, "INVALID_OUTCOME"},
		{"express without turn leaders", pool(parimutuel.MarketExpress, dflt), parimutuel.Outcome{Winners: []int{1}, FlopLeaders: []int{1}}, 0, "INVALID_OUTCOME"},
		{"negative jackpot", pool(parimutuel.MarketExpress, dflt), okExpress, -1, "INVALID_JACKPOT"},
		{"jackpot too large", pool(parimutuel.MarketExpress, dflt), okExpress, parimutuel.MaxPoolAmount + 1, "INVALID_JACKPOT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parimutuel.SettlePool(tt.pool, tt.outcome, tt.jackpot)
			wantReason(t, err, tt.reason)
		})
	}
}

func TestImpliedCoefs(t *testing.T) {
	// G 100.00, C 3.00, J 0.01, N 96.99: 96.99 / 99.00 = 0.97, not raised.
	totals := map[parimutuel.Selection]money.Amount{win(1): 9900, win(2): 100}
	got, err := parimutuel.ImpliedCoefs(totals, dflt)
	if err != nil {
		t.Fatal(err)
	}
	if got[win(1)] != 97 || got[win(2)] != 9699 || len(got) != 2 {
		t.Fatalf("ImpliedCoefs = %v", got)
	}
	_, err = parimutuel.ImpliedCoefs(map[parimutuel.Selection]money.Amount{win(1): -1}, dflt)
	wantReason(t, err, "INVALID_STAKE")
	_, err = parimutuel.ImpliedCoefs(map[parimutuel.Selection]money.Amount{win(1): parimutuel.MaxPoolAmount, win(2): 1}, dflt)
	wantReason(t, err, "POOL_TOO_LARGE")
	_, err = parimutuel.ImpliedCoefs(totals, withCommission(100))
	wantReason(t, err, "COMMISSION_TOO_LOW")
	empty, err := parimutuel.ImpliedCoefs(nil, dflt)
	if err != nil || len(empty) != 0 {
		t.Fatalf("ImpliedCoefs(nil) = %v, %v", empty, err)
	}
}

func TestCouponGuessed(t *testing.T) {
	c := parimutuel.Coupon{Flop: 2, Turn: 3, River: 4}
	for _, tt := range []struct {
		flop, turn, river []int
		want              int
	}{
		{[]int{2}, []int{3}, []int{4}, 3},
		{[]int{1, 2}, []int{3, 5}, []int{1}, 2},
		{[]int{1}, []int{1}, []int{4, 5}, 1},
		{[]int{1}, []int{1}, []int{1}, 0},
	} {
		if got := c.Guessed(tt.flop, tt.turn, tt.river); got != tt.want {
			t.Errorf("Guessed(%v, %v, %v) = %d, want %d", tt.flop, tt.turn, tt.river, got, tt.want)
		}
	}
}

func BenchmarkSettlePool(b *testing.B) {
	for _, m := range parimutuel.Markets {
		b.Run(string(m), func(b *testing.B) {
			p := pool(m, dflt)
			for i := range 1000 {
				sel := win(i%6 + 1)
				switch m {
				case parimutuel.MarketCombination:
					sel = combo(parimutuel.Combination(i % parimutuel.NumCombinations))
				case parimutuel.MarketExpress:
					sel = coup(i%6+1, i/6%6+1, i/36%6+1)
				}
				p.Bets = append(p.Bets, bet(fmt.Sprint(i), money.Amount(10000+i), sel))
			}
			o := parimutuel.Outcome{Winners: []int{2}, Category: parimutuel.Pair, FlopLeaders: []int{1}, TurnLeaders: []int{2}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parimutuel.SettlePool(p, o, 100000); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
