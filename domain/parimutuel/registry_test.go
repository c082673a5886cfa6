package parimutuel_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// TestProductionRegistry pins the production markets: their names and
// order (stored, published, the settlement order of a round's pools), the
// rounds that offer them, their shapes, schemes and grading rules.
func TestProductionRegistry(t *testing.T) {
	reg := parimutuel.Production()
	if got := reg.Markets(); !slices.Equal(got, []parimutuel.Market{"WIN", "COMBINATION", "EXPRESS"}) || !slices.Equal(got, parimutuel.Markets) {
		t.Fatalf("markets = %v (Markets %v)", got, parimutuel.Markets)
	}
	all := parimutuel.RoundsOf(1, 2, 3, 4)
	for _, tt := range []struct {
		m      parimutuel.Market
		rounds parimutuel.RoundSet
		shape  *parimutuel.Shape
		scheme parimutuel.Scheme
		reads  []string
		listed bool
		rule   string
		input  string // the API's SelectionInput field: clients send it, it never changes
	}{
		{parimutuel.MarketWin, all, parimutuel.PositionShape, parimutuel.SchemeSingle, []string{"WINNERS"}, true, "PLACED_WITHIN(1)", "position"},
		{parimutuel.MarketCombination, all, parimutuel.CategoryShape, parimutuel.SchemeSingle, []string{"CATEGORY"}, true, "CATEGORY_IS", "combination"},
		{parimutuel.MarketExpress, parimutuel.RoundsOf(1, 2), parimutuel.CouponShape, parimutuel.SchemeTwoTier, []string{"WINNERS", "FLOP_LEADERS", "TURN_LEADERS"}, false, "COUPON_LEGS(3, 2)", "express"},
	} {
		s, ok := reg.Lookup(tt.m)
		if !ok || s.Input != tt.input || s.Rounds != tt.rounds || s.Shape != tt.shape || s.Scheme != tt.scheme || !slices.Equal(s.Reads.Names(), tt.reads) || s.Listed() != tt.listed || s.About == "" || s.Rule.String() != tt.rule {
			t.Errorf("%s: %+v", tt.m, s)
		}
	}
	if _, ok := reg.Lookup("PLACE"); ok {
		t.Error("PLACE is a market")
	}
	// The registry hands out copies: changing them changes nothing.
	reg.Markets()[0] = "PLACE"
	reg.Specs()[0].Rounds = 0
	if reg.Markets()[0] != parimutuel.MarketWin || parimutuel.MarketWin.Validate() != nil {
		t.Error("a caller changed the production registry")
	}
	if !parimutuel.MarketWin.Offers(parimutuel.RoundPreDeal) {
		t.Error("a caller changed WIN's rounds")
	}
}

// TestUnknownMarketIsAnError: every entry point refuses a market the
// registry does not declare with UNKNOWN_MARKET; nothing settles it as
// another market.
func TestUnknownMarketIsAnError(t *testing.T) {
	reg := parimutuel.Production()
	_, err := reg.Spec("PLACE")
	wantReason(t, err, parimutuel.ReasonUnknownMarket)
	if !strings.Contains(err.Error(), "choose WIN, COMBINATION or EXPRESS") {
		t.Errorf("message %q", err)
	}
	_, err = reg.ParseSelection("PLACE", "1")
	wantReason(t, err, parimutuel.ReasonUnknownMarket)
	wantReason(t, reg.ValidateSelection(parimutuel.Selection{Market: "PLACE", Position: 1}, 6), parimutuel.ReasonUnknownMarket)
	wantReason(t, reg.CheckMarketRound("PLACE", parimutuel.RoundPreDeal), parimutuel.ReasonUnknownMarket)
	p := parimutuel.Pool{ID: "p", Market: "PLACE", Round: parimutuel.RoundPreDeal, Positions: 6, Config: defaultPoolConfig()}
	_, err = reg.SettlePool(p, parimutuel.Outcome{Winners: []int{1}}, 0)
	wantReason(t, err, parimutuel.ReasonUnknownMarket)
	_, err = reg.VoidPool(p)
	wantReason(t, err, parimutuel.ReasonUnknownMarket)
	if got := reg.Format(parimutuel.Selection{Market: "PLACE", Position: 1}); got != "?" {
		t.Errorf("Format of an unknown market = %q", got)
	}
	// The refusal of a round names when the market is taken.
	err = parimutuel.CheckMarketRound(parimutuel.MarketExpress, parimutuel.RoundFlop)
	if !strings.HasSuffix(err.Error(), "EXPRESS bets are not taken in round FLOP: EXPRESS closes after round POCKET") {
		t.Errorf("message %q", err)
	}
}

