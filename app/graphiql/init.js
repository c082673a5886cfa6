// Starts GraphiQL against this server's /query endpoint, with subscriptions
// over graphql-ws on the same path (subscriptionUrl) and the Pokertote
// example tabs of examples.json (join a table, sign in, place a bet). Kept
// out of the HTML so that the page runs under a Content-Security-Policy
// without 'unsafe-inline' scripts. A token for owner-only fields goes in the
// Headers tab, {"Authorization": "Bearer <accessToken>"}; the headers are
// kept in this browser (shouldPersistHeaders) so that the WebSocket can send
// the same token in connection_init when it opens.
(function () {
  var ws = (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host + '/query';
  function storedHeaders() {
    try {
      var h = JSON.parse(localStorage.getItem('graphiql:headers') || '{}');
      if (typeof h === 'string') h = JSON.parse(h || '{}');
      return h || {};
    } catch (e) {
      return {};
    }
  }
  var fetcher = GraphiQL.createFetcher({
    url: window.location.origin + '/query',
    subscriptionUrl: ws,
    wsConnectionParams: function () {
      var h = storedHeaders();
      var auth = h.Authorization || h.authorization;
      return auth ? { Authorization: auth } : {};
    },
  });
  function start(tabs) {
    var root = ReactDOM.createRoot(document.getElementById('graphiql'));
    root.render(React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultEditorToolsVisibility: true,
      shouldPersistHeaders: true,
      defaultTabs: tabs,
      // GraphiQL 3 seeds the first tab's editors from these, not from
      // defaultTabs[0] (whose variables it would drop).
      query: tabs ? tabs[0].query : undefined,
      variables: tabs ? tabs[0].variables : undefined,
    }));
  }
  fetch('/graphiql/examples.json').then(function (r) { return r.json(); }).then(start, function () { start(undefined); });
})();
