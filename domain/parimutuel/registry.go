package parimutuel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
)

// MarketSpec declares one market: everything the rest of the system asks
// about it (the rounds that offer it, its selections, how an outcome
// settles it, its chances for suspension). The production markets are
// declared in markets.go; the functions of this package that take no
// Registry (SettlePool, ParseSelection, Market.Validate, ...) read those.
//
// A spec is data: how an outcome pays a selection is its Rule, a kind of
// grading rule with its parameters, from which its Grade and its Chances
// follow, and which cmd/gen-markets publishes for the web client's
// independent verifier. Nothing outside the registry switches on a
// market's name: an unknown market is an error (UNKNOWN_MARKET), never
// settled as another one.
type MarketSpec struct {
	// Name is the market's stable name: stored with every bet, published in
	// every result, the GraphQL enum value and the SQL CHECK's value.
	// Upper-case letters and underscores.
	Name Market
	// About says in one English line what a bet backs (docs, tools, the
	// GraphQL enum value's description).
	About string
	// Input is the name of the API's SelectionInput field that backs this
	// market (@oneOf: the field names the market), typed by the shape:
	// lower camel case, used once. cmd/gen-markets writes the GraphQL
	// schema's Market enum and SelectionInput from the registry.
	Input string
	// Rounds are the betting rounds that take bets on it.
	Rounds RoundSet
	// Shape is how a selection is held in Selection, checked, written,
	// read back and listed for a table of n positions. It is the shape
	// its Rule grades.
	Shape *Shape
	// Reads is what of the draw's Outcome the market settles on: the
	// settlement checks exactly these fields (INVALID_OUTCOME). It is what
	// its Rule reads (GradeRule.Reads).
	Reads Reads
	// Scheme is how the pool's net is shared among the winning bets.
	Scheme Scheme
	// Rule is how the outcome pays a selection (Grade) and so how its
	// chances are counted (Chances): PlacedWithin(1) for WIN,
	// CategoryIs() for COMBINATION, CouponLegs(3, 2) for EXPRESS.
	Rule GradeRule
}

// Offers reports whether the market takes bets in round r.
func (m MarketSpec) Offers(r Round) bool { return m.Rounds.Has(r) }

// RoundSet is a set of betting rounds.
type RoundSet uint8

// RoundsOf is the set of rounds rs. A round that does not exist makes a
// set NewRegistry refuses.
func RoundsOf(rs ...Round) RoundSet {
	var s RoundSet
	for _, r := range rs {
		if r.Validate() != nil {
			s |= 1 // no round is 0
			continue
		}
		s |= 1 << uint(r)
	}
	return s
}

// Has reports whether round r is in the set.
func (s RoundSet) Has(r Round) bool { return r.Validate() == nil && s&(1<<uint(r)) != 0 }

// List lists the set's rounds, ascending.
func (s RoundSet) List() []Round {
	var out []Round
	for r := RoundPreDeal; r <= RoundTurn; r++ {
		if s.Has(r) {
			out = append(out, r)
		}
	}
	return out
}

// Selections lists every selection of the market on a table of n
// positions (2..10), in ascending order: the order settlements list the
// winning selections and rounds publish their chances in.
func (m MarketSpec) Selections(n int) []Selection { return m.Shape.all(m.Name, n) }

// Format writes s (a selection of this market) in its canonical stored
// form, without the market.
func (m MarketSpec) Format(s Selection) string { return m.Shape.format(s) }

// Listed reports whether a table view lists every selection of the market
// with a zero row before it is backed (false for coupons: n³ of them are
// too many rows).
func (m MarketSpec) Listed() bool { return m.Shape.listed }

// Reads names the fields of an Outcome a market settles on.
type Reads uint8

// The fields of an Outcome, as MarketSpec.Reads names them.
const (
	ReadsWinners     Reads = 1 << iota // Outcome.Winners
	ReadsCategory                      // Outcome.Category
	ReadsFlopLeaders                   // Outcome.FlopLeaders
	ReadsTurnLeaders                   // Outcome.TurnLeaders
	ReadsHands                         // Outcome.Hands: every position's final hand
	readsAll         = ReadsWinners | ReadsCategory | ReadsFlopLeaders | ReadsTurnLeaders | ReadsHands
)

// readNames are the names Reads are written with (docs, generated data).
var readNames = []struct {
	r    Reads
	name string
}{
	{ReadsWinners, "WINNERS"}, {ReadsCategory, "CATEGORY"}, {ReadsFlopLeaders, "FLOP_LEADERS"},
	{ReadsTurnLeaders, "TURN_LEADERS"}, {ReadsHands, "HANDS"},
}

