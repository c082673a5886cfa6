package wstransport_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/graph/wstransport"
)

// TestFollowsTheGQLGenInUse: the transport follows gqlgen's own message by
// message, as of FollowsGQLGen. When go.mod moves gqlgen on, this fails:
// read the new release's transport (graphql/handler/transport/websocket*.go)
// against this one, carry over what changed, run the compatibility test
// (graph's TestWSTransportAnswersAsGqlgenDid), then raise FollowsGQLGen.
func TestFollowsTheGQLGenInUse(t *testing.T) {
	got := requiredVersion(t, "github.com/99designs/gqlgen")
	if got != wstransport.FollowsGQLGen {
		t.Fatalf("go.mod requires gqlgen %s, the transport follows %s: re-read gqlgen's WebSocket transport, then raise FollowsGQLGen", got, wstransport.FollowsGQLGen)
	}
}

// requiredVersion is the version of module path that the main module's
// go.mod (found upwards from the package's directory) requires.
func requiredVersion(t *testing.T, path string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
				if len(fields) >= 2 && fields[0] == path {
					return fields[1]
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			t.Fatalf("go.mod requires no %s", path)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package")
		}
		dir = parent
	}
}
