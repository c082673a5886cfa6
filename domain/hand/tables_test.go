package hand

import (
	"testing"
	"unsafe"
)

// TestTableSize keeps the evaluator's memory within its 1 MB budget.
func TestTableSize(t *testing.T) {
	size := unsafe.Sizeof(tab) + unsafe.Sizeof(rowOffsets)
	if size > 1<<20 {
		t.Errorf("tables take %d bytes, more than 1 MB", size)
	}
	t.Logf("tables: %d KB", size>>10)
}

// TestBuildIsRepeatable rebuilds the tables and compares them with the ones
// built at init.
func TestBuildIsRepeatable(t *testing.T) {
	fresh := new(tables)
	fresh.build()
	if *fresh != tab {
		t.Error("a second build differs from the first")
	}
}

// TestRankTableCoversEveryHand checks the hash spans what the generator
// reported and every used slot holds a Value.
func TestRankTableCoversEveryHand(t *testing.T) {
	used := 0
	for _, v := range tab.rank {
		if v != 0 {
			used++
		}
	}
	if used != 73775 {
		t.Errorf("%d rank table slots used, want 73775 (multisets of 5 to 7 ranks)", used)
	}
	for _, v := range tab.rank[rankSlotsUsed:] {
		if v != 0 {
			t.Fatal("a slot past rankSlotsUsed is in use")
		}
	}
}

// BenchmarkBuildTables measures the start-up cost of the tables.
func BenchmarkBuildTables(b *testing.B) {
	b.ReportAllocs()
	fresh := new(tables)
	for i := 0; i < b.N; i++ {
		*fresh = tables{}
		fresh.build()
	}
}
