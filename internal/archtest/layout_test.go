// Package archtest holds the test that keeps the module's layout as
// STYLE.md states it: who may import whom.
package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/pokertote/pokertote/"

// floors is the layout of domain/, bottom up: a package imports only
// domain packages on a floor below its own. A domain package missing here
// fails the test, so a new one is placed on purpose. The in-memory twins
// (...test) sit one floor above what they implement.
var floors = [][]string{
	{"domain/errs", "domain/ids", "domain/hand/internal/gentables"},
	{"domain/cards", "domain/money", "domain/paging", "domain/event", "domain/beacon", "domain/betroot", "domain/apikey",
		"domain/errs/errstest", "domain/bettingstop"},
	{"domain/hand", "domain/ledger", "domain/account", "domain/bettingstop/bettingstoptest"},
	{"domain/odds", "domain/parimutuel", "domain/holdem", "domain/protection", "domain/cashier", "domain/auth",
		"domain/ledger/ledgertest", "domain/account/accounttest"},
	// tote, the model: table, draw, bet, events, the result, the stores.
	// Beside it, the operator's figures (report: the session rule is
	// protection's).
	{"domain/tote", "domain/holdem/holdemtest", "domain/protection/protectiontest", "domain/auth/authtest", "domain/report"},
	// Above the model: a draw's result recomputed and checked (all that
	// cmd/verify-draw links of tote), the tables folded from events, the
	// production odds engine the dealer is handed, and the outbox (a
	// step's events appended in its transaction and published after it,
	// and the Stats every part counts into), and the partners' webhooks
	// fed from that outbox.
	{"domain/tote/verify", "domain/tote/readmodel", "domain/tote/liveodds", "domain/tote/outbox", "domain/regfeed"},
	// Settlement and voiding of a draw in a transaction; the bet intake.
	{"domain/tote/settle", "domain/tote/intake", "domain/webhook"},
	// The dealers and their supervisor, settling through settle; beside
	// them the Service: tables, bets through the intake, voids through
	// settle, the jackpot, the reads. Neither imports the other.
	{"domain/tote/dealer", "domain/tote/service"},
	{"domain/tote/totetest", "domain/webhook/webhooktest"},
}

// forbidden are what no domain package may depend on, even indirectly
// (the last three are the module's adapters and wiring):
// domain runs in a unit test with no server, database or API.
var forbidden = []string{
	"gorm.io", "github.com/99designs/gqlgen", "github.com/redis/go-redis", "github.com/jackc/pgx", "net/http",
	"graph", "persistence", "app",
}

// adapters never import each other.
var adapters = []string{"graph", "persistence"}

// verifier is the program a player runs on a published result; of tote it
// may depend on the model and the verifier only.
const verifier = "cmd/verify-draw"

var verifierTote = []string{"domain/tote", "domain/tote/verify"}