// Names lists the fields r names, in the order of Outcome's fields.
func (r Reads) Names() []string {
	var out []string
	for _, n := range readNames {
		if r&n.r != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// Scheme is how a pool's net is shared (SPEC 1.5; SettlePool documents
// both).
type Scheme int

// The settlement schemes.
const (
	// SchemeSingle: one category whose fund is the net (WIN,
	// COMBINATION). Grade's Cat2 must stay false.
	SchemeSingle Scheme = iota + 1
	// SchemeTwoTier: category 1 (ExpressShare1 of the net, plus the
	// jackpot) and category 2 (the rest), refunded when category 2 has no
	// winner (EXPRESS).
	SchemeTwoTier
)

// String is the scheme's name: SINGLE or TWO_TIER.
func (s Scheme) String() string {
	switch s {
	case SchemeSingle:
		return "SINGLE"
	case SchemeTwoTier:
		return "TWO_TIER"
	}
	return fmt.Sprintf("SCHEME(%d)", int(s))
}

// Grade is how an outcome settles one selection.
type Grade struct {
	// Cat1 and Cat2 say which categories the selection wins in. For
	// SchemeSingle only Cat1 is used; for SchemeTwoTier a selection in
	// category 1 must also be in category 2.
	Cat1, Cat2 bool
	// Guessed is published with the payout (EXPRESS: how many of the
	// coupon's predictions came true); 0 for markets that publish none.
	Guessed int
}

// Registry is a set of markets in display and settlement order. The
// production registry (Production) is built once from markets.go and
// cannot be changed; a test of a market not yet in production builds its
// own with NewRegistry and passes it where the functions take one.
type Registry struct {
	specs []MarketSpec
	names []Market
}

// production is the registry of the markets the game offers (markets.go).
var production = mustRegistry(productionMarkets()...)

// Production returns the registry of the markets the game offers: WIN,
// COMBINATION and EXPRESS.
func Production() *Registry { return production }

// Markets lists every production market in display order. It is a copy:
// changing it changes nothing (read Production for the markets).
var Markets = Production().Markets()

// NewRegistry builds a registry of specs, in that order. It checks each
// spec: a name of upper-case letters and underscores used once, rounds
// of 1..4, a shape, what it reads, a scheme and a grading rule of a known
// kind that fits them; and grades every selection of a three- and a ten-position table against
// an outcome holding only what the spec says it reads (a Grade reading
// more fails here, not in a settlement). Errors are Internal: a registry is
// code, not input.
func NewRegistry(specs ...MarketSpec) (*Registry, error) {
	r := &Registry{}
	for _, s := range specs {
		if err := checkSpec(s); err != nil {
			return nil, err
		}
		if slices.Contains(r.names, s.Name) {
			return nil, errs.E(errs.Internal, "market %s is declared twice", s.Name)
		}
		if other, ok := r.ByInput(s.Input); ok {
			return nil, errs.E(errs.Internal, "markets %s and %s share the input field %q", other.Name, s.Name, s.Input)
		}
		r.specs = append(r.specs, s)
		r.names = append(r.names, s.Name)
	}
	if len(r.specs) == 0 {
		return nil, errs.E(errs.Internal, "a registry declares at least one market")
	}
	return r, nil
}

func mustRegistry(specs ...MarketSpec) *Registry {
	r, err := NewRegistry(specs...)
	if err != nil {
		panic(err)
	}
	return r
}

// checkSpec reports what makes s no market.
func checkSpec(s MarketSpec) error {
	bad := func(format string, args ...any) error {
		return errs.E(errs.Internal, "market %q: "+format, append([]any{string(s.Name)}, args...)...)
	}
	if s.Name == "" || strings.Trim(string(s.Name), "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" || s.Name[0] == '_' {
		return bad("a name is upper-case letters and underscores")
	}
	if !validInput(s.Input) {
		return bad("input field %q is not lower camel case (a letter a-z, then letters and digits)", s.Input)
	}
	if s.Rounds == 0 {
		return bad("no round offers it")
	}
	if s.Rounds != RoundsOf(s.Rounds.List()...) {
		return bad("rounds %b are not rounds 1..4", s.Rounds)
	}
	switch {
	case s.Shape == nil:
		return bad("no selection shape")
	case s.Reads == 0 || s.Reads&^readsAll != 0:
		return bad("reads %b: it reads at least one field of the outcome, and only those", s.Reads)
	case s.Scheme != SchemeSingle && s.Scheme != SchemeTwoTier:
		return bad("scheme %s does not exist", s.Scheme)
	}
	if err := checkRule(s); err != nil {
		return bad("%v", err)
	}
	return gradeSample(s)
}

// gradeSample grades every selection of a 3- and a 10-position table
// against an outcome in which only the fields s reads are set, and checks
// the grades fit the scheme.
func gradeSample(s MarketSpec) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errs.E(errs.Internal, "market %s: its Grade fails on an outcome of only the fields it reads (%s): %v", s.Name, strings.Join(s.Reads.Names(), ", "), p)
		}
	}()
	for _, n := range []int{3, 10} {
		d, err := checkOutcome(sampleOutcome(n), s.Reads, n)
		if err != nil {
			return errs.E(errs.Internal, "market %s: %v", s.Name, err)
		}
		for _, sel := range s.Selections(n) {
			if err := s.Shape.validate(sel, n); err != nil {
				return errs.E(errs.Internal, "market %s lists a selection it refuses: %v", s.Name, err)
			}
			g := s.Grade(d, sel)
			if s.Scheme == SchemeSingle && g.Cat2 || s.Scheme == SchemeTwoTier && g.Cat1 && !g.Cat2 {
				return errs.E(errs.Internal, "market %s grades %s as %+v, which scheme %s does not allow", s.Name, s.Format(sel), g, s.Scheme)
			}
		}
	}
	return nil
}

