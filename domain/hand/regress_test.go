package hand_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

func eval(t *testing.T, s string) hand.Value {
	t.Helper()
	return hand.Evaluate(cards.MustParseList(s))
}

// TestComparisons pins down cases other evaluators have got wrong.
func TestComparisons(t *testing.T) {
	tests := []struct {
		name       string
		better     string
		worse      string // "" with tie: the two hands must tie
		tie        string
		betterCat  hand.Category
		betterText string
	}{
		{name: "wheel is a straight", better: "As 2d 3h 4c 5s 9d Kc", worse: "As Ad Ah 4c 7s 9d Kc", betterCat: hand.Straight, betterText: "Straight, five high"},
		{name: "wheel loses to six high", better: "2c 3d 4h 5s 6c 9d Kh", worse: "As 2d 3h 4c 5s 9d Kc", betterCat: hand.Straight, betterText: "Straight, six high"},
		{name: "ace high straight is best", better: "Ts Jd Qh Kc As 2d 2c", worse: "9s Ts Jd Qh Kc 2d 2c", betterCat: hand.Straight, betterText: "Straight, ace high"},
		{name: "six cards in a row: top five", better: "5c 6d 7h 8s 9c Td 2h", worse: "5c 6d 7h 8s 9c 2d 2h", betterCat: hand.Straight, betterText: "Straight, ten high"},
		{name: "wheel straight flush", better: "Ah 2h 3h 4h 5h Kd Kc", worse: "Kd Kc Ks Kh 2c 3d 4s", betterCat: hand.StraightFlush, betterText: "Straight flush, five high"},
		{name: "wheel straight flush loses to six high", better: "2d 3d 4d 5d 6d Ac Kc", worse: "Ah 2h 3h 4h 5h Kd Kc", betterCat: hand.StraightFlush, betterText: "Straight flush, six high"},
		{name: "royal flush", better: "Ts Js Qs Ks As 2d 3c", worse: "9s Ts Js Qs Ks 2d 3c", betterCat: hand.RoyalFlush, betterText: "Royal flush"},
		{name: "flush fifth card decides", better: "Ah Kh Qh Jh 9h 2c 3d", worse: "Ad Kd Qd Jd 8d 2c 3h", betterCat: hand.Flush, betterText: "Flush, ace high"},
		{name: "flush second card decides", better: "Ah Qh 5h 4h 2h", worse: "Ad Jd Td 9d 7d", betterCat: hand.Flush, betterText: "Flush, ace high"},
		{name: "sixth flush card does not play", tie: "Ah Kh Qh Jh 9h 3h 2c|Ah Kh Qh Jh 9h 2h 3c", betterCat: hand.Flush},
		{name: "flush beats straight", better: "2h 5h 8h 9h Jh Tc Qd", worse: "8c 9d Th Js Qc 2d 2h", betterCat: hand.Flush, betterText: "Flush, jack high"},
		{name: "two sets of trips make a full house", better: "Ah Ad Ac Kd Kc Ks 2h", worse: "Ah Ad Ac Qd Qc 2s 3h", betterCat: hand.FullHouse, betterText: "Full house, aces over kings"},
		{name: "full house takes the higher pair", better: "Kh Kd Kc 9s 9d 7c 7h", worse: "Kh Kd Kc 8s 8d 7c 7h", betterCat: hand.FullHouse, betterText: "Full house, kings over nines"},
		{name: "three pairs: best two and best kicker", better: "Ah Ad Kc Kd Qh Qs 2c", worse: "Ah Ad Kc Kd 2h 2s Jc", betterCat: hand.TwoPair, betterText: "Two pair, aces and kings"},
		{name: "third pair can be the kicker", tie: "Ah Ad Tc Td 5h 5s 4c|Ah Ad Tc Td 5h 3s 4c", betterCat: hand.TwoPair},
		{name: "two pair kicker", better: "Ah Ad Tc Td 5h", worse: "As Ac Th Ts 4h", betterCat: hand.TwoPair, betterText: "Two pair, aces and tens"},
		{name: "quads kicker", better: "9c 9d 9h 9s 2c Ah 3d", worse: "9c 9d 9h 9s 2c Kh Qd", betterCat: hand.FourOfAKind, betterText: "Four of a kind, nines"},
		{name: "quads kicker on the board", tie: "9c 9d 9h 9s Ac Kh 3d|9c 9d 9h 9s Ac 2h 3d", betterCat: hand.FourOfAKind},
		{name: "board plays", tie: "As Ks Qd Jc Th 2c 3d|As Ks Qd Jc Th 4h 5h", betterCat: hand.Straight},
		{name: "pair kickers", better: "8h 8d Ac Kd 4s 3c 2d", worse: "8c 8s Ah Qd Js 3h 2h", betterCat: hand.Pair, betterText: "Pair, eights"},
		{name: "trips kickers", better: "6h 6d 6c Ks 9d 3c 2d", worse: "6h 6d 6c Qs Jd 3c 2d", betterCat: hand.ThreeOfAKind, betterText: "Three of a kind, sixes"},
		{name: "high card all five", better: "Ah Qd 9c 7s 5h 3c 2d", worse: "As Qc 9h 7d 4s 3h 2h", betterCat: hand.HighCard, betterText: "High card, ace"},
		{name: "straight beats trips", better: "4c 5d 6h 7s 8c", worse: "Ac Ad Ah Ks Qc", betterCat: hand.Straight, betterText: "Straight, eight high"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tie != "" {
				a, b := splitTie(tt.tie)
				va, vb := eval(t, a), eval(t, b)
				if va != vb {
					t.Errorf("%s = %d (%s), %s = %d (%s): want a tie", a, va, va.Describe(), b, vb, vb.Describe())
				}
				if va.Category() != tt.betterCat {
					t.Errorf("category %v, want %v", va.Category(), tt.betterCat)
				}
				return
			}
			better, worse := eval(t, tt.better), eval(t, tt.worse)
			if better <= worse {
				t.Errorf("%s (%s) should beat %s (%s)", tt.better, better.Describe(), tt.worse, worse.Describe())
			}
			if better.Category() != tt.betterCat {
				t.Errorf("category %v, want %v", better.Category(), tt.betterCat)
			}
			if got := better.Describe(); got != tt.betterText {
				t.Errorf("Describe() = %q, want %q", got, tt.betterText)
			}
		})
	}
}

