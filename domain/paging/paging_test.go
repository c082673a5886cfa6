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
