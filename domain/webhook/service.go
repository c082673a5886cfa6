package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
)

// SecretPrefix starts every signing secret, as Standard Webhooks' libraries
// expect it ("whsec_" and the base64 of the key).
const SecretPrefix = "whsec_"

const (
	secretBytes     = 32
	maxURLBytes     = 2000
	maxDescRunes    = 200
	eventIDPrefix   = "evt_"
	feedIDPrefix    = "reg_"
	createdEventSeq = 0
)

// Service is the admins' side of webhooks: endpoints registered, listed,
// deleted and replayed. Every change is audited by the store.
type Service struct {
	store Store
	src   Source
	now   func() time.Time
	// PlainHTTP allows http:// endpoints (development); production takes
	// https:// only.
	PlainHTTP bool
}

// NewService returns the admins' Service over store and src (the tables'
// heads, so that a new endpoint starts from now); now is the clock (nil:
// time.Now).
func NewService(store Store, src Source, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, src: src, now: now}
}

// NewEndpoint is what an admin registers.
type NewEndpoint struct {
	URL         string
	Types       []Type
	Description string
}

// Create registers an endpoint and returns it with its signing secret,
// shown in the answer (the receiver needs it to check signatures). The
// endpoint receives the events committed from now on; Replay sends older
// ones.
func (s *Service) Create(ctx context.Context, adminID int64, in NewEndpoint) (Endpoint, error) {
	e, err := s.check(in)
	if err != nil {
		return Endpoint{}, err
	}
	var key [secretBytes]byte
	if _, err := rand.Read(key[:]); err != nil {
		return Endpoint{}, errs.Wrap(err, "no randomness for a webhook secret")
	}
	e.Secret = SecretPrefix + base64.StdEncoding.EncodeToString(key[:])
	e.CreatedBy, e.CreatedAt = adminID, s.now().UTC()
	e.NextAttempt = e.CreatedAt
	heads, err := s.src.Tables(ctx)
	if err != nil {
		return Endpoint{}, err
	}
	cursors := make([]Cursor, len(heads))
	for i, h := range heads {
		cursors[i] = Cursor{TableID: h.TableID, Seq: h.LastSeq}
	}
	return s.store.CreateEndpoint(ctx, e, cursors)
}

// check validates an endpoint's settings.
func (s *Service) check(in NewEndpoint) (Endpoint, error) {
	u, err := url.Parse(strings.TrimSpace(in.URL))
	okScheme := err == nil && (u.Scheme == "https" || (s.PlainHTTP && u.Scheme == "http"))
	if !okScheme || u.Host == "" || u.User != nil || u.Fragment != "" || len(in.URL) > maxURLBytes {
		want := "https"
		if s.PlainHTTP {
			want = "http or https"
		}
		return Endpoint{}, errs.R(errs.Invalid, ReasonInvalidURL, "the endpoint must be an absolute %s URL without credentials or fragment, at most %d bytes", want, maxURLBytes)
	}
	if len(in.Types) == 0 {
		return Endpoint{}, errs.R(errs.Invalid, ReasonInvalidTypes, "name at least one event type")
	}
	var types []Type
	for _, t := range in.Types {
		if !t.Known() {
			return Endpoint{}, errs.R(errs.Invalid, ReasonInvalidTypes, "unknown event type %q", t)
		}
		if !(Endpoint{Types: types}).Wants(t) {
			types = append(types, t)
		}
	}
	desc := strings.TrimSpace(in.Description)
	if !utf8.ValidString(desc) || utf8.RuneCountInString(desc) > maxDescRunes {
		return Endpoint{}, errs.R(errs.Invalid, ReasonInvalidDesc, "the description must be at most %d characters", maxDescRunes)
	}
	return Endpoint{URL: u.String(), Types: types, Description: desc}, nil
}

// List returns every endpoint with its delivery state, secrets included
// (admins only).
func (s *Service) List(ctx context.Context) ([]Endpoint, error) { return s.store.Endpoints(ctx) }

// Delete removes an endpoint: nothing more is sent to it.
func (s *Service) Delete(ctx context.Context, adminID, id int64) error {
	return s.store.DeleteEndpoint(ctx, id, adminID, s.now().UTC())
}

// Replay makes eventID (an "evt_<table>_<seq>" a delivery carried) the next
// event the endpoint receives from its table, and unparks the endpoint;
// later events of that table follow again. An empty eventID only resumes a
// parked endpoint where it stopped.
func (s *Service) Replay(ctx context.Context, adminID, id int64, eventID string) (Endpoint, error) {
	table, seq := int64(0), int64(0)
	if eventID != "" {
		var err error
		if table, seq, err = ParseEventID(eventID); err != nil {
			return Endpoint{}, err
		}
	}
	return s.store.Replay(ctx, id, table, seq, adminID, s.now().UTC())
}

// EventID is the stable id of a table's event seq (seq 0: table.created),
// or of the regulator feed's record seq ("reg_<seq>") when tableID is
// FeedStream.
func EventID(tableID, seq int64) string {
	if tableID == FeedStream {
		return fmt.Sprintf("%s%d", feedIDPrefix, seq)
	}
	return fmt.Sprintf("%s%d_%d", eventIDPrefix, tableID, seq)
}

// ParseEventID reads an id made by EventID.
func ParseEventID(id string) (tableID, seq int64, err error) {
	if q, ok := strings.CutPrefix(id, feedIDPrefix); ok {
		seq, err := strconv.ParseInt(q, 10, 64)
		if err != nil || seq < 1 || EventID(FeedStream, seq) != id {
			return 0, 0, errs.R(errs.Invalid, ReasonInvalidEventID, "a regulator feed id reads reg_<seq>, as the webhook-id header carries it")
		}
		return FeedStream, seq, nil
	}
	rest, ok := strings.CutPrefix(id, eventIDPrefix)
	t, q, ok2 := strings.Cut(rest, "_")
	tableID, err1 := strconv.ParseInt(t, 10, 64)
	seq, err2 := strconv.ParseInt(q, 10, 64)
	if !ok || !ok2 || err1 != nil || err2 != nil || tableID <= 0 || seq < createdEventSeq || EventID(tableID, seq) != id {
		return 0, 0, errs.R(errs.Invalid, ReasonInvalidEventID, "an event id reads evt_<table>_<seq>, as the webhook-id header carries it")
	}
	return tableID, seq, nil
}

// AddressAllowed reports whether a receiver at addr may be called: public
// addresses always; loopback, private, link-local, unspecified and other
// special ranges only when one of allow contains them (an operator's
// allow-list, so that a registered URL cannot reach the operator's own
// network).
func AddressAllowed(addr netip.Addr, allow []netip.Prefix) bool {
	addr = addr.Unmap()
	for _, p := range allow {
		if p.Contains(addr) {
			return true
		}
	}
	special := addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsMulticast() || addr.IsUnspecified() || addr.IsInterfaceLocalMulticast() || !addr.IsGlobalUnicast()
	return !special && !sharedAddressSpace.Contains(addr)
}

// sharedAddressSpace is RFC 6598's carrier-grade NAT range, which
// netip.Addr.IsPrivate does not count.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")