// TestNewRegistryRefuses: a spec that is not a whole market is refused
// when the registry is built, never found in a settlement.
func TestNewRegistryRefuses(t *testing.T) {
	win, _ := parimutuel.Production().Lookup(parimutuel.MarketWin)
	place := win
	place.Name, place.Input = "PLACE", "place"
	for name, tt := range map[string]struct {
		edit func(s *parimutuel.MarketSpec)
		want string
	}{
		"lower-case name": {func(s *parimutuel.MarketSpec) { s.Name = "place" }, "upper-case"},
		"no input":        {func(s *parimutuel.MarketSpec) { s.Input = "" }, "input field"},
		"input not camel": {func(s *parimutuel.MarketSpec) { s.Input = "top_two" }, "input field"},
		"no rounds":       {func(s *parimutuel.MarketSpec) { s.Rounds = 0 }, "no round"},
		"round 5":         {func(s *parimutuel.MarketSpec) { s.Rounds = parimutuel.RoundsOf(1, 5) }, "not rounds 1..4"},
		"round 0":         {func(s *parimutuel.MarketSpec) { s.Rounds = parimutuel.RoundsOf(0, 1) }, "not rounds 1..4"},
		"no shape":        {func(s *parimutuel.MarketSpec) { s.Shape = nil }, "shape"},
		"reads nothing":   {func(s *parimutuel.MarketSpec) { s.Reads = 0 }, "reads"},
		"no scheme":       {func(s *parimutuel.MarketSpec) { s.Scheme = 0 }, "scheme"},
		"no rule":         {func(s *parimutuel.MarketSpec) { s.Rule = parimutuel.GradeRule{} }, "no kind of rule"},
		"unknown rule":    {func(s *parimutuel.MarketSpec) { s.Rule.Kind = "PLACED_LAST" }, "no kind of rule"},
		"within 0":        {func(s *parimutuel.MarketSpec) { s.Rule = parimutuel.PlacedWithin(0) }, "places 1 to 10"},
		"within 11":       {func(s *parimutuel.MarketSpec) { s.Rule = parimutuel.PlacedWithin(11) }, "places 1 to 10"},
		"rule with legs":  {func(s *parimutuel.MarketSpec) { s.Rule.Cat1Legs = 3 }, "no legs"},
		// The rule grades categories, the spec holds positions.
		"rule of another shape": {func(s *parimutuel.MarketSpec) { s.Rule, s.Reads = parimutuel.CategoryIs(), parimutuel.ReadsCategory }, "grades CATEGORY selections, not POSITION"},
		// The rule reads the winners, which the spec does not declare.
		"reads undeclared": {func(s *parimutuel.MarketSpec) { s.Reads = parimutuel.ReadsCategory }, "the spec declares [CATEGORY]"},
		// Places after the first read every position's hand.
		"places from winners": {func(s *parimutuel.MarketSpec) { s.Rule = parimutuel.PlacedWithin(2) }, "reads [HANDS]"},
		// A single-fund market paying a second category.
		"cat2 in single": {func(s *parimutuel.MarketSpec) { asCoupon(s, parimutuel.CouponLegs(3, 2), parimutuel.SchemeSingle) }, "scheme SINGLE"},
		"coupon from 3":  {func(s *parimutuel.MarketSpec) { asCoupon(s, parimutuel.CouponLegs(3, 0), parimutuel.SchemeSingle) }, "from 2 legs"},
		"coupon legs 4":  {func(s *parimutuel.MarketSpec) { asCoupon(s, parimutuel.CouponLegs(4, 2), parimutuel.SchemeTwoTier) }, "1 to 3 legs"},
		"coupon at the flop": {func(s *parimutuel.MarketSpec) {
			asCoupon(s, parimutuel.CouponLegs(3, 2), parimutuel.SchemeTwoTier)
			s.Rounds = parimutuel.RoundsOf(parimutuel.RoundFlop)
		}, "closes before the flop"},
	} {
		t.Run(name, func(t *testing.T) {
			s := place
			tt.edit(&s)
			_, err := parimutuel.NewRegistry(s)
			if !errs.Is(err, errs.Internal) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewRegistry = %v, want an Internal error saying %q", err, tt.want)
			}
		})
	}
	if _, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), win)...); !errs.Is(err, errs.Internal) {
		t.Fatalf("WIN declared twice: %v", err)
	}
	if _, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), spec(place, func(s *parimutuel.MarketSpec) { s.Input = "position" }))...); !errs.Is(err, errs.Internal) || !strings.Contains(err.Error(), `share the input field "position"`) {
		t.Fatalf("WIN's input field declared twice: %v", err)
	}
	if _, err := parimutuel.NewRegistry(); !errs.Is(err, errs.Internal) {
		t.Fatalf("an empty registry: %v", err)
	}
	reg, err := parimutuel.NewRegistry(place)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Markets()[0] != "PLACE" || parimutuel.Market("PLACE").Validate() == nil {
		t.Fatal("a test registry leaked into production")
	}
	if got, ok := reg.ByInput("place"); !ok || got.Name != "PLACE" {
		t.Fatalf("ByInput(place) = %s, %t", got.Name, ok)
	}
	if _, ok := parimutuel.Production().ByInput("place"); ok {
		t.Fatal("production has a place field")
	}
}

