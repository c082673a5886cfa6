package graph

import (
	"context"
	"errors"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vikstrous/dataloadgen"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
)

// Loaders batch the nested lookups of one operation by id (Bet.draw,
// Draw.table, PendingVerification.user, AuditEntry.actor, ...): a page of
// 50 bets asks for its draws in one query and their tables in another,
// instead of a query per bet. They cache for the one operation only, so no
// answer mixes in another request's view. Subscriptions get none: an event
// stream lives long, and each event must read the current rows.
type Loaders struct {
	draws  *dataloadgen.Loader[int64, tote.Draw]
	tables *dataloadgen.Loader[int64, tote.Table]
	users  *dataloadgen.Loader[int64, account.User]
}

type loadersKey struct{}

// loaderWait is how long a loader collects keys before fetching: the
// resolvers of one list run concurrently and ask within microseconds.
const loaderWait = 2 * time.Millisecond

// newLoaders builds the loaders of one operation over the totalizator's
// reads and the users.
func newLoaders(draws *service.Service, users *account.Service) *Loaders {
	l := &Loaders{}
	if draws != nil {
		l.draws = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]tote.Draw, error) {
			ds, err := draws.DrawsByID(ctx, ids)
			return byID(ds, func(d tote.Draw) int64 { return d.ID }), err
		}, dataloadgen.WithWait(loaderWait))
		l.tables = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]tote.Table, error) {
			ts, err := draws.TablesByID(ctx, ids)
			return byID(ts, func(t tote.Table) int64 { return t.ID }), err
		}, dataloadgen.WithWait(loaderWait))
	}
	if users != nil {
		l.users = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]account.User, error) {
			us, err := users.UsersByID(ctx, ids)
			return byID(us, func(u account.User) int64 { return u.ID }), err
		}, dataloadgen.WithWait(loaderWait))
	}
	return l
}

func byID[T any](items []T, id func(T) int64) map[int64]T {
	m := make(map[int64]T, len(items))
	for _, it := range items {
		m[id(it)] = it
	}
	return m
}

// LoaderMiddleware gives each query and mutation fresh Loaders.
func (r *Resolver) LoaderMiddleware() graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		if oc := graphql.GetOperationContext(ctx); oc.Operation != nil && oc.Operation.Operation != ast.Subscription {
			var draws *service.Service
			if r.Tote != nil {
				draws = r.Tote.svc
			}
			var users *account.Service
			if r.Accounts != nil {
				users = r.Accounts.Service
			}
			ctx = context.WithValue(ctx, loadersKey{}, newLoaders(draws, users))
		}
		return next(ctx)
	}
}

func loadersFrom(ctx context.Context) *Loaders {
	l, _ := ctx.Value(loadersKey{}).(*Loaders)
	return l
}

// notFoundOf maps a loader's miss onto the domain's NotFound.
func notFoundOf(err error, noun string) error {
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return errs.R(errs.NotFound, ReasonNotFound, "%s not found", noun)
	}
	return err
}

// selects reports whether the current field's selection asks for the
// nested field at path (e.g. "edges", "node", "draw"), so a list resolver
// can fetch what its items will ask for in one batch, and only then.
func selects(ctx context.Context, path ...string) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return false
	}
	oc := graphql.GetOperationContext(ctx)
	sel := fc.Field.Selections
	for _, name := range path {
		found := false
		for _, f := range graphql.CollectFields(oc, sel, nil) {
			if f.Name == name {
				sel, found = f.Selections, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// prefetchDraws loads the draws with these ids, then their tables, one
// batch each, into the operation's loaders.
func prefetchDraws(ctx context.Context, drawIDs []int64) {
	l := loadersFrom(ctx)
	if l == nil || l.draws == nil || l.tables == nil {
		return
	}
	draws, _ := l.draws.LoadAll(ctx, drawIDs) // misses and errors surface in the fields that need them
	tableIDs := make([]int64, 0, len(draws))
	for _, d := range draws {
		if d.ID != 0 {
			tableIDs = append(tableIDs, d.TableID)
		}
	}
	_, _ = l.tables.LoadAll(ctx, tableIDs)
}

// prefetchUsers loads the users with these ids (0s skipped) in one batch
// into the operation's loader.
func prefetchUsers(ctx context.Context, ids []int64) {
	l := loadersFrom(ctx)
	if l == nil || l.users == nil {
		return
	}
	keys := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id != 0 {
			keys = append(keys, id)
		}
	}
	_, _ = l.users.LoadAll(ctx, keys) // misses surface in the fields that need them
}

// loadDraw is a draw by id: through the operation's loader when there is
// one, else straight from the service.
func loadDraw(ctx context.Context, s *service.Service, id int64) (tote.Draw, error) {
	if l := loadersFrom(ctx); l != nil && l.draws != nil {
		d, err := l.draws.Load(ctx, id)
		return d, notFoundOf(err, "draw")
	}
	return s.Draw(ctx, id)
}

// primeDraw tells the operation's loader about a draw loaded another way
// (a listing, the latest draw), so its lazy fields do not load it again.
func primeDraw(ctx context.Context, d tote.Draw) {
	if l := loadersFrom(ctx); l != nil && l.draws != nil {
		l.draws.Prime(d.ID, d)
	}
}

// loadTable is a table by id, like loadDraw.
func loadTable(ctx context.Context, s *service.Service, id int64) (tote.Table, error) {
	if l := loadersFrom(ctx); l != nil && l.tables != nil {
		t, err := l.tables.Load(ctx, id)
		return t, notFoundOf(err, "table")
	}
	return s.Table(ctx, id)
}

// loadUser is a user by id, like loadDraw.
func loadUser(ctx context.Context, s *account.Service, id int64) (account.User, error) {
	if l := loadersFrom(ctx); l != nil && l.users != nil {
		u, err := l.users.Load(ctx, id)
		return u, notFoundOf(err, "user")
	}
	return s.User(ctx, id)
}