func splitTie(s string) (string, string) {
	for i := range s {
		if s[i] == '|' {
			return s[:i], s[i+1:]
		}
	}
	panic("tie needs two hands separated by |")
}

// TestBestFive checks the five cards chosen and their display order.
func TestBestFive(t *testing.T) {
	tests := []struct {
		name, cards, five, text string
	}{
		{"pair first then kickers", "2c 9d Kh 9s 4c Qd 7h", "9d 9s Kh Qd 7h", "Pair, nines"},
		{"wheel as five high", "Ac 2d 3h 4s 5c 9d 9h", "5c 4s 3h 2d Ac", "Straight, five high"},
		{"wheel straight flush", "Ah 2h 3h 4h 5h Kd Kc", "5h 4h 3h 2h Ah", "Straight flush, five high"},
		{"royal flush", "Ah Kh Qh Jh Th 2c 3d", "Ah Kh Qh Jh Th", "Royal flush"},
		{"flush from six suited", "2s 9s Ks 4s Js 7s Ad", "Ks Js 9s 7s 4s", "Flush, king high"},
		{"full house trips first", "5d Kh 5c Ks 5h Kd 2c", "Kh Ks Kd 5d 5c", "Full house, kings over fives"},
		{"two pair with best kicker", "Ah Ad Tc Td 5h 5s Kc", "Ah Ad Tc Td Kc", "Two pair, aces and tens"},
		{"quads and kicker", "7c 7d 7h 7s 2c 3d Jh", "7c 7d 7h 7s Jh", "Four of a kind, sevens"},
		{"trips and kickers", "Qc Qd Qh 2s 8c 3d 9h", "Qc Qd Qh 9h 8c", "Three of a kind, queens"},
		{"high card", "2c 4d 6h 8s Tc Qd Ah", "Ah Qd Tc 8s 6h", "High card, ace"},
		{"straight ignores pair", "9c Td Jh Qs Kc Kd 2h", "Kc Qs Jh Td 9c", "Straight, king high"},
		{"five cards", "3c 3d 8h 8s 8c", "8h 8s 8c 3c 3d", "Full house, eights over threes"},
		{"six cards", "3c 3d 8h 8s Ac Kd", "8h 8s 3c 3d Ac", "Two pair, eights and threes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, five := hand.BestFive(cards.MustParseList(tt.cards))
			if got := cards.Format(five[:]); got != tt.five {
				t.Errorf("BestFive(%s) cards = %s, want %s", tt.cards, got, tt.five)
			}
			if got := v.Describe(); got != tt.text {
				t.Errorf("Describe() = %q, want %q", got, tt.text)
			}
			if hand.Evaluate(five[:]) != v {
				t.Errorf("the five cards are worth %d, not the hand's %d", hand.Evaluate(five[:]), v)
			}
		})
	}
}

