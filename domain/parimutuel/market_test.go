package parimutuel_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// wantReason fails unless err is an Invalid error with the given reason, or
// nil when reason is "" (the tables' rows that must pass).
func wantReason(t *testing.T, err error, reason string) {
	t.Helper()
	code := errs.Invalid
	if reason == "" {
		code = ""
	}
	errstest.Is(t, err, code, reason)
}

func TestRoundString(t *testing.T) {
	for r, want := range map[parimutuel.Round]string{
		parimutuel.RoundPreDeal: "PRE_DEAL", parimutuel.RoundPocket: "POCKET", parimutuel.RoundFlop: "FLOP", parimutuel.RoundTurn: "TURN",
		0: "ROUND(0)", 5: "ROUND(5)",
	} {
		if got := r.String(); got != want {
			t.Errorf("Round(%d).String() = %q, want %q", int(r), got, want)
		}
	}
}

func TestCombinationString(t *testing.T) {
	want := []string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT",
		"FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH"}
	for c := parimutuel.HighCard; c <= parimutuel.RoyalFlush; c++ {
		if c.String() != want[c] {
			t.Errorf("Combination(%d) = %q, want %q", int(c), c.String(), want[c])
		}
	}
	if parimutuel.NumCombinations != len(want) {
		t.Errorf("NumCombinations = %d", parimutuel.NumCombinations)
	}
	if err := parimutuel.CombinationSelection(parimutuel.Combination(10)).Validate(6); err == nil {
		t.Error("category 10 accepted as a COMBINATION selection")
	}
}

func TestCheckMarketRound(t *testing.T) {
	tests := []struct {
		market parimutuel.Market
		round  parimutuel.Round
		reason string
	}{
		{parimutuel.MarketWin, parimutuel.RoundPreDeal, ""},
		{parimutuel.MarketWin, parimutuel.RoundTurn, ""},
		{parimutuel.MarketCombination, parimutuel.RoundFlop, ""},
		{parimutuel.MarketExpress, parimutuel.RoundPreDeal, ""},
		{parimutuel.MarketExpress, parimutuel.RoundPocket, ""},
		{parimutuel.MarketExpress, parimutuel.RoundFlop, "MARKET_NOT_OFFERED_IN_ROUND"},
		{parimutuel.MarketExpress, parimutuel.RoundTurn, "MARKET_NOT_OFFERED_IN_ROUND"},
		{parimutuel.MarketWin, 0, "UNKNOWN_ROUND"},
		{parimutuel.MarketWin, 5, "UNKNOWN_ROUND"},
		{"PLACE", parimutuel.RoundPreDeal, "UNKNOWN_MARKET"},
		{"win", parimutuel.RoundPreDeal, "UNKNOWN_MARKET"},
	}
	for _, tt := range tests {
		t.Run(string(tt.market)+"/"+tt.round.String(), func(t *testing.T) {
			wantReason(t, parimutuel.CheckMarketRound(tt.market, tt.round), tt.reason)
			if got := tt.market.Offers(tt.round); got != (tt.reason == "") {
				t.Errorf("Offers = %v", got)
			}
		})
	}
}

func TestSelectionValidate(t *testing.T) {
	tests := []struct {
		name      string
		sel       parimutuel.Selection
		positions int
		reason    string
	}{
		{"win first", parimutuel.WinSelection(1), 6, ""},
		{"win last", parimutuel.WinSelection(6), 6, ""},
		{"win ten", parimutuel.WinSelection(10), 10, ""},
		{"win zero", parimutuel.WinSelection(0), 6, "POSITION_OUT_OF_RANGE"},
		{"win past table", parimutuel.WinSelection(7), 6, "POSITION_OUT_OF_RANGE"},
		{"win negative", parimutuel.WinSelection(-1), 6, "POSITION_OUT_OF_RANGE"},
		{"win with category", parimutuel.Selection{Market: parimutuel.MarketWin, Position: 1, Combination: parimutuel.Flush}, 6, "INVALID_SELECTION"},
		{"win with coupon", parimutuel.Selection{Market: parimutuel.MarketWin, Position: 1, Coupon: parimutuel.Coupon{Flop: 1}}, 6, "INVALID_SELECTION"},
		{"high card", parimutuel.CombinationSelection(parimutuel.HighCard), 6, ""},
		{"royal flush", parimutuel.CombinationSelection(parimutuel.RoyalFlush), 2, ""},
		{"category 10", parimutuel.CombinationSelection(10), 6, "INVALID_SELECTION"},
		{"category 255", parimutuel.CombinationSelection(255), 6, "INVALID_SELECTION"},
		{"combination with position", parimutuel.Selection{Market: parimutuel.MarketCombination, Position: 2}, 6, "INVALID_SELECTION"},
		{"coupon", parimutuel.ExpressSelection(2, 5, 5), 6, ""},
		{"coupon flop out", parimutuel.ExpressSelection(0, 5, 5), 6, "POSITION_OUT_OF_RANGE"},
		{"coupon turn out", parimutuel.ExpressSelection(1, 7, 5), 6, "POSITION_OUT_OF_RANGE"},
		{"coupon river out", parimutuel.ExpressSelection(1, 1, 11), 10, "POSITION_OUT_OF_RANGE"},
		{"coupon with position", parimutuel.Selection{Market: parimutuel.MarketExpress, Position: 1, Coupon: parimutuel.Coupon{Flop: 1, Turn: 1, River: 1}}, 6, "INVALID_SELECTION"},
		{"no market", parimutuel.Selection{Position: 1}, 6, "UNKNOWN_MARKET"},
		{"table of one", parimutuel.WinSelection(1), 1, "INVALID_TABLE_SIZE"},
		{"table of eleven", parimutuel.WinSelection(1), 11, "INVALID_TABLE_SIZE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantReason(t, tt.sel.Validate(tt.positions), tt.reason)
		})
	}
}

