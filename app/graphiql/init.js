// Starts GraphiQL against this server's /query endpoint. Kept out of the
// HTML so that the page runs under a Content-Security-Policy without
// 'unsafe-inline' scripts. A token for owner-only fields goes in the
// Headers tab: {"Authorization": "Bearer <accessToken>"}.
(function () {
  var fetcher = GraphiQL.createFetcher({ url: window.location.origin + '/query' });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultEditorToolsVisibility: true,
    shouldPersistHeaders: false,
  }));
})();
