package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// StrictVariables holds an operation's variables to the rules its literals
// already follow: an input object marked @oneOf has exactly one
// field set and it is not null; an enum value is one of the enum's names,
// exactly (no case folding); an Int is a JSON number with no fraction
// within 32 bits, never a string. A variable that breaks one is refused
// before anything runs: BAD_USER_INPUT with reason INVALID_VARIABLE and a
// message naming the variable's path ($in.selection.position).
type StrictVariables struct {
	Schema *ast.Schema
}

var (
	_ graphql.HandlerExtension        = StrictVariables{}
	_ graphql.OperationContextMutator = StrictVariables{}
)

// ExtensionName implements graphql.HandlerExtension.
func (StrictVariables) ExtensionName() string { return "StrictVariables" }

// Validate implements graphql.HandlerExtension.
func (StrictVariables) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (x StrictVariables) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	schema := x.Schema
	for _, def := range oc.Operation.VariableDefinitions {
		v, ok := oc.Variables[def.Variable]
		if !ok {
			continue
		}
		if msg := checkValue(schema, def.Type, v, "$"+def.Variable); msg != "" {
			return &gqlerror.Error{Message: shorten(msg), Extensions: map[string]any{"code": string(errs.Invalid), "reason": ReasonInvalidVariable}}
		}
	}
	return nil
}

// checkValue returns what is wrong with v as a value of t, or "".
func checkValue(schema *ast.Schema, t *ast.Type, v any, path string) string {
	if v == nil || t == nil {
		return "" // nullability is gqlgen's own check
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			return checkValue(schema, t.Elem, v, path) // a single value stands for a list of one
		}
		for i, item := range list {
			if msg := checkValue(schema, t.Elem, item, fmt.Sprintf("%s[%d]", path, i)); msg != "" {
				return msg
			}
		}
		return ""
	}
	if schema == nil {
		return ""
	}
	def := schema.Types[t.NamedType]
	if def == nil {
		return ""
	}
	switch def.Kind {
	case ast.Enum:
		s, ok := v.(string)
		if !ok || def.EnumValues.ForName(s) == nil {
			return fmt.Sprintf("%s: %v is not one of %s's values (%s)", path, v, def.Name, enumNames(def))
		}
	case ast.Scalar:
		if def.Name == "Int" && !isInt32(v) {
			return fmt.Sprintf("%s: %v is not an Int (a number without fraction, within 32 bits; not a string)", path, jsonText(v))
		}
	case ast.InputObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if def.Directives.ForName("oneOf") != nil {
			set := 0
			for name, fv := range obj {
				if fv == nil {
					return fmt.Sprintf("%s.%s: a @oneOf input sets exactly one field, not null", path, name)
				}
				set++
			}
			if set != 1 {
				return fmt.Sprintf("%s: a @oneOf input sets exactly one field (%d given)", path, set)
			}
		}
		for _, f := range def.Fields {
			if fv, ok := obj[f.Name]; ok {
				if msg := checkValue(schema, f.Type, fv, path+"."+f.Name); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

func isInt32(v any) bool {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		return err == nil && i >= math.MinInt32 && i <= math.MaxInt32
	case int:
		return n >= math.MinInt32 && n <= math.MaxInt32
	case int32:
		return true
	case int64:
		return n >= math.MinInt32 && n <= math.MaxInt32
	case float64:
		return n == math.Trunc(n) && n >= math.MinInt32 && n <= math.MaxInt32
	}
	return false
}

func enumNames(def *ast.Definition) string {
	names := make([]string, 0, len(def.EnumValues))
	for _, e := range def.EnumValues {
		names = append(names, e.Name)
	}
	return strings.Join(names, ", ")
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
