package holdem_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
)

func twoBoxes(t *testing.T) *holdem.Hand {
	t.Helper()
	d := dealOf(t, []string{"AhAd", "7c2d"}, "KcKd", "3h 8d Jc 5s 9h")
	return start(t, []holdem.Stake{{Ante: ante, Bonus: bonus}, {Ante: 2 * ante}}, d)
}

func TestTwoBoxesSecondHiddenUntilFirstDecides(t *testing.T) {
	h := twoBoxes(t)
	v := h.View()
	if v.Phase != holdem.Deciding || v.Turn != 0 || !v.Deadline.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("view = phase %s turn %d deadline %v", v.Phase, v.Turn, v.Deadline)
	}
	if !v.Boxes[0].Visible || cards.Format(v.Boxes[0].Pocket) != "Ah Ad" {
		t.Errorf("box 1 should show Ah Ad, got %v %v", v.Boxes[0].Visible, v.Boxes[0].Pocket)
	}
	if v.Boxes[1].Visible || v.Boxes[1].Pocket != nil {
		t.Errorf("box 2 must be hidden before box 1 decides, got %v", v.Boxes[1].Pocket)
	}
	if v.Dealer != nil || cards.Format(v.Board) != "3h 8d Jc" || v.Settlement != nil {
		t.Errorf("deciding view shows dealer %v board %v settlement %v", v.Dealer, v.Board, v.Settlement)
	}

	if err := h.Decide(0, holdem.Call, t0.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	v = h.View()
	if v.Turn != 1 || !v.Deadline.Equal(t0.Add(40*time.Second)) {
		t.Errorf("after box 1: turn %d deadline %v, want 1 and the timeout restarted", v.Turn, v.Deadline)
	}
	if !v.Boxes[1].Visible || cards.Format(v.Boxes[1].Pocket) != "7c 2d" {
		t.Errorf("box 2 should now show 7c 2d, got %v", v.Boxes[1].Pocket)
	}
	if v.Boxes[0].Decision != holdem.Call || v.Boxes[0].Bet != 2*ante || v.Dealer != nil {
		t.Errorf("box 1 = %+v, dealer %v", v.Boxes[0], v.Dealer)
	}

	if err := h.Decide(1, holdem.Fold, t0.Add(15*time.Second)); err != nil {
		t.Fatal(err)
	}
	v = h.View()
	if v.Phase != holdem.Settled || v.Turn != -1 || !v.Deadline.IsZero() {
		t.Fatalf("after both: phase %s turn %d deadline %v", v.Phase, v.Turn, v.Deadline)
	}
	if cards.Format(v.Dealer) != "Kc Kd" || len(v.Board) != 5 || v.Settlement == nil {
		t.Fatalf("settled view: dealer %v board %v", v.Dealer, v.Board)
	}
	s := *v.Settlement
	// Box 1: aces beat kings, ante 1:1 and bet 1:1; its first five cards
	// hold a pair of aces, so the bonus pays 7:1. Box 2 folded.
	b0, b1 := s.Boxes[0], s.Boxes[1]
	if b0.Outcome != holdem.OutcomeWin || b0.AnteReturn != 2*ante || b0.BetReturn != 4*ante || b0.BonusReturn != 8*bonus {
		t.Errorf("box 1 = %+v", b0)
	}
	if b1.Outcome != holdem.OutcomeFold || b1.Returned() != 0 || b1.Bet != 0 || b1.Staked() != 2*ante {
		t.Errorf("box 2 = %+v", b1)
	}
	if want := 3*ante + 7*bonus - 2*ante; s.PlayerNet != want || s.HouseNet != -want {
		t.Errorf("net = %s/%s, want %s", s.PlayerNet, s.HouseNet, want)
	}
}

func TestLegs(t *testing.T) {
	h := twoBoxes(t)
	leg := func(box int, k holdem.LegKind, a money.Amount) holdem.Leg {
		if k == holdem.LegPayout {
			return holdem.Leg{Box: box, Kind: k, From: holdem.HouseBank, To: holdem.PlayerWallet, Amount: a}
		}
		return holdem.Leg{Box: box, Kind: k, From: holdem.PlayerWallet, To: holdem.HouseBank, Amount: a}
	}
	stakes := []holdem.Leg{leg(0, holdem.LegAnte, ante), leg(0, holdem.LegBonus, bonus), leg(1, holdem.LegAnte, 2*ante)}
	if got := h.Legs(); !slices.Equal(got, stakes) {
		t.Fatalf("legs at start = %+v", got)
	}
	if err := h.Decide(0, holdem.Call, t0); err != nil {
		t.Fatal(err)
	}
	called := append(slices.Clone(stakes), leg(0, holdem.LegBet, 2*ante))
	if got := h.Legs(); !slices.Equal(got, called) {
		t.Fatalf("legs after call = %+v", got)
	}
	if err := h.Decide(1, holdem.Fold, t0); err != nil {
		t.Fatal(err)
	}
	settled := append(slices.Clone(called), leg(0, holdem.LegPayout, 6*ante+8*bonus))
	if got := h.Legs(); !slices.Equal(got, settled) {
		t.Fatalf("legs after settlement = %+v", got)
	}
	if house := houseChange(h.Legs()); house != settlement(t, h).HouseNet {
		t.Errorf("house bank change %s != house net %s", house, settlement(t, h).HouseNet)
	}
}

