package parimutuel

import "github.com/pokertote/pokertote/domain/money"

// AccountKind names a kind of account the settlement moves money between.
// The ledger maps each kind (and the Account's Ref) onto its own accounts;
// the values are stable.
type AccountKind string

// The accounts a pool settlement touches.
const (
	// AccountPoolEscrow holds a pool's stakes from acceptance until
	// settlement; Ref is the pool id. It is exactly zero once a settlement's
	// legs are posted.
	AccountPoolEscrow AccountKind = "POOL_ESCROW"
	// AccountPlayerWallet is a player's wallet; Ref is the player id.
	AccountPlayerWallet AccountKind = "PLAYER_WALLET"
	// AccountOrganiser is the organiser's money: it receives commission and
	// breakage and pays minus-pool top-ups. Ref is empty.
	AccountOrganiser AccountKind = "ORGANISER"
	// AccountJackpot is the game's one jackpot fund: it receives
	// contributions and rollovers and pays the EXPRESS category 1 jackpot.
	// Ref is empty.
	AccountJackpot AccountKind = "JACKPOT"
)

// Account is one account in the tote's abstract naming: a kind plus a
// reference (pool id for escrow, player id for a wallet, empty otherwise).
type Account struct {
	Kind AccountKind
	Ref  string
}

// LegPurpose says why a leg moves money; the ledger can use it as the entry's
// description. The values are stable.
type LegPurpose string

// The reasons money moves when a pool settles.
const (
	PurposeTopUp               LegPurpose = "MINUS_POOL_TOP_UP"    // organiser -> escrow
	PurposeJackpotPayout       LegPurpose = "JACKPOT_PAYOUT"       // jackpot -> escrow
	PurposePayout              LegPurpose = "PAYOUT"               // escrow -> wallet
	PurposeRefund              LegPurpose = "REFUND"               // escrow -> wallet
	PurposeCommission          LegPurpose = "COMMISSION"           // escrow -> organiser
	PurposeBreakage            LegPurpose = "BREAKAGE"             // escrow -> organiser
	PurposeJackpotContribution LegPurpose = "JACKPOT_CONTRIBUTION" // escrow -> jackpot
	PurposeJackpotRollover     LegPurpose = "JACKPOT_ROLLOVER"     // escrow -> jackpot
)

// Leg is one movement of a positive Amount From one account To another. A
// list of legs is balanced by construction: every tiyn leaving one account
// enters another. BetID names the bet a payout or refund belongs to.
type Leg struct {
	From, To Account
	Amount   money.Amount
	Purpose  LegPurpose
	BetID    string
}

// buildLegs turns a computed settlement into legs: money into the escrow
// first (top-up, jackpot payout), then out of it (payouts and refunds in bet
// order, commission, breakage, jackpot contribution, rollover). Zero amounts
// make no leg. Posted in order, the escrow never goes below zero and ends at
// exactly zero.
func buildLegs(poolID string, bets []PoolBet, s *PoolSettlement) []Leg {
	escrow := Account{Kind: AccountPoolEscrow, Ref: poolID}
	organiser := Account{Kind: AccountOrganiser}
	jackpot := Account{Kind: AccountJackpot}
	legs := make([]Leg, 0, len(bets)+6)
	add := func(from, to Account, a money.Amount, why LegPurpose, bet string) {
		if a > 0 {
			legs = append(legs, Leg{From: from, To: to, Amount: a, Purpose: why, BetID: bet})
		}
	}
	add(organiser, escrow, s.TopUp, PurposeTopUp, "")
	add(jackpot, escrow, s.JackpotPaid, PurposeJackpotPayout, "")
	for i, p := range s.Payouts {
		why := PurposePayout
		if p.Refund {
			why = PurposeRefund
		}
		add(escrow, Account{Kind: AccountPlayerWallet, Ref: bets[i].Player}, p.Amount, why, p.BetID)
	}
	add(escrow, organiser, s.Commission, PurposeCommission, "")
	add(escrow, organiser, s.Breakage, PurposeBreakage, "")
	add(escrow, jackpot, s.JackpotContribution, PurposeJackpotContribution, "")
	add(escrow, jackpot, s.Rollover, PurposeJackpotRollover, "")
	return legs
}
