package hand_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

func TestCategoryNames(t *testing.T) {
	want := []string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH"}
	if len(want) != hand.NumCategories {
		t.Fatalf("%d names for %d categories", len(want), hand.NumCategories)
	}
	for i, name := range want {
		c := hand.Category(i)
		if c.String() != name {
			t.Errorf("Category(%d).String() = %q, want %q", i, c.String(), name)
		}
		got, err := hand.ParseCategory(name)
		if err != nil || got != c {
			t.Errorf("ParseCategory(%q) = %v, %v; want %v", name, got, err, c)
		}
	}
	if hand.RoyalFlush != 9 || hand.HighCard != 0 {
		t.Error("category order changed")
	}
}

func TestParseCategoryRejects(t *testing.T) {
	for _, s := range []string{"", "flush", "Flush", "ROYAL", " FLUSH", "Category(10)"} {
		t.Run(s, func(t *testing.T) {
			_, err := hand.ParseCategory(s)
			if !errs.Is(err, errs.Invalid) {
				t.Errorf("ParseCategory(%q) error = %v, want an Invalid error", s, err)
			}
		})
	}
	if got := hand.Category(10).String(); got != "Category(10)" {
		t.Errorf("out-of-range category prints %q", got)
	}
}

func FuzzParseCategory(f *testing.F) {
	f.Add("FLUSH")
	f.Add("royal_flush")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := hand.ParseCategory(s)
		if err == nil && c.String() != s {
			t.Errorf("ParseCategory(%q) = %v, which prints differently", s, c)
		}
	})
}
