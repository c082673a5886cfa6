package graph

import (
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
)

// SharedWrites is how many "next" messages wsTransport wrote from shared
// renderings so far (in this process).
func SharedWrites() int64 { return sharedWrites.Load() }

// NewHandlerGqlgenWS is NewHandler with gqlgen's own WebSocket transport
// (over coder/websocket, as before wsTransport) for both protocols: tests
// compare the two.
func NewHandlerGqlgenWS(es graphql.ExecutableSchema, o HandlerOptions) *handler.Server {
	t := gqlgenWebsocket(o)
	t.Implementation = coderImpl{accept: websocket.AcceptOptions{OriginPatterns: originPatterns(o.AllowedOrigins)}}
	return newHandler(es, o, t)
}

type coderImpl struct{ accept websocket.AcceptOptions }

func (u coderImpl) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	opts := u.accept
	opts.Subprotocols = o.Subprotocols
	c, err := websocket.Accept(w, r, &opts)
	if err != nil {
		return nil, err
	}
	return &wsConn{c: c}, nil
}
