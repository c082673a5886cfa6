package hand

import (
	"testing"
	"unsafe"
)

// TestTableSize keeps the evaluator's memory within its 1 MB budget.
func TestTableSize(t *testing.T) {
	size := unsafe.Sizeof(tab) + unsafe.Sizeof(eval7Tables{}) + unsafe.Sizeof(disp7) + unsafe.Sizeof(disp56)
	if size > 1<<20 {
		t.Errorf("tables take %d bytes, more than 1 MB", size)
	}
	t.Logf("tables: %d KB", size>>10)
}

// TestBuildIsRepeatable rebuilds the tables and compares them with the ones
// built at init.
func TestBuildIsRepeatable(t *testing.T) {
	fresh, e := new(tables), new(eval7Tables)
	fresh.build(e)
	if *fresh != tab {
		t.Error("a second build differs from the first")
	}
	if e.rank != rank7 || e.pairs != pairs7 || e.first != first7 || e.lanes != lanes7 {
		t.Error("a second build of Eval7's tables differs from the first")
	}
}

// TestRankTableCoversEveryHand checks that every multiset of five to seven
// ranks has a slot of its own (build panics on a collision) holding a Value:
// 49,205 of seven ranks in rank7 below its flush slots, 6,175 + 18,395 of
// five or six in rank56; and that the flush slots hold the 7,099 sets of
// five or more ranks.
func TestRankTableCoversEveryHand(t *testing.T) {
	for _, c := range []struct {
		name  string
		table []uint16
		want  int
	}{
		{"rank7", rank7[:flushSlotBase], 49205},
		{"rank7 flush slots", rank7[flushSlotBase:], 7099},
		{"rank56", tab.rank56[:], 6175 + 18395},
	} {
		used := 0
		for _, v := range c.table {
			if v != 0 {
				used++
			}
		}
		if used != c.want {
			t.Errorf("%d %s slots used, want %d", used, c.name, c.want)
		}
	}
}

// BenchmarkBuildTables measures the start-up cost of the tables.
func BenchmarkBuildTables(b *testing.B) {
	b.ReportAllocs()
	fresh, e := new(tables), new(eval7Tables)
	for i := 0; i < b.N; i++ {
		*fresh, *e = tables{}, eval7Tables{}
		fresh.build(e)
	}
}
