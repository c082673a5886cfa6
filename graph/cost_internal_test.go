package graph

import (
	"encoding/json"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
)

// requestedCost prices a document as Cost says: objects count, scalars
// are free, lists count the page asked (their own first, or their
// connection's), root fields at least 1; keyCharge takes one request per
// root field or per 100 of the cost.
func TestRequestedCost(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}, Directives: Directives()}).Schema()
	for _, c := range []struct {
		doc       string
		vars      map[string]any
		cost, key int
	}{
		{`{ __typename }`, nil, 0, 1},
		{`{ tables { id name } }`, nil, 1, 1},
		{`{ a: tables { id } b: tables { id } }`, nil, 2, 2},
		{`{ bettingStop { stopped } }`, nil, 1, 1},
		{`{ results(first: 10) { edges { node { id } } pageInfo { hasNextPage } } }`, nil, 22, 1},
		{`query($n: Int) { results(first: $n) { edges { cursor node { id } } } }`, map[string]any{"n": json.Number("30")}, 61, 1},
		{`{ results { edges { node { id } } } }`, nil, 101, 2}, // the default page of 50
		{`{ results(first: 10) { ...F } } fragment F on DrawConnection { edges { node { id } } }`, nil, 21, 1},
		{`{ __schema { types { name fields { name } } } }`, nil, 0, 1},
	} {
		doc, errList := gqlparser.LoadQueryWithRules(schema, c.doc, nil)
		if errList != nil {
			t.Fatalf("%s: %v", c.doc, errList)
		}
		oc := &graphql.OperationContext{Doc: doc, Operation: doc.Operations[0], Variables: c.vars}
		if got := requestedCost(oc); got != c.cost {
			t.Errorf("%s: requested cost %d, want %d", c.doc, got, c.cost)
		}
		if got := keyCharge(oc); got != c.key {
			t.Errorf("%s: key charge %d, want %d", c.doc, got, c.key)
		}
	}
}

// objectsIn counts a response's objects as a JSON decoder sees them,
// whatever braces its strings hold.
func FuzzObjectsIn(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":{"b":[{"c":"{x"},{"d":1}]}}`, `{"s":"\"{\\"}`, `{"a":null,"b":[1,2]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			objectsIn([]byte(s)) // any bytes: no panic
			return
		}
		if _, isObject := v.(map[string]any); !isObject {
			return
		}
		if got, want := objectsIn([]byte(s)), countObjects(v)-1; got != want {
			t.Fatalf("objectsIn(%s) = %d, want %d", s, got, want)
		}
	})
}

func countObjects(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := 1
		for _, e := range v {
			n += countObjects(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range v {
			n += countObjects(e)
		}
		return n
	}
	return 0
}
