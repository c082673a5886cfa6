package tote

import (
	"encoding/hex"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// DrawResult is the published, permanent result of a finished draw (SPEC
// 1.7, rule 10): every card (burns included), each position's best hand and
// status, every pool's figures with its bets, the jackpot used, and the
// seeds, so that anyone can recompute every payout. It is stored as JSON
// once and never changed.
//
// Version 0 (absent) lists every bet of every pool with its payout;
// version 2 (ResultVersionTotals) lists each pool's backed
// selections with their bets, stakes and payouts summed, so that a result
// stays the same size however many bets the draw took (docs/fairness.md).
type DrawResult struct {
	Version   int   `json:"version,omitempty"`
	DrawID    int64 `json:"drawId"`
	TableID   int64 `json:"tableId"`
	Number    int64 `json:"number"`
	Positions int   `json:"positions"`

	Void       bool   `json:"void,omitempty"`
	VoidReason string `json:"voidReason,omitempty"`
	// VoidDetail is the void's structured cause (void.go), from result
	// version 3 on; VoidReason is then VoidDetail.Reason().
	VoidDetail *VoidDetail `json:"voidDetail,omitempty"`

	// The cards; empty for a draw voided before they were dealt.
	Pockets [][]string `json:"pockets,omitempty"`
	Board   []string   `json:"board,omitempty"`
	Burns   []string   `json:"burns,omitempty"`
	Hands   []HandView `json:"hands,omitempty"`

	Winners     []int                  `json:"winners,omitempty"`
	Category    parimutuel.Combination `json:"category"`
	FlopLeaders []int                  `json:"flopLeaders,omitempty"`
	TurnLeaders []int                  `json:"turnLeaders,omitempty"`

	Commission     money.BasisPoints    `json:"commission"`
	JackpotEnabled bool                 `json:"jackpotEnabled"`
	JackpotRate    money.BasisPoints    `json:"jackpotRate"`
	ExpressShares  [2]money.BasisPoints `json:"expressShares"`
	JackpotBefore  money.Amount         `json:"jackpotBefore"`
	JackpotAfter   money.Amount         `json:"jackpotAfter"`
	// JackpotChain names the draw's entries in the public jackpot chain
	// (jackpot_chain.go): its jackpotBefore is the balance after entry
	// After, its pools' jackpot moves are entries After+1..Last. Absent
	// from results settled before the chain existed; not part of the
	// fair-deal commitment, so present in any result version.
	JackpotChain *JackpotRange `json:"jackpotChain,omitempty"`

	Pools []PoolResult `json:"pools"`

	ServerSeed string `json:"serverSeed"`
	Commitment string `json:"commitment"`
	PublicSeed string `json:"publicSeed,omitempty"` // version 1 only
	// Beacons is the beacon commitment and every round fetched (fair deal
	// version 2, docs/fairness.md); nil for a version-1 draw.
	Beacons *DrawBeacons `json:"beacons,omitempty"`
	// BetRoots commits to each closed betting round's bets (result version
	// 3, bet_roots.go), as ROUND_CLOSED published them.
	BetRoots  []betroot.Root `json:"betRoots,omitempty"`
	SettledAt time.Time      `json:"settledAt"`

	// SuspendAt and Chances publish what each betting round after the deal
	// opened with (SPEC 1.9, suspension.go); absent from results of draws
	// dealt before suspension existed.
	SuspendAt money.BasisPoints `json:"suspendAt,omitempty"`
	Chances   []RoundChances    `json:"chances,omitempty"`

	// MinStake and MaxStake (result version 5) are the draw's stake
	// bounds, committed with its other terms (DrawTerms).
	MinStake money.Amount `json:"minStake,omitempty"`
	MaxStake money.Amount `json:"maxStake,omitempty"`
}

// HandView is one position's final hand.
type HandView struct {
	Position    int                    `json:"position"`
	Category    parimutuel.Combination `json:"category"`
	Description string                 `json:"description"`
	Cards       []string               `json:"cards"`
	Status      string                 `json:"status"` // WIN or LOSS
}

// PoolResult is one pool's published figures, with every bet in it
// (anonymous: id, selection, stake and what it returned).
type PoolResult struct {
	PoolID              string                  `json:"poolId"`
	Round               parimutuel.Round        `json:"round"`
	Market              parimutuel.Market       `json:"market"`
	NumBets             int                     `json:"numBets"`
	Gross               money.Amount            `json:"gross"`
	Commission          money.Amount            `json:"commission"`
	JackpotContribution money.Amount            `json:"jackpotContribution"`
	Net                 money.Amount            `json:"net"`
	Winning             []string                `json:"winning"`
	Categories          []ResultCategory        `json:"categories"`
	Paid                money.Amount            `json:"paid"`
	Breakage            money.Amount            `json:"breakage"`
	TopUp               money.Amount            `json:"topUp"`
	JackpotPaid         money.Amount            `json:"jackpotPaid"`
	Rollover            money.Amount            `json:"rollover"`
	Refunded            bool                    `json:"refunded"`
	RefundReason        parimutuel.RefundReason `json:"refundReason,omitempty"`
	Refunds             money.Amount            `json:"refunds"`
	// JackpotBefore is the jackpot balance this pool was settled against.
	JackpotBefore money.Amount `json:"jackpotBefore"`
	// Bets lists every bet (results before version 2); Selections sums the
	// bets of each backed selection (version 2), in ascending order.
	Bets       []ResultBet       `json:"bets"`
	Selections []ResultSelection `json:"selections,omitempty"`
}

// ResultVersionTotals is the result version whose pools publish
// per-selection totals instead of every bet.
const ResultVersionTotals = 2

// ResultVersionCommitted adds, to version 2, a void's
// structured cause (voidDetail) and the commitments to each round's bets
// (betRoots), and publishes no hands for a void draw.
const ResultVersionCommitted = 3

// ResultVersionBound is version 3 for a draw of fair deal 3:
// its commitment covers the positions, the chain, and every close time,
// beacon round and deadline (DrawCommitment), each round is at least one
// period after its close, and a void may also be BEACON_BEFORE_CLOSE.
const ResultVersionBound = 4

// ResultVersionTerms is version 4 for a draw of fair deal 4: its
// commitment also covers the draw's terms (DrawTerms) and the beacon gap,
// the result publishes the stake bounds, each bet root's publication time,
// and a void may also be ROOT_LATE.
const ResultVersionTerms = 5

// ResultVersion is the version new results are written in: the one place
// it is bumped. A draw opened before its fair deal existed is settled in
// the version of its deal (ResultVersionOf).
const ResultVersion = ResultVersionTerms

// ResultVersionOf is the version d's result is written in: ResultVersion
// for a draw of fair deal 4, ResultVersionBound for fair deal 3, or
// ResultVersionCommitted for a draw opened on fair deal 2 or earlier.
func ResultVersionOf(d Draw) int {
	switch {
	case d.Beacons == nil || d.Beacons.Version < FairnessBound:
		return ResultVersionCommitted
	case d.Beacons.Version < FairnessTerms:
		return ResultVersionBound
	}
	return ResultVersion
}

// FairnessOf is the fair-deal version of d: 1 for a draw without beacons.
func FairnessOf(d *Draw) int {
	if d.Beacons == nil {
		return 1
	}
	return d.Beacons.Version
}

// ResultSelection is one backed selection of a pool as a version-2 result
// publishes it: how many bets backed it, their stakes, and what they
// returned in all (Cat2 of it in EXPRESS category 2; the rest in category
// 1). Each bet returned floor(stake × coefficient) of each category the
// selection is in, or its stake when Refund.
type ResultSelection struct {
	Selection string       `json:"selection"`
	NumBets   int          `json:"numBets"`
	Stakes    money.Amount `json:"stakes"`
	Payout    money.Amount `json:"payout"`
	Cat2      money.Amount `json:"cat2,omitempty"`
	Refund    bool         `json:"refund,omitempty"`
	Guessed   int          `json:"guessed,omitempty"`
}

// ResultCategory is a CategoryResult as the result publishes it.
type ResultCategory struct {
	Category int          `json:"category"`
	Fund     money.Amount `json:"fund"`
	Jackpot  money.Amount `json:"jackpot"`
	Stakes   money.Amount `json:"stakes"`
	NumBets  int          `json:"numBets"`
	Coef     money.Coef   `json:"coef"`
	Paid     money.Amount `json:"paid"`
	Breakage money.Amount `json:"breakage"`
	TopUp    money.Amount `json:"topUp"`
	Rollover money.Amount `json:"rollover"`
}

// ResultBet is one bet as the result publishes it.
type ResultBet struct {
	ID        int64        `json:"id"`
	Selection string       `json:"selection"`
	Stake     money.Amount `json:"stake"`
	Payout    money.Amount `json:"payout"`
	Refund    bool         `json:"refund,omitempty"`
	Guessed   int          `json:"guessed,omitempty"`
}

// Coef is the coefficient of a pool settled in one category (a market of
// parimutuel.SchemeSingle: WIN, COMBINATION), or 0 when it has none: a
// refunded pool has no category, a two-tier one (EXPRESS) two.
func (p PoolResult) Coef() money.Coef {
	if len(p.Categories) != 1 {
		return 0
	}
	return p.Categories[0].Coef
}

// NewPoolResult copies a settlement's figures and pairs each payout with its
// bet.
func NewPoolResult(s parimutuel.PoolSettlement, bets []Bet, jackpotBefore money.Amount) PoolResult {
	return NewPoolResultIn(parimutuel.Production(), s, bets, jackpotBefore)
}

// NewPoolResultIn is NewPoolResult writing the selections of the markets
// of reg.
func NewPoolResultIn(reg *parimutuel.Registry, s parimutuel.PoolSettlement, bets []Bet, jackpotBefore money.Amount) PoolResult {
	r := PoolResult{
		PoolID: s.PoolID, Round: s.Round, Market: s.Market, NumBets: s.NumBets,
		Gross: s.Gross, Commission: s.Commission, JackpotContribution: s.JackpotContribution,
		Net: s.Net, Categories: make([]ResultCategory, len(s.Categories)), Paid: s.Paid, Breakage: s.Breakage,
		TopUp: s.TopUp, JackpotPaid: s.JackpotPaid, Rollover: s.Rollover,
		Refunded: s.Refunded, RefundReason: s.RefundReason, Refunds: s.Refunds,
		JackpotBefore: jackpotBefore,
		Winning:       make([]string, len(s.Winning)),
		Bets:          make([]ResultBet, len(bets)),
	}
	for i, c := range s.Categories {
		r.Categories[i] = ResultCategory(c)
	}
	for i, w := range s.Winning {
		r.Winning[i] = reg.Format(w)
	}
	for i, b := range bets {
		p := s.Payouts[i]
		r.Bets[i] = ResultBet{ID: b.ID, Selection: reg.Format(b.Selection), Stake: b.Stake, Payout: p.Amount, Refund: p.Refund, Guessed: p.Guessed}
	}
	return r
}

// NewPoolResultTotals is a streamed settlement's pool as a version-2
// result publishes it: its figures and its selections' totals.
func NewPoolResultTotals(s parimutuel.PoolSettlement, totals []SelectionTotal, rates []SelectionRate, paid []SelectionPaid, jackpotBefore money.Amount) PoolResult {
	r := NewPoolResult(s, nil, jackpotBefore)
	r.Bets = nil
	bySel := make(map[string]SelectionPaid, len(paid))
	for _, p := range paid {
		bySel[p.Selection] = p
	}
	r.Selections = make([]ResultSelection, len(totals))
	for i, t := range totals {
		str := t.Selection.String()
		p := bySel[str]
		r.Selections[i] = ResultSelection{Selection: str, NumBets: t.Bets, Stakes: t.Stake, Payout: p.Paid1 + p.Paid2, Cat2: p.Paid2, Refund: rates[i].Refund, Guessed: rates[i].Guessed}
	}
	return r
}

// FillCards records the dealt cards, the hands and the seeds of d.
func (r *DrawResult) FillCards(d *Draw) {
	r.Pockets = make([][]string, len(d.Pockets))
	for i, p := range d.Pockets {
		r.Pockets[i] = []string{p[0].String(), p[1].String()}
	}
	r.Board = CardStrings(d.Board)
	r.Burns = CardStrings(d.Burns)
	r.ServerSeed = d.ServerSeed.Hex()
	r.Commitment = cards.FormatCommitment(d.Commitment)
	if d.PublicSeed != nil {
		r.PublicSeed = hex.EncodeToString(d.PublicSeed)
	}
	r.Beacons = d.Beacons.Clone()
	if r.Version >= ResultVersionCommitted {
		r.BetRoots = append([]betroot.Root(nil), d.BetRoots...)
	}
	if !r.Void && len(d.Board) == 5 && len(d.Pockets) == d.Positions {
		r.Hands = HandViews(d.Pockets, d.Board, r.Winners)
	}
}

// HandViews is every position's final hand and status as a result
// publishes them (the settler and the verifier both use it).
func HandViews(pockets [][2]cards.Card, board []cards.Card, winnerList []int) []HandView {
	winners := map[int]bool{}
	for _, w := range winnerList {
		winners[w] = true
	}
	out := make([]HandView, 0, len(pockets))
	for i, p := range pockets {
		v, five := hand.BestFive(append([]cards.Card{p[0], p[1]}, board...))
		status := PositionLoss
		if winners[i+1] {
			status = PositionWin
		}
		out = append(out, HandView{
			Position: i + 1, Category: v.Category(), Description: v.Describe(),
			Cards: CardStrings(five[:]), Status: status,
		})
	}
	return out
}

// CardStrings formats cards one string each.
func CardStrings(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// FormatBetID is how a bet id is written in a pool's PoolBet.
func FormatBetID(id int64) string { return strconv.FormatInt(id, 10) }

// FillSuspension records the draw's SUSPEND_AT and its rounds' chances.
func (r *DrawResult) FillSuspension(d *Draw) {
	r.SuspendAt, r.Chances = d.SuspendAt, d.Chances
	if r.Version >= ResultVersionTerms {
		r.MinStake, r.MaxStake = d.MinStake, d.MaxStake
	}
}
