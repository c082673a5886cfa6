package wstransport

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
)

// A Sharer renders a subscription's events once for every subscriber of
// the same document (graph's sharedRender for tableEvents): the transport
// then writes the shared bytes with each subscriber's id spliced in.
type Sharer interface {
	// Tap returns ctx carrying a Stream for operation rc when its events
	// can be shared; a nil Stream otherwise.
	Tap(ctx context.Context, rc *graphql.OperationContext) (context.Context, Stream)
}

// A Stream is one subscriber's shareable subscription, pulled by the
// transport in the subscription's own goroutine (no goroutine of its own).
type Stream interface {
	// Started reports whether the resolver attached the stream when the
	// operation was dispatched; false runs it as any other subscription.
	Started() bool
	// Pull waits for the next event; false when the stream ended.
	Pull(ctx context.Context) bool
	// PullNow is Pull without waiting: got is false (and ok true) when no
	// event is ready yet. The transport writes what it has in hand in one
	// go with what is ready behind it (the events of one commit).
	PullNow(ctx context.Context) (ok, got bool)
	// Render renders the event pulled last: the head of its shared "next"
	// message (NextHead), or this subscriber's own response through
	// responses when it could not be shared; neither when ctx ended.
	Render(ctx context.Context, responses graphql.ResponseHandler) (head []byte, own *graphql.Response)
	// Written is told after the shared messages rendered so far were
	// written.
	Written()
}

// NextHead is the start of a graphql-transport-ws "next" message carrying
// data, up to the id: the message is head, the quoted id and the rest. The
// bytes are those gqlgen's transport writes for a response with only data;
// within is data inside head.
func NextHead(data json.RawMessage) (head []byte, within json.RawMessage) {
	b := make([]byte, 0, len(nextPre)+len(data)+len(nextPost))
	b = append(b, nextPre...)
	b = append(b, data...)
	b = append(b, nextPost...)
	return b, b[len(nextPre) : len(b)-len(nextPost)]
}

const nextPre, nextPost, nextTail = `{"payload":{"data":`, `},"id":`, `,"type":"next"}`
