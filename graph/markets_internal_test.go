package graph

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/graph/model"
)

// TestMarketEnumIsRegistry: the schema's Market enum is the registry's
// markets, in its order, both as graph/schema/tote.graphqls writes it and
// as gqlgen generated it.
func TestMarketEnumIsRegistry(t *testing.T) {
	var want []string
	for _, m := range parimutuel.Production().Markets() {
		want = append(want, string(m))
	}
	var generated []string
	for _, m := range model.AllMarket {
		generated = append(generated, string(m))
	}
	if !slices.Equal(generated, want) {
		t.Errorf("model.AllMarket = %v, the registry has %v (run go generate ./graph)", generated, want)
	}
	schema, err := os.ReadFile("schema/tote.graphqls")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nenum Market \{(.*?)\n\}`).FindSubmatch(schema)
	if body == nil {
		t.Fatal("schema/tote.graphqls has no enum Market")
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

// TestSelectionInputIsRegistry: SelectionInput has one field per market
// (@oneOf: the field names the market), and fromSelectionInput reads each
// as its market's selection.
func TestSelectionInputIsRegistry(t *testing.T) {
	var fields []string
	ty := reflect.TypeFor[model.SelectionInput]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		fields = append(fields, name)
	}
	var readers []string
	var markets []parimutuel.Market
	for _, f := range selectionInputs {
		readers, markets = append(readers, f.field), append(markets, f.market)
	}
	if !slices.Equal(readers, fields) {
		t.Errorf("fromSelectionInput reads %v, SelectionInput has %v", readers, fields)
	}
	if want := parimutuel.Production().Markets(); !slices.Equal(markets, want) {
		t.Errorf("SelectionInput's fields name %v, the registry has %v", markets, want)
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
	if _, _, err := fromSelectionInput(&model.SelectionInput{Position: &pos, Combination: &cat}); err == nil {
		t.Error("two fields accepted")
	}
	if _, _, err := fromSelectionInput(nil); err == nil {
		t.Error("no selection accepted")
	}
}
