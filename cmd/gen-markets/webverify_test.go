package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// TestGenerateWritesGrading: each market's grading rule is a line of
// GRADING, with only the parameters of its kind and how its chances are
// counted.
func TestGenerateWritesGrading(t *testing.T) {
	got := string(Generate(totetest.WithTopTwo(t)))
	for _, line := range []string{
		"  WIN: { kind: 'PLACED_WITHIN', within: 1, chances: 'BOARDS' },\n",
		"  COMBINATION: { kind: 'CATEGORY_IS', chances: 'BOARDS' },\n",
		"  EXPRESS: { kind: 'COUPON_LEGS', cat1Legs: 3, cat2Legs: 2, chances: 'COUPONS' },\n",
		"  TOP_TWO: { kind: 'PLACED_WITHIN', within: 2, chances: 'BOARDS' },\n};\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("generated:\n%s\nwant a line\n%s", got, line)
		}
	}
}

// webVerdict is a line of web/test/markets-verify.mjs's output.
type webVerdict struct {
	File             string   `json:"file"`
	Markets          []string `json:"markets"`
	Verdict          string   `json:"verdict"`
	PayoutsMatch     bool     `json:"payoutsMatch"`
	SuspensionsMatch bool     `json:"suspensionsMatch"`
	Problems         []string `json:"problems"`
}

// TestTopTwoInTheWebVerifier: the web client's independent verifier
// (web/src/verify), run by Node with the markets module generated for the
// production markets plus TOP_TWO, accepts a real draw result with a
// TOP_TWO pool and its chances (settled and verified by the Go side,
// domain/tote/verify's TestTopTwoVerifies), and rejects it once a TOP_TWO
// payout is raised by a tiyn. No code of the verifier names TOP_TWO: it
// grades and counts chances by the rule's kind, PLACED_WITHIN. It needs
// node and web/node_modules (npm ci in web/; .ci/run has both) and fails
// without them.
func TestTopTwoInTheWebVerifier(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the web verifier cannot be run (.ci/run installs nodejs)")
	}
	web, err := filepath.Abs(filepath.Join("..", "..", "web"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(web, "node_modules", "esbuild")); err != nil {
		t.Fatalf("web/node_modules has no esbuild: run npm ci in web/ (%v)", err)
	}
	reg := totetest.WithTopTwo(t)
	_, res := totetest.TopTwoResult(t, reg)
	if v := (verify.Verifier{Markets: reg}).Result(res); len(v.Problems) > 0 {
		t.Fatalf("the Go verifier refuses the TOP_TWO result: %v", v.Problems)
	}
	tampered := totetest.CloneResult(t, res)
	raised := raiseTopTwoPayout(t, &tampered)

	dir := t.TempDir()
	markets := filepath.Join(dir, "markets.gen.ts")
	writeFile(t, markets, Generate(reg))
	files := []string{filepath.Join(dir, "top-two.json"), filepath.Join(dir, "top-two-raised.json")}
	for i, r := range []tote.DrawResult{res, tampered} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, files[i], b)
	}
	cmd := exec.Command(node, append([]string{filepath.Join("test", "markets-verify.mjs"), markets}, files...)...)
	cmd.Dir = web
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node test/markets-verify.mjs: %v\n%s%s", err, out, stderr.Bytes())
	}
	var got []webVerdict
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var v webVerdict
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("node printed %q: %v", line, err)
		}
		got = append(got, v)
	}
	for _, v := range got {
		t.Logf("%s: %s, payouts match %t, suspensions match %t, %d problems %q", filepath.Base(v.File), v.Verdict, v.PayoutsMatch, v.SuspensionsMatch, len(v.Problems), v.Problems)
	}
	if len(got) != 2 {
		t.Fatalf("node printed %d verdicts:\n%s", len(got), out)
	}
	if want := []string{"WIN", "COMBINATION", "EXPRESS", "TOP_TWO"}; !slices.Equal(got[0].Markets, want) {
		t.Fatalf("the web verifier read the markets %v, want %v", got[0].Markets, want)
	}
	// The harness's draws run on the server's own beacon chain: "local".
	if ok := got[0]; ok.Verdict != "local" || !ok.PayoutsMatch || !ok.SuspensionsMatch || len(ok.Problems) > 0 {
		t.Fatalf("the web verifier refuses the TOP_TWO result: %+v", ok)
	}
	bad := got[1]
	if bad.Verdict != "reject" || bad.PayoutsMatch || !hasLine(bad.Problems, "TOP_TWO", raised) {
		t.Fatalf("the web verifier accepts a TOP_TWO payout raised by a tiyn (selection %s): %+v", raised, bad)
	}
}

// raiseTopTwoPayout raises the payout of res's first paid TOP_TWO
// selection by a tiyn, with the pool's and its category's paid and
// breakage to match (so only the payout itself is wrong), and returns the
// selection.
func raiseTopTwoPayout(t *testing.T, res *tote.DrawResult) string {
	t.Helper()
	for i := range res.Pools {
		p := &res.Pools[i]
		if p.Market != totetest.MarketTopTwo {
			continue
		}
		for j := range p.Selections {
			s := &p.Selections[j]
			if s.Payout == 0 || s.Refund {
				continue
			}
			s.Payout++
			p.Paid++
			p.Categories[0].Paid++
			if p.Breakage > 0 && p.Categories[0].Breakage > 0 {
				p.Breakage--
				p.Categories[0].Breakage--
			} else {
				p.TopUp++
				p.Categories[0].TopUp++
			}
			return s.Selection
		}
		t.Fatalf("the TOP_TWO pool pays no selection: %+v", p.Selections)
	}
	t.Fatal("the result has no TOP_TWO pool")
	return ""
}

// hasLine reports whether a problem names both words.
func hasLine(problems []string, a, b string) bool {
	return slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, a) && strings.Contains(p, "selection "+b) })
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
