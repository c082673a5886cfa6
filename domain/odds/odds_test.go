package odds_test

import (
	"math/big"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// TestAcesAgainstKings reproduces the published heads-up figures over all
// 1,712,304 boards.
func TestAcesAgainstKings(t *testing.T) {
	for _, compute := range computers {
		t.Run(compute.name, func(t *testing.T) {
			r, err := compute.fn(pockets("Ac Ad", "Kh Ks"), nil)
			if err != nil {
				t.Fatal(err)
			}
			aces, kings := r.Positions[0], r.Positions[1]
			if r.Boards != 1712304 {
				t.Errorf("%d boards, want 1712304", r.Boards)
			}
			if aces.Wins != 1388072 || aces.Losses != 317694 || aces.Ties != 6538 {
				t.Errorf("aces: %d wins, %d losses, %d ties; want 1388072, 317694, 6538", aces.Wins, aces.Losses, aces.Ties)
			}
			if kings.Wins != aces.Losses || kings.Losses != aces.Wins || kings.Ties != aces.Ties || kings.TiesBy[2] != 6538 {
				t.Errorf("kings %+v do not mirror aces %+v", kings, aces)
			}
			want := big.NewRat(1388072*2+6538, 2*1712304)
			if aces.EquityRat().Cmp(want) != 0 {
				t.Errorf("aces equity %v, want %v", aces.EquityRat(), want)
			}
			checkInvariants(t, r)
		})
	}
}

// computers are the two entry points, which must agree exactly.
var computers = []struct {
	name string
	fn   func([][2]cards.Card, []cards.Card) (*odds.Result, error)
}{
	{"Compute", odds.Compute},
	{"ComputeShared", odds.ComputeShared},
}

// TestAgainstBruteForce compares the incremental enumeration with a slow
// one that evaluates every hand from scratch with hand.Evaluate.
func TestAgainstBruteForce(t *testing.T) {
	tests := []struct {
		name, board string
		pockets     [][2]cards.Card
	}{
		{"river", "2s 8d Qc 4s 9h", tenPockets},
		{"river board plays", "Ts Js Qs Ks As", pockets("2c 3c", "4d 5d", "6h 7h")},
		{"turn ten positions", "2s 8d Qc 4s", tenPockets},
		{"turn heads up", "Ah 7h 2h Kd", pockets("Qh Jh", "As Ac")},
		{"flop three positions", "Ah 7h 2c", pockets("Kh Qh", "7c 7d", "Ad 5s")},
		{"flop ten positions", "2s 8d Qc", tenPockets},
		{"flop many ties", "Ac Kd Qh", pockets("2c 3d", "2d 3c", "2h 3s", "4c 5d")},
		{"pocket ten positions", "", tenPockets},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.board == "" && testing.Short() {
				t.Skip("201,376 boards evaluated the slow way")
			}
			board := cards.MustParseList(tt.board)
			want := bruteForce(tt.pockets, board)
			for _, compute := range computers {
				got, err := compute.fn(tt.pockets, board)
				if err != nil {
					t.Fatal(err)
				}
				if !sameResult(got, want) {
					t.Errorf("%s: got %+v\nwant %+v", compute.name, got, want)
				}
				checkInvariants(t, got)
			}
		})
	}
}

// bruteForce enumerates boards recursively and evaluates every hand with
// hand.Evaluate on fresh seven-card slices.
func bruteForce(ps [][2]cards.Card, board []cards.Card) *odds.Result {
	used := make(map[cards.Card]bool)
	for _, p := range ps {
		used[p[0]], used[p[1]] = true, true
	}
	for _, c := range board {
		used[c] = true
	}
	var unseen []cards.Card
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !used[c] {
			unseen = append(unseen, c)
		}
	}
	r := &odds.Result{Positions: make([]odds.Position, len(ps))}
	var walk func(b []cards.Card, from int)
	walk = func(b []cards.Card, from int) {
		if len(b) == 5 {
			tallyBoard(r, ps, b)
			return
		}
		for i := from; i < len(unseen); i++ {
			walk(append(append([]cards.Card(nil), b...), unseen[i]), i+1)
		}
	}
	walk(board, 0)
	for i := range r.Positions {
		p := &r.Positions[i]
		p.Boards = r.Boards
		p.Losses = r.Boards - p.Wins - p.Ties
	}
	return r
}

