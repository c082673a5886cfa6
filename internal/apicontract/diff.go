package apicontract

import (
	"fmt"
	"sort"

	"github.com/vektah/gqlparser/v2/ast"
)

// A Change is one difference between two schemas that breaks a client
// written against the old one.
type Change struct {
	// Path names what changed: "Type", "Type.field", "Type.field(arg)",
	// "Enum.VALUE", "@directive".
	Path string
	// What says how, for people.
	What string
}

func (c Change) String() string { return c.Path + ": " + c.What }

// BreakingChanges lists what in next breaks a client of prev:
//
//   - a type removed, or changed in kind (an object become an interface...);
//   - a field, an input field, an argument or an enum value removed, unless
//     it was @deprecated in prev (deprecate first, remove in a later
//     release);
//   - an output field's type made wider (non-null to nullable, another
//     type); an argument's or input field's type made narrower (nullable to
//     non-null, another type);
//   - a required argument or input field added (non-null with no default);
//   - a union member or an implemented interface removed;
//   - a directive removed, or a location of it.
//
// Additions (types, fields, optional arguments, enum values, descriptions,
// deprecations) are not breaking; an enum a client reads may gain values,
// and docs/frontend.md tells clients to show unknown ones. The result is
// sorted by path.
func BreakingChanges(prev, next *ast.Schema) []Change {
	var out []Change
	add := func(path, format string, args ...any) {
		out = append(out, Change{Path: path, What: fmt.Sprintf(format, args...)})
	}
	for name, old := range prev.Types {
		if old.BuiltIn {
			continue
		}
		nu := next.Types[name]
		if nu == nil {
			add(name, "type removed")
			continue
		}
		if nu.Kind != old.Kind {
			add(name, "kind changed from %s to %s", old.Kind, nu.Kind)
			continue
		}
		switch old.Kind {
		case ast.Object, ast.Interface:
			for _, f := range old.Fields {
				path := name + "." + f.Name
				nf := nu.Fields.ForName(f.Name)
				if nf == nil {
					if !deprecated(f.Directives) {
						add(path, "field removed without being deprecated first")
					}
					continue
				}
				if !outputCompatible(f.Type, nf.Type) {
					add(path, "type changed from %s to %s", f.Type, nf.Type)
				}
				compareArgs(path, f.Arguments, nf.Arguments, add)
			}
			for _, i := range old.Interfaces {
				if !contains(nu.Interfaces, i) {
					add(name, "no longer implements %s", i)
				}
			}
		case ast.InputObject:
			for _, f := range old.Fields {
				path := name + "." + f.Name
				nf := nu.Fields.ForName(f.Name)
				if nf == nil {
					if !deprecated(f.Directives) {
						add(path, "input field removed without being deprecated first")
					}
					continue
				}
				if !inputCompatible(f.Type, nf.Type) {
					add(path, "type changed from %s to %s", f.Type, nf.Type)
				}
			}
			for _, nf := range nu.Fields {
				if old.Fields.ForName(nf.Name) == nil && nf.Type.NonNull && nf.DefaultValue == nil {
					add(name+"."+nf.Name, "required input field added")
				}
			}
		case ast.Enum:
			for _, v := range old.EnumValues {
				if nu.EnumValues.ForName(v.Name) == nil && !deprecated(v.Directives) {
					add(name+"."+v.Name, "enum value removed without being deprecated first")
				}
			}
		case ast.Union:
			for _, m := range old.Types {
				if !contains(nu.Types, m) {
					add(name, "union member %s removed", m)
				}
			}
		}
	}
	for name, d := range prev.Directives {
		if d.Position != nil && d.Position.Src != nil && d.Position.Src.BuiltIn {
			continue
		}
		nd := next.Directives[name]
		if nd == nil {
			add("@"+name, "directive removed")
			continue
		}
		for _, l := range d.Locations {
			if !contains(nd.Locations, l) {
				add("@"+name, "location %s removed", l)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].What < out[j].What
	})
	return out
}

// compareArgs reports the breaking changes of a field's arguments.
func compareArgs(path string, prev, next ast.ArgumentDefinitionList, add func(string, string, ...any)) {
	for _, a := range prev {
		na := next.ForName(a.Name)
		p := path + "(" + a.Name + ")"
		if na == nil {
			if !deprecated(a.Directives) {
				add(p, "argument removed without being deprecated first")
			}
			continue
		}
		if !inputCompatible(a.Type, na.Type) {
			add(p, "type changed from %s to %s", a.Type, na.Type)
		}
	}
	for _, na := range next {
		if prev.ForName(na.Name) == nil && na.Type.NonNull && na.DefaultValue == nil {
			add(path+"("+na.Name+")", "required argument added")
		}
	}
}

// outputCompatible reports whether a client reading a value of type prev can
// read one of type next: the same type, or one with more non-null.
func outputCompatible(prev, next *ast.Type) bool {
	if prev.NonNull && !next.NonNull {
		return false
	}
	if (prev.Elem == nil) != (next.Elem == nil) {
		return false
	}
	if prev.Elem != nil {
		return outputCompatible(prev.Elem, next.Elem)
	}
	return prev.NamedType == next.NamedType
}

// inputCompatible reports whether a value a client sends as type prev is
// still accepted as type next: the same type, or one with less non-null.
func inputCompatible(prev, next *ast.Type) bool {
	if next.NonNull && !prev.NonNull {
		return false
	}
	if (prev.Elem == nil) != (next.Elem == nil) {
		return false
	}
	if prev.Elem != nil {
		return inputCompatible(prev.Elem, next.Elem)
	}
	return prev.NamedType == next.NamedType
}

func deprecated(d ast.DirectiveList) bool { return d.ForName("deprecated") != nil }

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