func houseChange(legs []holdem.Leg) money.Amount {
	var sum money.Amount
	for _, l := range legs {
		if l.To == holdem.HouseBank {
			sum += l.Amount
		}
		if l.From == holdem.HouseBank {
			sum -= l.Amount
		}
	}
	return sum
}

func TestTimeout(t *testing.T) {
	t.Run("nothing happens before the deadline", func(t *testing.T) {
		h := twoBoxes(t)
		if h.Expire(t0.Add(30*time.Second - 1)) {
			t.Fatal("expired a second early")
		}
		if h.Phase() != holdem.Deciding {
			t.Fatalf("phase = %s", h.Phase())
		}
	})
	t.Run("the deadline folds every undecided box", func(t *testing.T) {
		h := twoBoxes(t)
		if !h.Expire(t0.Add(30 * time.Second)) {
			t.Fatal("did not expire at the deadline")
		}
		s := settlement(t, h)
		for _, b := range s.Boxes {
			if b.Decision != holdem.Fold || !b.TimedOut || b.Outcome != holdem.OutcomeFold || b.Bet != 0 {
				t.Errorf("box %d = %+v", b.Box, b)
			}
		}
		// The folded first box still wins its Bonus on a pair of aces.
		if s.Boxes[0].BonusReturn != 8*bonus {
			t.Errorf("bonus after timeout = %s", s.Boxes[0].BonusReturn)
		}
		if h.Expire(t0.Add(time.Hour)) {
			t.Error("expired twice")
		}
	})
	t.Run("the second box times out after the first called", func(t *testing.T) {
		h := twoBoxes(t)
		if err := h.Decide(0, holdem.Call, t0.Add(20*time.Second)); err != nil {
			t.Fatal(err)
		}
		if h.Expire(t0.Add(49 * time.Second)) {
			t.Fatal("the second box's clock restarts at the first decision")
		}
		if !h.Expire(t0.Add(50 * time.Second)) {
			t.Fatal("did not expire")
		}
		s := settlement(t, h)
		if s.Boxes[0].Decision != holdem.Call || s.Boxes[0].TimedOut || s.Boxes[0].Outcome != holdem.OutcomeWin {
			t.Errorf("box 1 = %+v", s.Boxes[0])
		}
		if !s.Boxes[1].TimedOut || s.Boxes[1].Outcome != holdem.OutcomeFold {
			t.Errorf("box 2 = %+v", s.Boxes[1])
		}
	})
	t.Run("a decision after the deadline is refused and the hand expires", func(t *testing.T) {
		h := twoBoxes(t)
		err := h.Decide(0, holdem.Call, t0.Add(31*time.Second))
		errstest.Is(t, err, errs.Conflict, "DECISION_TIMED_OUT")
		if s := settlement(t, h); s.Boxes[0].Decision != holdem.Fold || !s.Boxes[0].TimedOut {
			t.Errorf("box 1 = %+v", s.Boxes[0])
		}
	})
	t.Run("a late decision answers the same after the sweeper expired the hand", func(t *testing.T) {
		h := twoBoxes(t)
		if err := h.Decide(0, holdem.Call, t0.Add(10*time.Second)); err != nil {
			t.Fatal(err)
		}
		if !h.Expire(t0.Add(40 * time.Second)) {
			t.Fatal("did not expire")
		}
		errstest.Is(t, h.Decide(1, holdem.Call, t0.Add(41*time.Second)), errs.Conflict, "DECISION_TIMED_OUT")
		// Box 1 decided in time: for it the hand is simply settled.
		errstest.Is(t, h.Decide(0, holdem.Call, t0.Add(41*time.Second)), errs.Conflict, "HAND_SETTLED")
	})
}

