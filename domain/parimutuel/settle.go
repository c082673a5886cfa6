package parimutuel

import (
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// PoolSettlement is the settled result of one pool: every figure SPEC 1.7
// publishes, each bet's payout, and the legs that move the money. Amounts are
// in tiyn. The figures always satisfy
//
//	Gross + TopUp + JackpotPaid ==
//	    Paid + Refunds + Commission + Breakage + JackpotContribution + Rollover
//
// and posting Legs leaves the pool's escrow at exactly zero.
type PoolSettlement struct {
	PoolID string
	Market Market
	Round  Round

	NumBets             int          // number of bets in the pool
	Gross               money.Amount // G, the sum of the stakes
	Commission          money.Amount // C = floor(G × commission); 0 when refunded
	JackpotContribution money.Amount // J = floor(G × jackpot rate) while enabled; 0 when refunded
	Net                 money.Amount // N = G − C − J (G when refunded)

	// Winning lists the winning selections: the winning positions (WIN), the
	// winning category (COMBINATION), or every coupon that guesses 3 of 3
	// (EXPRESS), in ascending order. It is filled whether or not anybody
	// backed them, and is empty only for a void draw.
	Winning []Selection
	// Categories has one entry for WIN and COMBINATION (their only
	// category, numbered 1) and two for EXPRESS (category 1: 3 of 3 guessed;
	// category 2: at least 2 of 3). It is empty when the pool is refunded.
	Categories []CategoryResult

	Paid        money.Amount // paid to winning bets, all categories
	Breakage    money.Amount // what the funds left unpaid, to the organiser
	TopUp       money.Amount // the organiser's minus-pool top-up
	JackpotPaid money.Amount // taken from the jackpot into category 1
	Rollover    money.Amount // category funds rolled into the jackpot

	Refunded     bool         // every stake was returned; see RefundReason
	RefundReason RefundReason // why, when Refunded
	Refunds      money.Amount // the stakes returned, Gross when Refunded

	Payouts []Payout // one per bet, in the order of Pool.Bets
	Legs    []Leg    // the money movements, ready for the ledger
}

// CategoryResult is one winning category of a pool: its fund, the winning
// stakes, and the coefficient that shares the one among the other.
type CategoryResult struct {
	Category int          // 1, or 2 for EXPRESS category 2
	Fund     money.Amount // what this category shares out, jackpot included
	Jackpot  money.Amount // the part of Fund taken from the jackpot
	Stakes   money.Amount // S, the stakes of this category's winning bets
	NumBets  int          // the number of winning bets (coupons)
	Coef     money.Coef   // max(1.10, Fund/Stakes truncated); 0 when NumBets is 0
	Paid     money.Amount // the sum of floor(stake × Coef)
	Breakage money.Amount // Fund − Paid when positive
	TopUp    money.Amount // Paid − Fund when positive: the organiser pays it
	Rollover money.Amount // the fund rolled into the jackpot when NumBets is 0
}

// Payout is what one bet receives.
type Payout struct {
	BetID  string
	Stake  money.Amount
	Amount money.Amount // credited to the player: Cat1 + Cat2, or the stake when Refund
	Refund bool         // the stake is returned rather than won
	// Cat1 and Cat2 are the winnings in categories 1 and 2; WIN and
	// COMBINATION winnings are all in Cat1.
	Cat1, Cat2 money.Amount
	// Guessed is how many of an EXPRESS coupon's 3 predictions came true.
	Guessed int
}

// RefundReason says why a pool returned every stake. The values are stable.
type RefundReason string

// Why a pool may be refunded.
const (
	// RefundNoWinner: nobody backed a winning selection (for EXPRESS: no
	// coupon guessed even 2 of 3), or the pool has no bets. No commission
	// and no jackpot contribution are taken.
	RefundNoWinner RefundReason = "NO_WINNER"
	// RefundVoidDraw: the draw was void (rule 5).
	RefundVoidDraw RefundReason = "VOID_DRAW"
)

// JackpotChange is what settling the pool adds to the jackpot balance (J plus
// rollovers minus the jackpot paid out); it is negative when category 1 took
// the jackpot. The pools of one draw are settled one after another in round
// order, each given the balance the previous ones left, so the first EXPRESS
// pool with a 3-of-3 coupon takes the jackpot.
func (s PoolSettlement) JackpotChange() money.Amount {
	return s.JackpotContribution + s.Rollover - s.JackpotPaid
}

// SettlePool settles pool p by the pari-mutuel rules of SPEC 1.5, given the
// draw's outcome and the jackpot balance available to an EXPRESS category 1
// (ignored by other markets and while the jackpot is disabled).
//
// All markets: G is the sum of the stakes, C = floor(G × commission),
// J = floor(G × jackpot rate) while the jackpot is enabled, N = G − C − J.
// When no bet wins, every stake is refunded and neither C nor J is taken.
// Every category shares its fund among its winning bets at
// k = fund / their stakes, truncated to two decimals and raised to 1.10 if
// lower; each bet is paid floor(stake × k). What the fund leaves unpaid
// (breakage) goes to the organiser; what it lacks (the minus-pool top-up) the
// organiser pays.
//
// WIN and COMBINATION have one category whose fund is N.
//
// EXPRESS has two. A coupon guessing 3 of 3 is in category 1 and also in
// category 2; one guessing exactly 2 is in category 2 only. The pool is
// refunded only when no coupon guesses at least 2 (category 1 is never
// backed while category 2 is empty). Category 1's fund is
// floor(N × ExpressShare1) and category 2's is the rest of N, so the two
// funds always add up to N. Then:
//   - category 1 backed, jackpot enabled: category 1 also takes the whole
//     jackpot balance passed in. That is the balance before this pool: J of
//     this pool is contributed after and starts the next jackpot (the
//     figure paid is the one players saw live, and the pool pays its own
//     contribution like any other);
//   - category 1 not backed, jackpot enabled: its fund rolls into the
//     jackpot (with J), and the jackpot pays nothing out;
//   - category 1 not backed, jackpot disabled: the jackpot takes nothing, so
//     category 1's fund goes to category 2, which then shares all of N;
//   - category 1 backed, jackpot disabled: no jackpot is paid.
//
// Top-up and breakage are reckoned per category, so one EXPRESS pool may show
// both (the organiser's top-up of one category is not paid out of the other
// category's breakage).
//
// Which scheme a market uses, which bets win in which category and what a
// payout publishes as Guessed are the market's (MarketSpec: Scheme and
// Grade); the winning selections are the table's selections its Grade puts
// in category 1.
//
// Errors are Invalid: a pool, bet or configuration that breaks the rules
// (UNKNOWN_MARKET for a market that is not a production one), an outcome
// that does not fit the table, or a jackpot outside 0..MaxPoolAmount
// (INVALID_JACKPOT).
func SettlePool(p Pool, o Outcome, jackpot money.Amount) (PoolSettlement, error) {
	return production.SettlePool(p, o, jackpot)
}

// SettlePool is SettlePool for the markets of r.
func (r *Registry) SettlePool(p Pool, o Outcome, jackpot money.Amount) (PoolSettlement, error) {
	spec, err := r.validatePool(p)
	if err != nil {
		return PoolSettlement{}, err
	}
	d, err := checkOutcome(o, spec.Reads, p.Positions)
	if err != nil {
		return PoolSettlement{}, err
	}
	if jackpot < 0 || jackpot > MaxPoolAmount {
		return PoolSettlement{}, errs.R(errs.Invalid, ReasonInvalidJackpot, "a jackpot balance of %s cannot be paid out", jackpot)
	}
	s := newSettlement(p)
	grades := make([]Grade, len(p.Bets))
	for i, b := range p.Bets {
		grades[i] = spec.Grade(d, b.Selection)
		s.Payouts[i].Guessed = grades[i].Guessed
	}
	for _, sel := range spec.Selections(p.Positions) {
		if spec.Grade(d, sel).Cat1 {
			s.Winning = append(s.Winning, sel)
		}
	}
	switch spec.Scheme {
	case SchemeSingle:
		settleSingle(&s, p, grades)
	case SchemeTwoTier:
		settleTwoTier(&s, p, grades, jackpot)
	default: // NewRegistry admits no other scheme
		return PoolSettlement{}, errs.E(errs.Internal, "market %s has scheme %s, which no settlement implements", spec.Name, spec.Scheme)
	}
	s.Legs = buildLegs(p.ID, p.Bets, &s)
	return s, nil
}

// VoidPool settles pool p of a void draw: every stake is refunded in full and
// nothing else moves.
func VoidPool(p Pool) (PoolSettlement, error) { return production.VoidPool(p) }

// VoidPool is VoidPool for the markets of r.
func (r *Registry) VoidPool(p Pool) (PoolSettlement, error) {
	if _, err := r.validatePool(p); err != nil {
		return PoolSettlement{}, err
	}
	s := newSettlement(p)
	s.refund(RefundVoidDraw)
	s.Legs = buildLegs(p.ID, p.Bets, &s)
	return s, nil
}

// newSettlement fills what every settlement shares: the pool's identity, the
// gross and one zero payout per bet.
func newSettlement(p Pool) PoolSettlement {
	s := PoolSettlement{PoolID: p.ID, Market: p.Market, Round: p.Round, NumBets: len(p.Bets)}
	s.Payouts = make([]Payout, len(p.Bets))
	for i, b := range p.Bets {
		s.Gross += b.Stake
		s.Payouts[i] = Payout{BetID: b.ID, Stake: b.Stake}
	}
	s.Net = s.Gross
	return s
}

// refund returns every stake, taking nothing.
func (s *PoolSettlement) refund(why RefundReason) {
	s.Refunded, s.RefundReason = true, why
	s.Refunds = s.Gross
	for i := range s.Payouts {
		s.Payouts[i].Amount = s.Payouts[i].Stake
		s.Payouts[i].Refund = true
	}
}

// takeCuts takes the commission and the jackpot contribution from the gross.
func (s *PoolSettlement) takeCuts(c PoolConfig) {
	s.Commission, s.JackpotContribution, s.Net = c.Cuts(s.Gross)
}

// settleSingle settles a pool of SchemeSingle (WIN, COMBINATION): one
// category, fund N, the bets graded in category 1 winning.
func settleSingle(s *PoolSettlement, p Pool, grades []Grade) {
	wins := make([]bool, len(p.Bets))
	backed := false
	for i, g := range grades {
		wins[i] = g.Cat1
		backed = backed || wins[i]
	}
	if !backed {
		s.refund(RefundNoWinner)
		return
	}
	s.takeCuts(p.Config)
	s.addCategory(shareFund(1, s.Net, p.Bets, wins, func(i int, a money.Amount) { s.Payouts[i].Cat1 = a }))
	s.finishPayouts()
}

// shareFund shares fund among the bets flagged in wins at the category's
// coefficient, reporting each payout through pay. With no winning bet it
// shares nothing and reports the fund as unclaimed in Fund; the caller
// decides where that goes.
func shareFund(cat int, fund money.Amount, bets []PoolBet, wins []bool, pay func(i int, a money.Amount)) CategoryResult {
	r := CategoryResult{Category: cat, Fund: fund}
	for i, b := range bets {
		if wins[i] {
			r.Stakes += b.Stake
			r.NumBets++
		}
	}
	if r.NumBets == 0 {
		return r
	}
	r.Coef = money.CoefOf(fund, r.Stakes)
	if r.Coef < money.MinCoef {
		r.Coef = money.MinCoef
	}
	for i, b := range bets {
		if wins[i] {
			a := r.Coef.Pay(b.Stake)
			r.Paid += a
			pay(i, a)
		}
	}
	r.closeFund()
	return r
}

// closeFund sets the category's TopUp or Breakage from Fund and Paid: what
// its winners were paid beyond the fund the organiser tops up (the 1.10
// guarantee), what the fund kept after truncation is breakage. A category
// without winners has neither: its fund rolls over.
func (c *CategoryResult) closeFund() {
	c.TopUp, c.Breakage = 0, 0
	if c.NumBets == 0 {
		return
	}
	if c.Paid > c.Fund {
		c.TopUp = c.Paid - c.Fund
	} else {
		c.Breakage = c.Fund - c.Paid
	}
}

// SumCategories sets the pool's Paid, Breakage and TopUp from its
// categories' NumBets and Paid, each category closed as SettlePool closes
// it. A settlement finished from per-selection totals instead of bets (the
// streamed settlement, a verifier's recomputation) calls it once it has
// summed each category's winners; a refunded pool is left as it is.
func (s *PoolSettlement) SumCategories() {
	if s.Refunded {
		return
	}
	s.Paid, s.Breakage, s.TopUp = 0, 0, 0
	for i := range s.Categories {
		c := &s.Categories[i]
		c.closeFund()
		s.Paid += c.Paid
		s.Breakage += c.Breakage
		s.TopUp += c.TopUp
	}
}

// addCategory records a category and adds its figures to the pool's totals.
func (s *PoolSettlement) addCategory(r CategoryResult) {
	s.Categories = append(s.Categories, r)
	s.Paid += r.Paid
	s.Breakage += r.Breakage
	s.TopUp += r.TopUp
	s.JackpotPaid += r.Jackpot
	s.Rollover += r.Rollover
}

// finishPayouts sets each payout's amount to the sum of its categories.
func (s *PoolSettlement) finishPayouts() {
	for i := range s.Payouts {
		s.Payouts[i].Amount = s.Payouts[i].Cat1 + s.Payouts[i].Cat2
	}
}