// spec is s edited by edit (a copy).
func spec(s parimutuel.MarketSpec, edit func(*parimutuel.MarketSpec)) parimutuel.MarketSpec {
	edit(&s)
	return s
}

// asCoupon makes s a coupon market of rule r and scheme sc.
func asCoupon(s *parimutuel.MarketSpec, r parimutuel.GradeRule, sc parimutuel.Scheme) {
	s.Shape, s.Reads, s.Rounds, s.Rule, s.Scheme = parimutuel.CouponShape, r.Reads(), parimutuel.RoundsOf(1, 2), r, sc
}

// TestSettleByRegistryIsSettlePool: the production functions are the
// production registry's.
func TestSettleByRegistryIsSettlePool(t *testing.T) {
	p := pool(parimutuel.MarketExpress, dflt, bet("a", 1000, coup(1, 2, 3)), bet("b", 700, coup(1, 2, 1)), bet("c", 300, coup(2, 2, 2)))
	o := parimutuel.Outcome{Winners: []int{3}, FlopLeaders: []int{1}, TurnLeaders: []int{2}}
	a, errA := parimutuel.SettlePool(p, o, 5000)
	b, errB := parimutuel.Production().SettlePool(p, o, 5000)
	if errA != nil || errB != nil || !slices.Equal(a.Payouts, b.Payouts) || a.Paid != b.Paid || !slices.Equal(a.Winning, b.Winning) {
		t.Fatalf("%+v %v\n%+v %v", a, errA, b, errB)
	}
	if a.Payouts[0].Guessed != 3 || a.Payouts[1].Guessed != 2 || a.Payouts[2].Guessed != 1 {
		t.Fatalf("guessed %+v", a.Payouts)
	}
}

// TestSelectionsListed: each shape lists every selection of a table once,
// ascending, each valid and written canonically.
func TestSelectionsListed(t *testing.T) {
	reg := parimutuel.Production()
	for _, s := range reg.Specs() {
		for _, n := range []int{2, 6, 10} {
			sels := s.Selections(n)
			want := map[*parimutuel.Shape]int{parimutuel.PositionShape: n, parimutuel.CategoryShape: parimutuel.NumCombinations, parimutuel.CouponShape: n * n * n}[s.Shape]
			if len(sels) != want {
				t.Fatalf("%s on %d positions lists %d selections, want %d", s.Name, n, len(sels), want)
			}
			for i, sel := range sels {
				if err := reg.ValidateSelection(sel, n); err != nil {
					t.Fatal(err)
				}
				back, err := reg.ParseSelection(s.Name, s.Format(sel))
				if err != nil || back != sel {
					t.Fatalf("%s %s reads back as %+v, %v", s.Name, s.Format(sel), back, err)
				}
				if i > 0 && !less(sels[i-1], sel) {
					t.Fatalf("%s: %s listed after %s", s.Name, s.Format(sel), s.Format(sels[i-1]))
				}
			}
		}
	}
}

func less(a, b parimutuel.Selection) bool {
	ka := [5]int{a.Position, int(a.Combination), a.Coupon.Flop, a.Coupon.Turn, a.Coupon.River}
	kb := [5]int{b.Position, int(b.Combination), b.Coupon.Flop, b.Coupon.Turn, b.Coupon.River}
	return slices.Compare(ka[:], kb[:]) < 0
}

// TestChancesOverBoardsRefusesLeaders: a market read from the leaders is
// no board's to decide.
func TestChancesOverBoardsRefusesLeaders(t *testing.T) {
	express, _ := parimutuel.Production().Lookup(parimutuel.MarketExpress)
	if _, err := parimutuel.ChancesOverBoards(express, nil, money.BasisPoints(9000)); !errs.Is(err, errs.Internal) {
		t.Fatalf("ChancesOverBoards(EXPRESS) = %v", err)
	}
}
