package graph

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// fromSelectionInput reads the typed selection of a bet as its market and
// the selection's canonical text (which the domain parses and checks
// against the draw). Exactly one field must be set: @oneOf says so for
// literals, and this says so for variables too.
func fromSelectionInput(in *model.SelectionInput) (parimutuel.Market, string, error) {
	return readSelectionInput(parimutuel.Production(), in)
}

// readSelectionInput reads in, a pointer to SelectionInput as gqlgen
// generates it from reg's schema (internal/marketschema): one pointer field
// per market, its JSON name the market's Input, its type the shape's. The
// field names the market and the shape says how its value is written, so
// no market is named here. A field reg does not declare, or of a type its
// market's shape does not read, is a stale schema: Internal.
func readSelectionInput(reg *parimutuel.Registry, in any) (parimutuel.Market, string, error) {
	v := reflect.ValueOf(in)
	set := 0
	var m parimutuel.Market
	var text string
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		v = v.Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() != reflect.Pointer || f.IsNil() {
				continue
			}
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			spec, ok := reg.ByInput(name)
			if !ok {
				return "", "", errs.E(errs.Internal, "SelectionInput field %q is no market's: regenerate the schema", name)
			}
			read, ok := shapeInputs[spec.Shape.Name()]
			t, fits := "", false
			if ok {
				t, fits = read(f.Elem().Interface())
			}
			if !fits {
				return "", "", errs.E(errs.Internal, "SelectionInput field %q (%s) does not fit the %s shape of %s", name, f.Type(), spec.Shape.Name(), spec.Name)
			}
			set++
			m, text = spec.Name, t
		}
	}
	if set != 1 {
		return "", "", errs.R(errs.Invalid, ReasonInvalidSelection, "give exactly one of %s", inputChoices(reg))
	}
	return m, text, nil
}

// shapeInputs read a SelectionInput field's value as the selection's text,
// by the shape of its market (its GraphQL type is
// marketschema.InputTypes'): false when the value is not of that type.
var shapeInputs = map[string]func(v any) (string, bool){
	parimutuel.PositionShape.Name(): func(v any) (string, bool) {
		p, ok := v.(int)
		return strconv.Itoa(p), ok
	},
	parimutuel.CategoryShape.Name(): func(v any) (string, bool) {
		c, ok := v.(model.HandCategory)
		return string(c), ok
	},
	parimutuel.CouponShape.Name(): func(v any) (string, bool) {
		e, ok := v.(model.ExpressInput)
		return fmt.Sprintf("%d-%d-%d", e.Flop, e.Turn, e.River), ok
	},
}

