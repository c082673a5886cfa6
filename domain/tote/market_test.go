package tote_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
)

// wantReason fails unless err is an Invalid error with the given reason, or
// nil when reason is "".
func wantReason(t *testing.T, err error, reason string) {
	t.Helper()
	if reason == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want %s", reason)
	}
	if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != reason {
		t.Fatalf("error %v (code %s, reason %s), want Invalid %s", err, errs.CodeOf(err), errs.ReasonOf(err), reason)
	}
}

func TestRoundString(t *testing.T) {
	for r, want := range map[tote.Round]string{
		tote.RoundPreDeal: "PRE_DEAL", tote.RoundPocket: "POCKET", tote.RoundFlop: "FLOP", tote.RoundTurn: "TURN",
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
	for c := tote.HighCard; c <= tote.RoyalFlush; c++ {
		if c.String() != want[c] {
			t.Errorf("Combination(%d) = %q, want %q", int(c), c.String(), want[c])
		}
	}
	if tote.NumCombinations != len(want) {
		t.Errorf("NumCombinations = %d", tote.NumCombinations)
	}
	if err := tote.CombinationSelection(tote.Combination(10)).Validate(6); err == nil {
		t.Error("category 10 accepted as a COMBINATION selection")
	}
}

func TestCheckMarketRound(t *testing.T) {
	tests := []struct {
		market tote.Market
		round  tote.Round
		reason string
	}{
		{tote.MarketWin, tote.RoundPreDeal, ""},
		{tote.MarketWin, tote.RoundTurn, ""},
		{tote.MarketCombination, tote.RoundFlop, ""},
		{tote.MarketExpress, tote.RoundPreDeal, ""},
		{tote.MarketExpress, tote.RoundPocket, ""},
		{tote.MarketExpress, tote.RoundFlop, "MARKET_NOT_OFFERED_IN_ROUND"},
		{tote.MarketExpress, tote.RoundTurn, "MARKET_NOT_OFFERED_IN_ROUND"},
		{tote.MarketWin, 0, "UNKNOWN_ROUND"},
		{tote.MarketWin, 5, "UNKNOWN_ROUND"},
		{"PLACE", tote.RoundPreDeal, "UNKNOWN_MARKET"},
		{"win", tote.RoundPreDeal, "UNKNOWN_MARKET"},
	}
	for _, tt := range tests {
		t.Run(string(tt.market)+"/"+tt.round.String(), func(t *testing.T) {
			wantReason(t, tote.CheckMarketRound(tt.market, tt.round), tt.reason)
			if got := tt.market.Offers(tt.round); got != (tt.reason == "") {
				t.Errorf("Offers = %v", got)
			}
		})
	}
}

func TestSelectionValidate(t *testing.T) {
	tests := []struct {
		name      string
		sel       tote.Selection
		positions int
		reason    string
	}{
		{"win first", tote.WinSelection(1), 6, ""},
		{"win last", tote.WinSelection(6), 6, ""},
		{"win ten", tote.WinSelection(10), 10, ""},
		{"win zero", tote.WinSelection(0), 6, "POSITION_OUT_OF_RANGE"},
		{"win past table", tote.WinSelection(7), 6, "POSITION_OUT_OF_RANGE"},
		{"win negative", tote.WinSelection(-1), 6, "POSITION_OUT_OF_RANGE"},
		{"win with category", tote.Selection{Market: tote.MarketWin, Position: 1, Combination: tote.Flush}, 6, "INVALID_SELECTION"},
		{"win with coupon", tote.Selection{Market: tote.MarketWin, Position: 1, Coupon: tote.Coupon{Flop: 1}}, 6, "INVALID_SELECTION"},
		{"high card", tote.CombinationSelection(tote.HighCard), 6, ""},
		{"royal flush", tote.CombinationSelection(tote.RoyalFlush), 2, ""},
		{"category 10", tote.CombinationSelection(10), 6, "INVALID_SELECTION"},
		{"category 255", tote.CombinationSelection(255), 6, "INVALID_SELECTION"},
		{"combination with position", tote.Selection{Market: tote.MarketCombination, Position: 2}, 6, "INVALID_SELECTION"},
		{"coupon", tote.ExpressSelection(2, 5, 5), 6, ""},
		{"coupon flop out", tote.ExpressSelection(0, 5, 5), 6, "POSITION_OUT_OF_RANGE"},
		{"coupon turn out", tote.ExpressSelection(1, 7, 5), 6, "POSITION_OUT_OF_RANGE"},
		{"coupon river out", tote.ExpressSelection(1, 1, 11), 10, "POSITION_OUT_OF_RANGE"},
		{"coupon with position", tote.Selection{Market: tote.MarketExpress, Position: 1, Coupon: tote.Coupon{Flop: 1, Turn: 1, River: 1}}, 6, "INVALID_SELECTION"},
		{"no market", tote.Selection{Position: 1}, 6, "UNKNOWN_MARKET"},
		{"table of one", tote.WinSelection(1), 1, "INVALID_TABLE_SIZE"},
		{"table of eleven", tote.WinSelection(1), 11, "INVALID_TABLE_SIZE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantReason(t, tt.sel.Validate(tt.positions), tt.reason)
		})
	}
}

