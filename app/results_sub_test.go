package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

const resultsSub = `subscription($t: ID!, $after: Int64) {
  results(tableId: $t, afterSeq: $after) {
    __typename seq
    ... on DrawVoided { drawId voidKind }
    ... on DrawSettled { drawId }
  }
}`

type resultEvent struct {
	Typename string `json:"__typename"`
	Seq      int64
	DrawID   string
	VoidKind string
}

// nextResult reads the stream's next event, failing after a minute.
func nextResult(t *testing.T, st *gqltest.Stream) resultEvent {
	t.Helper()
	select {
	case r, ok := <-st.Next:
		if !ok {
			t.Fatal("the results stream ended")
		}
		if len(r.Errors) > 0 {
			t.Fatalf("results stream error: %+v", r.Errors)
		}
		var out struct{ Results resultEvent }
		if err := json.Unmarshal(r.Data, &out); err != nil {
			t.Fatal(err)
		}
		return out.Results
	case <-time.After(time.Minute):
		t.Fatal("no result within a minute")
	}
	return resultEvent{}
}

// TestResultsSubscriptionResumes: an affiliate's API key follows a table's
// results over SSE; after a reconnect with the last seq it gets the result
// committed meanwhile, and not the one it had.
func TestResultsSubscriptionResumes(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backends(t)[1], func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 3 })
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	_, key := createKey(t, admin, "Results Partner", 600)
	header := http.Header{"X-API-Key": {key}}
	tableID := createTable(t, admin, unique("results"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	vars := map[string]any{"t": tableID}
	st, err := c.SSE(ctx, resultsSub, vars, header)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := openDraw(t, c, tableID)
	admin.MustDo(t, `mutation($d: ID!) { voidDraw(drawId: $d, reason: "first") { id } }`, map[string]any{"d": first}, nil)
	got := nextResult(t, st)
	if got.Typename != "DrawVoided" || got.DrawID != first || got.VoidKind != "ADMIN_BEFORE_DEAL" {
		t.Fatalf("first result %+v, want draw %s voided ADMIN_BEFORE_DEAL", got, first)
	}
	st.Close()

	second, _ := openDraw(t, c, tableID) // committed while the partner is away
	for second == first {
		time.Sleep(50 * time.Millisecond)
		second, _ = openDraw(t, c, tableID)
	}
	admin.MustDo(t, `mutation($d: ID!) { voidDraw(drawId: $d, reason: "second") { id } }`, map[string]any{"d": second}, nil)
	vars["after"] = got.Seq
	st2, err := c.SSE(ctx, resultsSub, vars, header)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if r := nextResult(t, st2); r.DrawID != second || r.Seq <= got.Seq {
		t.Fatalf("after the reconnect %+v, want draw %s after seq %d", r, second, got.Seq)
	}
	c.MustFail(t, "BAD_USER_INPUT", "INVALID_SEQ", `subscription($t: ID!) { results(tableId: $t, afterSeq: 999999) { seq } }`, vars)
}