// inputChoices names reg's SelectionInput fields: "position, combination
// or express".
func inputChoices(reg *parimutuel.Registry) string {
	var names []string
	for _, s := range reg.Specs() {
		names = append(names, s.Input)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func toModelTable(t tote.Table) *model.Table {
	s := t.Settings
	secs := make([]int, 4)
	for i, d := range s.RoundLengths {
		secs[i] = int(d / time.Second)
	}
	return &model.Table{
		ID: id(t.ID), Name: t.Name, Positions: t.Positions, Status: model.TableStatus(t.Status), LastSeq: t.LastSeq,
		Settings: &model.TableSettings{
			MinStake: model.Money(s.MinStake), MaxStake: model.Money(s.MaxStake), Commission: model.Percent(s.Commission),
			RoundSeconds: secs, CardIntervalMs: int(s.CardInterval / time.Millisecond), ResultSeconds: int(s.ResultDisplay / time.Second),
			ExpressShares: []model.Percent{model.Percent(s.ExpressShare1), model.Percent(s.ExpressShare2)},
			SuspendAt:     model.Percent(s.SuspendAt),
		},
	}
}

// toSettingsUpdate reads the admin's settings input.
func toSettingsUpdate(in model.TableSettingsInput) (tote.SettingsUpdate, error) {
	var u tote.SettingsUpdate
	if in.MinStake != nil {
		u.MinStake = ptrTo(moneyOf(*in.MinStake))
	}
	if in.MaxStake != nil {
		u.MaxStake = ptrTo(moneyOf(*in.MaxStake))
	}
	if in.Commission != nil {
		u.Commission = ptrTo(money.BasisPoints(*in.Commission))
	}
	if in.RoundSeconds != nil {
		if len(in.RoundSeconds) != 4 {
			return u, errs.R(errs.Invalid, ReasonInvalidTiming, "give the lengths of all four rounds")
		}
		var rs [4]time.Duration
		for i, s := range in.RoundSeconds {
			rs[i] = time.Duration(s) * time.Second
		}
		u.RoundLengths = &rs
	}
	if in.CardIntervalMs != nil {
		u.CardInterval = ptrTo(time.Duration(*in.CardIntervalMs) * time.Millisecond)
	}
	if in.ResultSeconds != nil {
		u.ResultDisplay = ptrTo(time.Duration(*in.ResultSeconds) * time.Second)
	}
	if in.ExpressShares != nil {
		if len(in.ExpressShares) != 2 {
			return u, errs.R(errs.Invalid, ReasonInvalidPoolConfig, "give the shares of both EXPRESS categories")
		}
		var sh [2]money.BasisPoints
		for i, s := range in.ExpressShares {
			sh[i] = money.BasisPoints(s)
		}
		u.ExpressShares = &sh
	}
	if in.SuspendAt != nil {
		u.SuspendAt = ptrTo(money.BasisPoints(*in.SuspendAt))
	}
	return u, nil
}

func roundPtr(r parimutuel.Round) *model.BettingRound {
	if r == 0 {
		return nil
	}
	br := model.BettingRound(r.String())
	return &br
}

// toModelDraw converts a draw as anyone may see it: the server seed and the
// burned cards only once revealed. t is its table (the maximum stake of a
// draw opened before draws kept their own). The odds and result are filled here, so their resolvers cost no
// query.
func toModelDraw(d tote.Draw, t tote.Table) *model.Draw {
	out := &model.Draw{
		ID: id(d.ID), Table: toModelTable(t), Number: int(d.Number), Phase: model.DrawPhase(d.Phase.Public()),
		OpenRound: roundPtr(d.OpenRound()), MinStake: model.Money(d.MinStake), MaxStake: model.Money(d.StakeCeiling(t)),
		Board: cardStrings(d.Board), Burned: []string{}, OpenedAt: d.OpenedAt,
		Shuffle: &model.Shuffle{Commitment: cards.FormatCommitment(d.Commitment), Beacons: toModelBeacons(d.Beacons)},
		Chances: toModelChances(d.Chances, d.SuspendAt),
		// Odds, Result and ResultJSON are resolved from the stored draw
		// only when asked for (DrawOdds, DrawResult, DrawResultJSON).
	}
	if !d.RoundClosesAt.IsZero() && out.OpenRound != nil {
		out.RoundClosesAt = ptrTo(d.RoundClosesAt)
	}
	if d.PublicSeed != nil {
		out.Shuffle.PublicSeed = ptrTo(hex.EncodeToString(d.PublicSeed))
	}
	if d.Revealed {
		out.Shuffle.ServerSeed = ptrTo(d.ServerSeed.Hex())
		out.Burned = cardStrings(d.Burns)
	}
	if !d.SettledAt.IsZero() {
		out.SettledAt = ptrTo(d.SettledAt)
	}
	if d.VoidReason != "" {
		out.VoidReason = ptrTo(d.VoidReason)
	}
	if d.VoidKind != "" {
		out.VoidKind = ptrTo(model.VoidKind(d.VoidKind))
	}
	for _, p := range d.PositionViews() {
		mp := model.Position{Number: p.Number, Cards: cardStrings(p.Cards), Status: model.PositionStatus(p.Status)}
		if p.Best != 0 {
			mp.BestHand = &model.HandInfo{Category: model.HandCategory(p.Best.Category().String()), Description: p.Best.Describe(), Cards: cardStrings(p.BestFive[:])}
		}
		out.Positions = append(out.Positions, mp)
	}
	return out
}

func toModelOdds(o *tote.LiveOdds) *model.Odds {
	if o == nil {
		return nil
	}
	out := &model.Odds{Phase: model.DrawPhase(o.Phase), Boards: int(o.Boards), Exact: o.Exact, Leaders: o.Leaders,
		Positions: []model.PositionOdds{}, Categories: []model.CategoryOdds{}}
	street := o.Street
	if street == "" { // odds stored before Street existed: their phase tells it
		street = map[tote.Phase]string{tote.PhasePocket: tote.StreetPocket, tote.PhaseFlop: tote.StreetFlop,
			tote.PhaseTurn: tote.StreetTurn, tote.PhaseDealingRiver: tote.StreetRiver}[o.Phase]
	}
	if street != "" {
		out.Street = ptrTo(model.Street(street))
	}
	if out.Leaders == nil {
		out.Leaders = []int{}
	}
	if o.SampleSize > 0 {
		out.SampleSize = ptrTo(int(o.SampleSize))
	}
	for _, p := range o.Positions {
		out.Positions = append(out.Positions, model.PositionOdds{Position: p.Position, Win: p.Win, Tie: p.Tie, Equity: p.Equity,
			WinBoards: int(p.WinBoards), TieBoards: int(p.TieBoards)})
	}
	for _, c := range o.Categories {
		out.Categories = append(out.Categories, model.CategoryOdds{Category: model.HandCategory(c.Category.String()), Probability: c.Probability, Count: int(c.Count)})
	}
	return out
}

func coefPtr(c money.Coef) *model.Coefficient {
	if c == 0 {
		return nil
	}
	k := model.Coefficient(c)
	return &k
}

func toModelPool(v tote.PoolView) model.Pool {
	out := model.Pool{Round: model.BettingRound(v.Round.String()), Market: model.Market(v.Market), Gross: model.Money(v.Gross),
		Net: model.Money(v.Net), Bets: v.Bets, Selections: make([]model.SelectionTotal, len(v.Selections))}
	for i, s := range v.Selections {
		out.Selections[i] = model.SelectionTotal{Selection: s.Selection, Stake: model.Money(s.Stake), Bets: s.Bets, ImpliedCoefficient: coefPtr(s.Implied)}
	}
	return out
}

func toModelResult(r tote.DrawResult) *model.DrawResult {
	out := &model.DrawResult{Winners: orEmpty(r.Winners), LeadersAfterFlop: orEmpty(r.FlopLeaders), LeadersAfterTurn: orEmpty(r.TurnLeaders),
		SettledAt: r.SettledAt, Pools: make([]model.PoolResult, len(r.Pools)), Chances: toModelChances(r.Chances, r.SuspendAt)}
	if !r.Void {
		out.WinningCategory = ptrTo(model.HandCategory(r.Category.String()))
	}
	if c := r.JackpotChain; c != nil {
		out.JackpotEntries = &model.JackpotEntryRange{After: c.After, Last: c.Last}
	}
	for i, p := range r.Pools {
		mp := model.PoolResult{
			Round: model.BettingRound(p.Round.String()), Market: model.Market(p.Market), Gross: model.Money(p.Gross), Bets: p.NumBets,
			Commission: model.Money(p.Commission), JackpotContribution: model.Money(p.JackpotContribution), Net: model.Money(p.Net),
			WinningSelections: orEmpty(p.Winning), Coefficient: coefPtr(p.Coef()), Paid: model.Money(p.Paid), Breakage: model.Money(p.Breakage),
			MinusPoolTopUp: model.Money(p.TopUp), JackpotPaid: model.Money(p.JackpotPaid), Refunded: p.Refunded,
			Categories: []model.ExpressCategoryResult{},
		}
		if why := refundReason(p); why != "" {
			mp.RefundReason = ptrTo(why)
		}
		if m, ok := parimutuel.Production().Lookup(p.Market); ok && m.Scheme == parimutuel.SchemeTwoTier {
			for _, c := range p.Categories {
				mp.Categories = append(mp.Categories, model.ExpressCategoryResult{
					Category: c.Category, Fund: model.Money(c.Fund), Jackpot: model.Money(c.Jackpot), Coupons: c.NumBets,
					Stakes: model.Money(c.Stakes), Coefficient: coefPtr(c.Coef), Paid: model.Money(c.Paid), Breakage: model.Money(c.Breakage),
					TopUp: model.Money(c.TopUp), RolledIntoJackpot: model.Money(c.Rollover),
				})
			}
		}
		out.Pools[i] = mp
	}
	return out
}

// toModelBet converts a bet; its draw is resolved lazily from Draw.ID.
func toModelBet(b tote.Bet) *model.Bet {
	out := &model.Bet{
		ID: id(b.ID), Draw: &model.Draw{ID: id(b.DrawID)}, Round: model.BettingRound(b.Round.String()),
		Market: model.Market(b.Selection.Market), Selection: b.Selection.String(), Stake: model.Money(b.Stake),
		Status: model.BetStatus(b.Status), PlacedAt: b.PlacedAt,
	}
	if b.Status != tote.BetAccepted {
		out.Payout = ptrTo(model.Money(b.Payout))
		out.SettledAt = ptrTo(b.SettledAt)
	}
	return out
}

// pageArgs reads the page arguments of an id-paged listing (newest
// first) and the id of its cursor (0: none).
func pageArgs(first *int, after *string, last *int, before *string) (pageReq, int64, error) {
	pr, err := readPageArgs(first, after, last, before)
	if err != nil {
		return pr, 0, err
	}
	cur, err := pr.afterID()
	return pr, cur, err
}

// RefundNoBets is PoolResult.refundReason for a pool that took no bet. The
// stored result says NO_WINNER for it (results are permanent, and the
// verifiers recompute that value); the API tells the two cases apart.
const RefundNoBets = "NO_BETS"

// refundReason is the refundReason the API answers for a pool's result.
func refundReason(p tote.PoolResult) string {
	if p.Refunded && p.RefundReason == parimutuel.RefundNoWinner && p.NumBets == 0 {
		return RefundNoBets
	}
	return string(p.RefundReason)
}