func TestParseSelection(t *testing.T) {
	tests := []struct {
		market tote.Market
		text   string
		want   tote.Selection
		reason string
	}{
		{tote.MarketWin, "3", tote.WinSelection(3), ""},
		{tote.MarketWin, "10", tote.WinSelection(10), ""},
		{tote.MarketWin, "0", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketWin, "11", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketWin, "03", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketWin, "+3", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketWin, " 3", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketWin, "", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketWin, "FLUSH", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketCombination, "FLUSH", tote.CombinationSelection(tote.Flush), ""},
		{tote.MarketCombination, "HIGH_CARD", tote.CombinationSelection(tote.HighCard), ""},
		{tote.MarketCombination, "ROYAL_FLUSH", tote.CombinationSelection(tote.RoyalFlush), ""},
		{tote.MarketCombination, "flush", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketCombination, "5", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketExpress, "2-5-5", tote.ExpressSelection(2, 5, 5), ""},
		{tote.MarketExpress, "10-10-1", tote.ExpressSelection(10, 10, 1), ""},
		{tote.MarketExpress, "2-5", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketExpress, "2-5-5-1", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketExpress, "2--5", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketExpress, "2-5-0", tote.Selection{}, "INVALID_SELECTION"},
		{tote.MarketExpress, "2-5-05", tote.Selection{}, "INVALID_SELECTION"},
		{"PLACE", "3", tote.Selection{}, "UNKNOWN_MARKET"},
	}
	for _, tt := range tests {
		t.Run(string(tt.market)+"/"+tt.text, func(t *testing.T) {
			got, err := tote.ParseSelection(tt.market, tt.text)
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
func genSelection(n int) *rapid.Generator[tote.Selection] {
	pos := rapid.IntRange(1, n)
	return rapid.OneOf(
		rapid.Custom(func(t *rapid.T) tote.Selection { return tote.WinSelection(pos.Draw(t, "position")) }),
		rapid.Custom(func(t *rapid.T) tote.Selection {
			return tote.CombinationSelection(tote.Combination(rapid.IntRange(0, tote.NumCombinations-1).Draw(t, "category")))
		}),
		rapid.Custom(func(t *rapid.T) tote.Selection {
			return tote.ExpressSelection(pos.Draw(t, "flop"), pos.Draw(t, "turn"), pos.Draw(t, "river"))
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
		back, err := tote.ParseSelection(sel.Market, sel.String())
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
	markets := append(append([]tote.Market(nil), tote.Markets...), "BOGUS")
	f.Fuzz(func(t *testing.T, mi int, text string) {
		m := markets[uint(mi)%uint(len(markets))]
		sel, err := tote.ParseSelection(m, text)
		if err != nil {
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("ParseSelection(%s, %q) error %v is not Invalid", m, text, err)
			}
			if sel != (tote.Selection{}) {
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
