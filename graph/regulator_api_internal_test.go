package graph

import (
	"testing"

	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/graph/model"
)

// TestRegulatorTypesMatchSchema: every record type of the feed has its
// enum value and every enum value names one, so neither is added alone.
func TestRegulatorTypesMatchSchema(t *testing.T) {
	if len(regfeed.Types) != len(model.AllRegulatorRecordType) {
		t.Fatalf("the feed has %d record types, the schema %d", len(regfeed.Types), len(model.AllRegulatorRecordType))
	}
	seen := map[model.RegulatorRecordType]bool{}
	for _, rt := range regfeed.Types {
		m := regulatorTypeOf(rt)
		if !m.IsValid() || seen[m] {
			t.Errorf("%s maps to %s", rt, m)
		}
		seen[m] = true
	}
}
