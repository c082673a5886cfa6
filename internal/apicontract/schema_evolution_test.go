package apicontract

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaEvolution: the schema (schema.graphqls and graph/schema/) makes no breaking change to the last
// released schema, docs/schema/released.graphqls. A field, argument or enum
// value goes in two releases: @deprecated in one (docs/api-changelog.md
// says so), removed in a later one, after released.graphqls was updated to
// the release that deprecated it.
func TestSchemaEvolution(t *testing.T) {
	prev, err := LoadSchemaFile(filepath.Join(root, "docs/schema/released.graphqls"))
	if err != nil {
		t.Fatal(err)
	}
	next, err := LoadRepoSchema(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range BreakingChanges(prev, next) {
		t.Errorf("breaking change to the released schema: %s", c)
	}
}

// TestBreakingChangesPlanted plants each kind of change in the current
// schema and checks the comparison tells the breaking ones from the safe.
func TestBreakingChangesPlanted(t *testing.T) {
	src, err := RepoSchemaSource(root)
	if err != nil {
		t.Fatal(err)
	}
	base, err := LoadSchema("schema", src)
	if err != nil {
		t.Fatal(err)
	}
	if c := BreakingChanges(base, base); len(c) != 0 {
		t.Fatalf("the schema breaks itself: %v", c)
	}
	for _, c := range []struct {
		name     string
		old, new string // a unique piece of the schema and its replacement
		wantPath string // "" for a change that is not breaking
	}{
		{"field removed", "  \"Burned cards, revealed when the draw is over.\"\n  burned: [String!]!\n", "", "Draw.burned"},
		{"output made nullable", "  lastSeq: Int64!\n", "  lastSeq: Int64\n", "Table.lastSeq"},
		{"output type changed", "  resultJson: String\n", "  resultJson: Int\n", "Draw.resultJson"},
		{"required argument added", "verifyDraw(id: ID!)", "verifyDraw(id: ID!, strict: Boolean!)", "Query.verifyDraw(strict)"},
		{"argument removed", "myBets(first: Int, after: String, last: Int, before: String, drawId: ID, tableId: ID,", "myBets(first: Int, after: String, last: Int, before: String, tableId: ID,", "Query.myBets(drawId)"},
		{"argument made required", "myBets(first: Int, after: String, last: Int, before: String, drawId: ID, tableId: ID,", "myBets(first: Int, after: String, last: Int, before: String, drawId: ID!, tableId: ID,", "Query.myBets(drawId)"},
		{"enum value removed", "  ROYAL_FLUSH\n", "", "HandCategory.ROYAL_FLUSH"},
		{"type removed", "type TablePaused implements TableEvent {", "type TablePausedRenamed implements TableEvent {", "TablePaused"},
		{"interface dropped", "type TablePaused implements TableEvent {", "type TablePaused {", "TablePaused"},
		{"deprecated field removed", "  seats: Int! @deprecated(reason: \"Use positionCount (the same number; every other type says positions).\")\n", "", ""},
		{"field added", "  resultJson: String\n", "  resultJson: String\n  resultHash: String\n", ""},
		{"output made non-null", "  resultJson: String\n", "  resultJson: String!\n", ""},
		{"optional argument added", "verifyDraw(id: ID!)", "verifyDraw(id: ID!, strict: Boolean = false)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.Count(src, c.old) < 1 {
				t.Fatalf("the schema no longer holds %q: update the planted change", c.old)
			}
			planted, err := LoadSchema("planted.graphqls", strings.Replace(src, c.old, c.new, 1))
			if err != nil {
				t.Fatalf("the planted schema does not load: %v", err)
			}
			changes := BreakingChanges(base, planted)
			if c.wantPath == "" {
				if len(changes) != 0 {
					t.Errorf("a safe change reported breaking: %v", changes)
				}
				return
			}
			for _, ch := range changes {
				if ch.Path == c.wantPath {
					return
				}
			}
			t.Errorf("no breaking change at %s; got %v", c.wantPath, changes)
		})
	}
}
