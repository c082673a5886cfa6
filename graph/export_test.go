package graph

import (
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/coder/websocket"

	"github.com/pokertote/pokertote/graph/wstransport"
)

// NewHandlerGqlgenWS is NewHandler with gqlgen's own WebSocket transport
// (over coder/websocket, as before wstransport) for both protocols: tests
// compare the two.
func NewHandlerGqlgenWS(es graphql.ExecutableSchema, o HandlerOptions) *handler.Server {
	t := gqlgenWebsocket(o)
	t.Implementation = wstransport.Acceptor{Options: websocket.AcceptOptions{OriginPatterns: originPatterns(o.AllowedOrigins)}}
	return newHandler(es, o, t)
}

// SharedEncodes is how many table-event responses were rendered for
// sharing so far in this process.
func SharedEncodes() int64 { return sharedEncodes.Load() }
