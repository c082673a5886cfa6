package graph

import (
	"testing"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/graph/model"
)

// TestLedgerKindsMatchSchema: every transfer kind of the ledger's registry
// is a LedgerEntryKind of the schema and back, so a kind is never added to
// one without the other.
func TestLedgerKindsMatchSchema(t *testing.T) {
	kinds := ledger.TransferKinds()
	for _, k := range kinds {
		if !model.LedgerEntryKind(k).IsValid() {
			t.Errorf("transfer kind %s has no LedgerEntryKind value", k)
		}
	}
	for _, m := range model.AllLedgerEntryKind {
		if !ledger.TransferKind(m).Valid() {
			t.Errorf("LedgerEntryKind %s names no transfer kind", m)
		}
	}
	if len(kinds) != len(model.AllLedgerEntryKind) {
		t.Errorf("%d transfer kinds, %d LedgerEntryKind values", len(kinds), len(model.AllLedgerEntryKind))
	}
}
