package ledger

import (
	"maps"
	"slices"
	"testing"
)

// TestEveryTransferKindIsProtected: every kind of the registry declares its
// protection class.
func TestEveryTransferKindIsProtected(t *testing.T) {
	if bad := CheckKinds(transferKinds); len(bad) > 0 {
		t.Fatalf("transfer kinds without a protection class: %v (declare one in transferKinds)", bad)
	}
	if len(TransferKinds()) != len(transferKinds) {
		t.Fatal("TransferKinds does not list the registry")
	}
}

// TestAKindWithoutAClassFails: the check above catches a kind added to the
// registry without its class, or with an out-of-range one.
func TestAKindWithoutAClassFails(t *testing.T) {
	reg := maps.Clone(transferKinds)
	reg["TOP_TWO_STAKE"] = Unclassified
	reg["BAD_CLASS"] = Protection(99)
	if bad := CheckKinds(reg); !slices.Equal(bad, []TransferKind{"BAD_CLASS", "TOP_TWO_STAKE"}) {
		t.Fatalf("CheckKinds = %v, want the two unclassified kinds", bad)
	}
	if TransferKind("TOP_TWO_STAKE").Valid() || TransferKind("TOP_TWO_STAKE").Protection() != Unclassified {
		t.Error("a kind outside the registry is valid or classified")
	}
}

// CheckKinds reports the kinds of a registry that declare no protection
// class: the registry's test runs it, so that adding a kind without its
// class fails the build's tests.
func CheckKinds(reg map[TransferKind]Protection) []TransferKind {
	var bad []TransferKind
	for k, p := range reg {
		if p <= Unclassified || p > Returned {
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	return bad
}