func tallyBoard(r *odds.Result, ps [][2]cards.Card, board []cards.Card) {
	vals := make([]hand.Value, len(ps))
	best := hand.Value(0)
	for i, p := range ps {
		vals[i] = hand.Evaluate(append([]cards.Card{p[0], p[1]}, board...))
		best = max(best, vals[i])
	}
	var winners []int
	for i, v := range vals {
		if v == best {
			winners = append(winners, i)
		}
	}
	r.Boards++
	r.Categories[best.Category()]++
	for _, i := range winners {
		p := &r.Positions[i]
		if len(winners) == 1 {
			p.Wins++
		} else {
			p.Ties++
			p.TiesBy[len(winners)]++
		}
		p.EquityUnits += odds.EquityUnit / int64(len(winners))
	}
}

func sameResult(a, b *odds.Result) bool {
	if a.Boards != b.Boards || a.Categories != b.Categories || len(a.Positions) != len(b.Positions) {
		return false
	}
	for i := range a.Positions {
		if a.Positions[i] != b.Positions[i] {
			return false
		}
	}
	return true
}

// checkInvariants: every board is won, tied or lost by each position; the
// equities add up to exactly one pot per board; the category counts add
// up to the boards.
func checkInvariants(t *testing.T, r *odds.Result) {
	t.Helper()
	var equity, cats int64
	for i, p := range r.Positions {
		if p.Wins+p.Ties+p.Losses != r.Boards || p.Boards != r.Boards {
			t.Errorf("position %d: %d + %d + %d != %d boards", i+1, p.Wins, p.Ties, p.Losses, r.Boards)
		}
		var tied int64
		for _, n := range p.TiesBy {
			tied += n
		}
		if tied != p.Ties {
			t.Errorf("position %d: ties by size add to %d, not %d", i+1, tied, p.Ties)
		}
		equity += p.EquityUnits
	}
	if equity != r.Boards*odds.EquityUnit {
		t.Errorf("equities add to %d units, want %d", equity, r.Boards*odds.EquityUnit)
	}
	for _, n := range r.Categories {
		cats += n
	}
	if cats != r.Boards {
		t.Errorf("categories add to %d, want %d boards", cats, r.Boards)
	}
}

// TestSymmetricPositions: suit-swapped pockets must get identical figures.
func TestSymmetricPositions(t *testing.T) {
	tests := []struct {
		name, board string
		pockets     [][2]cards.Card
	}{
		{"same ranks other suits", "", pockets("Ah Kh", "As Ks")},
		{"three identical hands", "", pockets("Qc Jd", "Qd Jh", "Qh Jc")},
		{"flop symmetric", "2c 2d 7s", pockets("Ac 9c", "Ad 9d")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := odds.ComputeShared(tt.pockets, cards.MustParseList(tt.board))
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range r.Positions[1:] {
				if p != r.Positions[0] {
					t.Errorf("position %d %+v differs from position 1 %+v", i+2, p, r.Positions[0])
				}
			}
			checkInvariants(t, r)
		})
	}
}

// TestRiverIsTheResult: a complete board is one board, won by the
// settlement's winners (parimutuel.Leaders).
func TestRiverIsTheResult(t *testing.T) {
	ps := pockets("Ah Kd", "Qs Qh", "7c 2d")
	board := cards.MustParseList("Qd 7h 2s Ks 3c")
	r, err := odds.Compute(ps, board)
	if err != nil {
		t.Fatal(err)
	}
	winners := parimutuel.Leaders(ps, board) // positions from 1
	if r.Boards != 1 || len(winners) != 1 || winners[0] != 2 || r.Positions[1].Wins != 1 || r.Categories[hand.ThreeOfAKind] != 1 {
		t.Errorf("river result %+v, winners %v; want queens (position 2) to win with trips", r, winners)
	}
	if r.Positions[1].WinProbability() != 1 || r.Positions[0].LossProbability() != 1 || r.CategoryProbability(hand.ThreeOfAKind) != 1 {
		t.Error("float accessors disagree with the counts")
	}
}

