package tote

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// Phase is where a draw stands in the deal (SPEC 1.1). The string values are
// stored; Public is the one the API's DrawPhase and the events show.
type Phase string

// The phases of a draw, in order. A draw ends SETTLED or VOID.
const (
	PhasePreDeal       Phase = "PRE_DEAL" // round 1 open
	PhaseDealingPocket Phase = "DEALING_POCKET"
	PhasePocket        Phase = "POCKET" // round 2 open
	PhaseDealingFlop   Phase = "DEALING_FLOP"
	PhaseFlop          Phase = "FLOP" // round 3 open
	PhaseDealingTurn   Phase = "DEALING_TURN"
	PhaseTurn          Phase = "TURN" // round 4 open
	PhaseDealingRiver  Phase = "DEALING_RIVER"
	// PhaseSettling is the dealer's step after the river: the board is
	// complete and the settlement is due. Stored only: it is published as
	// DEALING_RIVER (Public), as it was before it had a name of its own.
	PhaseSettling Phase = "SETTLING"
	PhaseSettled  Phase = "SETTLED"
	PhaseVoid     Phase = "VOID"
)

// Public is the phase as the API and the events show it: PhaseSettling is
// DEALING_RIVER there, every other phase itself.
func (p Phase) Public() Phase {
	if p == PhaseSettling {
		return PhaseDealingRiver
	}
	return p
}

// Finished reports whether the draw is over (SETTLED or VOID).
func (p Phase) Finished() bool { return p == PhaseSettled || p == PhaseVoid }

// BettingRound is the round a phase takes bets in, or 0 while cards are
// dealt and after the draw.
func (p Phase) BettingRound() parimutuel.Round {
	switch p {
	case PhasePreDeal:
		return parimutuel.RoundPreDeal
	case PhasePocket:
		return parimutuel.RoundPocket
	case PhaseFlop:
		return parimutuel.RoundFlop
	case PhaseTurn:
		return parimutuel.RoundTurn
	}
	return 0
}

// BettingPhase is the phase in which round r takes bets.
func BettingPhase(r parimutuel.Round) Phase {
	return [...]Phase{parimutuel.RoundPreDeal: PhasePreDeal, parimutuel.RoundPocket: PhasePocket, parimutuel.RoundFlop: PhaseFlop, parimutuel.RoundTurn: PhaseTurn}[r]
}

// DealingPhase is the phase that follows the close of round r.
func DealingPhase(r parimutuel.Round) Phase {
	return [...]Phase{parimutuel.RoundPreDeal: PhaseDealingPocket, parimutuel.RoundPocket: PhaseDealingFlop, parimutuel.RoundFlop: PhaseDealingTurn, parimutuel.RoundTurn: PhaseDealingRiver}[r]
}

// Draw is one deal of a table and everything persisted about it, so that
// any replica can resume it: the state machine's position, the copied
// settings, the seeds and the cards dealt so far.
type Draw struct {
	ID        int64
	TableID   int64
	Number    int64 // 1, 2, ... within the table
	Positions int
	Phase     Phase
	// RoundClosesAt is when the open round closes; zero when none is open.
	RoundClosesAt time.Time
	// NextStepAt is when the dealer's next card or settlement step is due
	// while no round is open, and when the next draw opens once this one is
	// finished.
	NextStepAt time.Time
	// Version increases with every change of the row; a change made from a
	// stale copy is refused.
	Version int64

	// MinStake, MaxStake and Pool are copied from the table when the draw
	// opens (its Terms). Pool.JackpotEnabled is the game's jackpot flag
	// then, which a draw of fair deal 4 settles with; earlier draws read
	// the flag at settlement. MaxStake 0 is a draw opened before it was
	// copied: its bets were checked against the table's.
	MinStake money.Amount
	MaxStake money.Amount
	Pool     parimutuel.PoolConfig
	// SuspendAt is the table's SUSPEND_AT copied when the draw opens (SPEC
	// 1.9); Chances holds what each round after the deal opened with, in
	// the transaction that opened it: a selection whose chance reaches
	// SuspendAt takes no bet in that round.
	SuspendAt money.BasisPoints
	Chances   []RoundChances

	ServerSeed cards.Seed // secret until Revealed
	Commitment [cards.SeedSize]byte
	PublicSeed []byte // a finished version-1 draw's, kept for its result; nil since fair deal 2
	Revealed   bool   // the server seed is public
	// Beacons is the draw's beacon commitment and the rounds fetched so far
	// (fair deal version 2); nil for a version-1 draw.
	Beacons *DrawBeacons

	Pockets [][2]cards.Card // dealt so far, position 1 first
	Board   []cards.Card    // flop, turn, river as dealt
	Burns   []cards.Card    // burned so far; public once Revealed

	Odds       *LiveOdds   // for the cards dealt so far
	Result     *DrawResult // once SETTLED or VOID
	VoidReason string
	// VoidKind is why a VOID draw was voided (void.go); "" otherwise.
	VoidKind VoidKind
	// BetRoots commits to the bets of each closed betting round, in round
	// order (bet_roots.go); version-2 draws only.
	BetRoots []betroot.Root

	OpenedAt  time.Time
	SettledAt time.Time // when it was SETTLED or VOID
}