func TestDecideErrors(t *testing.T) {
	tests := []struct {
		name   string
		before []holdem.Decision // decided in box order first
		box    int
		d      holdem.Decision
		code   errs.Code
		reason string
	}{
		{"second box before the first", nil, 1, holdem.Call, errs.Conflict, "OUT_OF_TURN"},
		{"first box twice", []holdem.Decision{holdem.Call}, 0, holdem.Fold, errs.Conflict, "ALREADY_DECIDED"},
		{"after settlement", []holdem.Decision{holdem.Call, holdem.Fold}, 1, holdem.Call, errs.Conflict, "HAND_SETTLED"},
		{"no such box", nil, 2, holdem.Call, errs.Invalid, "NO_SUCH_BOX"},
		{"negative box", nil, -1, holdem.Call, errs.Invalid, "NO_SUCH_BOX"},
		{"undecided is not a decision", nil, 0, holdem.Undecided, errs.Invalid, "INVALID_DECISION"},
		{"unknown decision", nil, 0, holdem.Decision("RAISE"), errs.Invalid, "INVALID_DECISION"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := twoBoxes(t)
			for i, d := range tc.before {
				if err := h.Decide(i, d, t0); err != nil {
					t.Fatal(err)
				}
			}
			legs := len(h.Legs())
			errstest.Is(t, h.Decide(tc.box, tc.d, t0), tc.code, tc.reason)
			if len(h.Legs()) != legs {
				t.Error("a refused decision moved money")
			}
		})
	}
}

func TestStartErrors(t *testing.T) {
	d1 := func(t *testing.T) holdem.Deal { return dealOf(t, []string{"AhAd"}, "KcKd", "3h 8d Jc 5s 9h") }
	cfg := holdem.DefaultConfig()
	tests := []struct {
		name   string
		cfg    func(*holdem.Config)
		stakes []holdem.Stake
		deal   func(*testing.T) holdem.Deal
		code   errs.Code
		reason string
	}{
		{"no box", nil, nil, d1, errs.Invalid, "BOX_COUNT"},
		{"three boxes", nil, []holdem.Stake{{Ante: ante}, {Ante: ante}, {Ante: ante}}, d1, errs.Invalid, "BOX_COUNT"},
		{"ante below minimum", nil, []holdem.Stake{{Ante: cfg.MinAnte - 1}}, d1, errs.Invalid, "ANTE_OUT_OF_RANGE"},
		{"ante above maximum", nil, []holdem.Stake{{Ante: cfg.MaxAnte + 1}}, d1, errs.Invalid, "ANTE_OUT_OF_RANGE"},
		{"negative bonus", nil, []holdem.Stake{{Ante: ante, Bonus: -1}}, d1, errs.Invalid, "BONUS_OUT_OF_RANGE"},
		{"bonus above maximum", nil, []holdem.Stake{{Ante: ante, Bonus: cfg.MaxBonus + 1}}, d1, errs.Invalid, "BONUS_OUT_OF_RANGE"},
		{"bonus switched off", func(c *holdem.Config) { c.MaxBonus = 0 }, []holdem.Stake{{Ante: ante, Bonus: 1}}, d1, errs.Invalid, "BONUS_OUT_OF_RANGE"},
		{"bad config", func(c *holdem.Config) { c.DecisionTimeout = 0 }, []holdem.Stake{{Ante: ante}}, d1, errs.Invalid, "INVALID_CONFIG"},
		{"pockets do not match boxes", nil, []holdem.Stake{{Ante: ante}, {Ante: ante}}, d1, errs.Internal, "INVALID_DEAL"},
		{"repeated card", nil, []holdem.Stake{{Ante: ante}},
			func(t *testing.T) holdem.Deal { return dealOf(t, []string{"AhAd"}, "KcAh", "3h 8d Jc 5s 9h") }, errs.Internal, "INVALID_DEAL"},
		{"not a card", nil, []holdem.Stake{{Ante: ante}},
			func(t *testing.T) holdem.Deal { d := d1(t); d.Board[4] = 52; return d }, errs.Internal, "INVALID_DEAL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := holdem.DefaultConfig()
			if tc.cfg != nil {
				tc.cfg(&c)
			}
			h, err := holdem.Start(c, tc.stakes, tc.deal(t), t0)
			if h != nil {
				t.Error("Start returned a hand with an error")
			}
			errstest.Is(t, err, tc.code, tc.reason)
		})
	}
}

func TestStartCopiesItsInput(t *testing.T) {
	d := dealOf(t, []string{"AhAd"}, "KcKd", "3h 8d Jc 5s 9h")
	stakes := []holdem.Stake{{Ante: ante}}
	h := start(t, stakes, d)
	d.Pockets[0][0] = cards.MustParseList("2c")[0]
	stakes[0].Ante = 1
	v := h.View()
	if cards.Format(v.Boxes[0].Pocket) != "Ah Ad" || v.Boxes[0].Stake.Ante != ante {
		t.Errorf("the hand shares its caller's slices: %+v", v.Boxes[0])
	}
}