func TestParseSelection(t *testing.T) {
	tests := []struct {
		market parimutuel.Market
		text   string
		want   parimutuel.Selection
		reason string
	}{
		{parimutuel.MarketWin, "3", parimutuel.WinSelection(3), ""},
		{parimutuel.MarketWin, "10", parimutuel.WinSelection(10), ""},
		{parimutuel.MarketWin, "0", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketWin, "11", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketWin, "03", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketWin, "+3", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketWin, " 3", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketWin, "", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketWin, "FLUSH", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketCombination, "FLUSH", parimutuel.CombinationSelection(parimutuel.Flush), ""},
		{parimutuel.MarketCombination, "HIGH_CARD", parimutuel.CombinationSelection(parimutuel.HighCard), ""},
		{parimutuel.MarketCombination, "ROYAL_FLUSH", parimutuel.CombinationSelection(parimutuel.RoyalFlush), ""},
		{parimutuel.MarketCombination, "flush", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketCombination, "5", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketExpress, "2-5-5", parimutuel.ExpressSelection(2, 5, 5), ""},
		{parimutuel.MarketExpress, "10-10-1", parimutuel.ExpressSelection(10, 10, 1), ""},
		{parimutuel.MarketExpress, "2-5", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketExpress, "2-5-5-1", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketExpress, "2--5", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketExpress, "2-5-0", parimutuel.Selection{}, "INVALID_SELECTION"},
		{parimutuel.MarketExpress, "2-5-05", parimutuel.Selection{}, "INVALID_SELECTION"},
		{"PLACE", "3", parimutuel.Selection{}, "UNKNOWN_MARKET"},
	}
	for _, tt := range tests {
		t.Run(string(tt.market)+"/"+tt.text, func(t *testing.T) {
			got, err := parimutuel.ParseSelection(tt.market, tt.text)
			wantReason(t, err, tt.reason)
			if got != tt.want {
				t.Fatalf("ParseSelection = %+v, want %+v", got, tt.want)
			}
			if err == nil && got.String() != tt.text {
				t.Fatalf("String() = %q, want %q", got.String(), tt.text)
			}
		})
	}
}

// genSelection draws a valid selection for a table of n positions.
func genSelection(n int) *rapid.Generator[parimutuel.Selection] {
	pos := rapid.IntRange(1, n)
	return rapid.OneOf(
		rapid.Custom(func(t *rapid.T) parimutuel.Selection { return parimutuel.WinSelection(pos.Draw(t, "position")) }),
		rapid.Custom(func(t *rapid.T) parimutuel.Selection {
			return parimutuel.CombinationSelection(parimutuel.Combination(rapid.IntRange(0, parimutuel.NumCombinations-1).Draw(t, "category")))
		}),
		rapid.Custom(func(t *rapid.T) parimutuel.Selection {
			return parimutuel.ExpressSelection(pos.Draw(t, "flop"), pos.Draw(t, "turn"), pos.Draw(t, "river"))
		}),
	)
}

func TestSelectionRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 10).Draw(t, "positions")
		sel := genSelection(n).Draw(t, "selection")
		if err := sel.Validate(n); err != nil {
			t.Fatalf("generated selection invalid: %v", err)
		}
		back, err := parimutuel.ParseSelection(sel.Market, sel.String())
		if err != nil || back != sel {
			t.Fatalf("ParseSelection(%s, %q) = %+v, %v; want %+v", sel.Market, sel.String(), back, err, sel)
		}
	})
}

func FuzzParseSelection(f *testing.F) {
	for _, seed := range []struct {
		market int
		text   string
	}{
		{0, "3"}, {0, "10"}, {0, "01"}, {1, "FLUSH"}, {1, "ROYAL_FLUSH"}, {1, "flush"},
		{2, "2-5-5"}, {2, "10-1-10"}, {2, "1-1-1-1"}, {2, "--"}, {3, "3"},
	} {
		f.Add(seed.market, seed.text)
	}
	markets := append(append([]parimutuel.Market(nil), parimutuel.Markets...), "BOGUS")
	f.Fuzz(func(t *testing.T, mi int, text string) {
		m := markets[uint(mi)%uint(len(markets))]
		sel, err := parimutuel.ParseSelection(m, text)
		if err != nil {
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("ParseSelection(%s, %q) error %v is not Invalid", m, text, err)
			}
			if sel != (parimutuel.Selection{}) {
				t.Fatalf("ParseSelection(%s, %q) failed but returned %+v", m, text, sel)
			}
			return
		}
		if sel.Market != m {
			t.Fatalf("ParseSelection(%s, %q) gave market %s", m, text, sel.Market)
		}
		if err := sel.Validate(10); err != nil {
			t.Fatalf("ParseSelection(%s, %q) = %+v, which is invalid: %v", m, text, sel, err)
		}
		if sel.String() != text {
			t.Fatalf("ParseSelection(%s, %q) accepted a non-canonical form of %q", m, text, sel.String())
		}
	})
}
