package paging_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/paging"
)

func TestFirst(t *testing.T) {
	if n, err := paging.First(nil); n != 50 || err != nil {
		t.Fatalf("First(nil) = %d, %v; want 50", n, err)
	}
	for _, first := range []int{1, 37, 100} {
		if n, err := paging.First(&first); n != first || err != nil {
			t.Fatalf("First(%d) = %d, %v", first, n, err)
		}
	}
	for _, first := range []int{-1, 0, 101, 1 << 40} {
		if _, err := paging.First(&first); !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != "INVALID_PAGE_SIZE" {
			t.Fatalf("First(%d) = %v, want BAD_USER_INPUT / INVALID_PAGE_SIZE", first, err)
		}
	}
}

func TestSize(t *testing.T) {
	for _, c := range []struct{ limit, max, want int }{
		{-5, 100, 50}, {0, 100, 50}, {1, 100, 1}, {100, 100, 100}, {101, 100, 100}, {150, 200, 150}, {201, 200, 200},
	} {
		if got := paging.Size(c.limit, c.max); got != c.want {
			t.Errorf("Size(%d, %d) = %d, want %d", c.limit, c.max, got, c.want)
		}
	}
}

func TestLast(t *testing.T) {
	if n, err := paging.Last(nil); n != 50 || err != nil {
		t.Fatalf("Last(nil) = %d, %v; want 50", n, err)
	}
	for _, last := range []int{0, 101} {
		if _, err := paging.Last(&last); !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != "INVALID_PAGE_SIZE" {
			t.Fatalf("Last(%d) = %v, want BAD_USER_INPUT / INVALID_PAGE_SIZE", last, err)
		}
	}
}

func TestIDRangeHolds(t *testing.T) {
	r := paging.IDRange{After: 3, Before: 7}
	for id, want := range map[int64]bool{2: false, 3: false, 4: true, 6: true, 7: false} {
		if r.Holds(id) != want {
			t.Errorf("(3, 7).Holds(%d) = %v", id, !want)
		}
	}
	if !(paging.IDRange{}).Holds(1 << 40) {
		t.Error("an unbounded range holds every id")
	}
}
