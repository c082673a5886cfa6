package verify_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// FuzzResult: the verifier reads untrusted JSON (anyone's result
// file); whatever it is given, it answers with problems, never a panic, and
// a result it accepts really is self-consistent (verifying it twice gives
// the same answer).
func FuzzResult(f *testing.F) {
	example, err := os.ReadFile("../../../docs/fairness-example.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(`{"positions":3,"serverSeed":"00","beacons":{"version":2,"chain":{"periodMs":0}}}`))
	f.Add([]byte(`{"positions":11,"pockets":[["As"]],"board":["Kd","Kd","Kd","Kd","Kd","Kd"],"hands":[{}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r tote.DrawResult
		if json.Unmarshal(b, &r) != nil {
			return
		}
		v := verify.Result(r)
		w := verify.Result(r)
		if len(v.Problems) != len(w.Problems) {
			t.Fatalf("two verifications differ: %v / %v", v.Problems, w.Problems)
		}
	})
}