// validInput reports whether name can be a GraphQL input field of the
// schema's conventions: lower camel case ASCII.
func validInput(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// ByInput returns the spec of the market whose SelectionInput field is
// name, and false when no market of the registry has that field.
func (r *Registry) ByInput(name string) (MarketSpec, bool) {
	for i := range r.specs {
		if r.specs[i].Input == name {
			return r.specs[i], true
		}
	}
	return MarketSpec{}, false
}

// Markets lists the registry's markets in order (a copy).
func (r *Registry) Markets() []Market { return slices.Clone(r.names) }

// Specs lists the registry's markets' specs in order (a copy).
func (r *Registry) Specs() []MarketSpec { return slices.Clone(r.specs) }

// Lookup returns the spec of market m, and false when the registry does
// not declare it. (A registry holds a handful of markets: a scan is
// faster than a map.)
func (r *Registry) Lookup(m Market) (MarketSpec, bool) {
	for i := range r.specs {
		if r.specs[i].Name == m {
			return r.specs[i], true
		}
	}
	return MarketSpec{}, false
}

// Spec returns the spec of market m, or an Invalid error (UNKNOWN_MARKET)
// naming the markets there are.
func (r *Registry) Spec(m Market) (MarketSpec, error) {
	if s, ok := r.Lookup(m); ok {
		return s, nil
	}
	return MarketSpec{}, errs.R(errs.Invalid, ReasonUnknownMarket, "%q is not a market: choose %s", string(m), r.choices())
}

// choices names the markets as a list: "WIN, COMBINATION or EXPRESS".
func (r *Registry) choices() string {
	names := make([]string, len(r.names))
	for i, n := range r.names {
		names[i] = string(n)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Offered lists the specs of the markets that take bets in round r, in
// order.
func (r *Registry) Offered(rd Round) []MarketSpec {
	var out []MarketSpec
	for _, s := range r.specs {
		if s.Offers(rd) {
			out = append(out, s)
		}
	}
	return out
}

// CheckMarketRound reports an Invalid error when the market or the round
// does not exist (UNKNOWN_MARKET, UNKNOWN_ROUND) or the market takes no
// bets in that round (MARKET_NOT_OFFERED_IN_ROUND).
func (r *Registry) CheckMarketRound(m Market, rd Round) error {
	s, err := r.Spec(m)
	if err != nil {
		return err
	}
	if err := rd.Validate(); err != nil {
		return err
	}
	if !s.Offers(rd) {
		return errs.R(errs.Invalid, ReasonMarketNotOfferedInRound, "%s bets are not taken in round %s: %s", m, rd, s.roundsText())
	}
	return nil
}

// roundsText says when the market takes bets: "EXPRESS closes after round
// POCKET" for a market of the first rounds, else the rounds it is taken in.
func (m MarketSpec) roundsText() string {
	rounds := m.Rounds.List()
	if rounds[0] == RoundPreDeal && int(rounds[len(rounds)-1]) == len(rounds) {
		return fmt.Sprintf("%s closes after round %s", m.Name, rounds[len(rounds)-1])
	}
	names := make([]string, len(rounds))
	for i, rd := range rounds {
		names[i] = rd.String()
	}
	return fmt.Sprintf("%s is taken in rounds %s only", m.Name, strings.Join(names, ", "))
}

// ValidateSelection reports whether s is a well-formed selection for a
// table of n positions. Errors are Invalid with a stable reason:
// INVALID_TABLE_SIZE (n is not 2..10), UNKNOWN_MARKET, INVALID_SELECTION (a
// field of another shape is set, or the category is not 0..9) or
// POSITION_OUT_OF_RANGE (a position is not 1..n).
func (r *Registry) ValidateSelection(s Selection, n int) error {
	if err := CheckTableSize(n); err != nil {
		return err
	}
	spec, err := r.Spec(s.Market)
	if err != nil {
		return err
	}
	return spec.Shape.validate(s, n)
}

// Format writes s in its canonical stored form, or "?" when the registry
// does not declare its market.
func (r *Registry) Format(s Selection) string {
	spec, ok := r.Lookup(s.Market)
	if !ok {
		return "?"
	}
	return spec.Format(s)
}

// ParseSelection reads the canonical form written by Format for market m.
// It accepts exactly one spelling per selection (no signs, spaces, leading
// zeros or lower case), and positions 1..10; check the table's own size
// with ValidateSelection. Errors are Invalid: UNKNOWN_MARKET or
// INVALID_SELECTION.
func (r *Registry) ParseSelection(m Market, text string) (Selection, error) {
	spec, err := r.Spec(m)
	if err != nil {
		return Selection{}, err
	}
	s, ok := spec.Shape.parse(m, text)
	if !ok {
		return Selection{}, errs.R(errs.Invalid, ReasonInvalidSelection, "%q is not a %s selection", text, m)
	}
	return s, nil
}
