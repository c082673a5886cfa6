package graph

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/graph/model"
	"github.com/pokertote/pokertote/internal/marketschema"
)

// The API's markets follow from the registry: cmd/gen-markets writes enum
// Market and SelectionInput (schema/markets.gen.graphqls, its test fails
// while the file is stale), gqlgen their Go types, and fromSelectionInput
// reads any field by its market's shape. These tests tie the generated Go
// to the registry, and show a market of an existing shape needs nothing
// more.

func registryNames(reg *parimutuel.Registry) []string {
	var out []string
	for _, m := range reg.Markets() {
		out = append(out, string(m))
	}
	return out
}

// TestMarketEnumIsRegistry: the schema's Market enum is the registry's
// markets, in its order, both as schema/markets.gen.graphqls writes it and
// as gqlgen generated it.
func TestMarketEnumIsRegistry(t *testing.T) {
	want := registryNames(parimutuel.Production())
	var generated []string
	for _, m := range model.AllMarket {
		generated = append(generated, string(m))
	}
	if !slices.Equal(generated, want) {
		t.Errorf("model.AllMarket = %v, the registry has %v (run go generate ./cmd/gen-markets ./graph)", generated, want)
	}
	schema, err := os.ReadFile("schema/markets.gen.graphqls")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nenum Market \{(.*?)\n\}`).FindSubmatch(schema)
	if body == nil {
		t.Fatal("schema/markets.gen.graphqls has no enum Market")
	}
	var declared []string
	for _, line := range strings.Split(string(body[1]), "\n") {
		if v := strings.TrimSpace(line); v != "" && !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "#") {
			declared = append(declared, v)
		}
	}
	if !slices.Equal(declared, want) {
		t.Errorf("enum Market declares %v, the registry has %v", declared, want)
	}
}

// TestSelectionInputIsRegistry: gqlgen's SelectionInput has one field per
// market (@oneOf: the field names the market), named by its Input and of
// the Go type its shape reads, and fromSelectionInput reads each as its
// market's selection.
func TestSelectionInputIsRegistry(t *testing.T) {
	reg := parimutuel.Production()
	ty := reflect.TypeFor[model.SelectionInput]()
	var fields, inputs []string
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		fields = append(fields, name)
	}
	for _, s := range reg.Specs() {
		inputs = append(inputs, s.Input)
	}
	if !slices.Equal(fields, inputs) {
		t.Errorf("SelectionInput has %v, the registry's markets %v (run go generate ./cmd/gen-markets ./graph)", fields, inputs)
	}
	if !sameFields(inputStruct(t, loadSchema(t, nil)), ty) {
		t.Errorf("SelectionInput's Go fields are not the schema's by the shapes' types: %v", ty)
	}
	pos, cat := 3, model.HandCategoryFlush
	for _, tt := range []struct {
		in   model.SelectionInput
		want parimutuel.Selection
	}{
		{model.SelectionInput{Position: &pos}, parimutuel.WinSelection(3)},
		{model.SelectionInput{Combination: &cat}, parimutuel.CombinationSelection(parimutuel.Flush)},
		{model.SelectionInput{Express: &model.ExpressInput{Flop: 1, Turn: 2, River: 3}}, parimutuel.ExpressSelection(1, 2, 3)},
	} {
		m, text, err := fromSelectionInput(&tt.in)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := parimutuel.ParseSelection(m, text)
		if err != nil || sel != tt.want {
			t.Errorf("%+v reads as %+v, %v; want %+v", tt.in, sel, err, tt.want)
		}
	}
	for name, in := range map[string]*model.SelectionInput{"two fields": {Position: &pos, Combination: &cat}, "none": {}, "nil": nil} {
		if _, _, err := fromSelectionInput(in); err == nil || !strings.Contains(err.Error(), "give exactly one of position, combination or express") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// sameFields reports whether struct type a has b's field names, types and
// JSON names.
func sameFields(a reflect.Type, b reflect.Type) bool {
	if a.NumField() != b.NumField() {
		return false
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Tag.Get("json") != fb.Tag.Get("json") {
			return false
		}
	}
	return true
}

// goInputTypes are the Go types gqlgen.yml binds the shapes' GraphQL input
// types to (a pointer: every field of a @oneOf input is optional).
var goInputTypes = map[string]reflect.Type{
	"Int":          reflect.TypeFor[*int](),
	"HandCategory": reflect.TypeFor[*model.HandCategory](),
	"ExpressInput": reflect.TypeFor[*model.ExpressInput](),
}

// loadSchema loads the API's schema with schema/markets.gen.graphqls
// replaced by markets (nil: the file as it is).
func loadSchema(t *testing.T, markets []byte) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob("schema/*.graphqls")
	if err != nil {
		t.Fatal(err)
	}
	var sources []*ast.Source
	for _, f := range append([]string{"../schema.graphqls"}, files...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "markets.gen.graphqls" && markets != nil {
			b = markets
		}
		sources = append(sources, &ast.Source{Name: f, Input: string(b)})
	}
	s, err := gqlparser.LoadSchema(sources...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// inputStruct is the Go struct gqlgen makes of the schema's
// SelectionInput: a pointer field per input field, named in Go case,
// tagged with the field's name.
func inputStruct(t *testing.T, s *ast.Schema) reflect.Type {
	t.Helper()
	def := s.Types["SelectionInput"]
	if def == nil || def.Kind != ast.InputObject || def.Directives.ForName("oneOf") == nil {
		t.Fatalf("SelectionInput is not a @oneOf input: %+v", def)
	}
	var fields []reflect.StructField
	for _, f := range def.Fields {
		ty, ok := goInputTypes[f.Type.String()]
		if !ok {
			t.Fatalf("SelectionInput.%s is a %s, which no shape is", f.Name, f.Type)
		}
		fields = append(fields, reflect.StructField{
			Name: strings.ToUpper(f.Name[:1]) + f.Name[1:], Type: ty,
			Tag: reflect.StructTag(`json:"` + f.Name + `,omitempty"`),
		})
	}
	return reflect.StructOf(fields)
}

// TestNewMarketTakesOnlyItsRegistryEntry: TOP_TWO (a position finishes
// first or second, domain/tote/verify/market_example_test.go) added to a
// registry of the production markets is, with no other edit, a value of
// the generated Market enum (described by its About), a topTwo: Int field
// of SelectionInput that a placeBet accepts, and the converter reads that
// field (in the Go struct gqlgen makes of the schema) as a TOP_TWO
// selection the registry parses and checks. (persistence/sqldb's
// TestNewMarketTakesOnlyItsRegistryEntry shows the database takes its
// bets.)
func TestNewMarketTakesOnlyItsRegistryEntry(t *testing.T) {
	win, _ := parimutuel.Production().Lookup(parimutuel.MarketWin)
	topTwo := win // the grade does not matter to the API
	topTwo.Name, topTwo.Input, topTwo.About = "TOP_TWO", "topTwo", "a position finishes first or second after the river"
	reg, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), topTwo)...)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := marketschema.GraphQL(reg)
	if err != nil {
		t.Fatal(err)
	}
	schema := loadSchema(t, gen)

	var values []string
	for _, v := range schema.Types["Market"].EnumValues {
		values = append(values, v.Name)
	}
	if want := registryNames(reg); !slices.Equal(values, want) {
		t.Fatalf("enum Market %v, want %v", values, want)
	}
	if v := schema.Types["Market"].EnumValues.ForName("TOP_TWO"); v.Description != topTwo.About {
		t.Errorf("TOP_TWO described as %q", v.Description)
	}
	if f := schema.Types["SelectionInput"].Fields.ForName("topTwo"); f == nil || f.Type.String() != "Int" {
		t.Fatalf("SelectionInput.topTwo: %+v", f)
	}

	// A client's bet on it validates against the generated schema, and
	// not against production's.
	const place = `mutation { placeBet(input: {drawId: "1", selection: {topTwo: 2}, stake: "100.00", idempotencyKey: "k"}) { id market selection } }`
	if _, errs := gqlparser.LoadQueryWithRules(schema, place, nil); errs != nil {
		t.Fatalf("a TOP_TWO bet is refused: %v", errs)
	}
	if _, errs := gqlparser.LoadQueryWithRules(loadSchema(t, nil), place, nil); errs == nil {
		t.Fatal("production's schema takes a topTwo selection")
	}

	// The converter reads the struct gqlgen makes of this schema. The
	// production schema's struct is model.SelectionInput exactly, so the
	// struct here is what go generate would make.
	if !sameFields(inputStruct(t, loadSchema(t, nil)), reflect.TypeFor[model.SelectionInput]()) {
		t.Fatal("the struct built from the schema is not gqlgen's")
	}
	in := reflect.New(inputStruct(t, schema))
	two := 2
	in.Elem().FieldByName("TopTwo").Set(reflect.ValueOf(&two))
	m, text, err := readSelectionInput(reg, in.Interface())
	if err != nil || m != "TOP_TWO" || text != "2" {
		t.Fatalf("topTwo: 2 reads as %s %q, %v", m, text, err)
	}
	sel, err := reg.ParseSelection(m, text)
	if err != nil || sel != (parimutuel.Selection{Market: "TOP_TWO", Position: 2}) {
		t.Fatalf("parsed %+v, %v", sel, err)
	}
	if err := reg.ValidateSelection(sel, 6); err != nil {
		t.Fatal(err)
	}
	// WIN's field still names WIN beside it (existing clients), and a
	// second field is refused, naming the choices.
	in.Elem().FieldByName("Position").Set(reflect.ValueOf(&two))
	if _, _, err := readSelectionInput(reg, in.Interface()); err == nil || !strings.Contains(err.Error(), "express or topTwo") {
		t.Fatalf("two fields: %v", err)
	}
	// A registry without TOP_TWO takes the field as a stale schema.
	if _, _, err := readSelectionInput(parimutuel.Production(), reflect.New(inputStruct(t, schema)).Interface()); err == nil {
		t.Fatal("an empty input accepted")
	}
	only := reflect.New(inputStruct(t, schema))
	only.Elem().FieldByName("TopTwo").Set(reflect.ValueOf(&two))
	if _, _, err := readSelectionInput(parimutuel.Production(), only.Interface()); err == nil || !strings.Contains(err.Error(), "no market's") {
		t.Fatalf("production read topTwo: %v", err)
	}
}