// TestBestFiveEveryClass checks that, for one hand of each of the 7,462
// classes, BestFive lists the ranks in the reference evaluator's order.
func TestBestFiveEveryClass(t *testing.T) {
	seen := make(map[hand.Value]bool, 7462)
	forEachFive(func(h [5]cards.Card) {
		v := hand.Evaluate(h[:])
		if seen[v] {
			return
		}
		seen[v] = true
		_, five := hand.BestFive(h[:])
		want := refEval5(h).ranks
		for i, c := range five {
			if c.Rank() != want[i] {
				t.Errorf("BestFive(%v) = %v, want ranks in order %v", h, five, want)
				return
			}
		}
	})
}

func TestEvaluatePanicsOnWrongCount(t *testing.T) {
	for _, n := range []int{0, 4, 8} {
		t.Run(string(rune('0'+n)), func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Evaluate of %d cards did not panic", n)
				}
			}()
			hand.Evaluate(make([]cards.Card, n))
		})
	}
}

func TestZeroValue(t *testing.T) {
	if got := hand.Value(0).Describe(); got != "No hand" {
		t.Errorf("zero Value describes as %q", got)
	}
	if hand.Value(0) >= eval(t, "2c 3d 4h 5s 7c") {
		t.Error("the zero Value must be below the worst hand")
	}
}

func TestSuitedAtLeast(t *testing.T) {
	tests := []struct {
		cards string
		n     int
		want  bool
	}{
		{"Ah Kd 7c", 2, false},
		{"Ah Kh 7c", 2, true},
		{"Ah Kh 7c 2d 3s", 3, false},
		{"Ah Kh 7h 2d 3s", 3, true},
		{"Ah Kh 7h 2h 3h 4h 5h", 7, true},
		{"Ah Kh 7h 2h 3h 4h 5c", 7, false},
		{"", 1, false},
		{"2c", 1, true},
	}
	for _, tt := range tests {
		k := hand.KeyOfCards(cards.MustParseList(tt.cards)...)
		if got := k.SuitedAtLeast(tt.n); got != tt.want {
			t.Errorf("%q.SuitedAtLeast(%d) = %v, want %v", tt.cards, tt.n, got, tt.want)
		}
	}
}

// TestEvalKeyNoFlush: without five suited cards it agrees with EvalKey.
func TestEvalKeyNoFlush(t *testing.T) {
	d := newDealer(11)
	for i := 0; i < 100_000; i++ {
		k := hand.KeyOfCards(d.deal(7)...)
		if k.SuitedAtLeast(5) {
			continue
		}
		if hand.EvalKeyNoFlush(k) != hand.EvalKey(k) {
			t.Fatalf("EvalKeyNoFlush disagrees with EvalKey on %v", d.deck[:7])
		}
	}
}

func TestRankKey(t *testing.T) {
	key := func(s string) uint32 { return hand.KeyOfCards(cards.MustParseList(s)...).RankKey() }
	if key("Ah Kd 7c 7d 2s") != key("As Kh 7h 7s 2c") {
		t.Error("same ranks in other suits must share a RankKey")
	}
	if key("Ah Kd 7c 7d 2s") == key("Ah Kd 7c 2d 2s") {
		t.Error("different ranks must differ")
	}
}

// TestSuitCountAndReachesAny checks SuitCount and ReachesAny against
// counting the suits of random sets of up to seven cards.
func TestSuitCountAndReachesAny(t *testing.T) {
	d := newDealer(12)
	rng := newRand(13)
	for i := 0; i < 100_000; i++ {
		cs := d.deal(i % 8)
		k := hand.KeyOfCards(cs...)
		var count [4]int
		for _, c := range cs {
			count[c.Suit()]++
		}
		var need [4]int
		want := false
		for s := range need {
			if got := k.SuitCount(cards.Suit(s)); got != count[s] {
				t.Fatalf("%v: SuitCount(%d) = %d, want %d", cs, s, got, count[s])
			}
			need[s] = 1 + rng.IntN(8)
			want = want || count[s] >= need[s]
		}
		if got := k.ReachesAny(hand.NewSuitNeeds(need)); got != want {
			t.Fatalf("%v: ReachesAny(%v) = %v, want %v", cs, need, got, want)
		}
	}
}