// pkg is what the rules read of `go list -json`; the module's own paths
// are relative to it (graph, domain/tote), others stay whole (net/http).
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func TestLayout(t *testing.T) {
	pkgs := listModule(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the module has more", len(pkgs))
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// TestRulesCatch runs the rules on made-up edges, so the layout test is
// known to fail when an arrow runs the wrong way.
func TestRulesCatch(t *testing.T) {
	ok := []pkg{
		{ImportPath: "domain/errs"},
		{ImportPath: "domain/cards", Imports: []string{"domain/errs"}, Deps: []string{"domain/errs"}},
		{ImportPath: "domain/tote", Imports: []string{"domain/cards"}, Deps: []string{"domain/cards", "domain/errs"}},
		{ImportPath: "domain/tote/verify", Imports: []string{"domain/tote"}, Deps: []string{"domain/tote"}},
		{ImportPath: "cmd/verify-draw", Imports: []string{"domain/tote/verify"}, Deps: []string{"domain/tote", "domain/tote/verify"}},
	}
	if v := violations(ok); len(v) > 0 {
		t.Fatalf("a sound layout breaks: %v", v)
	}
	for name, c := range map[string]struct {
		p    pkg
		want string
	}{
		"floor up":           {pkg{ImportPath: "domain/cards", Imports: []string{"domain/tote"}}, "domain/cards (floor 1) imports domain/tote (floor 4)"},
		"same floor":         {pkg{ImportPath: "domain/hand", Imports: []string{"domain/ledger"}}, "domain/hand (floor 2) imports domain/ledger (floor 2)"},
		"model to verifier":  {pkg{ImportPath: "domain/tote", Imports: []string{"domain/tote/verify"}}, "domain/tote (floor 4) imports domain/tote/verify (floor 5)"},
		"unplaced":           {pkg{ImportPath: "domain/tote/dealer2"}, "domain/tote/dealer2 has no floor"},
		"driver in domain":   {pkg{ImportPath: "domain/ids", Deps: []string{"github.com/jackc/pgx/v5"}}, "domain/ids depends on github.com/jackc/pgx/v5"},
		"http in domain":     {pkg{ImportPath: "domain/ids", Deps: []string{"net/http"}}, "domain/ids depends on net/http"},
		"adapter to adapter": {pkg{ImportPath: "graph/loaders", Imports: []string{"persistence/sqlx"}}, "graph/loaders imports persistence/sqlx"},
		"verifier to service": {pkg{ImportPath: "cmd/verify-draw", Deps: []string{"domain/tote/service"}},
			"cmd/verify-draw depends on domain/tote/service"},
		"verifier to totetest": {pkg{ImportPath: "cmd/verify-draw", Deps: []string{"domain/tote/totetest"}},
			"cmd/verify-draw depends on domain/tote/totetest"},
	} {
		t.Run(name, func(t *testing.T) {
			got := violations(append(slices.Clone(ok), c.p))
			if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, c.want) }) {
				t.Errorf("violations = %q, want one starting %q", got, c.want)
			}
		})
	}
}

// violations lists every edge of pkgs the layout forbids.
func violations(pkgs []pkg) []string {
	floor := map[string]int{}
	for i, ps := range floors {
		for _, p := range ps {
			floor[p] = i
		}
	}
	var out []string
	for _, p := range pkgs {
		if under(p.ImportPath, "domain") {
			out = append(out, domainViolations(p, floor)...)
		}
		for _, a := range adapters {
			if !under(p.ImportPath, a) {
				continue
			}
			for _, imp := range p.Imports {
				if other := slices.IndexFunc(adapters, func(b string) bool { return b != a && under(imp, b) }); other >= 0 {
					out = append(out, fmt.Sprintf("%s imports %s: adapters never import each other", p.ImportPath, imp))
				}
			}
		}
		if p.ImportPath == verifier {
			for _, d := range p.Deps {
				if under(d, "domain/tote") && !slices.Contains(verifierTote, d) {
					out = append(out, fmt.Sprintf("%s depends on %s: of tote it may use only %v", verifier, d, verifierTote))
				}
			}
		}
	}
	return out
}

func domainViolations(p pkg, floor map[string]int) []string {
	var out []string
	own, placed := floor[p.ImportPath]
	if !placed {
		out = append(out, fmt.Sprintf("%s has no floor: add it to floors", p.ImportPath))
	}
	for _, d := range p.Deps {
		for _, f := range forbidden {
			if under(d, f) {
				out = append(out, fmt.Sprintf("%s depends on %s: domain imports no adapter, driver or server", p.ImportPath, d))
			}
		}
	}
	for _, imp := range p.Imports {
		f, ok := floor[imp]
		if placed && ok && f >= own {
			out = append(out, fmt.Sprintf("%s (floor %d) imports %s (floor %d): an arrow running up", p.ImportPath, own, imp, f))
		}
	}
	return out
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// listModule runs `go list -deps -json` over the module's packages.
func listModule(t *testing.T) []pkg {
	t.Helper()
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Deps", "./...")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var out []pkg
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		p.ImportPath = strings.TrimPrefix(p.ImportPath, module)
		for i := range p.Imports {
			p.Imports[i] = strings.TrimPrefix(p.Imports[i], module)
		}
		for i := range p.Deps {
			p.Deps[i] = strings.TrimPrefix(p.Deps[i], module)
		}
		out = append(out, p)
	}
	return out
}