// Named is how a message to a client names the draw: by the id the API
// takes (draw(id:), verifyDraw, voidDraw), then its number at its table,
// which the table shows ("draw 122 (no. 63 at table 1)").
func (d Draw) Named() string {
	return fmt.Sprintf("draw %d (no. %d at table %d)", d.ID, d.Number, d.TableID)
}

// StakeCeiling is the largest stake d takes: the maximum it committed to
// when it opened, or t's for a draw opened before it was copied.
func (d *Draw) StakeCeiling(t Table) money.Amount {
	if d.MaxStake > 0 {
		return d.MaxStake
	}
	return t.Settings.MaxStake
}

// OpenRound is the round taking bets now (per the stored phase), or 0.
func (d *Draw) OpenRound() parimutuel.Round { return d.Phase.BettingRound() }

// Deal recomputes the cards of the draw from its seeds: the streets whose
// beacon round has been fetched. False when no card can be known yet, and
// for a version-1 draw (no beacons), which no release since fair deal 2
// opens and this one no longer deals (DealtFromBeacons).
func (d *Draw) Deal() (cards.ToteDeal, bool) {
	if d.Beacons == nil {
		return cards.ToteDeal{}, false
	}
	r := d.Beacons.randomness()
	if len(r) == 0 {
		return cards.ToteDeal{}, false
	}
	return cards.DealToteStreets(d.ServerSeed, d.Positions, r), true
}

// DealtFromBeacons refuses to go on with d if it is an unfinished
// version-1 draw (no beacon commitment, its cards from a public seed fixed
// by its round-1 bets): every draw opened since fair deal 2 has beacons,
// and the dealing and settling of version 1 are gone. Migration 00420
// refuses to upgrade a database that still holds one, so this is the
// backstop of a database that skipped it; the error names the way out.
func DealtFromBeacons(d Draw) error {
	if d.Beacons != nil || d.Phase.Finished() {
		return nil
	}
	return errs.E(errs.Internal, "draw id %d is an unfinished version-1 draw (no beacons), which this release cannot deal or settle: finish it on the release before and upgrade again", d.ID)
}

// PositionView is what a position shows at a moment of the deal.
type PositionView struct {
	Number int
	Cards  []cards.Card // empty before its pocket is dealt
	// Best is the best five with the board so far; zero before the flop.
	Best     hand.Value
	BestFive [5]cards.Card
	// Status is PENDING until the draw is settled, then WIN or LOSS.
	Status string
}

// Position statuses.
const (
	PositionPending = "PENDING"
	PositionWin     = "WIN"
	PositionLoss    = "LOSS"
)

// PositionViews lists every position with its cards, its best hand with the
// board so far, and its status once the draw is settled.
func (d *Draw) PositionViews() []PositionView {
	out := make([]PositionView, d.Positions)
	winners := map[int]bool{}
	if d.Phase == PhaseSettled && d.Result != nil {
		for _, w := range d.Result.Winners {
			winners[w] = true
		}
	}
	for i := range out {
		v := PositionView{Number: i + 1, Status: PositionPending}
		if i < len(d.Pockets) {
			v.Cards = []cards.Card{d.Pockets[i][0], d.Pockets[i][1]}
			if len(d.Board) >= 3 {
				v.Best, v.BestFive = hand.BestFive(append(append([]cards.Card{}, v.Cards...), d.Board...))
			}
		}
		if d.Phase == PhaseSettled {
			v.Status = PositionLoss
			if winners[v.Number] {
				v.Status = PositionWin
			}
		}
		out[i] = v
	}
	return out
}

// PoolID is the id of the pool of one market in one round of a draw, and the
// reference of its escrow account: "<draw>:<round>:<market>".
func PoolID(drawID int64, r parimutuel.Round, m parimutuel.Market) string {
	return strconv.FormatInt(drawID, 10) + ":" + strconv.Itoa(int(r)) + ":" + string(m)
}

// DrawPools lists the pools a draw has, in settlement order: round by round,
// the production markets offered in it in their order (WIN, COMBINATION,
// then EXPRESS where offered).
func DrawPools() []PoolKey {
	var out []PoolKey
	for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
		for _, m := range parimutuel.Production().Offered(r) {
			out = append(out, PoolKey{Round: r, Market: m.Name})
		}
	}
	return out
}

// PoolKey names a pool within a draw.
type PoolKey struct {
	Round  parimutuel.Round
	Market parimutuel.Market
}
