package tote

import (
	"cmp"
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
)

// Pay is what the rate pays one bet of stake: the stake back in paid1 when
// Refund, else floor(stake × Coef1) in paid1 and floor(stake × Coef2) in
// paid2. The bet's payout is paid1 + paid2 and its status
// SettledStatus(r.Refund, paid1+paid2). It is the one place a streamed
// settlement's payout is computed: the stores store the rate once per
// selection and derive every bet's figures from it here, when they pay the
// pool and whenever they read the bet.
func (r SelectionRate) Pay(stake money.Amount) (paid1, paid2 money.Amount) {
	if r.Refund {
		return stake, 0
	}
	return r.Coef1.Pay(stake), r.Coef2.Pay(stake)
}

// Settle returns b as the rate leaves it: an ACCEPTED bet takes its
// status and payout from the rate and its settlement time at; a bet
// settled already is returned as it is.
func (r SelectionRate) Settle(b Bet, at time.Time) Bet {
	if b.Status != BetAccepted {
		return b
	}
	p1, p2 := r.Pay(b.Stake)
	b.Payout = p1 + p2
	b.Status = SettledStatus(r.Refund, b.Payout)
	b.SettledAt = at
	return b
}

// PaidBet is one bet of a draw as a DrawPayer reads it to pay the draw's
// pools: where it is, whose it is, its stake and how it stands. Rate is its
// selection's stored rate when the reader has it; nil takes the rate the
// tally was given for the selection, if any.
type PaidBet struct {
	ID        int64 // 0 when the reader does not read it (no owner is then kept)
	Pool      PoolKey
	Selection string
	UserID    ids.UserID
	Stake     money.Amount
	Status    BetStatus
	Payout    money.Amount // stored; counts only when Status is not ACCEPTED
	Rate      *SelectionRate
}

// PayTally is the pure side of DrawPayer.PayDraw: fed every bet of a
// draw (in any order), it sums what the rates pay per selection and per
// player of each pool being paid, and names the selections whose ACCEPTED
// bets have no rate (to be written LOST). It holds one entry per selection
// and one per player and pool, whatever the number of bets.
type PayTally struct {
	index   map[PoolKey]int
	rates   []map[string]*SelectionRate
	paid    []map[string]*SelectionPaid
	credits []map[ids.UserID]money.Amount
	unrated []map[string]bool
	// owners are the bets counted, per pool, for the players' BET_SETTLED
	// after the commit: 16 bytes a bet, where reading them back after the
	// commit costs the database a second pass over the draw's bets.
	owners [][]BetOwner
}

// NewPayTally is a tally of pools; a pool named twice is an Internal error.
func NewPayTally(pools []PoolRates) (*PayTally, error) {
	t := &PayTally{
		index:   make(map[PoolKey]int, len(pools)),
		rates:   make([]map[string]*SelectionRate, len(pools)),
		paid:    make([]map[string]*SelectionPaid, len(pools)),
		credits: make([]map[ids.UserID]money.Amount, len(pools)),
		unrated: make([]map[string]bool, len(pools)),
		owners:  make([][]BetOwner, len(pools)),
	}
	for i, p := range pools {
		k := PoolKey{Round: p.Round, Market: p.Market}
		if _, dup := t.index[k]; dup {
			return nil, errs.E(errs.Internal, "pool %d/%s paid twice", p.Round, p.Market)
		}
		t.index[k] = i
		t.rates[i] = make(map[string]*SelectionRate, len(p.Rates))
		for j := range p.Rates {
			t.rates[i][p.Rates[j].Selection] = &p.Rates[j]
		}
		t.paid[i] = map[string]*SelectionPaid{}
		t.credits[i] = map[ids.UserID]money.Amount{}
		t.unrated[i] = map[string]bool{}
	}
	return t, nil
}

// Add counts one bet. Bets of pools not being paid are ignored. An
// ACCEPTED bet is paid by its rate, its own or the pool's for its selection
// (none: it is lost, and its selection is unrated); a bet settled before keeps its stored payout, which its player
// is credited as before.
func (t *PayTally) Add(b PaidBet) {
	i, ok := t.index[b.Pool]
	if !ok {
		return
	}
	if b.ID != 0 {
		t.owners[i] = append(t.owners[i], BetOwner{BetID: b.ID, UserID: b.UserID})
	}
	payout := b.Payout
	if b.Status == BetAccepted {
		payout = t.addAccepted(i, b)
	}
	if payout > 0 {
		t.credits[i][b.UserID] += payout
	}
}

// addAccepted counts an ACCEPTED bet on its selection and returns its
// payout.
func (t *PayTally) addAccepted(i int, b PaidBet) money.Amount {
	if b.Rate == nil {
		b.Rate = t.rates[i][b.Selection]
	}
	if b.Rate == nil {
		t.unrated[i][b.Selection] = true
		return 0
	}
	p := t.paid[i][b.Selection]
	if p == nil {
		p = &SelectionPaid{Selection: b.Selection}
		t.paid[i][b.Selection] = p
	}
	p1, p2 := b.Rate.Pay(b.Stake)
	p.Bets++
	p.Stake += b.Stake
	p.Paid1 += p1
	p.Paid2 += p2
	return p1 + p2
}

// Unrated lists, per pool index, the selections whose ACCEPTED bets had no
// rate, sorted; pools without any are left out.
func (t *PayTally) Unrated() map[int][]string {
	out := map[int][]string{}
	for i, set := range t.unrated {
		for s := range set {
			out[i] = append(out[i], s)
		}
		slices.Sort(out[i])
	}
	return out
}

// Result is what each pool paid, at its index: its selections (sorted),
// its players' credits in user id order and the owners of the bets counted
// that carried their id, in bet id order.
func (t *PayTally) Result() []PoolPaid {
	out := make([]PoolPaid, len(t.paid))
	for i := range t.paid {
		for _, p := range t.paid[i] {
			out[i].Paid = append(out[i].Paid, *p)
		}
		slices.SortFunc(out[i].Paid, func(a, b SelectionPaid) int { return cmp.Compare(a.Selection, b.Selection) })
		for u, a := range t.credits[i] {
			out[i].Credits = append(out[i].Credits, WalletCredit{UserID: u, Amount: a})
		}
		slices.SortFunc(out[i].Credits, func(a, b WalletCredit) int { return cmp.Compare(a.UserID, b.UserID) })
		out[i].Owners = t.owners[i]
		slices.SortFunc(out[i].Owners, func(a, b BetOwner) int { return cmp.Compare(a.BetID, b.BetID) })
	}
	return out
}