func TestFloatAccessors(t *testing.T) {
	r, err := odds.Compute(pockets("2c 3d", "2d 3c", "Ah Kh"), cards.MustParseList("Ac Kd Qh Jh"))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.Positions {
		sum := p.WinProbability() + p.TieProbability() + p.LossProbability()
		if sum < 0.999999 || sum > 1.000001 {
			t.Errorf("position %d probabilities add to %v", i+1, sum)
		}
		f, _ := p.EquityRat().Float64()
		if f != p.Equity() {
			t.Errorf("position %d: Equity %v, EquityRat %v", i+1, p.Equity(), p.EquityRat())
		}
	}
	if (odds.Position{}).Equity() != 0 || (odds.Position{}).EquityRat().Sign() != 0 {
		t.Error("an empty Position must have zero equity")
	}
}

// TestTiesBy: the two 2-3 offsuit pockets chop every straight they make
// together; the tie sizes must add up.
func TestTiesBy(t *testing.T) {
	r, err := odds.Compute(pockets("2c 3d", "2d 3c", "2h 3s", "Ah Kh"), cards.MustParseList("4c 5d 6h Ks"))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Positions[0]
	if p.TiesBy[3] == 0 || p.Wins != 0 {
		t.Errorf("2-3 with a made straight: %+v; want three-way ties and no solo win", p)
	}
	units := p.Wins*odds.EquityUnit + p.TiesBy[2]*odds.EquityUnit/2 + p.TiesBy[3]*odds.EquityUnit/3 + p.TiesBy[4]*odds.EquityUnit/4
	if units != p.EquityUnits {
		t.Errorf("equity %d units, want %d from the tie counts", p.EquityUnits, units)
	}
}

func TestInvalidInput(t *testing.T) {
	tests := []struct {
		name, board, reason string
		pockets             [][2]cards.Card
	}{
		{"one position", "", "WRONG_POSITION_COUNT", pockets("Ah Kd")},
		{"eleven positions", "", "WRONG_POSITION_COUNT", pockets("2c 2d", "3c 3d", "4c 4d", "5c 5d", "6c 6d", "7c 7d", "8c 8d", "9c 9d", "Tc Td", "Jc Jd", "Qc Qd")},
		{"two board cards", "2s 3s", "WRONG_BOARD_SIZE", pockets("Ah Kd", "Qs Qh")},
		{"six board cards", "2s 3s 4s 5s 6s 7s", "WRONG_BOARD_SIZE", pockets("Ah Kd", "Qs Qh")},
		{"duplicate in pockets", "", "DUPLICATE_CARD", pockets("Ah Kd", "Ah Qh")},
		{"pocket pair of one card", "", "DUPLICATE_CARD", [][2]cards.Card{{1, 1}, {2, 3}}},
		{"pocket card on the board", "Kd 2c 3c", "DUPLICATE_CARD", pockets("Ah Kd", "Qs Qh")},
		{"invalid card", "", "INVALID_CARD", [][2]cards.Card{{1, 52}, {2, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			board := cards.MustParseList(tt.board)
			_, err := odds.Compute(tt.pockets, board)
			if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != tt.reason {
				t.Errorf("Compute error %v (%s), want Invalid %s", err, errs.ReasonOf(err), tt.reason)
			}
			if _, perr := odds.ComputeShared(tt.pockets, board); errs.ReasonOf(perr) != tt.reason {
				t.Errorf("ComputeShared error %v, want %s", perr, tt.reason)
			}
		})
	}
	_, err := odds.Compute(pockets("Ah Kd", "Ah Qh"), nil)
	if err == nil || err.Error() != "card Ah is dealt twice: to position 1 and to position 2" {
		t.Errorf("duplicate message %q", err)
	}
}
